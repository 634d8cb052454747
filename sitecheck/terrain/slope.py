"""Steep-slope areas of disturbed areas, measured on a DEM.

Slope is Horn's (1981) 3x3 estimate in percent, the formula ``gdaldem slope -p``
uses. Areas come from exact cell coverage (exactextract): each geometry's share
of slope cells over a threshold, times its area in the working CRS.

The DEM is never read whole. Geometries are assigned to square tiles of DEM
cells; each tile reads the window around its geometries plus a one-cell margin,
computes slope once and measures all of them. A geometry crossing tile edges is
measured piecewise in each tile. Cells with no elevation (nodata, outside the
raster, the raster's edge ring) have no slope: they lower a geometry's coverage
and are never counted as flat.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pyproj
import rasterio
import rasterio.features
import rasterio.io
import shapely

from sitecheck.errors import InputError
from sitecheck.io.crs import WorkingCRS
from sitecheck.io.kept import KeptByIdentity, kept_value
from sitecheck.terrain.coverage import Pieces, WkbSource, tile_groups, tile_pieces, weighted_counts
from sitecheck.terrain.dem import (
    Grid,
    SlopeSettings,
    dem_dataset,
    dem_grid,
    dem_label,
    read_padded,
)
from sitecheck.terrain.horn import horn_slope_percent
from sitecheck.terrain.regions import finish_flags, flag_pieces

TILE_CELLS = 1024
"""Side of the square tiles of DEM cells geometries are grouped by.

A tile's elevations, slopes and masks are arrays of its window's cells, several of
them float64: with tiles of 2,048 cells the slope stage of the 250k bench village
reached 1,549 MiB, the check's peak, and took 3.3-3.7 s; with 1,024 it reached
1,446 MiB in 2.8 s, the windows hugging the work closer (512: 2.9 s). The JSON
documents were the same.
"""

CELL_BUDGET = 50_000_000
"""The most DEM cells one geometry's bounding box may span (about 7,000 x 7,000): a
disturbance of 100 acres on a 1 ft grid is 4.4 million. A grid of far finer cells
(a mis-set pixel size of 0.0001 ft) would take hours and gigabytes to read under
the work, so it is refused before any read, naming the cell size."""


@dataclass
class SlopeResult:
    """Per-geometry slope measurements, in the order of the input geometries.

    Attributes
    ----------
    coverage : ndarray of float
        Share (0..1) of each geometry's area on cells with a valid slope; NaN
        for an empty geometry.
    over_sqft : dict of float to ndarray
        Threshold -> area of each geometry on slope over the threshold, in the
        working CRS's square feet.
    flags : dict of float to ndarray, or None
        Threshold -> the part of each geometry on slope over the threshold, as
        polygons in the working CRS (empty polygons where none); None unless
        asked for.
    z_warning : str or None
        What a run must say about the elevation unit (assumed, or an option
        overridden by the DEM's declaration).
    """

    coverage: np.ndarray
    over_sqft: dict[float, np.ndarray]
    flags: dict[float, np.ndarray] | None = None
    z_warning: str | None = None


@dataclass
class _Totals:
    """Running sums over tiles (cells under each geometry, then over each threshold), and
    flagged pieces by threshold when asked."""

    thresholds: tuple[float, ...]
    counts: np.ndarray
    flags: dict[float, list[tuple[np.ndarray, np.ndarray]]] | None


@dataclass(frozen=True)
class _Pass:
    """One measuring's DEM (open, its path for messages, its grid), the working CRS and what
    is measured."""

    dataset: rasterio.io.DatasetReader
    path: str
    grid: Grid
    working: WorkingCRS
    settings: SlopeSettings
    want_flags: bool

    @property
    def thresholds(self) -> tuple[float, ...]:
        return tuple(sorted({float(t) for t in self.settings.thresholds_pct}))


@dataclass(frozen=True)
class _Measured:
    """The geometries measured: in the working CRS, in the DEM's (and as WKB there), and the
    transformer back to the working CRS (None when the two are the same)."""

    geoms: np.ndarray
    dem_geoms: np.ndarray
    wkb: np.ndarray
    back: pyproj.Transformer | None


def _measure_tile(
    dataset: rasterio.io.DatasetReader,
    grid: Grid,
    pieces: Pieces,
    members: np.ndarray,
    measured: _Measured,
    totals: _Totals,
) -> None:
    """Read one tile's window, compute slope once and add its geometries' sums."""
    rows = (int(pieces.row0[members].min()), int(pieces.row1[members].max()))
    cols = (int(pieces.col0[members].min()), int(pieces.col1[members].max()))
    z, valid = read_padded(dataset, rows, cols)
    x_res, y_res = grid.resolution(rows[0] - 1, z.shape[0])
    slope = horn_slope_percent(z, valid, x_res, y_res, grid.z_factor)[1:-1, 1:-1]
    index = pieces.geom[members]
    source = WkbSource(index, measured.wkb[index], grid.crs.to_wkt())
    thresholds = totals.thresholds
    found, counts = weighted_counts(slope, grid.extent(rows, cols), thresholds, source)
    totals.counts[found] += counts
    if totals.flags is None or not len(found):
        return
    order = np.argsort(index)
    at = members[order[np.searchsorted(index[order], found)]]
    cells = np.column_stack(
        [
            pieces.row0[at] - rows[0],
            pieces.row1[at] - rows[0],
            pieces.col0[at] - cols[0],
            pieces.col1[at] - cols[0],
        ]
    )
    for k, t in enumerate(thresholds):
        steep = counts[:, 1 + k] > 0
        if steep.any():
            totals.flags[t].append(
                flag_pieces(
                    slope > t,
                    grid,
                    (rows[0], cols[0]),
                    cells[steep],
                    found[steep],
                    measured.dem_geoms,
                )
            )


def _to_dem(
    geoms: np.ndarray, working: WorkingCRS, dem_crs: pyproj.CRS
) -> tuple[np.ndarray, pyproj.Transformer | None]:
    """Geometries in the DEM's CRS, and the transformer back (None when the same CRS)."""
    if dem_crs.equals(working.crs, ignore_axis_order=True):
        return geoms, None
    forward = pyproj.Transformer.from_crs(working.crs, dem_crs, always_xy=True)
    back = pyproj.Transformer.from_crs(dem_crs, working.crs, always_xy=True)
    return shapely.transform(geoms, forward.transform, interleaved=False), back


def measure_slopes(
    dem_path: str,
    geoms: np.ndarray,
    working: WorkingCRS,
    settings: SlopeSettings,
    want_flags: bool,
    kept: KeptByIdentity | None = None,
) -> SlopeResult:
    """Measure the area of each geometry on slopes over the thresholds.

    Parameters
    ----------
    dem_path : str
        The DEM raster (band 1).
    geoms : ndarray of shapely polygons
        Geometries in ``working.crs``; empty ones are allowed.
    working : WorkingCRS
        The CRS areas are reported in.
    settings : SlopeSettings
        Thresholds and elevation unit.
    want_flags : bool
        Also return the steep parts of each geometry as polygons.
    kept : KeptByIdentity, optional
        What a session keeps between answers: the DEM is held open there
        (:func:`~sitecheck.terrain.dem.dem_dataset`).

    Returns
    -------
    SlopeResult
        Coverage, steep areas in the working CRS's square feet and, when asked,
        the steep parts. Areas are each geometry's share on steep cells (in
        the DEM's CRS) times its area in the working CRS; when the two CRSs are
        the same this is exactly the coverage-weighted cell area.

    Raises
    ------
    InputError
        When the DEM cannot be read or lacks a CRS.
    """
    geoms = np.asarray(geoms, dtype=object)
    with dem_dataset(dem_path, kept) as dataset:
        # Its CRS parsed from the file's WKT: 0.5 ms a pass, kept with the open DEM.
        grid = kept_value(kept, [dataset], ("grid", settings), lambda: dem_grid(dataset, settings))
        dem = _Pass(dataset, dem_path, grid, working, settings, want_flags)
        return _measured(dem, geoms) if kept is None else _each_kept(kept, dem, geoms)


def _measured(dem: _Pass, geoms: np.ndarray) -> SlopeResult:
    """:func:`measure_slopes` of every geometry, tile by tile."""
    thresholds, grid, n = dem.thresholds, dem.grid, len(geoms)
    dem_geoms, back = _to_dem(geoms, dem.working, grid.crs)
    totals = _Totals(
        thresholds=thresholds,
        counts=np.zeros((n, 1 + len(thresholds))),
        flags={t: [] for t in thresholds} if dem.want_flags else None,
    )
    present = ~(shapely.is_empty(dem_geoms) | shapely.is_missing(dem_geoms))
    bounds = np.full((n, 4), np.nan)
    bounds[present] = shapely.bounds(dem_geoms[present])
    _refuse_over_budget(bounds, grid, dem.path)
    pieces = tile_pieces(bounds, grid, TILE_CELLS)
    wkb = np.empty(n, dtype=object)
    wkb[present] = shapely.to_wkb(dem_geoms[present])
    measured = _Measured(geoms, dem_geoms, wkb, back)
    for members in tile_groups(pieces.tile):
        _measure_tile(dem.dataset, grid, pieces, members, measured, totals)
    return _result(measured, grid, dem.working, totals)


def _each_kept(kept: KeptByIdentity, dem: _Pass, geoms: np.ndarray) -> SlopeResult:
    """:func:`measure_slopes` in a session: each geometry's measures kept by its shape, so
    an edit measures again only the work it changed (issue 30). The session holds the DEM
    open while its file is unchanged, and the measures are kept by that open DEM: a DEM
    written again is a new one, its geometries all measured afresh."""
    thresholds = dem.thresholds

    def measured(missing: np.ndarray) -> list[tuple]:
        got = _measured(dem, geoms[missing])
        return [
            (
                float(got.coverage[at]),
                tuple(float(got.over_sqft[t][at]) for t in thresholds),
                None if got.flags is None else tuple(got.flags[t][at] for t in thresholds),
            )
            for at in range(len(missing))
        ]

    working = dem.working
    where = ("slope", dem.settings, dem.want_flags, working.crs.srs, working.feet_per_unit)
    hows = [(*where, shape) for shape in shapely.to_wkb(geoms).tolist()]
    each = kept.each([dem.dataset], hows, measured)
    flags: dict[float, np.ndarray] | None = None
    if dem.want_flags:
        flags = {t: np.empty(len(each), dtype=object) for t in thresholds}
        for k, t in enumerate(thresholds):
            flags[t][:] = [parts[k] for _, _, parts in each]
    return SlopeResult(
        coverage=np.array([coverage for coverage, _, _ in each], dtype=np.float64),
        over_sqft={
            t: np.array([over[k] for _, over, _ in each], dtype=np.float64)
            for k, t in enumerate(thresholds)
        },
        flags=flags,
        z_warning=dem.grid.z_warning,
    )


def _refuse_over_budget(bounds: np.ndarray, grid: Grid, dem_path: str) -> None:
    """Refuse a DEM whose cells under any one geometry would exceed :data:`CELL_BUDGET`."""
    width, height = float(grid.transform.a), float(-grid.transform.e)
    with np.errstate(invalid="ignore", over="ignore"):
        cells = ((bounds[:, 2] - bounds[:, 0]) / width + 2) * (
            (bounds[:, 3] - bounds[:, 1]) / height + 2
        )
    if not len(cells) or not np.nanmax(cells, initial=0.0) > CELL_BUDGET:
        return
    unit = grid.crs.axis_info[0].unit_name if grid.crs.axis_info else "units"
    raise InputError(
        f"{dem_label(dem_path)}: its cells are {width:g} x {height:g} {unit}, so the work would "
        f"span {np.nanmax(cells):,.0f} cells under one area, over the {CELL_BUDGET:,} SiteCheck "
        "reads for one; check the DEM's pixel size, or resample it (gdalwarp -tr) and retry"
    )


def _result(measured: _Measured, grid: Grid, working: WorkingCRS, totals: _Totals) -> SlopeResult:
    """Turn weighted cell counts into coverage shares and square feet."""
    geoms, dem_geoms, back = measured.geoms, measured.dem_geoms, measured.back
    cell_area = float(grid.transform.a * -grid.transform.e)
    dem_area = shapely.area(dem_geoms).astype(np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        coverage = np.where(dem_area > 0, totals.counts[:, 0] * cell_area / dem_area, np.nan)
        if back is not None:
            ratio = shapely.area(geoms) * working.sqft_per_unit2 / dem_area
            sqft_per_cell = np.where(dem_area > 0, cell_area * ratio, 0.0)
        else:
            sqft_per_cell = np.full(len(geoms), cell_area * working.sqft_per_unit2)
    over = {t: totals.counts[:, 1 + k] * sqft_per_cell for k, t in enumerate(totals.thresholds)}
    flags = None if totals.flags is None else finish_flags(totals.flags, len(geoms), back)
    return SlopeResult(
        coverage=np.minimum(coverage, 1.0), over_sqft=over, flags=flags, z_warning=grid.z_warning
    )
