"""Run a screening: choose the packs, measure, check, screen runoff."""

from __future__ import annotations

from sitecheck.io.progress import Progress
from sitecheck.io.readers import LayerReader
from sitecheck.measure.driver import measure
from sitecheck.measure.inputs import MeasureResult
from sitecheck.pipeline.settings import settings_under_packs
from sitecheck.pipeline.site_checks import screen_projects
from sitecheck.pipeline.spec import RunSpec
from sitecheck.pipeline.stages import (
    EVALUATING,
    MEASURING,
    PROJECTS,
    RUNOFF,
    RunStages,
    check_stages,
    measure_stages,
)
from sitecheck.screening.check import CheckResult, check_parcels
from sitecheck.screening.packs import PackChoice, choose_packs
from sitecheck.screening.runoff_screen import screen_runoff


def run_packs(spec: RunSpec) -> PackChoice:
    """The packs of a run, loaded and checked before any measuring."""
    return choose_packs(spec.ordinance, spec.jurisdictions, spec.jurisdiction_field)


def measure_only(
    spec: RunSpec, progress: Progress | None = None, stages: RunStages | None = None
) -> MeasureResult:
    """The ``measure`` command's run: every parcel measured, no pack applied (``stages``:
    the bar's share of measuring, writing the outputs taking the rest)."""
    progress = progress or Progress(quiet=True)
    stages = stages or measure_stages(json=False)
    return measure(spec.inputs, spec.settings, stages.part(progress, MEASURING))


def screen(
    spec: RunSpec,
    progress: Progress | None = None,
    reader: LayerReader | None = None,
    packs: PackChoice | None = None,
    project_sites: bool = True,
    stages: RunStages | None = None,
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
    project_sites : bool
        Check each project of several lots on its site (a Dask window leaves
        that to its driver, which sees every lot); the work is grouped by its
        ``project`` field either way.
    stages : RunStages, optional
        The share of the bar of each stage of the run (by default those of a check
        writing only its GeoPackage).

    Raises
    ------
    InputError
        For any input a user must fix; a bad pack before any measuring.
    """
    packs = packs or run_packs(spec)
    progress = progress or Progress(quiet=True)
    stages = stages or check_stages(json=False, report=False, runoff=spec.runoff.requested)
    part = stages.part(progress, MEASURING)
    measured = measure(spec.inputs, settings_under_packs(spec.settings, packs), part, reader)
    result = check_parcels(
        measured,
        packs,
        spec.tolerance,
        stages.part(progress, EVALUATING),
        unlisted_reasons=spec.unlisted_reasons,
        worded_ids=spec.worded_parcels,
    )
    if spec.runoff.requested:
        stages.part(progress, RUNOFF).update(0, "screening runoff")
        result.runoff = screen_runoff(result, spec.runoff)
    stages.part(progress, PROJECTS).update(0, "checking projects on their sites")
    result.projects = screen_projects(
        result,
        spec.inputs,
        packs,
        spec.tolerance,
        reader,
        check_sites=project_sites,
        word_sites=spec.worded_parcels is None,
    )
    return result
