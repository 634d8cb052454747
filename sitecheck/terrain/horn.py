"""Slope in percent by Horn's (1981) 3x3 method, as ``gdaldem slope -p`` computes it, and slope classes."""

from __future__ import annotations

import numpy as np
import rasterio
import rasterio.features
import rasterio.io

from sitecheck.terrain.dem import NO_SLOPE, SlopeSettings, dem_grid, read_padded


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


def slope_classes(slope: np.ndarray, thresholds: tuple[float, ...]) -> np.ndarray:
    """How many of the (ascending) thresholds each cell's slope exceeds; ``NO_SLOPE`` if none."""
    classes = np.zeros(slope.shape, dtype=np.uint8)
    for t in thresholds:
        classes += slope > t
    classes[np.isnan(slope)] = NO_SLOPE
    return classes


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
    grid = dem_grid(dataset, settings)
    z, valid = read_padded(dataset, rows, cols)
    x_res, y_res = grid.resolution(rows[0] - 1, rows[1] - rows[0] + 2)
    return horn_slope_percent(z, valid, x_res, y_res, grid.z_factor)[1:-1, 1:-1]
