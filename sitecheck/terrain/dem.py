"""Reading a DEM: checks, vertical units, cell sizes, windows with a one-cell margin."""

from __future__ import annotations

import math
import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import numpy as np
import pyproj
import rasterio
import rasterio.errors
import rasterio.features
import rasterio.io
from affine import Affine
from rasterio.enums import MaskFlags
from rasterio.io import DatasetReader
from rasterio.windows import Window

from sitecheck.errors import NO_CRS, InputError
from sitecheck.io.crs import INTERNATIONAL_FOOT_M, US_SURVEY_FOOT_M
from sitecheck.io.fingerprint import settled_state
from sitecheck.io.kept import KeptByIdentity

NO_SLOPE = 255
"""Class of cells without a slope in the class raster given to exactextract."""

Z_UNIT_METRES = {"ft": INTERNATIONAL_FOOT_M, "us-ft": US_SURVEY_FOOT_M, "m": 1.0}


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


def dem_label(path: str) -> str:
    """How messages name a DEM: the layer and its path."""
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
        raise InputError(f"{dem_label(path)}: cannot read: {first_line}") from error
    problem = _dem_problem(dataset)
    if problem:
        dataset.close()
        raise InputError(f"{dem_label(path)}: {problem}")
    return dataset


@contextmanager
def dem_dataset(path: str, kept: KeptByIdentity | None = None) -> Iterator[DatasetReader]:
    """The DEM open for one measuring (:func:`open_dem`), closed after it; in a session
    that keeps values, held open from one answer to the next while the file is
    unchanged (opening it cost the panel 1.7 ms a pass, two passes an answer on a
    project's site). Not on Windows, where a file held open cannot be replaced: the
    user's next export of the DEM would fail while the panel is open."""
    state = settled_state(path) if kept is not None and os.name != "nt" else None
    if kept is None or state is None:
        with open_dem(path) as dataset:
            yield dataset
        return
    yield kept.value([], ("dem", path, state), lambda: open_dem(path))


def _dem_problem(dataset: rasterio.io.DatasetReader) -> str | None:
    """Why a DEM cannot be measured on, or None."""
    if dataset.count < 1:
        return "has no raster bands"
    t = dataset.transform
    if t.a == 0 or t.e == 0:
        return (
            f"its cells have no size (a pixel size of {t.a:g} x {-t.e:g} in its geotransform); "
            "give the grid its cell size (gdal_edit.py -tr) and retry"
        )
    if dataset.crs is None:
        return NO_CRS
    if t.b != 0 or t.d != 0 or t.a <= 0 or t.e >= 0:
        return "grid is rotated or not north-up; warp it (gdalwarp) and retry"
    return None


def _horizontal(crs: pyproj.CRS) -> pyproj.CRS:
    """The horizontal part of a CRS (itself unless compound)."""
    if crs.is_compound and crs.sub_crs_list:
        return crs.sub_crs_list[0]
    return crs


_BAND_UNITS = {
    **Z_UNIT_METRES,
    **dict.fromkeys(("metre", "meter", "metres", "meters"), 1.0),
    **dict.fromkeys(("foot", "feet", "international foot"), INTERNATIONAL_FOOT_M),
    **dict.fromkeys(("ftus", "us survey foot", "foot_us"), US_SURVEY_FOOT_M),
}
"""GDAL band unit types (GeoTIFF, VRT, ERDAS) and their metres."""


def declared_z_unit(dem_crs: pyproj.CRS, band_unit: str | None) -> tuple[float, str] | None:
    """The elevation unit a DEM declares, in metres, and where it says so; None if silent.

    A compound CRS's vertical part (3DEP's NAVD88, EPSG:5703, in metres) comes
    first, then the band's unit type.
    """
    if dem_crs.is_compound and len(dem_crs.sub_crs_list) > 1:
        vertical = dem_crs.sub_crs_list[1]
        axis = vertical.axis_info[0] if vertical.axis_info else None
        if axis is not None and axis.unit_conversion_factor:
            return float(axis.unit_conversion_factor), f"its vertical CRS ({vertical.name})"
    unit = (band_unit or "").strip().lower()
    if unit in _BAND_UNITS:
        return _BAND_UNITS[unit], f"its band unit ({band_unit})"
    return None


def z_factor(
    dem_crs: pyproj.CRS, z_units: str | None, band_unit: str | None = None
) -> tuple[float, str | None]:
    """Elevation unit in horizontal units (metres for a geographic DEM), and what a run
    must say about it: the unit assumed for a DEM that declares none, or an option
    the DEM's declaration overrode (None when the unit is as declared or asked).

    Parameters
    ----------
    dem_crs : pyproj.CRS
        The DEM's CRS.
    z_units : str or None
        ``--dem-z-units``: ``"ft"``, ``"us-ft"``, ``"m"``, used only where the
        file declares no vertical unit.
    band_unit : str or None
        The band's unit type as GDAL reports it.
    """
    horizontal = _horizontal(dem_crs)
    metres = 1.0 if horizontal.is_geographic else horizontal.axis_info[0].unit_conversion_factor
    declared = declared_z_unit(dem_crs, band_unit)
    if declared is not None:
        warning = None
        if z_units is not None and not math.isclose(Z_UNIT_METRES[z_units], declared[0]):
            warning = (
                f"elevations in {_unit_words(declared[0])}, as {declared[1]} declares; "
                f"--dem-z-units {z_units} ignored"
            )
        return declared[0] / float(metres), warning
    if z_units is not None:
        return Z_UNIT_METRES[z_units] / float(metres), None
    if horizontal.is_geographic:  # degrees say nothing of elevations
        return 1.0, (
            "declares no vertical unit, and its horizontal unit is the degree: elevations "
            "assumed in metres, as USGS 3DEP publishes its geographic DEMs; give "
            "--dem-z-units if they are not (elevations in feet read as metres make every "
            "slope 3.28 times too steep)"
        )
    return 1.0, (
        f"declares no vertical unit: elevations assumed in {_unit_words(float(metres))}, "
        "its horizontal unit; give --dem-z-units if they are not"
    )


def _unit_words(metres: float) -> str:
    for words, value in (
        ("metres", 1.0),
        ("feet", INTERNATIONAL_FOOT_M),
        ("US survey feet", US_SURVEY_FOOT_M),
    ):
        if math.isclose(metres, value, rel_tol=1e-9):
            return words
    return f"units of {metres:g} m"


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
class Grid:
    """The DEM grid and how to turn its cells into slope."""

    transform: Affine
    width: int
    height: int
    crs: pyproj.CRS
    geographic: bool
    z_factor: float
    z_warning: str | None = None

    def resolution(self, row_off: int, n_rows: int) -> tuple[float | np.ndarray, ...]:
        """Cell width and height for slope: CRS units, or metres per row if geographic."""
        if self.geographic:
            return geographic_cell_metres(self.transform, row_off, n_rows, self.crs)
        return float(self.transform.a), float(-self.transform.e)

    def extent(self, rows: tuple[int, int], cols: tuple[int, int]) -> tuple[float, ...]:
        """xmin, ymin, xmax, ymax of a block of cells."""
        t = self.transform
        return (t.c + cols[0] * t.a, t.f + rows[1] * t.e, t.c + cols[1] * t.a, t.f + rows[0] * t.e)


def dem_grid(dataset: rasterio.io.DatasetReader, settings: SlopeSettings) -> Grid:
    crs = pyproj.CRS.from_wkt(dataset.crs.to_wkt())
    scale = dataset.scales[0] if dataset.scales and dataset.scales[0] else 1.0
    band_unit = dataset.units[0] if dataset.units else None
    factor, warning = z_factor(crs, settings.z_units, band_unit)
    return Grid(
        transform=dataset.transform,
        width=dataset.width,
        height=dataset.height,
        crs=crs,
        geographic=_horizontal(crs).is_geographic,
        z_factor=factor * float(scale),
        z_warning=warning,
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
    try:
        data = dataset.read(1, window=window)
    except rasterio.errors.RasterioIOError as error:
        cause = error.__cause__ or error
        words = str(cause.args[-1] if cause.args else cause).strip().splitlines()
        raise InputError(
            f"{dem_label(dataset.name)}: cannot read its cells in rows {r0} to {r1 - 1}: the file "
            f"is cut short or damaged (GDAL: {words[0] if words else 'read failed'})"
        ) from None
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
