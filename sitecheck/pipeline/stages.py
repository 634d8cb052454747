"""How much of the progress bar each stage of a run takes, from measured stage times.

QGIS moves its bar by the ``[ 42%] stage`` lines the engine prints. A bar whose
stages are given equal or guessed shares stands still through the slow ones (it
stood at 80 to 90% for two thirds of a 30,000-parcel check). Each stage here takes
the share of the bar that it took of the time of a measured run, counting only the
stages a run has (a check without a report spreads the report's share over the
rest), and the long stages also move the bar as they go.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from sitecheck.io.progress import Progress

MEASURING, EVALUATING, RUNOFF, PROJECTS = "measuring", "evaluating", "runoff", "projects"
GEOPACKAGE, THRESHOLDS, JSON, REPORT = "geopackage", "thresholds", "json", "report"

STAGE_SECONDS: Mapping[str, float] = {
    MEASURING: 3.9,
    EVALUATING: 2.9,
    RUNOFF: 0.9,
    PROJECTS: 1.0,
    GEOPACKAGE: 1.0,
    THRESHOLDS: 1.3,
    JSON: 1.3,
    REPORT: 5.2,
}
"""Seconds of each stage in ``sitecheck check`` on the 30,016-parcel bench village (4,513
parcels with work, Scarsdale, every layer, soils and the DEM, 2 cores, 17.5 s of stages):
measuring every parcel, evaluating the pack, screening runoff, checking projects on
their sites, writing the GeoPackage, finding each parcel's nearest threshold (for the
JSON), writing the JSON and the HTML report. From ``make bench``'s run of that village
(``bench/results/measure_30000.json``, ``check.progress_stages``)."""


@dataclass(frozen=True)
class RunStages:
    """The part of the bar each stage of one run takes.

    Attributes
    ----------
    bounds : dict
        Stage name to (start, end) percent; stages follow one another, 0 to 100.
    """

    bounds: Mapping[str, tuple[float, float]]

    @classmethod
    def of(cls, stages: Iterable[str]) -> RunStages:
        """The stages a run has, in order, each given its measured share of the bar."""
        names = list(stages)
        total = sum(STAGE_SECONDS[name] for name in names)
        bounds: dict[str, tuple[float, float]] = {}
        start = 0.0
        for name in names:
            end = start + 100.0 * STAGE_SECONDS[name] / total
            bounds[name] = (start, end)
            start = end
        return cls(bounds)

    def part(self, progress: Progress, stage: str) -> Progress:
        """``progress`` for one stage: the stage's 0 to 100 move the bar across its share."""
        low, high = self.bounds[stage]
        return progress.within(low, high)


def check_stages(json: bool, report: bool, runoff: bool = False) -> RunStages:
    """The stages of a ``check`` writing a GeoPackage and, when asked, screening runoff and
    writing the JSON and the report."""
    stages = [MEASURING, EVALUATING, *([RUNOFF] if runoff else []), PROJECTS, GEOPACKAGE]
    if json:  # the report finds its few parcels' thresholds as it draws them
        stages.append(THRESHOLDS)
    if json:
        stages.append(JSON)
    if report:
        stages.append(REPORT)
    return RunStages.of(stages)


def measure_stages(json: bool) -> RunStages:
    """The stages of a ``measure``: measuring, the GeoPackage and, when asked, the JSON."""
    return RunStages.of([MEASURING, GEOPACKAGE, *([JSON] if json else [])])
