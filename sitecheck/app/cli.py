"""The ``sitecheck`` command line.

Exit codes: 0 on success, 2 on bad input (one-line message on stderr), 1 on an
unexpected failure.
"""

from __future__ import annotations

import argparse
import sys
import traceback
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from sitecheck import __version__
from sitecheck.constraints.adjoining import AdjoiningSettings
from sitecheck.distributed.defaults import DEFAULT_PARTITION_SIZE
from sitecheck.errors import InputError
from sitecheck.geometry.parallel import set_workers
from sitecheck.io.progress import Progress
from sitecheck.io.readers import LayerSource
from sitecheck.measure.driver import MeasureInputs, MeasureResult, MeasureSettings, measure
from sitecheck.pipeline.outputs import Destinations, write_check_outputs, write_measure_outputs
from sitecheck.pipeline.run import screen
from sitecheck.pipeline.spec import RunSpec
from sitecheck.rules.outcome import NEEDS_REVIEW, TRIGGERED
from sitecheck.rules.pack import load_pack
from sitecheck.runoff import RunoffSettings, curve_number_table
from sitecheck.runoff.soils import DUAL_HSG, HSG
from sitecheck.runoff.water_quality import DEFAULT_WQV_RAINFALL_IN
from sitecheck.screening.check import DEFAULT_TOLERANCE, CheckResult
from sitecheck.screening.runoff_result import RunoffOptions
from sitecheck.terrain.slope import SlopeSettings

if TYPE_CHECKING:
    from sitecheck.distributed.window import TaskSpec

LAYER_OPTIONS: tuple[tuple[str, str, str], ...] = (
    ("impervious_existing", "--impervious-existing", "existing impervious cover (polygons)"),
    (
        "impervious_proposed",
        "--impervious-proposed",
        "complete post-construction impervious cover of the project lots (polygons)",
    ),
    ("floodplain", "--floodplain", "FEMA NFHL flood hazard areas (FLD_ZONE, ZONE_SUBTY, SFHA_TF)"),
    ("wetlands", "--wetlands", "wetlands (polygons)"),
    ("watercourses", "--watercourses", "watercourses (lines or polygons)"),
    ("sda", "--sda", "sensitive drainage areas (polygons)"),
    ("zoning", "--zoning", "zoning districts (polygons with a district code field)"),
    (
        "impaired_watersheds",
        "--impaired-watersheds",
        "303(d)/TMDL impaired-waters watersheds (polygons)",
    ),
    (
        "adjoining_buffer",
        "--adjoining-buffer",
        "a drawn adjoining property buffer, instead of deriving it from the parcels",
    ),
)

HSG_CHOICES: tuple[str, ...] = (*HSG, *DUAL_HSG)
PERVIOUS_COVERS: tuple[str, ...] = tuple(
    name for name in curve_number_table() if name != "impervious"
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="sitecheck",
        description="Screen site plans against village stormwater ordinances.",
    )
    parser.add_argument("--version", action="version", version=f"sitecheck {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    measure_parser = commands.add_parser(
        "measure",
        help="measure disturbance, impervious change and constraint overlays per parcel",
        description=(
            "Measure every parcel. Areas are square feet in a projected CRS (see the output's crs)."
        ),
    )
    add_measure_arguments(measure_parser)

    check_parser = commands.add_parser(
        "check",
        help="measure, then list every ordinance trigger per parcel with its section",
        description=(
            "Measure every parcel and evaluate an ordinance rule pack on the parcels with work."
        ),
    )
    add_measure_arguments(check_parser)
    add_check_arguments(check_parser)

    rules_parser = commands.add_parser("rules", help="print a rule pack's rules as a table")
    rules_parser.add_argument(
        "--ordinance", required=True, help="larchmont, homer, scarsdale or PACK.toml"
    )

    notify = commands.add_parser(
        "notify",
        help="owners to notify of a Planning Board hearing (Scarsdale § 254-10.1)",
        description=(
            "Parcels within 200 ft of any point on the boundary of the lot(s), or of the activity "
            "for properties over 15 acres (Scarsdale § 254-10.1)."
        ),
    )
    notify.add_argument("--parcels", required=True, help="parcels (polygons)")
    notify.add_argument(
        "--lot",
        required=True,
        action="append",
        help="id of a lot in the application (repeat for several)",
    )
    notify.add_argument("--disturbance", help="the activity (needed for lots over 15 acres)")
    notify.add_argument(
        "--from",
        dest="measure_from",
        default="auto",
        choices=("auto", "lot", "activity"),
        help="measure from the lot boundary or the activity (default: by lot size)",
    )
    notify.add_argument(
        "--distance-ft", type=float, default=200.0, help="notice distance (default 200)"
    )
    notify.add_argument("--id-field", help="parcel id field")
    notify.add_argument(
        "--out", required=True, type=Path, help="GeoPackage with the layer 'notification'"
    )
    notify.add_argument("--csv", type=Path, help="the list as CSV (id, owner, address, distance)")

    buffers = commands.add_parser(
        "adjoining-buffer",
        help="derive the adjoining property buffer from a parcel layer (Scarsdale § 254-4)",
    )
    buffers.add_argument("--parcels", required=True, help="parcels (polygons)")
    buffers.add_argument(
        "--zoning", help="zoning districts (polygons); else a parcel district field"
    )
    buffers.add_argument(
        "--zoning-field", help="district code field (default: district, ZONE, ZONING)"
    )
    buffers.add_argument("--id-field", help="parcel id field")
    buffers.add_argument(
        "--rear-setback-ft", type=float, default=30.0, help="rear setback (default 30)"
    )
    buffers.add_argument(
        "--side-setbacks", default="", help='side setbacks per district, "A-1=20,A-2=15"'
    )
    buffers.add_argument(
        "--default-side-setback-ft",
        type=float,
        default=30.0,
        help="side setback of districts not listed (default 30)",
    )
    buffers.add_argument(
        "--out", required=True, type=Path, help="GeoPackage with the layer 'adjoining_buffer'"
    )

    slopes = commands.add_parser(
        "steep-slopes", help="slope classes of a DEM, as polygons or a raster"
    )
    slopes.add_argument("--dem", required=True, help="DEM raster")
    slopes.add_argument(
        "--slope-thresholds", default="15,25", help="two thresholds in percent (default 15,25)"
    )
    slopes.add_argument("--dem-z-units", choices=("ft", "us-ft", "m"), help="elevation units")
    slopes.add_argument(
        "--out",
        required=True,
        type=Path,
        help="a .gpkg (polygons, layer 'steep_slopes') or a .tif (class raster)",
    )

    commands.add_parser(
        "serve",
        help="a persistent worker answering JSON requests on stdin (the dock panel's engine)",
    )

    validate_parser = commands.add_parser("validate", help="check a rule pack file")
    validate_parser.add_argument("pack", help="PACK.toml")

    sample = commands.add_parser(
        "sample-village", help="generate the sample village (deterministic)"
    )
    sample.add_argument("outdir", type=Path, help="folder to write village.gpkg and dem.tif into")
    sample.add_argument(
        "--parcels", type=int, default=300, help="about how many lots (default 300)"
    )
    sample.add_argument("--seed", type=int, default=2260, help="random seed (default 2260)")
    sample.add_argument(
        "--exact",
        action="store_true",
        help="exactly --parcels lots: the last block is cut short (default: whole blocks)",
    )
    return parser


def add_measure_arguments(parser: argparse.ArgumentParser) -> None:
    """Options shared by ``measure`` and the commands built on it."""
    layers = parser.add_argument_group("layers (path or path:layer, any OGR format)")
    layers.add_argument("--parcels", required=True, help="parcels (polygons)")
    layers.add_argument("--disturbance", required=True, help="limits of disturbance (polygons)")
    for _, flag, text in LAYER_OPTIONS:
        layers.add_argument(flag, help=text)
    layers.add_argument("--dem", help="DEM raster (any GDAL format)")

    options = parser.add_argument_group("options")
    options.add_argument(
        "--id-field", help="parcel id field (default: parcel_id, SBL, PRINT_KEY, else FID)"
    )
    options.add_argument(
        "--zoning-field", help="district code field (default: district, ZONE, ZONING)"
    )
    options.add_argument(
        "--wetland-adjacent-ft",
        type=float,
        default=100.0,
        help="regulated adjacent area around wetlands, feet (default 100)",
    )
    options.add_argument(
        "--watercourse-buffer-ft",
        type=float,
        default=100.0,
        help="buffer around watercourses, feet (default 100)",
    )
    options.add_argument(
        "--slope-thresholds",
        default="15,25",
        help="two slope thresholds in percent (default 15,25)",
    )
    options.add_argument(
        "--dem-z-units",
        choices=("ft", "us-ft", "m"),
        help="DEM elevation units (default: the DEM's horizontal units)",
    )
    options.add_argument(
        "--rear-setback-ft",
        type=float,
        default=30.0,
        help="rear setback of the adjoining property buffer (default 30, § 254-4)",
    )
    options.add_argument(
        "--side-setbacks",
        default="",
        help='side setbacks per district, e.g. "AA-1=30,A-1=20" (feet)',
    )
    options.add_argument(
        "--default-side-setback-ft",
        type=float,
        default=30.0,
        help="side setback for districts not listed (default 30: errs toward flagging)",
    )
    options.add_argument("--crs", help="projected CRS to measure in (default: the parcel layer's)")

    out = parser.add_argument_group("outputs")
    out.add_argument(
        "--out", required=True, type=Path, help="GeoPackage to write (parcels and flags layers)"
    )
    out.add_argument("--json", type=Path, help="JSON report to write")
    out.add_argument(
        "--all-parcels",
        action="store_true",
        help="list every parcel in the JSON, not only those with disturbance or impervious change",
    )
    out.add_argument("--quiet", action="store_true", help="no progress on stderr")
    out.add_argument(
        "--threads",
        type=int,
        help="threads for geometry work (default: every core; env SITECHECK_THREADS)",
    )


def add_check_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of ``check`` beyond those of ``measure``."""
    rules = parser.add_argument_group("ordinance")
    rules.add_argument("--ordinance", help="larchmont, homer, scarsdale, or a PACK.toml file")
    rules.add_argument(
        "--tolerance",
        type=float,
        default=DEFAULT_TOLERANCE,
        help="share of a threshold within which a measured value needs review (default 0.02)",
    )
    rules.add_argument(
        "--jurisdictions", help="polygons naming each area's pack (county-wide runs)"
    )
    rules.add_argument(
        "--jurisdiction-field", help="field of --jurisdictions holding the pack id or village name"
    )
    rules.add_argument("--report", type=Path, help="self-contained HTML report")
    add_runoff_arguments(parser)
    add_engine_arguments(parser)


def add_engine_arguments(parser: argparse.ArgumentParser) -> None:
    """Where ``check`` runs: this process, or a Dask cluster."""
    engine = parser.add_argument_group("engine (docs/scaling.md)")
    engine.add_argument(
        "--engine",
        choices=("single", "dask"),
        default="single",
        help="single: this process (default); dask: partitions on a Dask cluster",
    )
    engine.add_argument(
        "--scheduler", help="Dask scheduler address (tcp://host:8786); default a local cluster"
    )
    engine.add_argument(
        "--workers", type=int, help="worker processes of the local cluster (default: cores)"
    )
    engine.add_argument(
        "--partition-size",
        type=int,
        default=DEFAULT_PARTITION_SIZE,
        help=f"parcels per Dask task (default {DEFAULT_PARTITION_SIZE:,})",
    )
    engine.add_argument(
        "--worker-memory",
        default="auto",
        help='memory limit of each local worker, e.g. "1.5GB" (default: shared equally)',
    )


def add_runoff_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of the runoff screen; it runs when --soils or --default-hsg is given."""
    runoff = parser.add_argument_group(
        "runoff screen (TR-55 curve numbers; runs with --soils or --default-hsg)"
    )
    runoff.add_argument("--soils", help="soil survey polygons with a hydrologic soil group field")
    runoff.add_argument(
        "--soil-field", help="soil group field of --soils (default: hydgrp, hydgrpdcd, HSG)"
    )
    runoff.add_argument(
        "--default-hsg",
        type=str.upper,
        choices=HSG_CHOICES,
        help="soil group of lots (or parts of lots) --soils does not map",
    )
    runoff.add_argument(
        "--dual-hsg",
        choices=("undrained", "drained"),
        default="undrained",
        help="read A/D, B/D, C/D as D (undrained, default) or as the first letter (drained)",
    )
    runoff.add_argument(
        "--rainfall",
        help='24-hour design-storm depths, inches, e.g. "2=3.5,10=5.1,25=6.2,50=7.0,100=8.0"; '
        "storms not given keep the pack's default depth",
    )
    runoff.add_argument(
        "--wqv-rainfall",
        type=float,
        default=DEFAULT_WQV_RAINFALL_IN,
        help="90%% rainfall event P for the water-quality volume, inches "
        f"(default {DEFAULT_WQV_RAINFALL_IN:g}; NYS Design Manual Figure 4.1)",
    )
    runoff.add_argument(
        "--pervious-cover",
        choices=PERVIOUS_COVERS,
        default=RunoffSettings.pervious_cover,
        help="TR-55 cover of pervious ground (default open_space_good)",
    )
    runoff.add_argument(
        "--unimproved-cover",
        choices=PERVIOUS_COVERS,
        default=RunoffSettings.unimproved_cover,
        help="TR-55 cover of an unimproved lot, Scarsdale SDA before condition (default woods_good)",
    )


def runoff_options(args: argparse.Namespace) -> RunoffOptions:
    """Runoff-screen options from parsed arguments; bad values raise InputError."""
    options = RunoffOptions(
        soils=LayerSource.parse("soils", args.soils) if args.soils else None,
        soil_field=args.soil_field,
        default_hsg=args.default_hsg,
        rainfall=args.rainfall,
        settings=RunoffSettings(
            pervious_cover=args.pervious_cover,
            unimproved_cover=args.unimproved_cover,
            dual_hsg=args.dual_hsg,
            wqv_rainfall_in=args.wqv_rainfall,
        ),
    )
    options.check()
    return options


def measure_inputs(args: argparse.Namespace) -> MeasureInputs:
    """Layer sources from parsed arguments."""
    optional = {
        name: LayerSource.parse(name, getattr(args, name)) if getattr(args, name) else None
        for name, _, _ in LAYER_OPTIONS
    }
    return MeasureInputs(
        parcels=LayerSource.parse("parcels", args.parcels),
        disturbance=LayerSource.parse("disturbance", args.disturbance),
        dem=args.dem,
        **optional,
    )


def measure_settings(args: argparse.Namespace) -> MeasureSettings:
    """Settings from parsed arguments; bad values raise InputError naming the option."""
    thresholds = _numbers(args.slope_thresholds, "--slope-thresholds")
    if len(thresholds) != 2 or thresholds[0] >= thresholds[1]:
        raise InputError("--slope-thresholds: give two increasing percentages, e.g. 15,25")
    for flag, value in (
        ("--wetland-adjacent-ft", args.wetland_adjacent_ft),
        ("--watercourse-buffer-ft", args.watercourse_buffer_ft),
        ("--rear-setback-ft", args.rear_setback_ft),
        ("--default-side-setback-ft", args.default_side_setback_ft),
    ):
        if value < 0:
            raise InputError(f"{flag}: must not be negative (got {value})")
    return MeasureSettings(
        id_field=args.id_field,
        zoning_field=args.zoning_field,
        wetland_adjacent_ft=args.wetland_adjacent_ft,
        watercourse_buffer_ft=args.watercourse_buffer_ft,
        slope=SlopeSettings(
            thresholds_pct=(thresholds[0], thresholds[1]), z_units=args.dem_z_units
        ),
        adjoining=AdjoiningSettings(
            rear_setback_ft=args.rear_setback_ft,
            side_setbacks_ft=_district_table(args.side_setbacks),
            default_side_setback_ft=args.default_side_setback_ft,
        ),
        crs=args.crs,
    )


def _numbers(text: str, flag: str) -> list[float]:
    try:
        return [float(part) for part in text.split(",") if part.strip()]
    except ValueError as error:
        raise InputError(f"{flag}: not a list of numbers: {text}") from error


def _district_table(text: str) -> dict[str, float]:
    table: dict[str, float] = {}
    for item in filter(None, (part.strip() for part in text.split(","))):
        district, sep, value = item.partition("=")
        try:
            table[district.strip()] = float(value)
        except ValueError:
            sep = ""
        if not sep or not district.strip():
            raise InputError(f'--side-setbacks: expected DISTRICT=FEET, got "{item}"')
    return table


def apply_threads(args: argparse.Namespace) -> None:
    """Honour ``--threads``."""
    if args.threads is not None:
        if args.threads < 1:
            raise InputError(f"--threads: must be at least 1 (got {args.threads})")
        set_workers(args.threads)


def run_measure(args: argparse.Namespace) -> int:
    apply_threads(args)
    progress = Progress(quiet=args.quiet)
    result = measure(measure_inputs(args), measure_settings(args), progress)
    write_measure_outputs(result, destinations(args))
    for message in result.log.warnings:
        progress.warn(message)
    print_summary(result, args)
    return 0


def destinations(args: argparse.Namespace) -> Destinations:
    """The files a ``measure`` or ``check`` run writes."""
    return Destinations(
        out=args.out,
        json=args.json,
        report=getattr(args, "report", None),
        all_parcels=args.all_parcels,
    )


def run_spec(args: argparse.Namespace) -> RunSpec:
    """The run that parsed ``check`` arguments ask for; bad values raise InputError."""
    return RunSpec(
        inputs=measure_inputs(args),
        settings=measure_settings(args),
        ordinance=args.ordinance,
        tolerance=args.tolerance,
        jurisdictions=jurisdiction_source(args),
        jurisdiction_field=args.jurisdiction_field,
        runoff=runoff_options(args),
    )


def print_summary(result: MeasureResult, args: argparse.Namespace) -> None:
    """A short table of the parcels with work on them, and where the outputs are."""
    table = result.parcels[result.touched]
    print(
        f"SiteCheck {__version__}: {len(result.parcels)} parcels measured in "
        f"{result.working.to_json()['authid']} ({result.working.area_unit}); "
        f"{len(table)} with disturbance or impervious change."
    )
    columns = [
        ("parcel", "parcel_id", "{}"),
        ("lot sq ft", "lot_area_sqft", "{:,.0f}"),
        ("disturbed", "disturbed_area_sqft", "{:,.0f}"),
        ("net imperv.", "impervious_net_change_sqft", "{:+,.0f}"),
        ("flood 1%", "disturbed_in_floodplain_1pct_sqft", "{:,.0f}"),
        ("wetl.+adj.", "_wetland_total", "{:,.0f}"),
        ("slope>25%", "disturbed_on_slope_over_25pct_sqft", "{:,.0f}"),
    ]
    frame = table.assign(
        _wetland_total=table["disturbed_in_wetland_sqft"]
        + table["disturbed_in_wetland_adjacent_sqft"]
    )
    rows = [[title for title, _, _ in columns]]
    for _, row in frame.head(25).iterrows():
        rows.append([_cell(row[name], fmt) for _, name, fmt in columns])
    widths = [max(len(r[i]) for r in rows) for i in range(len(columns))]
    for row in rows:
        print("  ".join(cell.rjust(width) for cell, width in zip(row, widths, strict=True)))
    if len(table) > 25:
        print(f"... and {len(table) - 25} more")
    print(f"outputs: {args.out}" + (f", {args.json}" if args.json else ""))


def _cell(value: object, fmt: str) -> str:
    try:
        if value is None or value != value:
            return "-"
        return fmt.format(value)
    except (TypeError, ValueError):
        return str(value)


def run_check(args: argparse.Namespace) -> int:
    apply_threads(args)
    if args.ordinance is None and args.jurisdictions is None:
        raise InputError("give --ordinance larchmont|homer|scarsdale|PACK.toml, or --jurisdictions")
    if args.ordinance:
        load_pack(args.ordinance)  # a bad pack stops the run before any measuring
    progress = Progress(quiet=args.quiet)
    if args.engine == "dask":
        return run_check_on_dask(args, progress)
    dask_only = {
        "--scheduler": args.scheduler is not None,
        "--workers": args.workers is not None,
        "--partition-size": args.partition_size != DEFAULT_PARTITION_SIZE,
        "--worker-memory": args.worker_memory != "auto",
    }
    given = [option for option, is_given in dask_only.items() if is_given]
    if given:
        raise InputError(f"{', '.join(given)}: for --engine dask only")
    result = screen(run_spec(args), progress)
    write_check_outputs(result, destinations(args))
    for message in result.measured.log.warnings:
        progress.warn(message)
    print_check_summary(result, args)
    return 0


def run_check_on_dask(args: argparse.Namespace, progress: Progress) -> int:
    """``check --engine dask``: partitions on a Dask cluster, outputs written as they finish."""
    from sitecheck.distributed.run import DaskOptions, run_check_distributed

    spec = dask_run_spec(args)
    options = DaskOptions(
        scheduler=args.scheduler,
        workers=args.workers,
        partition_size=args.partition_size,
        memory_limit=args.worker_memory,
    )
    run = run_check_distributed(spec, args.out, args.json, options, progress)
    for message in run.warnings:
        progress.warn(message)
    print(
        f"SiteCheck {__version__} on Dask ({run.workers} worker(s), {run.partitions} "
        f"partitions): {run.parcels_written:,} parcels screened in {run.seconds:,.1f} s "
        f"({run.parcels_written / max(run.seconds, 1e-9):,.0f} parcels/s); "
        f"{run.parcels_with_work:,} with work, {run.parcels_with_triggers:,} with triggers."
    )
    print(f"outputs: {args.out}" + (f", {args.json}" if args.json else ""))
    return 0


def dask_run_spec(args: argparse.Namespace) -> TaskSpec:
    """The distributed run that parsed ``check --engine dask`` arguments ask for.

    Raises
    ------
    InputError
        For options a distributed run cannot honour.
    """
    from sitecheck.distributed.window import TaskSpec

    if args.report:
        raise InputError(
            "--report: the HTML report is for runs in one process; a distributed run writes "
            "--out and --json (make a report of a few parcels with --engine single)"
        )
    if args.workers is not None and args.workers < 1:
        raise InputError("--workers: give at least 1")
    if args.partition_size < 1:
        raise InputError("--partition-size: give at least 1")
    return TaskSpec(
        run=run_spec(args),
        all_parcels=args.all_parcels,
        runoff_columns=(),
        threads=args.threads or 1,
    )


def jurisdiction_source(args: argparse.Namespace) -> LayerSource | None:
    """The ``--jurisdictions`` layer, when given."""
    if not args.jurisdictions:
        return None
    return LayerSource.parse("jurisdictions", args.jurisdictions)


def print_check_summary(result: CheckResult, args: argparse.Namespace) -> None:
    """Per parcel with work: its highest severity and the sections it triggers."""
    measured = result.measured
    packs = ", ".join(
        f"{p.name} {p.chapter.split(',')[0]} (pack {p.version})" for p in result.packs.values()
    )
    print(
        f"SiteCheck {__version__}: {packs}; {int(measured.touched.sum())} of "
        f"{len(measured.parcels)} parcels with work, measured in "
        f"{measured.working.to_json()['authid']} ({measured.working.area_unit})."
    )
    shown = 0
    for row in np.flatnonzero(measured.touched):
        outcome = result.outcomes[row]
        if outcome is None:
            continue
        shown += 1
        if shown > 25:
            continue
        record = measured.parcels.iloc[row]
        triggered = sorted({t.rule.citation for t in outcome.of(TRIGGERED)})
        review = len(outcome.of(NEEDS_REVIEW))
        print(
            f"  {record['parcel_id']:>12}  {record['disturbed_area_sqft']:>9,.0f} sq ft  "
            f"{outcome.highest_severity or 'none':<24} {', '.join(triggered) or '-'}"
            + (f"  [{review} to review]" if review else "")
            + _retention_text(result, int(row))
        )
    if shown > 25:
        print(f"  ... and {shown - 25} more")
    if result.runoff is not None:
        for depths in result.runoff.storms.values():
            if note := depths.confirm_note():
                print(f"rainfall: {note}")
    print(
        f"outputs: {args.out}"
        + (f", {args.json}" if args.json else "")
        + (f", {args.report}" if args.report else "")
    )


def _retention_text(result: CheckResult, row: int) -> str:
    if result.runoff is None:
        return ""
    metrics = result.runoff.metrics_of(row)
    retention, storm = metrics.get("retention_required_cuft"), metrics.get("retention_storm_yr")
    if retention is None or storm is None:
        return ""
    return f"  retention {retention:,.0f} cu ft ({storm:.0f}-yr)"


def run_rules(args: argparse.Namespace) -> int:
    pack = load_pack(args.ordinance)
    print(f"{pack.name}, {pack.chapter} (pack {pack.id} {pack.version}, sha256 {pack.sha256[:12]})")
    rows = [("rule", "citation", "severity", "title", "when")]
    rows += [
        (r.id, r.citation, r.severity, r.title, " ".join(r.when_text.split())) for r in pack.rules
    ]
    widths = [max(len(row[i]) for row in rows) for i in range(4)]
    for row in rows:
        cells = "  ".join(cell.ljust(width) for cell, width in zip(row[:4], widths, strict=True))
        print(f"{cells}  {row[4]}")
    return 0


def run_validate(args: argparse.Namespace) -> int:
    pack = load_pack(args.pack)
    print(f"{args.pack}: valid pack '{pack.id}' with {len(pack.rules)} rules")
    return 0


def run_notify(args: argparse.Namespace) -> int:
    from sitecheck.io.parcels import read_parcels
    from sitecheck.io.readers import LayerReader
    from sitecheck.io.writers import write_geopackage, write_text
    from sitecheck.screening.notify import notification_list

    if args.distance_ft <= 0:
        raise InputError(f"--distance-ft: must be positive (got {args.distance_ft})")
    log = LayerReader()
    parcels = read_parcels(LayerSource.parse("parcels", args.parcels), log, args.id_field)
    disturbance = LayerSource.parse("disturbance", args.disturbance) if args.disturbance else None
    notice = notification_list(
        parcels, args.lot, log, disturbance, args.distance_ft, args.measure_from
    )
    write_geopackage(args.out, {"notification": notice.parcels})
    if args.csv:
        table = notice.parcels.drop(columns="geometry")
        write_text(args.csv, lambda handle: table.to_csv(handle, index=False, lineterminator="\n"))
    for message in log.warnings:
        print(f"warning: {message}", file=sys.stderr)
    print(
        f"{len(notice.parcels)} parcels within {args.distance_ft:g} ft of the "
        f"{notice.measured_from} of {', '.join(notice.lots)} (Scarsdale § 254-10.1)"
    )
    print(f"outputs: {args.out}" + (f", {args.csv}" if args.csv else ""))
    return 0


def run_adjoining_buffer(args: argparse.Namespace) -> int:
    import geopandas as gpd
    import pandas as pd
    import shapely

    from sitecheck.constraints.adjoining import AdjoiningSettings, adjoining_buffers
    from sitecheck.io.parcels import read_parcels
    from sitecheck.io.readers import LayerReader
    from sitecheck.io.writers import write_geopackage
    from sitecheck.measure.driver import ZONING_FIELD_CANDIDATES, MeasureSettings, zoning_districts

    log = LayerReader()
    candidates = [args.zoning_field] if args.zoning_field else list(ZONING_FIELD_CANDIDATES)
    parcels = read_parcels(
        LayerSource.parse("parcels", args.parcels), log, args.id_field, extra_fields=candidates
    )
    zoning = LayerSource.parse("zoning", args.zoning) if args.zoning else None
    lots = parcels.geoms
    districts = zoning_districts(
        zoning, parcels, shapely.STRtree(lots), log, MeasureSettings(zoning_field=args.zoning_field)
    )
    settings = AdjoiningSettings(
        rear_setback_ft=args.rear_setback_ft,
        side_setbacks_ft=_district_table(args.side_setbacks),
        default_side_setback_ft=args.default_side_setback_ft,
    )
    buffers = adjoining_buffers(lots, districts, settings, parcels.working.feet_per_unit)
    keep = ~shapely.is_empty(buffers)
    table = pd.DataFrame(
        {
            "parcel_id": parcels.ids[keep],
            "district": None if districts is None else districts[keep],
            "area_sqft": (shapely.area(buffers[keep]) * parcels.working.sqft_per_unit2).round(2),
        }
    )
    frame = gpd.GeoDataFrame(table, geometry=buffers[keep], crs=parcels.working.crs)
    write_geopackage(args.out, {"adjoining_buffer": frame})
    for message in log.warnings:
        print(f"warning: {message}", file=sys.stderr)
    print(
        f"{int(keep.sum())} of {len(lots)} lots have an adjoining property buffer "
        f"({'all lots: zoning unknown' if districts is None else 'Residence A districts'}); "
        f"outputs: {args.out}"
    )
    return 0


def run_steep_slopes(args: argparse.Namespace) -> int:
    from sitecheck.io.writers import write_geopackage
    from sitecheck.terrain.slope_map import slope_polygons, write_slope_raster

    thresholds = _numbers(args.slope_thresholds, "--slope-thresholds")
    if len(thresholds) != 2 or thresholds[0] >= thresholds[1]:
        raise InputError("--slope-thresholds: give two increasing percentages, e.g. 15,25")
    settings = SlopeSettings(
        thresholds_pct=(thresholds[0], thresholds[1]), z_units=args.dem_z_units
    )
    suffix = args.out.suffix.lower()
    if suffix in (".tif", ".tiff"):
        cells = write_slope_raster(args.dem, settings, args.out)
        print(
            f"{cells} cells over {thresholds[0]:g}%; classes 0, 1, 2 (255 no data); "
            f"outputs: {args.out}"
        )
    elif suffix == ".gpkg":
        frame = slope_polygons(args.dem, settings)
        write_geopackage(args.out, {"steep_slopes": frame})
        print(f"{len(frame)} slope classes as polygons; outputs: {args.out}")
    else:
        raise InputError(f"--out: give a .gpkg (polygons) or a .tif (raster), got {args.out.name}")
    return 0


def run_serve(args: argparse.Namespace) -> int:
    from sitecheck.app.worker import serve

    return serve()


def run_sample_village(args: argparse.Namespace) -> int:
    from sitecheck.sample.village import generate_village

    args.outdir.mkdir(parents=True, exist_ok=True)
    paths = generate_village(args.outdir, parcels=args.parcels, seed=args.seed, exact=args.exact)
    for name, path in paths.items():
        print(f"{name}: {path}")
    return 0


COMMANDS = {
    "measure": run_measure,
    "check": run_check,
    "rules": run_rules,
    "validate": run_validate,
    "notify": run_notify,
    "adjoining-buffer": run_adjoining_buffer,
    "serve": run_serve,
    "steep-slopes": run_steep_slopes,
    "sample-village": run_sample_village,
}


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code."""
    args = build_parser().parse_args(argv)
    try:
        return COMMANDS[args.command](args)
    except InputError as error:
        print(f"sitecheck: error: {error}", file=sys.stderr)
        return 2
    except FileNotFoundError as error:
        print(f"sitecheck: error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("sitecheck: interrupted", file=sys.stderr)
        return 130
    except Exception as error:
        traceback.print_exc()
        print(
            f"sitecheck: error: unexpected failure ({type(error).__name__}: {error}); "
            "the traceback above says where",
            file=sys.stderr,
        )
        return 1
