"""Exact cell coverage of geometries by slope class (exactextract), tile by tile."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import exactextract
import numpy as np
from exactextract.feature import Feature, FeatureSource
from exactextract.raster import NumPyRasterSource

from sitecheck.terrain.dem import NO_SLOPE, Grid
from sitecheck.terrain.horn import slope_classes


@dataclass
class Pieces:
    """Geometry-by-tile pieces: which geometry, which tile, its cells in the tile."""

    geom: np.ndarray
    tile: np.ndarray
    row0: np.ndarray
    row1: np.ndarray
    col0: np.ndarray
    col1: np.ndarray


def cell_bounds(bounds: np.ndarray, grid: Grid) -> tuple[np.ndarray, ...]:
    """Rows and columns (start, stop) of the cells under each bounding box, clipped."""
    t = grid.transform
    with np.errstate(invalid="ignore"):
        col0 = np.floor((bounds[:, 0] - t.c) / t.a)
        col1 = np.ceil((bounds[:, 2] - t.c) / t.a)
        row0 = np.floor((bounds[:, 3] - t.f) / t.e)
        row1 = np.ceil((bounds[:, 1] - t.f) / t.e)
    limits = ((row0, grid.height), (row1, grid.height), (col0, grid.width), (col1, grid.width))
    return tuple(np.clip(np.nan_to_num(v, nan=0.0), 0, n).astype(np.int64) for v, n in limits)


def tile_pieces(bounds: np.ndarray, grid: Grid, tile: int) -> Pieces:
    """Split each geometry's cell block by the square tiles it touches.

    Geometries with no cells in the raster get no pieces.
    """
    row0, row1, col0, col1 = cell_bounds(bounds, grid)
    inside = np.flatnonzero((row1 > row0) & (col1 > col0))
    row0, row1, col0, col1 = row0[inside], row1[inside], col0[inside], col1[inside]
    tr0, tc0 = row0 // tile, col0 // tile
    n_tr, n_tc = (row1 - 1) // tile - tr0 + 1, (col1 - 1) // tile - tc0 + 1
    counts = n_tr * n_tc
    which = np.repeat(np.arange(len(inside)), counts)
    k = np.arange(int(counts.sum())) - np.repeat(np.cumsum(counts) - counts, counts)
    tr = tr0[which] + k // n_tc[which]
    tc = tc0[which] + k % n_tc[which]
    tiles_across = (grid.width + tile - 1) // tile
    return Pieces(
        geom=inside[which],
        tile=tr * tiles_across + tc,
        row0=np.maximum(row0[which], tr * tile),
        row1=np.minimum(row1[which], (tr + 1) * tile),
        col0=np.maximum(col0[which], tc * tile),
        col1=np.minimum(col1[which], (tc + 1) * tile),
    )


def tile_groups(tiles: np.ndarray) -> Iterator[np.ndarray]:
    """Positions of the pieces of each tile."""
    order = np.argsort(tiles, kind="stable")
    starts = np.flatnonzero(np.r_[True, tiles[order][1:] != tiles[order][:-1]])
    if len(order):
        yield from np.split(order, starts[1:])


class _WkbFeature(Feature):
    """A feature exactextract reads as WKB; far cheaper than GeoJSON round trips."""

    def __init__(self, index: int, wkb: bytes) -> None:
        Feature.__init__(self)
        self.index = index
        self.wkb = wkb
        self.values: dict[str, object] = {}

    def geometry(self) -> bytes:
        return self.wkb

    def get(self, name: str) -> object:
        return self.index if name == "gi" else self.values[name]

    def set(self, name: str, value: object) -> None:
        self.values[name] = value

    def fields(self) -> list[str]:
        return ["gi"]

    def set_geometry_format(self) -> str:
        return "wkb"


class WkbSource(FeatureSource):
    """Geometries (as WKB) with their index in the caller's array as field ``gi``."""

    def __init__(self, index: np.ndarray, wkb: np.ndarray, srs_wkt: str) -> None:
        super().__init__()
        self.index = index
        self.wkb = wkb
        self.wkt = srs_wkt

    def count(self) -> int:
        return len(self.index)

    def __iter__(self) -> Iterator[_WkbFeature]:
        for i, wkb in zip(self.index.tolist(), self.wkb, strict=True):
            yield _WkbFeature(i, wkb)

    def srs_wkt(self) -> str:
        return self.wkt


def weighted_counts(
    slope: np.ndarray,
    extent: tuple[float, ...],
    thresholds: tuple[float, ...],
    source: WkbSource,
) -> tuple[np.ndarray, np.ndarray]:
    """Coverage-weighted cell counts per geometry: valid cells, then cells over each threshold.

    One class raster (cells coded by how many thresholds they exceed) and the
    ``count`` and ``frac`` operations give every threshold from a single
    coverage computation per geometry.

    Parameters
    ----------
    slope : ndarray
        Slope in percent, NaN where unknown.
    extent : tuple of float
        xmin, ymin, xmax, ymax of ``slope``.
    thresholds : tuple of float
        Ascending thresholds.
    source : WkbSource
        The geometries, in the slope raster's CRS.

    Returns
    -------
    tuple of ndarray
        Geometry indices and an array (n, 1 + len(thresholds)) of counts.
    """
    raster = NumPyRasterSource(
        slope_classes(slope, thresholds), *extent, nodata=NO_SLOPE, srs_wkt=source.wkt
    )
    # Each feature's values as exactextract gives them, not as a table: a table made of a
    # panel's one or two geometries cost 0.55 ms of each slope pass (0.84 against 0.30 ms),
    # where 3,000 geometries take the same time either way (61 against 63 ms).
    features = exactextract.exact_extract(
        raster, source, ["count", "unique", "frac"], include_cols=["gi"], output="geojson"
    )
    values = [feature["properties"] for feature in features]
    n, k = len(values), len(thresholds)
    if n == 0:
        return np.zeros(0, dtype=np.int64), np.zeros((0, 1 + k))
    count = np.nan_to_num(np.array([v["count"] for v in values], dtype=np.float64))
    classes = [np.asarray(v["unique"], dtype=np.int64) for v in values]
    row = np.repeat(np.arange(n), [len(c) for c in classes])
    per_class = np.zeros((n, k + 1))
    if len(row):
        fractions = np.concatenate([np.asarray(v["frac"], dtype=np.float64) for v in values])
        np.add.at(per_class, (row, np.concatenate(classes)), fractions * count[row])
    over = np.cumsum(per_class[:, ::-1], axis=1)[:, ::-1][:, 1:]  # classes above each threshold
    return np.array([v["gi"] for v in values], dtype=np.int64), np.column_stack([count, over])
