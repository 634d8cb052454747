"""The options a run takes: type, unit, default, bounds, command-line flag and help.

The command line builds its arguments from these, the panel's worker reads
its settings by their names, and the QGIS plugin builds its Processing
parameters from their description (``sitecheck describe --json``). Bounds are
checked once, by :meth:`~sitecheck.schema.option.Option.check`, for all alike.
"""

from __future__ import annotations

from sitecheck.schema.kinds import KINDS
from sitecheck.schema.option import Option
from sitecheck.schema.wetlands import DEFAULT_NWI_CLASSES, NWI_CLASSES, WETLAND_ADJACENT_FT


def _feet(name: str, flag: str, label: str, help_text: str, default: float, key: str | None):
    return Option(
        name, flag, "number", label, help_text, default, "ft", minimum=0.0, processing=key
    )


_OPEN_WATER = tuple(key for key in NWI_CLASSES if key not in DEFAULT_NWI_CLASSES)
DEM_Z_UNITS = ("ft", "us-ft", "m")
DUAL_HSG_READINGS = ("undrained", "drained")
ENGINES = ("single", "dask", "windowed")
JSON_LAYOUTS = ("compact", "full")
DEFAULT_REPORT_DETAILS = 200
DEFAULT_PARTITION_SIZE = 10_000
SLOPE_THRESHOLDS_PCT = (15.0, 25.0)
"""The slope classes the metrics ``disturbed_on_slope_over_15pct_sqft`` and ``..._25pct_sqft`` name."""

_BUILT_IN_MEASURE_OPTIONS: tuple[Option, ...] = (
    Option(
        "id_field",
        "--id-field",
        "text",
        "Parcel id field",
        "parcel id field (default: parcel_id, SBL, PRINT_KEY, else FID)",
        processing="ID_FIELD",
    ),
    Option(
        "zoning_field",
        "--zoning-field",
        "text",
        "Zoning district field",
        "district code field (default: district, ZONE, ZONING)",
        processing="ZONING_FIELD",
    ),
    _feet(
        "wetland_adjacent_ft",
        "--wetland-adjacent-ft",
        "Wetland adjacent area (ft)",
        f"regulated adjacent area around wetlands, feet (default {WETLAND_ADJACENT_FT:g}, "
        "the NYS minimum)",
        WETLAND_ADJACENT_FT,
        "WETLAND_ADJACENT_FT",
    ),
    Option(
        "nwi_classes",
        "--nwi-classes",
        "text",
        "NWI classes counted as wetlands",
        "NWI wetland types counted as wetlands, comma-separated, or all (default "
        f"{','.join(DEFAULT_NWI_CLASSES)}; also {','.join(_OPEN_WATER)})",
        ",".join(DEFAULT_NWI_CLASSES),
        processing="NWI_CLASSES",
    ),
    Option(
        "impaired_flag",
        "--impaired-flag",
        "text",
        "Listed flag field of the impaired watersheds",
        "field marking the listed watersheds or waters (yes/no, 1/0) in --impaired-watersheds, "
        "or all when every feature is listed (default: IMPAIRED, LISTED, LISTED_303D... if present)",
        processing="IMPAIRED_FLAG",
    ),
    _feet(
        "watercourse_buffer_ft",
        "--watercourse-buffer-ft",
        "Watercourse buffer (ft)",
        "buffer around watercourses, feet (default 100)",
        100.0,
        "WATERCOURSE_BUFFER_FT",
    ),
    Option(
        "dem_z_units",
        "--dem-z-units",
        "choice",
        "DEM elevation units",
        "DEM elevation units (default: the DEM's horizontal units)",
        choices=DEM_Z_UNITS,
    ),
    _feet(
        "rear_setback_ft",
        "--rear-setback-ft",
        "Rear setback (ft)",
        "rear setback of the adjoining property buffer (default 30, § 254-4)",
        30.0,
        "REAR_SETBACK_FT",
    ),
    Option(
        "side_setbacks",
        "--side-setbacks",
        "text",
        "Side setbacks per district (e.g. A-1=20,A-2=15)",
        'side setbacks per district, e.g. "AA-1=30,A-1=20" (feet)',
        "",
        "ft",
        processing="SIDE_SETBACKS",
    ),
    _feet(
        "default_side_setback_ft",
        "--default-side-setback-ft",
        "Side setback of districts not listed (ft)",
        "side setback for districts not listed (default 30: errs toward flagging)",
        30.0,
        "DEFAULT_SIDE_SETBACK_FT",
    ),
    Option(
        "crs",
        "--crs",
        "text",
        "CRS to measure in",
        "projected CRS to measure in (default: the parcel layer's)",
    ),
)

MEASURE_OPTIONS: tuple[Option, ...] = (
    *_BUILT_IN_MEASURE_OPTIONS,
    *(option for kind in KINDS for option in kind.options),
)
"""The measurement's options, a plug-in kind's after the built-in ones."""

CHECK_OPTIONS: tuple[Option, ...] = (
    Option(
        "tolerance",
        "--tolerance",
        "number",
        "Review tolerance (share of a threshold)",
        "share of a threshold within which a measured value needs review (default 0.02)",
        0.02,
        "share",
        minimum=0.0,
        maximum=0.5,
        below_maximum=True,
        processing="TOLERANCE",
    ),
)

RUNOFF_OPTIONS: tuple[Option, ...] = (
    Option(
        "soil_field",
        "--soil-field",
        "text",
        "Soil group field",
        "soil group field of --soils (default: hydgrp, hydgrpdcd, HSG)",
        processing="SOIL_FIELD",
    ),
    Option(
        "soil_table",
        "--soil-table",
        "text",
        "SSURGO soil group table",
        "SSURGO muaggatt or component table (gSSURGO GDB or GeoPackage table, CSV, or the "
        "download's tabular/muaggatt.txt) for map units carrying only MUKEY",
        processing="SOIL_TABLE",
    ),
    Option(
        "default_hsg",
        "--default-hsg",
        "choice",
        "Default soil group",
        "soil group of lots (or parts of lots) --soils does not map",
        choices=("A", "B", "C", "D", "A/D", "B/D", "C/D"),
        processing="DEFAULT_HSG",
    ),
    Option(
        "dual_hsg",
        "--dual-hsg",
        "choice",
        "Dual soil groups (A/D, B/D, C/D)",
        "read A/D, B/D, C/D as D (undrained, default) or as the first letter (drained)",
        "undrained",
        choices=DUAL_HSG_READINGS,
        processing="DUAL_HSG",
    ),
    Option(
        "rainfall",
        "--rainfall",
        "text",
        "Design-storm rainfall, 24-hour inches (e.g. 25=6.2,100=8.0)",
        '24-hour design-storm depths, inches, e.g. "2=3.5,10=5.1,25=6.2,50=7.0,100=8.0"; '
        "storms not given keep the pack's default depth",
        unit="in",
        processing="RAINFALL",
    ),
    Option(
        "rainfall_file",
        "--rainfall-file",
        "text",
        "Site rainfall file (NOAA Atlas 14 PFDS CSV or NRCC table)",
        "the site's 24-hour depths from a NOAA Atlas 14 PFDS depth CSV or an NRCC extreme "
        "precipitation table; --rainfall replaces its storms one by one",
        processing="RAINFALL_FILE",
    ),
    Option(
        "wqv_rainfall_in",
        "--wqv-rainfall",
        "number",
        "Water-quality rainfall P (in)",
        "90% rainfall event P for the water-quality volume, inches "
        "(default 1; NYS Design Manual Figure 4.1)",
        1.0,
        "in",
        minimum=0.0,
        above_minimum=True,
        processing="WQV_RAINFALL",
    ),
    Option(
        "pervious_cover",
        "--pervious-cover",
        "text",
        "TR-55 cover of pervious ground",
        "TR-55 cover of pervious ground (default open_space_good)",
        "open_space_good",
    ),
    Option(
        "unimproved_cover",
        "--unimproved-cover",
        "text",
        "TR-55 cover of an unimproved lot",
        "TR-55 cover of an unimproved lot, Scarsdale SDA before condition (default woods_good)",
        "woods_good",
    ),
)

RUN_OPTIONS: tuple[Option, ...] = (
    Option(
        "threads",
        "--threads",
        "integer",
        "Geometry threads",
        "threads for geometry work (default: every core; env SITECHECK_THREADS)",
        minimum=1.0,
    ),
    Option(
        "engine",
        "--engine",
        "choice",
        "Engine",
        "single: this process (default); dask: partitions on a Dask cluster; windowed: "
        "the same partitions one after another in this process, a county in the memory of "
        "one partition",
        "single",
        choices=ENGINES,
    ),
    Option(
        "scheduler",
        "--scheduler",
        "text",
        "Dask scheduler",
        "Dask scheduler address (tcp://host:8786); default a local cluster",
    ),
    Option(
        "workers",
        "--workers",
        "integer",
        "Dask workers",
        "worker processes of the local cluster (default: cores)",
        minimum=1.0,
    ),
    Option(
        "partition_size",
        "--partition-size",
        "integer",
        "Parcels per Dask task",
        f"parcels per Dask task (default {DEFAULT_PARTITION_SIZE:,})",
        DEFAULT_PARTITION_SIZE,
        minimum=1.0,
    ),
    Option(
        "worker_memory",
        "--worker-memory",
        "text",
        "Memory per Dask worker",
        'memory limit of each local worker, e.g. "1.5GB" (default: shared equally)',
        "auto",
    ),
)

OUTPUT_OPTIONS: tuple[Option, ...] = (
    Option(
        "json_layout",
        "--json-layout",
        "choice",
        "JSON layout",
        "compact (default): each rule described once under 'rules', a parcel listing only the "
        "rules it triggers or puts under review; full: every rule's outcome, title, quote and "
        "requirements under each parcel (for a parcel or a few)",
        "compact",
        choices=JSON_LAYOUTS,
    ),
    Option(
        "report_details",
        "--report-details",
        "integer",
        "Detailed parcels in the HTML report",
        "parcels given a detailed section with a map in the HTML report, the most demanding "
        f"first (default {DEFAULT_REPORT_DETAILS}); every listed parcel is in its table",
        DEFAULT_REPORT_DETAILS,
        minimum=0.0,
    ),
)

NOTIFY_OPTIONS: tuple[Option, ...] = (
    Option(
        "distance_ft",
        "--distance-ft",
        "number",
        "Notice distance (ft)",
        "notice distance (default 200)",
        200.0,
        "ft",
        minimum=0.0,
        above_minimum=True,
        processing="DISTANCE_FT",
    ),
)

OPTIONS: tuple[Option, ...] = (
    *MEASURE_OPTIONS,
    *CHECK_OPTIONS,
    *RUNOFF_OPTIONS,
    *RUN_OPTIONS,
    *OUTPUT_OPTIONS,
    *NOTIFY_OPTIONS,
)
OPTION_BY_NAME: dict[str, Option] = {option.name: option for option in OPTIONS}


def option(name: str) -> Option:
    """The option of that name."""
    return OPTION_BY_NAME[name]
