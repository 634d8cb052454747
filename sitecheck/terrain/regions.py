"""The steep parts of the disturbance as polygons: the flags of slopes over a threshold."""

from __future__ import annotations

import numpy as np
import pyproj
import rasterio
import rasterio.features
import rasterio.io
import shapely
from affine import Affine

from sitecheck.io.geometry_types import COLLECTION, POLYGON_TYPES
from sitecheck.terrain.dem import Grid

FLAG_BLOCK = 256
"""Side of the squares of cells polygonised at a time for flag polygons."""


EMPTY = shapely.Polygon()


def _polygonal(geom: shapely.Geometry) -> shapely.Geometry:
    """The polygonal parts of an overlay result; an empty polygon when none."""
    if shapely.get_type_id(geom) in POLYGON_TYPES:
        return geom
    parts = [p for p in shapely.get_parts(geom) if shapely.get_type_id(p) in POLYGON_TYPES]
    return shapely.union_all(parts) if parts else EMPTY


def _block_transform(grid: Grid, row: int, col: int) -> Affine:
    """The transform of a block of the DEM whose top-left cell is (row, col)."""
    t = grid.transform
    return Affine(t.a, 0.0, t.c + col * t.a, 0.0, t.e, t.f + row * t.e)


def steep_regions(over: np.ndarray, grid: Grid, row: int, col: int) -> np.ndarray:
    """Polygons of the True cells of a block of the DEM whose top-left cell is (row, col).

    The block is polygonised in squares of ``FLAG_BLOCK`` cells so no polygon
    grows large enough to slow the intersections that follow.
    """
    parts: list[shapely.Geometry] = []
    for i in range(0, over.shape[0], FLAG_BLOCK):
        for j in range(0, over.shape[1], FLAG_BLOCK):
            block = over[i : i + FLAG_BLOCK, j : j + FLAG_BLOCK]
            if not block.any():
                continue
            cells = block.astype(np.uint8)
            transform = _block_transform(grid, row + i, col + j)
            shapes = rasterio.features.shapes(cells, mask=block, transform=transform)
            parts.extend(shapely.geometry.shape(shape) for shape, _ in shapes)
    out = np.empty(len(parts), dtype=object)
    out[:] = parts
    return out


def flag_pieces(
    over: np.ndarray,
    grid: Grid,
    corner: tuple[int, int],
    cells: np.ndarray,
    index: np.ndarray,
    geoms: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """The parts of geometries on flagged cells of a window.

    Parameters
    ----------
    over : ndarray of bool
        Flagged cells of the window; changed in place.
    grid : Grid
    corner : tuple of int
        DEM row and column of the window's top-left cell.
    cells : ndarray of int, (n, 4)
        Each geometry's rows and columns (start, stop) in the window.
    index : ndarray of int
        The geometries, as indices into ``geoms``.
    geoms : ndarray of shapely geometries
        In the DEM's CRS.

    Returns
    -------
    tuple of ndarray
        Geometry indices and their polygonal pieces (a geometry may have several).
    """
    touched = np.zeros(over.shape, dtype=bool)
    for r0, r1, c0, c1 in cells.tolist():
        touched[r0:r1, c0:c1] = True
    over &= touched
    regions = steep_regions(over, grid, *corner)
    if not len(regions):
        return np.zeros(0, dtype=np.int64), np.empty(0, dtype=object)
    which, region = shapely.STRtree(regions).query(geoms[index], predicate="intersects")
    pieces = shapely.intersection(geoms[index[which]], regions[region])
    types = shapely.get_type_id(pieces)
    mixed = np.flatnonzero(types == COLLECTION)
    pieces[mixed] = [_polygonal(g) for g in pieces[mixed]]
    keep = np.isin(shapely.get_type_id(pieces), POLYGON_TYPES) & ~shapely.is_empty(pieces)
    return index[which[keep]], pieces[keep]


def _union_by_index(index: np.ndarray, pieces: np.ndarray, n: int) -> np.ndarray:
    """Union pieces by geometry index into an array of ``n`` (empty where none)."""
    out = np.full(n, EMPTY, dtype=object)
    if not len(index):
        return out
    order = np.argsort(index, kind="stable")
    index, pieces = index[order], pieces[order]
    starts = np.flatnonzero(np.r_[True, index[1:] != index[:-1]])
    stops = np.r_[starts[1:], len(index)]
    single = stops - starts == 1
    out[index[starts[single]]] = pieces[starts[single]]
    for start, stop in zip(starts[~single].tolist(), stops[~single].tolist(), strict=True):
        out[index[start]] = _polygonal(shapely.union_all(pieces[start:stop]))
    return out


def finish_flags(
    flags: dict[float, list[tuple[np.ndarray, np.ndarray]]],
    n: int,
    back: pyproj.Transformer | None,
) -> dict[float, np.ndarray]:
    """Union each geometry's flagged pieces and return them in the working CRS."""
    out: dict[float, np.ndarray] = {}
    for t, chunks in flags.items():
        index = np.concatenate([c[0] for c in chunks]) if chunks else np.zeros(0, np.int64)
        pieces = np.concatenate([c[1] for c in chunks]) if chunks else np.empty(0, object)
        array = _union_by_index(index, pieces, n)
        if back is not None:
            array = shapely.transform(array, back.transform, interleaved=False)
        out[t] = array
    return out
