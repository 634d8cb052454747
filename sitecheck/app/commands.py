"""The commands beside ``measure`` and ``check``: rules, validate, notify, adjoining-buffer,
steep-slopes, serve, describe and sample-village."""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import replace

from sitecheck.app.pack_listing import pack_listing, validation_lines
from sitecheck.app.summary import say
from sitecheck.errors import InputError, one_line
from sitecheck.io.output_set import OutputSet, named
from sitecheck.io.readers import LayerSource
from sitecheck.pipeline.settings import measure_settings
from sitecheck.rules.pack import load_pack
from sitecheck.schema.describe import describe
from sitecheck.schema.options import option
from sitecheck.terrain.dem import SlopeSettings


def run_rules(args: argparse.Namespace) -> int:
    print("\n".join(pack_listing(load_pack(args.ordinance))))
    return 0


def run_validate(args: argparse.Namespace) -> int:
    print("\n".join(validation_lines(args.pack, load_pack(args.pack))))
    return 0


def run_notify(args: argparse.Namespace) -> int:
    from sitecheck.io.parcels import read_parcels
    from sitecheck.io.readers import LayerReader
    from sitecheck.io.writers import spreadsheet_safe, write_csv, write_geopackage
    from sitecheck.screening.notify import notification_list

    option("distance_ft").check(args.distance_ft)
    outputs = OutputSet(
        [named("--out", args.out), named("--csv", args.csv)],
        [named("--parcels", args.parcels), named("--disturbance", args.disturbance)],
        geopackages=("--out",),
    )
    with outputs:
        log = LayerReader()
        parcels = read_parcels(LayerSource.parse("parcels", args.parcels), log, args.id_field)
        disturbance = (
            LayerSource.parse("disturbance", args.disturbance) if args.disturbance else None
        )
        notice = notification_list(
            parcels, args.lot, log, disturbance, args.distance_ft, args.measure_from
        )
        with outputs.writing("--out") as temporary:
            write_geopackage(temporary, {"notification": notice.parcels})
        if args.csv:
            table = spreadsheet_safe(notice.parcels.drop(columns="geometry"))
            with outputs.writing("--csv") as temporary:
                write_csv(temporary, table)
        outputs.commit()
    for message in log.warnings:
        print(f"warning: {one_line(message)}", file=sys.stderr)
    say(
        f"{len(notice.parcels)} parcels within {args.distance_ft:g} ft of the "
        f"{notice.measured_from} of {', '.join(notice.lots)} (Scarsdale § 254-10.1)"
    )
    say(f"outputs: {args.out}" + (f", {args.csv}" if args.csv else ""))
    return 0


def run_adjoining_buffer(args: argparse.Namespace) -> int:
    from sitecheck.io.writers import write_geopackage

    for name in ("rear_setback_ft", "default_side_setback_ft"):
        option(name).check(getattr(args, name))
    outputs = OutputSet(
        [named("--out", args.out)],
        [named("--parcels", args.parcels), named("--zoning", args.zoning)],
        geopackages=("--out",),
    )
    with outputs:
        frame, log, summary = _adjoining_frame(args)
        with outputs.writing("--out") as temporary:
            write_geopackage(temporary, {"adjoining_buffer": frame})
        outputs.commit()
    for message in log.warnings:
        print(f"warning: {one_line(message)}", file=sys.stderr)
    say(f"{summary}; outputs: {args.out}")
    return 0


def _adjoining_frame(args: argparse.Namespace):
    """The adjoining property buffers of every lot, the reader's log and a summary line."""
    import geopandas as gpd
    import pandas as pd
    import shapely

    from sitecheck.constraints.adjoining import adjoining_buffers
    from sitecheck.io.parcels import read_parcels
    from sitecheck.io.readers import LayerReader
    from sitecheck.measure.inputs import MeasureSettings
    from sitecheck.measure.overlays import zoning_districts
    from sitecheck.schema.fields import ZONING_FIELD_CANDIDATES

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
    law = load_pack("scarsdale").measuring  # the buffer is Scarsdale's, its districts the pack's
    settings = replace(
        measure_settings(vars(args)).adjoining, districts=law.adjoining_buffer_districts
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
    summary = (
        f"{int(keep.sum())} of {len(lots)} lots have an adjoining property buffer "
        f"({'all lots: zoning unknown' if districts is None else law.adjoining_buffer_label})"
    )
    return frame, log, summary


def slope_thresholds(value: object, flag: str = "--slope-thresholds") -> tuple[float, float]:
    """steep-slopes' two increasing, finite slope percentages from ``"15,25"`` or a pair of numbers."""
    parts = value.split(",") if isinstance(value, str) else list(value)  # type: ignore[call-overload]
    try:
        numbers = [float(part) for part in parts if str(part).strip()]
    except (TypeError, ValueError):
        raise InputError(f"{flag}: not a list of numbers: {value}") from None
    if (
        len(numbers) != 2
        or not all(0 <= n < float("inf") for n in numbers)
        or numbers[0] >= numbers[1]
    ):
        raise InputError(f"{flag}: give two increasing percentages, e.g. 15,25 (got {value})")
    return numbers[0], numbers[1]


def run_steep_slopes(args: argparse.Namespace) -> int:
    from sitecheck.io.writers import write_geopackage
    from sitecheck.terrain.slope_map import slope_polygons, write_slope_raster

    thresholds = slope_thresholds(args.slope_thresholds)
    settings = SlopeSettings(
        thresholds_pct=(thresholds[0], thresholds[1]), z_units=args.dem_z_units
    )
    suffix = args.out.suffix.lower()
    if suffix not in (".tif", ".tiff", ".gpkg"):
        raise InputError(f"--out: give a .gpkg (polygons) or a .tif (raster), got {args.out.name}")
    outputs = OutputSet([named("--out", args.out)], [named("--dem", args.dem)])
    with outputs, outputs.writing("--out") as temporary:
        if suffix == ".gpkg":
            frame = slope_polygons(args.dem, settings)
            write_geopackage(temporary, {"steep_slopes": frame})
            summary = f"{len(frame)} slope classes as polygons"
        else:
            cells = write_slope_raster(args.dem, settings, temporary)
            summary = f"{cells} cells over {thresholds[0]:g}%; classes 0, 1, 2 (255 no data)"
        outputs.commit()
    say(f"{summary}; outputs: {args.out}")
    return 0


def run_serve(args: argparse.Namespace) -> int:
    from sitecheck.app.worker import serve

    # Bytes that are not UTF-8 reach the worker as lone surrogates, which it refuses
    # naming the request part, instead of ending the process while it decodes the line.
    sys.stdin.reconfigure(encoding="utf-8", errors="surrogateescape")  # type: ignore[union-attr]
    sys.stdout.reconfigure(encoding="utf-8")  # type: ignore[union-attr]
    return serve()


def run_sample_village(args: argparse.Namespace) -> int:
    from sitecheck.sample.village import generate_village

    if args.parcels < 1:
        raise InputError(f"--parcels: give at least 1 lot (got {args.parcels})")
    if args.seed < 0:
        raise InputError(f"--seed: give a whole number of 0 or more (got {args.seed})")
    if args.outdir.exists() and not args.outdir.is_dir():
        raise InputError(f"OUTDIR: {args.outdir} is a file; give a folder")
    args.outdir.mkdir(parents=True, exist_ok=True)
    paths = generate_village(args.outdir, parcels=args.parcels, seed=args.seed, exact=args.exact)
    for name, path in paths.items():
        print(f"{name}: {path}")
    return 0


def run_describe(args: argparse.Namespace) -> int:
    description = describe()
    if args.json:
        print(json.dumps(description, indent=1, ensure_ascii=False))
        return 0
    for part in (
        "roles",
        "options",
        "metrics",
        "runoff_metrics",
        "flag_kinds",
        "severities",
        "packs",
    ):
        entries = description[part]
        assert isinstance(entries, list)
        print(f"{part}:")
        for entry in entries:
            key = entry.get("key") or entry.get("name") or entry.get("id")
            print(f"  {key:<40} {entry.get('label') or entry.get('title') or ''}")
    return 0
