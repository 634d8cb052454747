"""``sitecheck check --engine dask``: the driver of a distributed run.

The driver plans the partitions, starts a local Dask cluster (or connects to
one by address), submits one task per partition and appends each result to the
outputs as it arrives. Tasks are pure: a task lost with its worker is run
again by the scheduler, and its result is written once, when it arrives.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING

import pandas as pd
import pyogrio

from sitecheck import __version__
from sitecheck.check import jurisdiction_packs
from sitecheck.errors import InputError
from sitecheck.parcels import find_field
from sitecheck.progress import Progress
from sitecheck.readers import InputRecord, file_sha256, layer_fields
from sitecheck.rules.pack import Pack, load_pack
from sitecheck.runoff_screen import (
    FACT_COLUMNS,
    RunoffScreen,
    runoff_metric_names,
    screen_assumptions,
    storm_depths,
)
from sitecheck.scale.defaults import DEFAULT_PARTITION_SIZE
from sitecheck.scale.plan import ParcelPlan, plan_partitions
from sitecheck.scale.sink import StreamingOutputs
from sitecheck.scale.window import PartitionOutput, RunSpec, screen_partition, spec_for_worker

if TYPE_CHECKING:
    from distributed import Client


@dataclass(frozen=True)
class DaskOptions:
    """Where and how the partitions run.

    Attributes
    ----------
    scheduler : str, optional
        Address of a running Dask scheduler (``tcp://host:8786``); without it a
        local cluster is started for the run.
    workers : int, optional
        Worker processes of the local cluster (default: the machine's cores).
    threads_per_worker : int
        Geometry threads in each worker.
    partition_size : int
        About how many parcels each task screens.
    memory_limit : str
        Memory per local worker (Dask's ``memory_limit``, e.g. ``"2GB"``, or ``"auto"``).
    """

    scheduler: str | None = None
    workers: int | None = None
    threads_per_worker: int = 1
    partition_size: int = DEFAULT_PARTITION_SIZE
    memory_limit: str = "auto"


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


def run_check_distributed(
    spec: RunSpec,
    out: Path,
    json_path: Path | None,
    options: DaskOptions,
    progress: Progress | None = None,
    client: Client | None = None,
    on_partition: Callable[[int, Client], None] | None = None,
) -> DistributedRun:
    """Check every parcel on a Dask cluster and write the outputs as results arrive.

    Parameters
    ----------
    spec : RunSpec
        The run, as a single-process ``check`` would take it.
    out, json_path : Path
        The GeoPackage and (optionally) the JSON document to write.
    options : DaskOptions
    progress : Progress, optional
    client : distributed.Client, optional
        Use this client instead of starting or connecting to a cluster.
    on_partition : callable, optional
        Called with (partitions written, client) after each partition is written.

    Raises
    ------
    InputError
        For any input a user must fix, before any task starts when it can be
        told from the driver.
    """
    from distributed import as_completed

    progress = progress or Progress(quiet=True)
    started = time.perf_counter()
    progress.update(0, "planning partitions")
    packs = _run_packs(spec)
    plan = plan_partitions(
        spec.inputs.parcels, options.partition_size, spec.settings.id_field, spec.settings.crs
    )
    spec = replace(
        spec, runoff_columns=_runoff_columns(spec, packs), json_entries=json_path is not None
    )
    audit = _audit(spec, plan, packs)
    spec = spec_for_worker(spec, plan.working.crs, plan.layer_crs)
    with ExitStack() as stack:
        if client is None:
            client = stack.enter_context(_client(options))
        workers = len(client.scheduler_info()["workers"])
        progress.update(2, f"{len(plan.partitions)} partitions on {workers} Dask worker(s)")
        sink = stack.enter_context(
            StreamingOutputs(out, json_path, audit, _header(spec, plan, audit, options, workers))
        )
        futures = client.map(screen_partition, plan.partitions, spec=spec, pure=False, retries=1)
        run = DistributedRun(plan.parcel_count, len(plan.partitions), 0, workers=workers)
        facts = []
        warnings: dict[str, None] = {}
        for done, future in enumerate(as_completed(futures), start=1):
            output: PartitionOutput = future.result()
            sink.add(output)
            facts.append(output.runoff_facts)
            warnings.update(dict.fromkeys(output.warnings))
            run.parcels_with_work += output.parcels_with_work
            run.parcels_with_triggers += int((output.parcels["trigger_count"] > 0).sum())
            future.release()
            progress.update(
                2 + 97 * done / len(futures), f"partition {done} of {len(futures)} written"
            )
            if on_partition is not None:
                on_partition(done, client)
        run.parcels_written = sink.parcels_written
        if run.parcels_written > plan.parcel_count:
            raise RuntimeError(
                f"distributed run wrote {run.parcels_written} parcels of {plan.parcel_count}"
            )
        if run.parcels_written < plan.parcel_count:
            warnings[
                f"{spec.inputs.parcels.label()}: {plan.parcel_count - run.parcels_written} "
                "parcel(s) without a usable geometry after repair were not screened"
            ] = None
        run.seconds = time.perf_counter() - started
        run.warnings = list(warnings)
        sink.finish(_trailer(spec, packs, facts, run))
    progress.update(100, "done")
    return run


def _client(options: DaskOptions):
    """A client of the given scheduler, or of a local cluster that ends with the run."""
    from distributed import Client, LocalCluster

    if options.scheduler:
        try:
            return Client(options.scheduler, timeout="30s")
        except OSError as error:
            raise InputError(f"--scheduler: cannot reach {options.scheduler}: {error}") from error
    workers = options.workers or os.cpu_count() or 1
    cluster = LocalCluster(
        n_workers=workers,
        threads_per_worker=1,
        processes=True,
        memory_limit=options.memory_limit,
        dashboard_address=None,
        silence_logs=40,
    )
    return _ClosingClient(Client(cluster), cluster)


class _ClosingClient:
    """Context manager that closes the client and its local cluster."""

    def __init__(self, client, cluster) -> None:
        self.client, self.cluster = client, cluster

    def __enter__(self):
        return self.client

    def __exit__(self, *_) -> None:
        self.client.close()
        self.cluster.close()


def _run_packs(spec: RunSpec) -> dict[str, Pack]:
    """The packs the run may apply, loaded (and checked) before any task starts."""
    if spec.jurisdictions is None:
        if spec.ordinance is None:
            raise InputError(
                "give --ordinance larchmont|homer|scarsdale|PACK.toml, or --jurisdictions"
            )
        pack = load_pack(spec.ordinance)
        return {pack.id: pack}
    if not spec.jurisdiction_field:
        raise InputError("--jurisdictions needs --jurisdiction-field NAME")
    source = spec.jurisdictions
    found = find_field(layer_fields(source), [spec.jurisdiction_field])
    if found is None:
        raise InputError(
            f"{source.label()}: no field '{spec.jurisdiction_field}'; "
            f"fields are: {', '.join(layer_fields(source))}"
        )
    values = pyogrio.read_dataframe(
        source.path, layer=source.layer, columns=[found], read_geometry=False
    )[found]
    by_value = jurisdiction_packs(values.astype("string").fillna(""), spec.ordinance, source, found)
    return {pack.id: pack for pack in by_value.values()}


def _runoff_columns(spec: RunSpec, packs: dict[str, Pack]) -> tuple[str, ...]:
    """Every partition writes the same runoff columns: those of every storm of the run."""
    if not spec.runoff.requested:
        return ()
    storms = sorted(
        {
            years
            for pack in packs.values()
            for years in storm_depths(pack, spec.runoff.rainfall).depths_in
        }
    )
    names = [
        f"{kind}_{years}yr" for years in storms for kind in ("runoff_pre_cuft", "peak_pre_cfs")
    ]
    return tuple(runoff_metric_names(names))


def _records(spec: RunSpec) -> list[InputRecord]:
    """The audit records of every input: whole layers, as a single-process run lists them."""
    sources = spec.inputs.layers()
    for extra in (spec.runoff.soils, spec.jurisdictions):
        if extra is not None:
            sources.append(extra)
    records = []
    for source in sources:
        count = int(pyogrio.read_info(source.path, layer=source.layer)["features"])
        records.append(
            InputRecord(source.role, source.path, source.layer, file_sha256(source.path), count)
        )
    if spec.inputs.dem:
        records.append(InputRecord("dem", spec.inputs.dem, None, file_sha256(spec.inputs.dem), 0))
    return records


def _audit(spec: RunSpec, plan: ParcelPlan, packs: dict[str, Pack]) -> dict[str, object]:
    return {
        "sitecheck_version": __version__,
        "generated": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "crs": plan.working.to_json(),
        "settings": spec.settings.to_json(),
        "inputs": [record.to_json() for record in _records(spec)],
        "packs": [pack.audit() for pack in packs.values()],
    }


def _header(
    spec: RunSpec, plan: ParcelPlan, audit: dict, options: DaskOptions, workers: int
) -> dict[str, object]:
    return {
        "sitecheck_version": audit["sitecheck_version"],
        "generated": audit["generated"],
        "crs": audit["crs"],
        "units": {"area": plan.working.area_unit, "length": "ft", "acre": "43,560 sq ft"},
        "id_field": plan.id_field,
        "settings": audit["settings"],
        "inputs": audit["inputs"],
        "parcel_count": plan.parcel_count,
        "listed": "all parcels"
        if spec.all_parcels
        else "parcels with disturbance or impervious change",
        "packs": audit["packs"],
        "tolerance": spec.tolerance,
        "engine": {
            "name": "dask",
            "scheduler": options.scheduler or "local cluster",
            "workers": workers,
            "partitions": len(plan.partitions),
            "partition_size": options.partition_size,
            "order": "parcels are listed as their partitions finish",
        },
    }


def _trailer(
    spec: RunSpec, packs: dict[str, Pack], facts: list[pd.DataFrame], run: DistributedRun
) -> dict[str, object]:
    trailer: dict[str, object] = {
        "warnings": run.warnings,
        "timings_s": {"distributed": round(run.seconds, 3)},
    }
    if spec.runoff.requested:
        joined = pd.concat(facts) if facts else pd.DataFrame(columns=list(FACT_COLUMNS))
        used = [pack_id for pack_id in packs if (joined["pack"] == pack_id).any()]
        storms = {pack_id: storm_depths(packs[pack_id], spec.runoff.rainfall) for pack_id in used}
        screen = RunoffScreen(
            pd.DataFrame(),
            storms,
            screen_assumptions(joined, storms, packs, spec.runoff),
            spec.runoff,
            joined,
        )
        trailer["runoff"] = screen.to_json()
    else:
        trailer["runoff"] = None
    return trailer
