"""The disturbance in each constraint layer: floodplain, wetlands and their adjacent area,
watercourse buffers, the adjoining property buffer; and the lot-wide facts (SDA, impaired
watershed, zoning district)."""

from __future__ import annotations

import numpy as np
import shapely

from sitecheck.constraints.adjoining import disturbance_in_buffer
from sitecheck.constraints.flood_zones import flood_surfaces
from sitecheck.constraints.impaired import impaired_watersheds
from sitecheck.constraints.layers import district_by_lot, overlaps_surface
from sitecheck.constraints.wetland_classes import counted_wetlands
from sitecheck.errors import InputError
from sitecheck.geometry.overlay import Surface
from sitecheck.io.extent import Extent
from sitecheck.io.parcels import Parcels, attribute_columns, find_field
from sitecheck.io.readers import POLYGONAL, LayerReader, LayerSource
from sitecheck.measure.context import Measuring
from sitecheck.measure.inputs import MeasureInputs, MeasureSettings
from sitecheck.schema.fields import ZONING_FIELD_CANDIDATES

_TRUE_TEXT = {"1", "T", "TRUE", "Y", "YES"}
_FALSE_TEXT = {"0", "F", "FALSE", "N", "NO"}
MIN_LOT_OVERLAP_SQFT = 1.0  # a lot is "in" the SDA / impaired watershed from this overlap up

FLOOD_METRICS = {
    "one_pct": ("disturbed_in_floodplain_1pct_sqft", "floodplain_1pct"),
    "zero_two_pct": ("disturbed_in_floodplain_0_2pct_sqft", "floodplain_0_2pct"),
    "floodway": ("disturbed_in_floodway_sqft", "floodway"),
}


def measure_floodplain(run: Measuring, source: LayerSource | None) -> None:
    """The disturbance in the 1% and 0.2% floodplains and the floodway (FEMA NFHL classes)."""
    if source is None:
        run.not_measured(*(metric for metric, _ in FLOOD_METRICS.values()))
        return
    surfaces = flood_surfaces(run.read(source, POLYGONAL), source, run.surface, run.reader.warn)
    for attribute, (metric, kind) in FLOOD_METRICS.items():
        run.record(metric, kind, *run.overlap(getattr(surfaces, attribute)))
    in_unmapped, _ = run.overlap(surfaces.unmapped)
    unread = in_unmapped > 0
    if unread.any():  # a hazard SiteCheck cannot read is never "no hazard"
        for metric, _ in FLOOD_METRICS.values():
            run.metrics[metric][unread] = np.nan
        lots = ", ".join(str(lot) for lot in run.parcels.ids[unread][:10])
        more = f" and {int(unread.sum()) - 10} more" if unread.sum() > 10 else ""
        run.reader.warn(
            f"{source.label()}: the work on {int(unread.sum())} lot(s) ({lots}{more}) touches "
            "flood polygons whose hazard is not read (named above): their floodplain and "
            "floodway figures are left blank and their flood rules need review"
        )


def measure_wetlands(run: Measuring, source: LayerSource | None) -> None:
    """The disturbance in wetlands and, apart from it, in their regulated adjacent area."""
    if source is None:
        run.not_measured("disturbed_in_wetland_sqft", "disturbed_in_wetland_adjacent_sqft")
        return
    frame = counted_wetlands(
        run.read(source, POLYGONAL), source, run.settings.nwi_classes, run.reader.warn
    )
    wetlands = frame.geometry.to_numpy()
    in_wetland, wetland_geoms = run.overlap(run.surface(wetlands))
    in_zone, zone_geoms = run.overlap(
        run.buffered_surface(wetlands, run.settings.wetland_adjacent_ft)
    )
    run.record("disturbed_in_wetland_sqft", "wetland", in_wetland, wetland_geoms)
    run.record(
        "disturbed_in_wetland_adjacent_sqft",
        "wetland_adjacent",
        np.clip(in_zone - in_wetland, 0.0, None),
        shapely.difference(zone_geoms, wetland_geoms),
    )


def measure_watercourses(run: Measuring, source: LayerSource | None) -> None:
    """The disturbance in the buffer around watercourse lines or polygons, and whether a
    watercourse passes through each lot with work."""
    if source is None:
        run.not_measured("disturbed_in_watercourse_buffer_sqft")
        run.metrics["watercourse_on_lot"] = np.full(run.count, None, dtype=object)
        return
    lines = run.geometries(source)
    surface = run.buffered_surface(lines, run.settings.watercourse_buffer_ft)
    run.record("disturbed_in_watercourse_buffer_sqft", "watercourse_buffer", *run.overlap(surface))
    run.metrics["watercourse_on_lot"] = _passes_through(run, lines)


def _passes_through(run: Measuring, waters: np.ndarray) -> np.ndarray:
    """Per lot with work, whether a watercourse crosses its inside (a stream along the lot
    line only is the neighbour's as much); None for the lots without work, around which
    the layer may not have been read."""
    through = np.full(run.count, None, dtype=object)
    active = np.asarray(run.active, dtype=np.int64)
    through[active] = False
    if len(waters) and len(active):
        lots = run.parcels.geoms[active]
        lot_at, water_at = shapely.STRtree(waters).query(lots, predicate="intersects")
        inside = shapely.relate_pattern(lots[lot_at], waters[water_at], "T********")
        through[active[np.unique(lot_at[inside])]] = True
    return through


def measure_adjoining(
    run: Measuring, source: LayerSource | None, districts: np.ndarray | None
) -> None:
    """Disturbance in the adjoining property buffer: a drawn layer, else derived from the lots."""
    if source is not None:
        drawn = run.read(source, POLYGONAL).geometry.to_numpy()
        areas, geoms = run.overlap(run.surface(drawn))
    else:
        geoms = disturbance_in_buffer(
            run.parcels.geoms,
            run.disturbed,
            districts,
            run.settings.adjoining,
            run.working.feet_per_unit,
            run.active,
        )
        areas = shapely.area(geoms)
    run.record("disturbed_in_adjoining_buffer_sqft", "adjoining_buffer", areas, geoms)


def zoning_districts(
    source: LayerSource | None,
    parcels: Parcels,
    lot_tree: shapely.STRtree,
    reader: LayerReader,
    settings: MeasureSettings,
) -> np.ndarray | None:
    """District code of each lot: from the zoning layer, else a parcel field; None if neither."""
    candidates = [settings.zoning_field] if settings.zoning_field else list(ZONING_FIELD_CANDIDATES)
    if source is not None:
        working = parcels.working
        margin = settings.reach_ft() / working.feet_per_unit
        within = Extent.box_around(parcels.geoms, margin, working.crs)
        frame = reader.read(source, POLYGONAL, target_crs=working.crs, within=within)
        columns = attribute_columns(frame)
        field_name = find_field(columns, candidates)
        if field_name is None:
            raise InputError(
                f"{source.label()}: no district field ({', '.join(candidates)}); "
                f"name it with --zoning-field; fields are: {', '.join(columns)}"
            )
        return district_by_lot(parcels.geoms, frame, field_name, lot_tree)
    columns = attribute_columns(parcels.frame)
    field_name = find_field(columns, candidates)
    if field_name is None:
        if settings.zoning_field:
            raise InputError(
                f"parcels layer: no zoning field '{settings.zoning_field}' and no zoning layer"
            )
        return None
    return parcels.frame[field_name].astype("string").to_numpy(dtype=object, na_value=None)


def lot_flag_layer(run: Measuring, source: LayerSource | None) -> np.ndarray:
    """True where a lot lies (partly) in the layer's polygons; None without the layer."""
    if source is None:
        return np.full(run.count, None, dtype=object)
    # Every lot gets its answer, with work or not: read around all of them.
    frame = run.reader.read(source, POLYGONAL, target_crs=run.working.crs, within=run.lots_extent())
    return _lots_over(run, run.surface(frame.geometry.to_numpy()))


def impaired_watershed_flags(run: Measuring, inputs: MeasureInputs) -> np.ndarray:
    """True where a lot lies (partly) in an impaired watershed; None without the layer."""
    if inputs.impaired_watersheds is None:
        if inputs.watersheds is not None:
            raise InputError(
                f"{inputs.watersheds.label()}: --watersheds gives the basins of the listed "
                "waters given as --impaired-watersheds; give that layer too"
            )
        return np.full(run.count, None, dtype=object)
    lots = run.lots_extent()

    def read(source: LayerSource, kinds: tuple[str, ...], within: Extent | None = None):
        # Whole features, even in a Dask window: a basin and the waters in it are one fact.
        return run.reader.read_around(source, kinds, run.working.crs, within or lots)

    watersheds = impaired_watersheds(
        read,
        inputs.impaired_watersheds,
        inputs.watersheds,
        run.settings.impaired_flag,
        run.reader.warn,
    )
    return _lots_over(run, run.surface(watersheds))


def _lots_over(run: Measuring, surface: Surface) -> np.ndarray:
    """True where a lot lies in the surface by :data:`MIN_LOT_OVERLAP_SQFT` or more. A
    session keeps it by the lots and the surface, which an edit mostly leaves the same
    objects (0.6 ms of a panel's answer on a project's site)."""
    lots, min_area = run.parcels.geoms, MIN_LOT_OVERLAP_SQFT / run.working.sqft_per_unit2

    def lots_over() -> np.ndarray:
        return overlaps_surface(lots, surface, min_area).astype(object)

    if run.reader.kept is None:
        return lots_over()
    return run.reader.kept.value([surface, *lots], ("lots over", min_area), lots_over).copy()


def parcel_flag_field(parcels: Parcels, candidates: tuple[str, ...]) -> np.ndarray:
    """A yes/no parcel field (1/0, Y/N, true/false) as booleans; None where absent or empty."""
    columns = attribute_columns(parcels.frame)
    field_name = find_field(columns, candidates)
    out = np.full(len(parcels.frame), None, dtype=object)
    if field_name is None:
        return out
    text = parcels.frame[field_name].astype("string").str.strip().str.upper()
    out[text.isin(_TRUE_TEXT).to_numpy(dtype=bool)] = True
    out[text.isin(_FALSE_TEXT).to_numpy(dtype=bool)] = False
    return out
