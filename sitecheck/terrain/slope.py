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

import math
from collections.abc import Iterator
from dataclasses import dataclass

import exactextract
import numpy as np
import pyproj
import rasterio
import rasterio.features
import rasterio.io
import shapely
from affine import Affine
from exactextract.feature import Feature, FeatureSource
from exactextract.raster import NumPyRasterSource
from rasterio.enums import MaskFlags
from rasterio.windows import Window

from sitecheck.errors import InputError
from sitecheck.io.crs import INTERNATIONAL_FOOT_M, US_SURVEY_FOOT_M, WorkingCRS

TILE_CELLS = 2048
"""Side of the square tiles of DEM cells geometries are grouped by."""

FLAG_BLOCK = 256
"""Side of the squares of cells polygonised at a time for flag polygons."""

NO_SLOPE = 255
"""Class of cells without a slope in the class raster given to exactextract."""

Z_UNIT_METRES = {"ft": INTERNATIONAL_FOOT_M, "us-ft": US_SURVEY_FOOT_M, "m": 1.0}

EMPTY = shapely.Polygon()


@dataclass(frozen=True)
class SlopeSettings:
    """What to measure.

    Attributes
    ----------
    thresholds_pct : tuple of float
        Slope thresholds in percent; areas are reported on slope strictly
        greater than each.
    z_units : str or None
        Unit of the DEM's elevations: ``"ft"``, ``"us-ft"`` or ``"m"``. None
        means the DEM's horizontal unit (metres for a geographic DEM).
    """

    thresholds_pct: tuple[float, ...] = (15.0, 25.0)
    z_units: str | None = None

    def __post_init__(self) -> None:
        if self.z_units is not None and self.z_units not in Z_UNIT_METRES:
            known = ", ".join(Z_UNIT_METRES)
            raise InputError(f"slope settings: unknown z units {self.z_units!r}; use {known}")
        if not all(math.isfinite(t) for t in self.thresholds_pct):
            raise InputError(f"slope settings: thresholds must be numbers: {self.thresholds_pct}")
        if len(self.thresholds_pct) >= NO_SLOPE:
            raise InputError(f"slope settings: at most {NO_SLOPE - 1} thresholds")


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
    """

    coverage: np.ndarray
    over_sqft: dict[float, np.ndarray]
    flags: dict[float, np.ndarray] | None = None


def _label(path: str) -> str:
    return f"dem raster ({path})"


def open_dem(path: str) -> rasterio.io.DatasetReader:
    """Open a DEM and check it has what measuring needs.

    Parameters
    ----------
    path : str
        Any raster GDAL reads; band 1 holds the elevations.

    Returns
    -------
    rasterio.io.DatasetReader
        The open dataset; the caller closes it.

    Raises
    ------
    InputError
        When the file cannot be read, has no bands, no CRS, or a rotated or
        south-up grid.
    """
    try:
        dataset = rasterio.open(path)
    except (rasterio.errors.RasterioError, OSError) as error:
        text = str(error).strip()
        first_line = text.splitlines()[0] if text else type(error).__name__
        raise InputError(f"{_label(path)}: cannot read: {first_line}") from error
    problem = _dem_problem(dataset)
    if problem:
        dataset.close()
        raise InputError(f"{_label(path)}: {problem}")
    return dataset


def _dem_problem(dataset: rasterio.io.DatasetReader) -> str | None:
    """Why a DEM cannot be measured on, or None."""
    if dataset.count < 1:
        return "has no raster bands"
    if dataset.crs is None:
        return "has no CRS; assign one (e.g. EPSG:2260) and retry"
    t = dataset.transform
    if t.b != 0 or t.d != 0 or t.a <= 0 or t.e >= 0:
        return "grid is rotated or not north-up; warp it (gdalwarp) and retry"
    return None


def horn_slope_percent(
    z: np.ndarray,
    valid: np.ndarray,
    x_res: float | np.ndarray,
    y_res: float | np.ndarray,
    z_factor: float,
) -> np.ndarray:
    """Slope in percent by Horn's 3x3 method, as ``gdaldem slope -p`` computes it.

    Parameters
    ----------
    z : ndarray, 2-D
        Elevations.
    valid : ndarray of bool, same shape
        True where ``z`` holds an elevation.
    x_res, y_res : float or ndarray
        Cell width and height in horizontal units; either may be a per-row
        vector (length ``z.shape[0]``, or a column of that length), e.g. cell
        widths in metres of a geographic DEM.
    z_factor : float
        One elevation unit in horizontal units; elevations are multiplied by it.

    Returns
    -------
    ndarray of float64, same shape
        ``100 * sqrt(dz/dx**2 + dz/dy**2)``; NaN where the cell or any of its
        eight neighbours is invalid, and on the outer ring of cells.
    """
    z = np.asarray(z, dtype=np.float64)
    out = np.full(z.shape, np.nan)
    rows, cols = z.shape
    if rows < 3 or cols < 3:
        return out
    xr = _inner_rows(x_res, rows)
    yr = _inner_rows(y_res, rows)
    with np.errstate(invalid="ignore", over="ignore"):
        dzdx = _squared_gradient(z, xr, axis=1)
        dzdx += _squared_gradient(z, yr, axis=0)
        np.sqrt(dzdx, out=dzdx)
        dzdx *= 100.0 * abs(z_factor)
    np.copyto(out[1:-1, 1:-1], dzdx, where=_all_nine(np.asarray(valid, dtype=bool)))
    return out


def _squared_gradient(z: np.ndarray, res: float | np.ndarray, axis: int) -> np.ndarray:
    """Horn's squared gradient along one axis for the inner cells.

    Along columns (``axis=1``): ``((c + 2f + i) - (a + 2d + g)) / (8 * res)``,
    squared; along rows the same with the stencil turned. Works in place on
    temporaries: this runs over every DEM cell.
    """
    if axis == 1:
        smooth = np.add(z[:-2], z[2:])
        smooth += z[1:-1]
        smooth += z[1:-1]
        gradient = np.subtract(smooth[:, 2:], smooth[:, :-2])
    else:
        smooth = np.add(z[:, :-2], z[:, 2:])
        smooth += z[:, 1:-1]
        smooth += z[:, 1:-1]
        gradient = np.subtract(smooth[2:], smooth[:-2])
    del smooth
    gradient /= 8.0 * res
    gradient *= gradient
    return gradient


def _inner_rows(res: float | np.ndarray, rows: int) -> float | np.ndarray:
    """A resolution for the inner rows: a scalar, or a column of ``rows - 2``."""
    array = np.asarray(res, dtype=np.float64)
    if array.size == 1:
        return float(array.reshape(-1)[0])
    if array.size != rows:
        raise ValueError(f"per-row resolution has {array.size} values for {rows} rows")
    return np.abs(array.reshape(rows, 1)[1:-1])


def _all_nine(valid: np.ndarray) -> np.ndarray:
    """For inner cells: True where the cell and its 8 neighbours are all valid."""
    column = valid[:-2] & valid[1:-1] & valid[2:]
    return column[:, :-2] & column[:, 1:-1] & column[:, 2:]


def _horizontal(crs: pyproj.CRS) -> pyproj.CRS:
    """The horizontal part of a CRS (itself unless compound)."""
    if crs.is_compound and crs.sub_crs_list:
        return crs.sub_crs_list[0]
    return crs


def z_factor(dem_crs: pyproj.CRS, z_units: str | None) -> float:
    """Elevation unit in horizontal units (metres for a geographic DEM).

    Parameters
    ----------
    dem_crs : pyproj.CRS
        The DEM's CRS.
    z_units : str or None
        ``"ft"``, ``"us-ft"``, ``"m"``, or None for the horizontal unit.
    """
    if z_units is None:
        return 1.0
    horizontal = _horizontal(dem_crs)
    metres = 1.0 if horizontal.is_geographic else horizontal.axis_info[0].unit_conversion_factor
    return Z_UNIT_METRES[z_units] / float(metres)


def geographic_cell_metres(
    transform: Affine, row_off: int, n_rows: int, crs: pyproj.CRS
) -> tuple[np.ndarray, np.ndarray]:
    """Cell width and height in metres per row of a geographic grid.

    Width is the parallel's arc ``N(lat) cos(lat) dlon``, height the meridian's
    ``M(lat) dlat``, at each row's centre latitude on the CRS's ellipsoid.

    Returns
    -------
    tuple of ndarray
        Columns (``n_rows`` x 1) of widths and heights.
    """
    horizontal = _horizontal(crs)
    ellipsoid = horizontal.ellipsoid
    if ellipsoid is None:  # no datum given: WGS 84
        a, inverse_flattening = 6378137.0, 298.257223563
    else:
        a, inverse_flattening = ellipsoid.semi_major_metre, ellipsoid.inverse_flattening or 0.0
    flattening = 1.0 / inverse_flattening if inverse_flattening else 0.0
    e2 = flattening * (2.0 - flattening)
    radians_per_unit = float(horizontal.axis_info[0].unit_conversion_factor)
    rows = row_off + np.arange(n_rows, dtype=np.float64) + 0.5
    lat = np.clip((transform.f + transform.e * rows) * radians_per_unit, -np.pi / 2, np.pi / 2)
    w = 1.0 - e2 * np.sin(lat) ** 2
    width = a / np.sqrt(w) * np.cos(lat) * transform.a * radians_per_unit
    height = a * (1.0 - e2) / w**1.5 * abs(transform.e) * radians_per_unit
    return width.reshape(-1, 1), height.reshape(-1, 1)


@dataclass(frozen=True)
class _Grid:
    """The DEM grid and how to turn its cells into slope."""

    transform: Affine
    width: int
    height: int
    crs: pyproj.CRS
    geographic: bool
    z_factor: float

    def resolution(self, row_off: int, n_rows: int) -> tuple[float | np.ndarray, ...]:
        """Cell width and height for slope: CRS units, or metres per row if geographic."""
        if self.geographic:
            return geographic_cell_metres(self.transform, row_off, n_rows, self.crs)
        return float(self.transform.a), float(-self.transform.e)

    def extent(self, rows: tuple[int, int], cols: tuple[int, int]) -> tuple[float, ...]:
        """xmin, ymin, xmax, ymax of a block of cells."""
        t = self.transform
        return (t.c + cols[0] * t.a, t.f + rows[1] * t.e, t.c + cols[1] * t.a, t.f + rows[0] * t.e)


def _grid(dataset: rasterio.io.DatasetReader, settings: SlopeSettings) -> _Grid:
    crs = pyproj.CRS.from_wkt(dataset.crs.to_wkt())
    scale = dataset.scales[0] if dataset.scales and dataset.scales[0] else 1.0
    return _Grid(
        transform=dataset.transform,
        width=dataset.width,
        height=dataset.height,
        crs=crs,
        geographic=_horizontal(crs).is_geographic,
        z_factor=z_factor(crs, settings.z_units) * float(scale),
    )


def read_padded(
    dataset: rasterio.io.DatasetReader, rows: tuple[int, int], cols: tuple[int, int]
) -> tuple[np.ndarray, np.ndarray]:
    """Band 1 over a block of cells plus a one-cell margin.

    Margin cells outside the raster are invalid. Validity honours the band's
    nodata value or mask, and non-finite values are invalid.

    Returns
    -------
    tuple of ndarray
        Elevations (float64) and validity (bool), ``(rows + 2, cols + 2)``.
    """
    top, left = rows[0] - 1, cols[0] - 1
    shape = (rows[1] - rows[0] + 2, cols[1] - cols[0] + 2)
    z = np.full(shape, np.nan)
    valid = np.zeros(shape, dtype=bool)
    r0, r1 = max(top, 0), min(rows[1] + 1, dataset.height)
    c0, c1 = max(left, 0), min(cols[1] + 1, dataset.width)
    window = Window(c0, r0, c1 - c0, r1 - r0)
    data = dataset.read(1, window=window)
    z[r0 - top : r1 - top, c0 - left : c1 - left] = data
    valid[r0 - top : r1 - top, c0 - left : c1 - left] = _valid_cells(dataset, data, window)
    return z, valid


def _valid_cells(
    dataset: rasterio.io.DatasetReader, data: np.ndarray, window: Window
) -> np.ndarray:
    """True where a block read from band 1 holds an elevation."""
    flags = dataset.mask_flag_enums[0]
    nodata = dataset.nodata
    if MaskFlags.all_valid in flags:
        ok = np.ones(data.shape, dtype=bool)
    elif MaskFlags.nodata in flags and nodata is not None:
        ok = ~np.isnan(data) if np.isnan(nodata) else data != nodata
    else:
        ok = dataset.read_masks(1, window=window) > 0
    if np.issubdtype(data.dtype, np.floating):
        ok &= np.isfinite(data)
    return ok


@dataclass
class _Pieces:
    """Geometry-by-tile pieces: which geometry, which tile, its cells in the tile."""

    geom: np.ndarray
    tile: np.ndarray
    row0: np.ndarray
    row1: np.ndarray
    col0: np.ndarray
    col1: np.ndarray


def cell_bounds(bounds: np.ndarray, grid: _Grid) -> tuple[np.ndarray, ...]:
    """Rows and columns (start, stop) of the cells under each bounding box, clipped."""
    t = grid.transform
    with np.errstate(invalid="ignore"):
        col0 = np.floor((bounds[:, 0] - t.c) / t.a)
        col1 = np.ceil((bounds[:, 2] - t.c) / t.a)
        row0 = np.floor((bounds[:, 3] - t.f) / t.e)
        row1 = np.ceil((bounds[:, 1] - t.f) / t.e)
    limits = ((row0, grid.height), (row1, grid.height), (col0, grid.width), (col1, grid.width))
    return tuple(np.clip(np.nan_to_num(v, nan=0.0), 0, n).astype(np.int64) for v, n in limits)


def tile_pieces(bounds: np.ndarray, grid: _Grid, tile: int) -> _Pieces:
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
    return _Pieces(
        geom=inside[which],
        tile=tr * tiles_across + tc,
        row0=np.maximum(row0[which], tr * tile),
        row1=np.minimum(row1[which], (tr + 1) * tile),
        col0=np.maximum(col0[which], tc * tile),
        col1=np.minimum(col1[which], (tc + 1) * tile),
    )


def _groups(tiles: np.ndarray) -> Iterator[np.ndarray]:
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


class _WkbSource(FeatureSource):
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


def slope_classes(slope: np.ndarray, thresholds: tuple[float, ...]) -> np.ndarray:
    """How many of the (ascending) thresholds each cell's slope exceeds; ``NO_SLOPE`` if none."""
    classes = np.zeros(slope.shape, dtype=np.uint8)
    for t in thresholds:
        classes += slope > t
    classes[np.isnan(slope)] = NO_SLOPE
    return classes


def weighted_counts(
    slope: np.ndarray,
    extent: tuple[float, ...],
    thresholds: tuple[float, ...],
    source: _WkbSource,
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
    source : _WkbSource
        The geometries, in the slope raster's CRS.

    Returns
    -------
    tuple of ndarray
        Geometry indices and an array (n, 1 + len(thresholds)) of counts.
    """
    raster = NumPyRasterSource(
        slope_classes(slope, thresholds), *extent, nodata=NO_SLOPE, srs_wkt=source.wkt
    )
    frame = exactextract.exact_extract(
        raster, source, ["count", "unique", "frac"], include_cols=["gi"], output="pandas"
    )
    n, k = len(frame), len(thresholds)
    if n == 0:
        return np.zeros(0, dtype=np.int64), np.zeros((0, 1 + k))
    count = np.nan_to_num(frame["count"].to_numpy(np.float64))
    classes = [np.asarray(u, dtype=np.int64) for u in frame["unique"]]
    row = np.repeat(np.arange(n), [len(c) for c in classes])
    per_class = np.zeros((n, k + 1))
    if len(row):
        fractions = np.concatenate([np.asarray(f, dtype=np.float64) for f in frame["frac"]])
        np.add.at(per_class, (row, np.concatenate(classes)), fractions * count[row])
    over = np.cumsum(per_class[:, ::-1], axis=1)[:, ::-1][:, 1:]  # classes above each threshold
    return frame["gi"].to_numpy(np.int64), np.column_stack([count, over])


def _polygonal(geom: shapely.Geometry) -> shapely.Geometry:
    """The polygonal parts of an overlay result; an empty polygon when none."""
    if shapely.get_type_id(geom) in (3, 6):
        return geom
    parts = [p for p in shapely.get_parts(geom) if shapely.get_type_id(p) in (3, 6)]
    return shapely.union_all(parts) if parts else EMPTY


def _block_transform(grid: _Grid, row: int, col: int) -> Affine:
    """The transform of a block of the DEM whose top-left cell is (row, col)."""
    t = grid.transform
    return Affine(t.a, 0.0, t.c + col * t.a, 0.0, t.e, t.f + row * t.e)


def steep_regions(over: np.ndarray, grid: _Grid, row: int, col: int) -> np.ndarray:
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
    grid: _Grid,
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
    grid : _Grid
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
    mixed = np.flatnonzero(types == 7)
    pieces[mixed] = [_polygonal(g) for g in pieces[mixed]]
    keep = np.isin(shapely.get_type_id(pieces), (3, 6)) & ~shapely.is_empty(pieces)
    return index[which[keep]], pieces[keep]


@dataclass
class _Totals:
    """Running sums over tiles, and flagged pieces by threshold when asked."""

    counts: np.ndarray
    flags: dict[float, list[tuple[np.ndarray, np.ndarray]]] | None


def _measure_tile(
    dataset: rasterio.io.DatasetReader,
    grid: _Grid,
    pieces: _Pieces,
    members: np.ndarray,
    geoms: np.ndarray,
    wkb: np.ndarray,
    thresholds: tuple[float, ...],
    totals: _Totals,
) -> None:
    """Read one tile's window, compute slope once and add its geometries' sums."""
    rows = (int(pieces.row0[members].min()), int(pieces.row1[members].max()))
    cols = (int(pieces.col0[members].min()), int(pieces.col1[members].max()))
    z, valid = read_padded(dataset, rows, cols)
    x_res, y_res = grid.resolution(rows[0] - 1, z.shape[0])
    slope = horn_slope_percent(z, valid, x_res, y_res, grid.z_factor)[1:-1, 1:-1]
    index = pieces.geom[members]
    source = _WkbSource(index, wkb[index], grid.crs.to_wkt())
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
                flag_pieces(slope > t, grid, (rows[0], cols[0]), cells[steep], found[steep], geoms)
            )


def _union_by_index(index: np.ndarray, pieces: np.ndarray, n: int) -> np.ndarray:
    """Union pieces by geometry index into an array of ``n`` (empty where none)."""
    out = np.empty(n, dtype=object)
    out[:] = [EMPTY] * n
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


def _finish_flags(
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
    thresholds = tuple(sorted({float(t) for t in settings.thresholds_pct}))
    n = len(geoms)
    with open_dem(dem_path) as dataset:
        grid = _grid(dataset, settings)
        dem_geoms, back = _to_dem(geoms, working, grid.crs)
        totals = _Totals(
            counts=np.zeros((n, 1 + len(thresholds))),
            flags={t: [] for t in thresholds} if want_flags else None,
        )
        present = ~(shapely.is_empty(dem_geoms) | shapely.is_missing(dem_geoms))
        bounds = np.full((n, 4), np.nan)
        bounds[present] = shapely.bounds(dem_geoms[present])
        pieces = tile_pieces(bounds, grid, TILE_CELLS)
        wkb = np.empty(n, dtype=object)
        wkb[present] = shapely.to_wkb(dem_geoms[present])
        for members in _groups(pieces.tile):
            _measure_tile(dataset, grid, pieces, members, dem_geoms, wkb, thresholds, totals)
    return _result(geoms, dem_geoms, grid, working, thresholds, totals, back)


def _result(
    geoms: np.ndarray,
    dem_geoms: np.ndarray,
    grid: _Grid,
    working: WorkingCRS,
    thresholds: tuple[float, ...],
    totals: _Totals,
    back: pyproj.Transformer | None,
) -> SlopeResult:
    """Turn weighted cell counts into coverage shares and square feet."""
    cell_area = float(grid.transform.a * -grid.transform.e)
    dem_area = shapely.area(dem_geoms).astype(np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        coverage = np.where(dem_area > 0, totals.counts[:, 0] * cell_area / dem_area, np.nan)
        if back is not None:
            ratio = shapely.area(geoms) * working.sqft_per_unit2 / dem_area
            sqft_per_cell = np.where(dem_area > 0, cell_area * ratio, 0.0)
        else:
            sqft_per_cell = np.full(len(geoms), cell_area * working.sqft_per_unit2)
    over = {t: totals.counts[:, 1 + k] * sqft_per_cell for k, t in enumerate(thresholds)}
    flags = None if totals.flags is None else _finish_flags(totals.flags, len(geoms), back)
    return SlopeResult(coverage=np.minimum(coverage, 1.0), over_sqft=over, flags=flags)


def slope_block(
    dataset: rasterio.io.DatasetReader,
    settings: SlopeSettings,
    rows: tuple[int, int],
    cols: tuple[int, int],
) -> np.ndarray:
    """Slope in percent over a block of DEM cells (NaN where it cannot be computed).

    The block is read with a one-cell margin, so blocks tiled over a raster give
    the same slope as the whole raster at once.
    """
    grid = _grid(dataset, settings)
    z, valid = read_padded(dataset, rows, cols)
    x_res, y_res = grid.resolution(rows[0] - 1, rows[1] - rows[0] + 2)
    return horn_slope_percent(z, valid, x_res, y_res, grid.z_factor)[1:-1, 1:-1]
