"""Run a screening: choose the packs, measure, check, screen runoff."""

from __future__ import annotations

from sitecheck.io.progress import Progress
from sitecheck.io.readers import LayerReader
from sitecheck.measure.driver import measure
from sitecheck.measure.inputs import MeasureResult
from sitecheck.pipeline.projects import screen_projects
from sitecheck.pipeline.spec import RunSpec
from sitecheck.screening.check import CheckResult, check_parcels
from sitecheck.screening.packs import PackChoice, choose_packs
from sitecheck.screening.runoff_screen import screen_runoff


def run_packs(spec: RunSpec) -> PackChoice:
    """The packs of a run, loaded and checked before any measuring."""
    return choose_packs(spec.ordinance, spec.jurisdictions, spec.jurisdiction_field)


MEASURED_PCT = 70.0
"""Where measuring ends on a check's bar; evaluating, projects and writing take the rest."""


def measure_only(spec: RunSpec, progress: Progress | None = None) -> MeasureResult:
    """The ``measure`` command's run: every parcel measured, no pack applied (writing its
    outputs is the bar's last 10%)."""
    progress = progress or Progress(quiet=True)
    return measure(spec.inputs, spec.settings, progress.within(0, 90))


def screen(
    spec: RunSpec,
    progress: Progress | None = None,
    reader: LayerReader | None = None,
    packs: PackChoice | None = None,
    projects: bool = True,
    project_sites: bool = True,
) -> CheckResult:
    """Measure every parcel of a run and evaluate its packs (and runoff, when asked).

    Parameters
    ----------
    spec : RunSpec
    progress : Progress, optional
    reader : LayerReader, optional
        Where layers come from: files by default, a window of them for a Dask
        task, memory and the user's edits for the panel's worker.
    packs : PackChoice, optional
        Packs already chosen (a Dask driver chooses them once for every task).
    projects : bool
        Also group the work by its ``project`` field.
    project_sites : bool
        And check each project of several lots on its site (a Dask window
        leaves that to its driver, which sees every lot).

    Raises
    ------
    InputError
        For any input a user must fix; a bad pack before any measuring.
    """
    packs = packs or run_packs(spec)
    progress = progress or Progress(quiet=True)
    measured = measure(spec.inputs, spec.settings, progress.within(0, MEASURED_PCT), reader)
    progress.update(MEASURED_PCT + 2, "evaluating the rule packs")
    result = check_measured(measured, spec, packs)
    if projects:
        progress.update(MEASURED_PCT + 8, "checking projects on their sites")
        result.projects = screen_projects(
            result, spec.inputs, packs, spec.tolerance, reader, check_sites=project_sites
        )
    return result


def check_measured(
    measured: MeasureResult, spec: RunSpec, packs: PackChoice | None = None
) -> CheckResult:
    """Evaluate the packs of a run on parcels already measured, then screen runoff."""
    result = check_parcels(measured, packs or run_packs(spec), spec.tolerance)
    if spec.runoff.requested:
        result.runoff = screen_runoff(result, spec.runoff)
    return result
