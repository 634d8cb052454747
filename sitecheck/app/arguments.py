"""The ``sitecheck`` command's arguments, built from the vocabulary's roles and options."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from sitecheck import __version__
from sitecheck.runoff import curve_number_table
from sitecheck.schema.option import Option
from sitecheck.schema.options import (
    CHECK_OPTIONS,
    DEM_Z_UNITS,
    MEASURE_OPTIONS,
    NOTIFY_OPTIONS,
    RUN_OPTIONS,
    RUNOFF_OPTIONS,
    option,
)
from sitecheck.schema.roles import ROLE_BY_KEY, VECTOR_ROLES

PERVIOUS_COVERS: tuple[str, ...] = tuple(
    name for name in curve_number_table() if name != "impervious"
)
_TYPES: dict[str, Any] = {"number": float, "integer": int, "text": str, "choice": str}


def add_option(group: Any, chosen: Option, **overrides: Any) -> None:
    """An argparse argument for an option: its flag, type, default, choices and help."""
    keywords: dict[str, Any] = {"dest": chosen.name, "help": chosen.help.replace("%", "%%")}
    if chosen.kind == "switch":
        keywords["action"] = "store_true"
    else:
        keywords["type"] = _TYPES[chosen.kind]
        keywords["default"] = chosen.default
    if chosen.name == "default_hsg":
        keywords["type"] = str.upper
    if chosen.choices:
        keywords["choices"] = chosen.choices
    if chosen.name in ("pervious_cover", "unimproved_cover"):
        keywords["choices"] = PERVIOUS_COVERS
    keywords.update(overrides)
    group.add_argument(chosen.flag, **keywords)


def add_role(group: Any, key: str, required: bool = False) -> None:
    """An argparse argument for a layer role."""
    role = ROLE_BY_KEY[key]
    group.add_argument(role.flag, required=required, help=role.help.replace("%", "%%"))


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

    rules_parser = commands.add_parser(
        "rules",
        help="print a rule pack: each rule's section, condition, exemptions, storms and quote",
    )
    rules_parser.add_argument(
        "--ordinance", required=True, help="larchmont, homer, scarsdale or PACK.toml"
    )
    _add_notify(commands)
    _add_adjoining_buffer(commands)
    _add_steep_slopes(commands)
    commands.add_parser(
        "serve",
        help="a persistent worker answering JSON requests on stdin (the dock panel's engine)",
    )
    validate_parser = commands.add_parser("validate", help="check a rule pack file")
    validate_parser.add_argument("pack", help="PACK.toml")
    describe = commands.add_parser(
        "describe",
        help="the engine's vocabulary: roles, options, metrics, flags, severities, packs",
    )
    describe.add_argument("--json", action="store_true", help="as JSON (the plugin reads it)")
    _add_sample_village(commands)
    return parser


def _add_notify(commands: Any) -> None:
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
    for chosen in NOTIFY_OPTIONS:
        add_option(notify, chosen)
    add_option(notify, option("id_field"), help="parcel id field")
    notify.add_argument(
        "--out", required=True, type=Path, help="GeoPackage with the layer 'notification'"
    )
    notify.add_argument("--csv", type=Path, help="the list as CSV (id, owner, address, distance)")


def _add_adjoining_buffer(commands: Any) -> None:
    buffers = commands.add_parser(
        "adjoining-buffer",
        help="derive the adjoining property buffer from a parcel layer (Scarsdale § 254-4)",
    )
    buffers.add_argument("--parcels", required=True, help="parcels (polygons)")
    buffers.add_argument(
        "--zoning", help="zoning districts (polygons); else a parcel district field"
    )
    for name in (
        "zoning_field",
        "id_field",
        "rear_setback_ft",
        "side_setbacks",
        "default_side_setback_ft",
    ):
        add_option(buffers, option(name))
    buffers.add_argument(
        "--out", required=True, type=Path, help="GeoPackage with the layer 'adjoining_buffer'"
    )


def _add_steep_slopes(commands: Any) -> None:
    slopes = commands.add_parser(
        "steep-slopes", help="slope classes of a DEM, as polygons or a raster"
    )
    slopes.add_argument("--dem", required=True, help="DEM raster")
    slopes.add_argument(
        "--slope-thresholds", default="15,25", help="two thresholds in percent (default 15,25)"
    )
    slopes.add_argument("--dem-z-units", choices=DEM_Z_UNITS, help="elevation units")
    slopes.add_argument(
        "--out",
        required=True,
        type=Path,
        help="a .gpkg (polygons, layer 'steep_slopes') or a .tif (class raster)",
    )


def _add_sample_village(commands: Any) -> None:
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


def add_measure_arguments(parser: argparse.ArgumentParser) -> None:
    """Options shared by ``measure`` and the commands built on it."""
    layers = parser.add_argument_group("layers (path or path:layer, any OGR format)")
    for key in VECTOR_ROLES:
        add_role(layers, key, required=ROLE_BY_KEY[key].required)
    add_role(layers, "dem")
    options = parser.add_argument_group("options")
    for chosen in MEASURE_OPTIONS:
        add_option(options, chosen)
    out = parser.add_argument_group("outputs")
    out.add_argument(
        "--out", required=True, type=Path, help="GeoPackage to write (parcels and flags layers)"
    )
    out.add_argument(
        "--table",
        type=Path,
        help="the parcel table also as FlatGeobuf (.fgb) or GeoParquet (.parquet), where the "
        "GDAL in use has the driver",
    )
    out.add_argument("--json", type=Path, help="JSON report to write")
    add_option(out, option("json_layout"))
    out.add_argument(
        "--jsonl",
        type=Path,
        help="newline-delimited JSON to write: a parcel a line, each line whole in itself",
    )
    out.add_argument(
        "--all-parcels",
        action="store_true",
        help="list every parcel in the JSON, not only those with disturbance or impervious change",
    )
    out.add_argument("--quiet", action="store_true", help="no progress on stderr")
    add_option(out, option("threads"))


def add_check_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of ``check`` beyond those of ``measure``."""
    rules = parser.add_argument_group("ordinance")
    rules.add_argument("--ordinance", help="larchmont, homer, scarsdale, or a PACK.toml file")
    for chosen in CHECK_OPTIONS:
        add_option(rules, chosen)
    add_role(rules, "jurisdictions")
    rules.add_argument(
        "--jurisdiction-field", help="field of --jurisdictions holding the pack id or village name"
    )
    rules.add_argument("--report", type=Path, help="self-contained HTML report")
    add_option(rules, option("report_details"))
    runoff = parser.add_argument_group(
        "runoff screen (TR-55 curve numbers; runs with --soils or --default-hsg)"
    )
    add_role(runoff, "soils")
    for chosen in RUNOFF_OPTIONS:
        add_option(runoff, chosen)
    engine = parser.add_argument_group("engine (docs/scaling.md)")
    for chosen in RUN_OPTIONS:
        if chosen.name != "threads":
            add_option(engine, chosen)
