"""Constraint layers as the disturbance is measured against them: buffers of lines and
polygons, a lot's overlap with a surface, the zoning district of each lot. Floodplain
polygons are classed in :mod:`sitecheck.constraints.flood_zones`."""

from __future__ import annotations

import geopandas as gpd
import numpy as np
import shapely

from sitecheck.geometry.overlay import Surface, intersect_pairs
from sitecheck.geometry.parallel import map_arrays


def buffered(geoms: np.ndarray, distance: float) -> np.ndarray:
    """Buffer lines or polygons by a distance in CRS units (round ends, 8 segments a quarter)."""
    return map_arrays(shapely.buffer, geoms, distance, quad_segs=8)


def overlaps_surface(lots: np.ndarray, surface: Surface, min_area: float) -> np.ndarray:
    """True where a lot overlaps the surface by at least ``min_area`` (CRS units squared)."""
    areas, _ = surface.overlap(lots, want_geometry=False)
    return areas >= min_area


def district_by_lot(
    lots: np.ndarray, zoning: gpd.GeoDataFrame, field: str, tree_lots: shapely.STRtree
) -> np.ndarray:
    """Zoning district holding the largest part of each lot (None where none)."""
    districts = zoning[field].astype("string").to_numpy(dtype=object, na_value=None)
    zones = zoning.geometry.to_numpy()
    shapely.prepare(zones)
    zone_idx, lot_idx = tree_lots.query(zones, predicate="intersects")
    out = np.full(len(lots), None, dtype=object)
    if len(zone_idx) == 0:
        return out
    overlap = shapely.area(intersect_pairs(lots[lot_idx], zones[zone_idx]))
    order = np.lexsort((overlap, lot_idx))  # largest overlap last per lot
    out[lot_idx[order]] = districts[zone_idx[order]]
    return out
