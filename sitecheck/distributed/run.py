"""``sitecheck check --engine dask`` and ``--engine windowed``: the driver of a run in
partitions.

The driver plans the partitions, has them run (:mod:`sitecheck.distributed.runners`: as
tasks on a local Dask cluster or one it connects to by address, or one after another in
this process) and appends each result to the outputs as it arrives. Tasks are pure: a
task lost with its worker is run again by the scheduler, and its result is written
once, when it arrives.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

import pandas as pd

from sitecheck.distributed.plan import ParcelPlan, plan_partitions
from sitecheck.distributed.project_join import named_projects
from sitecheck.distributed.runners import (
    WINDOWED,
    DaskOptions,
    PartitionRunner,
    partition_runner,
)
from sitecheck.distributed.sink import DocumentShape, StreamingOutputs
from sitecheck.distributed.window import PartitionOutput, TaskSpec, spec_for_worker
from sitecheck.io.output_set import OutputSet
from sitecheck.io.progress import Progress
from sitecheck.io.readers import POLYGONAL, LayerReader, LayerRequest, read_layer
from sitecheck.measure.split_notes import unassigned_warning
from sitecheck.pipeline.outputs import Destinations, spec_audit
from sitecheck.pipeline.run import run_packs
from sitecheck.pipeline.settings import settings_under_packs
from sitecheck.pipeline.spec import RunSpec
from sitecheck.reports.compact import FULL, rule_descriptions
from sitecheck.reports.document import document_header, listing
from sitecheck.rules.pack_model import Pack
from sitecheck.screening.runoff_result import (
    FACT_COLUMNS,
    RunoffScreen,
    runoff_metric_names,
    screen_assumptions,
    storm_depths,
)

if TYPE_CHECKING:
    from distributed import Client


@dataclass
class DistributedRun:
    """What a distributed run did."""

    parcel_count: int
    partitions: int
    parcels_written: int
    parcels_with_work: int = 0
    parcels_with_triggers: int = 0
    seconds: float = 0.0
    workers: int = 0
    warnings: list[str] = field(default_factory=list)
    unassigned: list[dict[str, object]] = field(default_factory=list)


def run_check_distributed(
    spec: TaskSpec,
    destinations: Destinations,
    options: DaskOptions,
    progress: Progress | None = None,
    client: Client | None = None,
    on_partition: Callable[[int, Client], None] | None = None,
) -> DistributedRun:
    """Check every parcel a partition at a time (on a Dask cluster, or in this process) and
    write the outputs as results arrive.

    Parameters
    ----------
    spec : TaskSpec
        The run, as a single-process ``check`` would take it, and what its tasks return.
    destinations : Destinations
        The GeoPackage, table and JSON documents to write (no HTML report: a
        report needs every parcel in one process).
    options : DaskOptions
    progress : Progress, optional
    client : distributed.Client, optional
        Use this client instead of starting or connecting to a cluster (Dask only).
    on_partition : callable, optional
        Called with (partitions written, client) after each partition is written.

    Raises
    ------
    InputError
        For any input a user must fix, before any task starts when it can be
        told from the driver.
    """
    if destinations.report is not None:  # the command line refuses it before any work
        raise ValueError("a distributed run writes no HTML report")
    run = replace(spec.run, unlisted_reasons=FULL in destinations.layouts)  # worded where shown
    spec = replace(spec, run=run, json_layouts=destinations.layouts)
    with destinations.output_set(spec.run) as outputs:
        return _run_into(
            spec, outputs, options, progress, _Cluster(client, on_partition), destinations
        )


@dataclass
class _Cluster:
    """The cluster a run uses (one started or connected to when None), and who hears of each
    partition written."""

    client: Client | None = None
    on_partition: Callable[[int, Client], None] | None = None


@dataclass
class _Gathered:
    """What the partitions' outputs add up to, beyond the rows the sink writes."""

    run: DistributedRun
    warnings: dict[str, None]
    facts: list = field(default_factory=list)
    unassigned: dict[tuple[str, int], dict[str, object]] = field(default_factory=dict)
    assigned: set[tuple[str, int]] = field(default_factory=set)
    named_rows: list[pd.DataFrame] = field(default_factory=list)  # named projects' lots
    named_entries: dict[str, list[dict[str, object]]] = field(default_factory=dict)
    project_lots: dict[str, list[str]] = field(default_factory=dict)  # as partitions saw

    def add(self, output: PartitionOutput) -> None:
        if "projects" in output.parcels.columns:
            self.named_rows.append(output.parcels[output.parcels["projects"].notna()])
        # A named project of one lot takes its lot's full entry; compact lists no such.
        self.named_entries.setdefault(FULL, []).extend(
            e for e in output.entries.get(FULL, []) if e.get("project_note")
        )
        for project, lots in output.project_lots.items():
            self.project_lots.setdefault(project, []).extend(lots)
        self.facts.append(output.runoff_facts)
        self.warnings.update(dict.fromkeys(output.warnings))
        self.unassigned.update(
            {(str(r["layer"]), int(str(r["fid"]))): r for r in output.unassigned}
        )
        self.assigned |= output.assigned
        self.run.parcels_with_work += output.parcels_with_work
        self.run.parcels_with_triggers += int((output.parcels["trigger_count"] > 0).sum())


def _run_into(
    spec: TaskSpec,
    outputs: OutputSet,
    options: DaskOptions,
    progress: Progress | None,
    cluster: _Cluster,
    destinations: Destinations,
) -> DistributedRun:
    """:func:`run_check_distributed` with its destinations checked and locked."""
    progress = progress or Progress(quiet=True)
    started = time.perf_counter()
    progress.update(0, "planning partitions")
    choice = spec.packs or run_packs(spec.run)  # chosen once, by the caller or here
    packs = choice.packs
    settings = spec.run.settings
    plan = plan_partitions(
        spec.run.inputs.parcels, options.partition_size, settings.id_field, settings.crs
    )
    run_spec = replace(spec.run, settings=settings_under_packs(settings, choice))  # as a window's
    spec = replace(
        spec, run=run_spec, runoff_columns=_runoff_columns(run_spec, packs), packs=choice
    )
    audit = spec_audit(spec.run, plan.working, packs)
    spec = spec_for_worker(spec, plan.working.crs, plan.layer_crs)
    with ExitStack() as stack:
        runner = stack.enter_context(
            partition_runner(options, cluster.client, cluster.on_partition)
        )
        count = len(plan.partitions)
        where = (
            "in this process" if runner.name == WINDOWED else f"on {runner.workers} Dask worker(s)"
        )
        progress.update(2, f"{count} partitions {where}")
        header = _header(spec, plan, audit, options, runner)
        document = DocumentShape(
            destinations.json_layout, spec.metric_columns, rule_descriptions(packs.values())
        )
        sink = stack.enter_context(StreamingOutputs(outputs, audit, header, document))
        run = DistributedRun(plan.parcel_count, count, 0, workers=runner.workers)
        gathered = _Gathered(run, dict.fromkeys(plan.warnings))
        for done, output in enumerate(runner.outputs(plan.partitions, spec), start=1):
            sink.add(output)
            gathered.add(output)
            progress.update(2 + 97 * done / count, f"partition {done} of {count} written")
        run.parcels_written = sink.parcels_written
        _account_for_every_parcel(spec, plan, gathered)
        trailer_projects: dict[str, list[dict[str, object]]] = {}
        named = named_projects(
            spec,
            plan.working.crs,
            pd.concat(gathered.named_rows, ignore_index=True)
            if gathered.named_rows
            else pd.DataFrame(),
            gathered.named_entries,
            gathered.project_lots,
        )
        if named is not None:
            progress.update(99, f"{len(named[0])} named project(s) checked on their sites")
            sink.add_layer("projects", named[0])
            trailer_projects = named[1]
        run.seconds = time.perf_counter() - started
        run.warnings = list(gathered.warnings)
        sink.finish(_trailer(spec, packs, gathered.facts, run), trailer_projects)
    progress.update(100, "done")
    return run


def _account_for_every_parcel(spec: TaskSpec, plan: ParcelPlan, gathered: _Gathered) -> None:
    """Say which parcels were not screened and which work no lot took; a run that wrote a
    parcel twice is a bug, not a warning."""
    run, warnings = gathered.run, gathered.warnings
    if run.parcels_written > plan.parcel_count:
        raise RuntimeError(
            f"distributed run wrote {run.parcels_written} parcels of {plan.parcel_count}"
        )
    if run.parcels_written < plan.parcel_count:
        warnings[
            f"{spec.run.inputs.parcels.label()}: {plan.parcel_count - run.parcels_written} "
            "parcel(s) without a usable geometry after repair were not screened"
        ] = None
    unassigned, assigned = gathered.unassigned, gathered.assigned
    _add_work_no_window_saw(spec.run, plan, unassigned, assigned)
    run.unassigned = [r for key, r in sorted(unassigned.items()) if key not in assigned]
    if run.unassigned:
        warnings[unassigned_warning(spec.run.inputs.disturbance, run.unassigned)] = None


def _runoff_columns(run: RunSpec, packs: dict[str, Pack]) -> tuple[str, ...]:
    """Every partition writes the same runoff columns: those of every storm of the run."""
    if not run.runoff.requested:
        return ()
    storms = sorted(
        {years for pack in packs.values() for years in storm_depths(pack, run.runoff).depths_in}
    )
    names = [
        f"{kind}_{years}yr" for years in storms for kind in ("runoff_pre_cuft", "peak_pre_cfs")
    ]
    return tuple(runoff_metric_names(names))


def _header(
    spec: TaskSpec, plan: ParcelPlan, audit: dict, options: DaskOptions, runner: PartitionRunner
) -> dict[str, object]:
    return {
        **document_header(audit, plan.working, plan.id_field),
        **listing(plan.parcel_count, spec.all_parcels),
        "packs": audit["packs"],
        "tolerance": spec.run.tolerance,
        "engine": {
            "name": runner.name,
            "scheduler": runner.scheduler,
            "workers": runner.workers,
            "partitions": len(plan.partitions),
            "partition_size": options.partition_size,
            "order": runner.order,
        },
    }


def _add_work_no_window_saw(
    run: RunSpec,
    plan: ParcelPlan,
    unassigned: dict[tuple[str, int], dict[str, object]],
    assigned: set[tuple[str, int]],
) -> None:
    """Disturbance features far from every partition's lots: unassigned, as in one process."""
    source = run.inputs.disturbance
    frame = read_layer(LayerRequest(source, POLYGONAL, plan.working.crs), LayerReader())
    sqft = plan.working.sqft_per_unit2
    for fid, geom in zip(frame["_fid"], frame.geometry, strict=True):
        key = (source.role, int(fid))
        if key not in assigned and key not in unassigned:
            area = round(float(geom.area) * sqft, 1)
            unassigned[key] = {"layer": source.role, "fid": int(fid), "area_sqft": area}


def _trailer(
    spec: TaskSpec, packs: dict[str, Pack], facts: list[pd.DataFrame], run: DistributedRun
) -> dict[str, object]:
    trailer: dict[str, object] = {
        "warnings": run.warnings,
        "unassigned_work": run.unassigned,
        "timings_s": {"distributed": round(run.seconds, 3)},
    }
    runoff = spec.run.runoff
    if runoff.requested:
        joined = pd.concat(facts) if facts else pd.DataFrame(columns=list(FACT_COLUMNS))
        used = [pack_id for pack_id in packs if (joined["pack"] == pack_id).any()]
        storms = {pack_id: storm_depths(packs[pack_id], runoff) for pack_id in used}
        screen = RunoffScreen(
            pd.DataFrame(),
            storms,
            screen_assumptions(joined, storms, packs, runoff),
            runoff,
            joined,
        )
        trailer["runoff"] = screen.to_json()
    else:
        trailer["runoff"] = None
    return trailer
