"""Where a run's documents go, and writing them: the GeoPackage, the JSON and the HTML report."""

from __future__ import annotations

import sys
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import geopandas as gpd
import numpy as np

from sitecheck.io import postgis, vector_source
from sitecheck.io.crs import WorkingCRS
from sitecheck.io.fingerprint import file_sha256
from sitecheck.io.geopackage_aside import GeoPackageAside
from sitecheck.io.output_set import Named, OutputSet, named
from sitecheck.io.progress import Progress
from sitecheck.io.readers import InputRecord
from sitecheck.io.writers import (
    write_geopackage,
    write_json,
    write_json_lines,
    write_table,
)
from sitecheck.measure.inputs import MeasureResult
from sitecheck.pipeline.spec import RunSpec
from sitecheck.pipeline.stages import (
    GEOPACKAGE,
    JSON,
    REPORT,
    THRESHOLDS,
    RunStages,
    check_stages,
    measure_stages,
)
from sitecheck.reports.compact import COMPACT, FULL, layouts_written, line_records
from sitecheck.reports.document import audit_block, check_document, measure_document, run_audit
from sitecheck.rules.pack_model import Pack
from sitecheck.schema.options import DEFAULT_REPORT_DETAILS
from sitecheck.schema.roles import ROLE_BY_KEY
from sitecheck.screening.check import CheckResult
from sitecheck.screening.project_layer import project_layer


@dataclass(frozen=True)
class Destinations:
    """The files a run writes.

    Attributes
    ----------
    out : Path
        GeoPackage with the ``parcels`` and ``flags`` layers and the audit table.
    json : Path or None
        The JSON document.
    report : Path or None
        The self-contained HTML report (runs in one process only).
    all_parcels : bool
        List every parcel in the JSON and the report, not only those with work.
    jsonl : Path or None
        Newline-delimited JSON, a parcel a line.
    json_layout : str
        ``compact`` (each rule described once) or ``full``.
    report_details : int
        At most this many parcels get a detailed section in the HTML report.
    table : Path or None
        The parcel table also as FlatGeobuf (``.fgb``) or GeoParquet (``.parquet``),
        where the GDAL in use has the driver.
    """

    out: Path
    json: Path | None = None
    report: Path | None = None
    all_parcels: bool = False
    jsonl: Path | None = None
    json_layout: str = COMPACT
    report_details: int = DEFAULT_REPORT_DETAILS
    table: Path | None = None

    def written(self) -> list[Path]:
        """The files this run writes, in the order a summary names them."""
        paths = (self.out, self.table, self.json, self.jsonl, self.report)
        return [path for path in paths if path is not None]

    @property
    def layouts(self) -> tuple[str, ...]:
        """The JSON layouts this run builds (the ``--jsonl`` lines come from the compact)."""
        return layouts_written(self.json_layout, self.json is not None, self.jsonl is not None)

    def check_stages(self, runoff: bool) -> RunStages:
        """The stages of a ``check`` writing these outputs, each with its share of the bar."""
        return check_stages(bool(self.json or self.jsonl), self.report is not None, runoff)

    def measure_stages(self) -> RunStages:
        """The stages of a ``measure`` writing these outputs."""
        return measure_stages(bool(self.json or self.jsonl))

    def output_set(self, spec: RunSpec) -> OutputSet:
        """The run's outputs as one set, checked against each other and the run's inputs.

        Entering it refuses, before any work, an ``--out`` not named as a GeoPackage and a
        ``--table`` in no format the GDAL in use writes.
        """
        outputs = [
            named("--out", self.out),
            named("--table", self.table),
            named("--json", self.json),
            named("--jsonl", self.jsonl),
            named("--report", self.report),
        ]
        return OutputSet(outputs, run_inputs(spec), geopackages=("--out",), tables=("--table",))


def run_inputs(spec: RunSpec) -> list[Named | None]:
    """Every file a run reads, with the option that names it."""
    sources = [*spec.inputs.layers(), spec.runoff.soils, spec.jurisdictions]
    files = [named(ROLE_BY_KEY[source.role].flag, source.path) for source in sources if source]
    ordinance = spec.ordinance if spec.ordinance and spec.ordinance.endswith(".toml") else None
    return [
        *files,
        named("--dem", spec.inputs.dem),
        named("--rainfall-file", spec.runoff.rainfall_file),
        named("--soil-table", spec.runoff.soil_table),
        named("--ordinance", ordinance),
    ]


def write_measure_outputs(
    result: MeasureResult,
    destinations: Destinations,
    outputs: OutputSet,
    progress: Progress | None = None,
    stages: RunStages | None = None,
) -> None:
    """The outputs of ``measure``: metrics and flags, and the JSON document when asked."""
    progress = progress or Progress(quiet=True)
    stages = stages or destinations.measure_stages()
    stages.part(progress, GEOPACKAGE).update(0, "writing the GeoPackage")
    audit = audit_block(result)
    # Written here, not aside (write_check_outputs): measure's JSON takes less than the
    # writer's start, and the 30k bench measure took 2.67 s with it here, 3.03 s aside.
    with outputs.writing("--out") as temporary:
        write_geopackage(temporary, {"parcels": result.parcels, "flags": result.flags}, audit)
    if destinations.table:
        with outputs.writing("--table") as temporary:
            write_table(temporary, result.parcels, audit)
    if destinations.json or destinations.jsonl:
        stages.part(progress, JSON).update(0, "writing the JSON document")
        write_documents(
            destinations,
            outputs,
            lambda layout: measure_document(result, destinations.all_parcels, layout=layout),
        )
    outputs.commit()
    progress.update(100, "done")


def write_check_outputs(
    result: CheckResult,
    destinations: Destinations,
    outputs: OutputSet,
    progress: Progress | None = None,
    stages: RunStages | None = None,
) -> None:
    """The outputs of ``check``: parcels with their triggers, flags, JSON and HTML report
    (``stages``: the bar's share of each, as the run's :meth:`Destinations.check_stages`)."""
    progress = progress or Progress(quiet=True)
    stages = stages or destinations.check_stages(runoff=result.runoff is not None)
    measured = result.measured
    stages.part(progress, GEOPACKAGE).update(0, "writing the GeoPackage")
    parcels = result.parcels_with_triggers()
    audit = audit_block(measured, [pack.audit() for pack in result.packs.values()])
    layers = {"parcels": parcels, "flags": measured.flags}
    if result.projects is not None:
        layers["projects"] = project_layer(result, lots_table=parcels)
    with ExitStack() as running:
        geopackage = _start_geopackage(outputs, running, layers, audit, destinations)
        if destinations.table:
            with outputs.writing("--table") as temporary:
                write_table(temporary, parcels, audit)
        del parcels, layers
        _write_documents_and_report(result, destinations, outputs, progress, stages)
        with outputs.writing("--out"):
            geopackage.finish()
    outputs.commit()
    progress.update(100, "done")


def _start_geopackage(
    outputs: OutputSet,
    running: ExitStack,
    layers: dict[str, gpd.GeoDataFrame],
    audit: dict[str, object],
    destinations: Destinations,
) -> GeoPackageAside:
    """The ``--out`` GeoPackage started: written by a process of its own while the run
    writes its JSON and report, when it writes any and the layers are large; else now."""
    beside = bool(destinations.json or destinations.jsonl or destinations.report)
    with outputs.writing("--out") as temporary:
        aside = GeoPackageAside(temporary, layers, audit, None if beside else sys.maxsize)
        return running.enter_context(aside)


def _write_documents_and_report(
    result: CheckResult,
    destinations: Destinations,
    outputs: OutputSet,
    progress: Progress,
    stages: RunStages,
) -> None:
    """The check's nearest thresholds, JSON documents and HTML report."""
    measured = result.measured
    if THRESHOLDS in stages.bounds:  # found once, here, with the bar moving
        with_work = [int(row) for row in np.flatnonzero(measured.touched)]
        part = stages.part(progress, THRESHOLDS)
        if FULL in destinations.layouts:
            result.margins(with_work, part)  # every area's, for the full layout
        else:
            result.nearest(with_work, part)
    if destinations.json or destinations.jsonl:
        stages.part(progress, JSON).update(0, "writing the JSON document")
        # A layout written once is made as it is written; the compact one the JSON and
        # the lines both write is made once and held.
        held = destinations.json_layout if destinations.json else None
        write_documents(
            destinations,
            outputs,
            lambda layout: check_document(
                result,
                destinations.all_parcels,
                layout=layout,
                streamed=not (destinations.jsonl and held == layout),
            ),
        )
    if destinations.report:
        from sitecheck.reports.html import ReportLimits, write_html_report

        limits = ReportLimits(details=destinations.report_details)
        part = stages.part(progress, REPORT)
        with outputs.writing("--report") as temporary:
            write_html_report(result, temporary, destinations.all_parcels, limits, part)


def write_documents(
    destinations: Destinations,
    outputs: OutputSet,
    document: Callable[[str], dict[str, object]],
) -> None:
    """The JSON document in the layout asked and the newline-delimited lines (made from the
    compact layout); ``document(layout)`` makes a layout, each at most once."""
    document = cache(document)
    if destinations.json:
        with outputs.writing("--json") as temporary:
            write_json(temporary, document(destinations.json_layout))
    if destinations.jsonl:
        compact = document(COMPACT)
        with outputs.writing("--jsonl") as temporary:
            write_json_lines(temporary, line_records(compact))


def input_records(spec: RunSpec) -> list[InputRecord]:
    """Every input of a run as the audit lists it, each whole layer counted and hashed once.

    A run in one process records its inputs as it reads them; a distributed run
    reads windows of them, so its driver records the whole layers here.
    """
    sources = spec.inputs.layers()
    for extra in (spec.runoff.soils, spec.jurisdictions):
        if extra is not None:
            sources.append(extra)
    records = []
    for source in sources:
        count = int(vector_source.read_info(source.path, source.layer)["features"])
        records.append(
            InputRecord(
                source.role,
                postgis.shown(source.path),
                source.layer,
                file_sha256(source.path),
                count,
            )
        )
    if spec.inputs.dem:
        records.append(InputRecord("dem", spec.inputs.dem, None, file_sha256(spec.inputs.dem), 0))
    if spec.runoff.rainfall_file:
        path = spec.runoff.rainfall_file
        records.append(InputRecord("rainfall_file", path, None, file_sha256(path), 0))
    return records


def spec_audit(spec: RunSpec, working: WorkingCRS, packs: dict[str, Pack]) -> dict[str, object]:
    """The audit block of a run whose inputs were not read whole in this process."""
    return run_audit(
        working, spec.settings, input_records(spec), [pack.audit() for pack in packs.values()]
    )
