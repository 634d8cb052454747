"""The disturbance in each constraint layer: floodplain, wetlands and their adjacent area,
watercourse buffers, the adjoining property buffer; and the lot-wide facts (SDA, impaired
watershed, zoning district)."""

from __future__ import annotations

import numpy as np
import shapely

from sitecheck.constraints.adjoining import disturbance_in_buffer
from sitecheck.constraints.layers import buffered, district_by_lot, flood_surfaces, overlaps_surface
from sitecheck.errors import InputError
from sitecheck.geometry.overlay import (
    Surface,
    empty_array,
)
from sitecheck.io.crs import WorkingCRS
from sitecheck.io.parcels import Parcels, find_field
from sitecheck.io.readers import LINEAR, POLYGONAL, LayerReader, LayerSource
from sitecheck.measure.inputs import MeasureSettings
from sitecheck.measure.table import FlagCollector
from sitecheck.schema.fields import ZONING_FIELD_CANDIDATES

_TRUE_TEXT = {"1", "T", "TRUE", "Y", "YES"}


_FALSE_TEXT = {"0", "F", "FALSE", "N", "NO"}


MIN_LOT_OVERLAP_SQFT = 1.0  # a lot is "in" the SDA / impaired watershed from this overlap up


def _active_overlap(
    surface: Surface, disturbed: np.ndarray, active: np.ndarray, n: int
) -> tuple[np.ndarray, np.ndarray]:
    """Overlap of the disturbed lots with a surface; zeros and empties elsewhere."""
    areas = np.zeros(n)
    geoms = empty_array(n)
    got_areas, got_geoms = surface.overlap(disturbed[active], want_geometry=True)
    areas[active] = got_areas
    assert got_geoms is not None
    geoms[active] = got_geoms
    return areas, geoms


def measure_floodplain(
    source: LayerSource | None,
    reader: LayerReader,
    working: WorkingCRS,
    disturbed: np.ndarray,
    active: np.ndarray,
    tile: float,
    metrics: dict[str, np.ndarray],
    flags: FlagCollector,
) -> None:
    n = len(disturbed)
    names = {
        "one_pct": ("disturbed_in_floodplain_1pct_sqft", "floodplain_1pct"),
        "zero_two_pct": ("disturbed_in_floodplain_0_2pct_sqft", "floodplain_0_2pct"),
        "floodway": ("disturbed_in_floodway_sqft", "floodway"),
    }
    if source is None:
        for metric, _ in names.values():
            metrics[metric] = np.full(n, np.nan)
        return
    frame = reader.read(source, POLYGONAL, target_crs=working.crs)
    surfaces = flood_surfaces(frame, source, tile)
    for attribute, (metric, kind) in names.items():
        areas, geoms = _active_overlap(getattr(surfaces, attribute), disturbed, active, n)
        metrics[metric] = areas * working.sqft_per_unit2
        flags.add(kind, geoms, working.sqft_per_unit2)


def measure_wetlands(
    source: LayerSource | None,
    reader: LayerReader,
    working: WorkingCRS,
    settings: MeasureSettings,
    disturbed: np.ndarray,
    active: np.ndarray,
    tile: float,
    metrics: dict[str, np.ndarray],
    flags: FlagCollector,
) -> None:
    n = len(disturbed)
    if source is None:
        metrics["disturbed_in_wetland_sqft"] = np.full(n, np.nan)
        metrics["disturbed_in_wetland_adjacent_sqft"] = np.full(n, np.nan)
        return
    frame = reader.read(source, POLYGONAL, target_crs=working.crs)
    wetlands = frame.geometry.to_numpy()
    width = settings.wetland_adjacent_ft / working.feet_per_unit
    in_wetland, wetland_geoms = _active_overlap(
        Surface.from_polygons(wetlands, tile), disturbed, active, n
    )
    in_zone, zone_geoms = _active_overlap(
        Surface.from_polygons(buffered(wetlands, width), tile), disturbed, active, n
    )
    sqft = working.sqft_per_unit2
    metrics["disturbed_in_wetland_sqft"] = in_wetland * sqft
    metrics["disturbed_in_wetland_adjacent_sqft"] = np.clip(in_zone - in_wetland, 0.0, None) * sqft
    flags.add("wetland", wetland_geoms, sqft)
    flags.add("wetland_adjacent", shapely.difference(zone_geoms, wetland_geoms), sqft)


def measure_watercourses(
    source: LayerSource | None,
    reader: LayerReader,
    working: WorkingCRS,
    settings: MeasureSettings,
    disturbed: np.ndarray,
    active: np.ndarray,
    tile: float,
    metrics: dict[str, np.ndarray],
    flags: FlagCollector,
) -> None:
    n = len(disturbed)
    if source is None:
        metrics["disturbed_in_watercourse_buffer_sqft"] = np.full(n, np.nan)
        return
    frame = reader.read(source, POLYGONAL + LINEAR, target_crs=working.crs)
    width = settings.watercourse_buffer_ft / working.feet_per_unit
    surface = Surface.from_polygons(buffered(frame.geometry.to_numpy(), width), tile)
    areas, geoms = _active_overlap(surface, disturbed, active, n)
    metrics["disturbed_in_watercourse_buffer_sqft"] = areas * working.sqft_per_unit2
    flags.add("watercourse_buffer", geoms, working.sqft_per_unit2)


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
        frame = reader.read(source, POLYGONAL, target_crs=parcels.working.crs)
        columns = [c for c in frame.columns if c not in (frame.geometry.name, "_fid")]
        field_name = find_field(columns, candidates)
        if field_name is None:
            raise InputError(
                f"{source.label()}: no district field ({', '.join(candidates)}); "
                f"name it with --zoning-field; fields are: {', '.join(columns)}"
            )
        return district_by_lot(parcels.geoms, frame, field_name, lot_tree)
    columns = [c for c in parcels.frame.columns if c != parcels.frame.geometry.name]
    field_name = find_field(columns, candidates)
    if field_name is None:
        if settings.zoning_field:
            raise InputError(
                f"parcels layer: no zoning field '{settings.zoning_field}' and no zoning layer"
            )
        return None
    return parcels.frame[field_name].astype("string").to_numpy(dtype=object, na_value=None)


def measure_adjoining(
    source: LayerSource | None,
    parcels: Parcels,
    reader: LayerReader,
    settings: MeasureSettings,
    districts: np.ndarray | None,
    disturbed: np.ndarray,
    active: np.ndarray,
    tile: float,
    metrics: dict[str, np.ndarray],
    flags: FlagCollector,
) -> None:
    """Disturbance in the adjoining property buffer: a drawn layer, else derived from the lots."""
    n = len(disturbed)
    working = parcels.working
    if source is not None:
        frame = reader.read(source, POLYGONAL, target_crs=working.crs)
        surface = Surface.from_polygons(frame.geometry.to_numpy(), tile)
        areas, geoms = _active_overlap(surface, disturbed, active, n)
    else:
        geoms = disturbance_in_buffer(
            parcels.geoms, disturbed, districts, settings.adjoining, working.feet_per_unit, active
        )
        areas = shapely.area(geoms)
    metrics["disturbed_in_adjoining_buffer_sqft"] = areas * working.sqft_per_unit2
    flags.add("adjoining_buffer", geoms, working.sqft_per_unit2)


def lot_flag_layer(
    source: LayerSource | None,
    reader: LayerReader,
    working: WorkingCRS,
    lots: np.ndarray,
    tile: float,
) -> np.ndarray:
    """True where a lot lies (partly) in the layer's polygons; None without the layer."""
    if source is None:
        return np.full(len(lots), None, dtype=object)
    frame = reader.read(source, POLYGONAL, target_crs=working.crs)
    surface = Surface.from_polygons(frame.geometry.to_numpy(), tile)
    min_area = MIN_LOT_OVERLAP_SQFT / working.sqft_per_unit2
    return overlaps_surface(lots, surface, min_area).astype(object)


def parcel_flag_field(parcels: Parcels, candidates: tuple[str, ...]) -> np.ndarray:
    """A yes/no parcel field (1/0, Y/N, true/false) as booleans; None where absent or empty."""
    columns = [c for c in parcels.frame.columns if c != parcels.frame.geometry.name]
    field_name = find_field(columns, candidates)
    out = np.full(len(parcels.frame), None, dtype=object)
    if field_name is None:
        return out
    text = parcels.frame[field_name].astype("string").str.strip().str.upper()
    out[text.isin(_TRUE_TEXT).to_numpy(dtype=bool)] = True
    out[text.isin(_FALSE_TEXT).to_numpy(dtype=bool)] = False
    return out
