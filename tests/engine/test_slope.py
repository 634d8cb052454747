"""Steep-slope measurement: Horn slope against gdaldem, exact areas, nodata, CRSs."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import exactextract
import geopandas as gpd
import numpy as np
import pyproj
import pytest
import rasterio
import rasterio.warp
import shapely
from affine import Affine
from exactextract.raster import NumPyRasterSource

from sitecheck.errors import InputError
from sitecheck.io.crs import US_SURVEY_FOOT_M, working_crs
from sitecheck.terrain import slope
from sitecheck.terrain.dem import SlopeSettings, geographic_cell_metres, open_dem, z_factor
from sitecheck.terrain.horn import horn_slope_percent
from sitecheck.terrain.slope import measure_slopes

GDALDEM = "/usr/bin/gdaldem"
NODATA = -9999.0
X0, Y0 = 600_000.0, 1_000_000.0  # EPSG:2260 (NY East, US survey feet), near Kingston
RES = 10.0
WORKING = working_crs(pyproj.CRS.from_epsg(2260), None)


def from_origin(west: float, north: float, xsize: float, ysize: float) -> Affine:
    """A north-up grid transform (rasterio's helper warns under affine 3)."""
    return Affine(xsize, 0.0, west, 0.0, -ysize, north)


def write_dem(
    path: Path,
    z: np.ndarray,
    *,
    crs: str | None = "EPSG:2260",
    transform: object = None,
    nodata: float | None = NODATA,
) -> str:
    """Write a float32 GeoTIFF; cells that are NaN in ``z`` get the nodata value."""
    data = np.where(np.isnan(z), NODATA if nodata is not None else np.nan, z).astype(np.float32)
    with rasterio.open(
        path,
        "w",
        driver="GTiff",
        height=z.shape[0],
        width=z.shape[1],
        count=1,
        dtype="float32",
        crs=crs,
        nodata=nodata,
        transform=transform or from_origin(X0, Y0, RES, RES),
    ) as dataset:
        dataset.write(data, 1)
    return str(path)


def cell_xy(shape: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
    """Distance east and north (feet) of each cell centre from the grid's top-left corner."""
    rows, cols = np.mgrid[0 : shape[0], 0 : shape[1]]
    return (cols + 0.5) * RES, -(rows + 0.5) * RES


def hill(shape: tuple[int, int]) -> np.ndarray:
    """A smooth hill on a tilted plane: slopes from 0 to about 40%."""
    x, y = cell_xy(shape)
    bump = 150.0 * np.exp(-((x - 900.0) ** 2 + (y + 700.0) ** 2) / (2 * 300.0**2))
    return 400.0 + bump + 0.07 * x - 0.03 * y


def box(col0: float, row0: float, col1: float, row1: float) -> shapely.Polygon:
    """A rectangle given in (fractional) cell columns and rows of the test grid."""
    return shapely.box(X0 + col0 * RES, Y0 - row1 * RES, X0 + col1 * RES, Y0 - row0 * RES)


def geoms(*items: shapely.Geometry) -> np.ndarray:
    out = np.empty(len(items), dtype=object)
    out[:] = list(items)
    return out


def measure(
    path: str, polys: np.ndarray, want_flags: bool = False, **settings: object
) -> slope.SlopeResult:
    return measure_slopes(path, polys, WORKING, SlopeSettings(**settings), want_flags)


# --- Horn slope against gdaldem -------------------------------------------------------


@pytest.mark.skipif(shutil.which(GDALDEM) is None, reason="needs Debian's gdaldem")
def test_horn_slope_matches_gdaldem(tmp_path: Path) -> None:
    z = hill((120, 160))
    z[40:47, 60:66] = np.nan
    z[100, 10] = np.nan
    dem = write_dem(tmp_path / "dem.tif", z)
    out = tmp_path / "slope.tif"
    subprocess.run([GDALDEM, "slope", "-p", "-q", dem, str(out)], check=True)
    with rasterio.open(out) as dataset:
        reference = dataset.read(1).astype(np.float64)
        assert dataset.nodata == NODATA
    with rasterio.open(dem) as dataset:
        stored = dataset.read(1)
    ours = horn_slope_percent(stored, stored != NODATA, RES, RES, 1.0)
    gdal_nodata = reference == NODATA
    assert gdal_nodata.sum() > 2 * (120 + 160)  # the edge ring and the nodata neighbourhoods
    assert np.isnan(ours[gdal_nodata]).all()
    assert np.array_equal(np.isnan(ours), gdal_nodata)
    both = ~gdal_nodata
    assert np.nanmax(ours) > 30.0
    np.testing.assert_allclose(ours[both], reference[both], rtol=0, atol=0.01)


def test_horn_slope_of_a_plane_and_per_row_widths() -> None:
    x, y = cell_xy((8, 9))
    z = 0.12 * x + 0.16 * y
    valid = np.ones(z.shape, dtype=bool)
    result = horn_slope_percent(z, valid, RES, RES, 1.0)
    assert np.isnan(result[[0, -1], :]).all() and np.isnan(result[:, [0, -1]]).all()
    np.testing.assert_allclose(result[1:-1, 1:-1], 20.0, rtol=1e-12)
    # Cells twice as wide in every other row halve the east-west gradient there.
    widths = np.where(np.arange(8) % 2 == 0, RES, 2 * RES).reshape(-1, 1)
    varied = horn_slope_percent(z, valid, widths, RES, 1.0)
    odd = 100 * np.hypot(0.06, 0.16)
    np.testing.assert_allclose(varied[1:-1:2, 1:-1], odd, rtol=1e-12)
    np.testing.assert_allclose(varied[2:-1:2, 1:-1], 20.0, rtol=1e-12)
    # z_factor scales elevations; one invalid cell blanks its 3x3 neighbourhood.
    valid[4, 4] = False
    scaled = horn_slope_percent(z, valid, RES, RES, 2.5)
    assert np.isnan(scaled[3:6, 3:6]).all()
    assert np.isfinite(scaled[1:-1, 1:-1]).sum() == 6 * 7 - 9
    assert np.nanmax(np.abs(scaled - 50.0)) < 1e-9


# --- exact areas ----------------------------------------------------------------------


def test_plane_of_twenty_percent(tmp_path: Path) -> None:
    x, y = cell_xy((60, 60))
    dem = write_dem(tmp_path / "plane.tif", 0.12 * x - 0.16 * y)
    poly = shapely.Polygon(
        [
            (X0 + 103.3, Y0 - 87.1),
            (X0 + 420.2, Y0 - 120.0),
            (X0 + 380.0, Y0 - 455.5),
            (X0 + 150.0, Y0 - 300.0),
        ]
    )
    result = measure(dem, geoms(poly))
    assert result.coverage[0] == pytest.approx(1.0, rel=1e-7)
    assert result.over_sqft[15.0][0] == pytest.approx(poly.area, rel=1e-7)
    assert result.over_sqft[25.0][0] == 0.0


def test_two_planes_with_the_break_inside(tmp_path: Path) -> None:
    # Gradient 10% between cell centres left of column 30, 30% from it on. Horn's
    # stencil averages the two neighbouring gradients, so column 30 reads 20%.
    shape = (40, 60)
    gradient = np.where(np.arange(shape[1]) < 30, 0.10, 0.30) * RES
    z = np.tile(np.r_[0.0, np.cumsum(gradient)[:-1]], (shape[0], 1))
    slopes = horn_slope_percent(z, np.ones(shape, bool), RES, RES, 1.0)
    np.testing.assert_allclose(slopes[1:-1, 1:30], 10.0)
    np.testing.assert_allclose(slopes[1:-1, 30], 20.0)
    np.testing.assert_allclose(slopes[1:-1, 31:-1], 30.0)
    dem = write_dem(tmp_path / "planes.tif", z)
    rect = box(20.4, 5.25, 41.7, 30.5)
    height = (30.5 - 5.25) * RES
    result = measure(dem, geoms(rect), thresholds_pct=(30.0, 5.0, 25.0, 15.0))  # any order
    assert result.coverage[0] == pytest.approx(1.0, rel=1e-7)
    assert result.over_sqft[5.0][0] == pytest.approx(rect.area, rel=1e-7)
    assert result.over_sqft[15.0][0] == pytest.approx(height * (41.7 - 30) * RES, rel=1e-7)
    assert result.over_sqft[25.0][0] == pytest.approx(height * (41.7 - 31) * RES, rel=1e-7)
    assert result.over_sqft[30.0][0] == 0.0  # strictly greater than the threshold


def test_same_crs_is_the_coverage_weighted_cell_area(tmp_path: Path) -> None:
    z = hill((90, 110))
    dem = write_dem(tmp_path / "hill.tif", z)
    rng = np.random.default_rng(7)
    centres = rng.uniform([X0 + 60, Y0 - 840], [X0 + 1040, Y0 - 60], size=(40, 2))
    polys = shapely.buffer(shapely.points(centres), rng.uniform(15, 120, 40))
    result = measure(dem, polys)
    steep = horn_slope_percent(z, np.ones(z.shape, bool), RES, RES, 1.0)
    extent = (X0, Y0 - z.shape[0] * RES, X0 + z.shape[1] * RES, Y0)
    wkt = WORKING.crs.to_wkt()
    rasters = [
        NumPyRasterSource((steep > t).astype(np.float64), *extent, name=f"t{int(t)}", srs_wkt=wkt)
        for t in (15.0, 25.0)
    ]
    frame = gpd.GeoDataFrame(geometry=polys, crs=WORKING.crs)
    expected = exactextract.exact_extract(rasters, frame, ["sum"], output="pandas")
    cell_area = RES * RES
    np.testing.assert_allclose(result.over_sqft[15.0], expected["t15_sum"] * cell_area, rtol=1e-9)
    np.testing.assert_allclose(result.over_sqft[25.0], expected["t25_sum"] * cell_area, rtol=1e-9)
    assert (result.over_sqft[15.0] > 0).sum() > 10 and (result.over_sqft[25.0] > 0).sum() > 3


def test_small_tiles_give_the_same_answer_and_flags(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    z = hill((90, 110))
    z[30:36, 50:58] = np.nan
    dem = write_dem(tmp_path / "hill.tif", z)
    rng = np.random.default_rng(3)
    centres = rng.uniform([X0, Y0 - 900], [X0 + 1100, Y0], size=(60, 2))
    polys = shapely.buffer(shapely.points(centres), rng.uniform(15, 200, 60))
    polys[5] = shapely.Polygon()
    whole = measure(dem, polys, want_flags=True)
    monkeypatch.setattr(slope, "TILE_CELLS", 16)
    tiled = measure(dem, polys, want_flags=True)
    np.testing.assert_allclose(tiled.coverage, whole.coverage, rtol=1e-9)
    assert np.isnan(whole.coverage[5]) and whole.over_sqft[15.0][5] == 0.0
    assert whole.flags is not None and tiled.flags is not None
    for t in (15.0, 25.0):
        np.testing.assert_allclose(tiled.over_sqft[t], whole.over_sqft[t], rtol=1e-9, atol=1e-6)
        for flags in (whole.flags[t], tiled.flags[t]):
            np.testing.assert_allclose(
                shapely.area(flags), whole.over_sqft[t], rtol=1e-6, atol=1e-6
            )
            inside = shapely.covers(shapely.buffer(polys, 1e-6), flags)
            assert (inside | shapely.is_empty(flags)).all()
            assert (shapely.is_empty(flags) == (whole.over_sqft[t] == 0)).all()
            assert set(shapely.get_type_id(flags)) <= {3, 6}
    assert whole.flags[15.0][5].is_empty


def test_reads_windows_not_the_whole_dem(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    dem = write_dem(tmp_path / "hill.tif", hill((300, 300)))
    polys = geoms(box(10, 10, 20, 25), box(250.5, 40, 262, 52), box(120, 200, 140, 215))
    whole = measure(dem, polys)
    reads: list[tuple[int, int]] = []
    original = slope.read_padded

    def recording(dataset: object, rows: tuple[int, int], cols: tuple[int, int]) -> object:
        reads.append((rows[1] - rows[0], cols[1] - cols[0]))
        return original(dataset, rows, cols)

    monkeypatch.setattr(slope, "read_padded", recording)
    monkeypatch.setattr(slope, "TILE_CELLS", 128)
    tiled = measure(dem, polys)
    assert len(reads) == 5  # the 2nd and 3rd boxes cross tile edges (256, 128): two reads each
    assert sum(r * c for r, c in reads) < 1000  # small blocks, not the 90,000 cells
    for t in (15.0, 25.0):
        np.testing.assert_allclose(tiled.over_sqft[t], whole.over_sqft[t], rtol=1e-9)


# --- missing elevations ---------------------------------------------------------------


def test_nodata_lowers_coverage_and_is_never_flat(tmp_path: Path) -> None:
    x, y = cell_xy((40, 40))
    z = 0.12 * x - 0.16 * y
    z[:, 25:] = np.nan
    dem = write_dem(tmp_path / "holes.tif", z)
    # Columns 19..28: slope is valid up to column 23 (24 has a nodata neighbour).
    rect = box(19, 10, 29, 20)
    result = measure(dem, geoms(rect), thresholds_pct=(0.0, 15.0, 25.0))
    assert result.coverage[0] == pytest.approx(0.5, rel=1e-12)
    assert result.over_sqft[0.0][0] == pytest.approx(rect.area / 2, rel=1e-12)
    assert result.over_sqft[15.0][0] == pytest.approx(rect.area / 2, rel=1e-12)
    assert result.over_sqft[25.0][0] == 0.0


def test_nodata_nan_without_a_nodata_value(tmp_path: Path) -> None:
    x, y = cell_xy((30, 30))
    z = 0.12 * x - 0.16 * y
    z[:, 15:] = np.nan
    dem = write_dem(tmp_path / "nan.tif", z, nodata=None)
    result = measure(dem, geoms(box(9, 5, 19, 15)))
    assert result.coverage[0] == pytest.approx(0.5, rel=1e-12)


def test_geometry_partly_or_wholly_outside_the_dem(tmp_path: Path) -> None:
    x, y = cell_xy((30, 30))
    dem = write_dem(tmp_path / "plane.tif", 0.12 * x - 0.16 * y)
    # 5 columns outside, then the edge column (no slope), then 14 columns with slope.
    partly = box(-5, 10, 15, 20)
    outside = box(-30, 10, -10, 20)
    result = measure(dem, geoms(partly, outside), want_flags=True)
    assert result.coverage[0] == pytest.approx(14 / 20, rel=1e-12)
    assert result.over_sqft[15.0][0] == pytest.approx(partly.area * 14 / 20, rel=1e-12)
    assert result.coverage[1] == 0.0 and result.over_sqft[15.0][1] == 0.0
    assert result.flags is not None
    assert result.flags[15.0][0].area == pytest.approx(partly.area * 14 / 20, rel=1e-7)
    assert result.flags[15.0][1].is_empty and result.flags[25.0][0].is_empty


# --- CRSs and units -------------------------------------------------------------------


def reproject_dem(source: str, target: Path, crs: str, res: float) -> str:
    """Warp a feet DEM to another CRS (bilinear), elevations converted to metres."""
    with rasterio.open(source) as src:
        transform, width, height = rasterio.warp.calculate_default_transform(
            src.crs, crs, src.width, src.height, *src.bounds, resolution=res
        )
        data = np.full((height, width), np.nan, dtype=np.float32)
        rasterio.warp.reproject(
            src.read(1),
            data,
            src_transform=src.transform,
            src_crs=src.crs,
            src_nodata=src.nodata,
            dst_transform=transform,
            dst_crs=crs,
            dst_nodata=np.nan,
            resampling=rasterio.warp.Resampling.bilinear,
        )
    return write_dem(target, data * US_SURVEY_FOOT_M, crs=crs, transform=transform)


@pytest.mark.parametrize(("crs", "res"), [("EPSG:32618", 3.0), ("EPSG:4269", 2.0e-5)])
def test_dem_in_another_crs_agrees_with_native(tmp_path: Path, crs: str, res: float) -> None:
    native = write_dem(tmp_path / "native.tif", hill((150, 180)))
    other = reproject_dem(native, tmp_path / "other.tif", crs, res)
    polys = geoms(
        box(30, 20, 110, 110),
        box(60.5, 40.2, 150.3, 90.8),
        shapely.buffer(shapely.Point(X0 + 900, Y0 - 700), 260.0),
    )
    settings = {"thresholds_pct": (10.0, 15.0, 25.0)}
    expected = measure(native, polys, want_flags=True, **settings)
    got = measure(other, polys, want_flags=True, z_units="m", **settings)
    areas = shapely.area(polys)
    np.testing.assert_allclose(got.coverage, 1.0, atol=0.01)
    assert got.flags is not None and expected.flags is not None
    for t in (10.0, 15.0, 25.0):
        assert expected.over_sqft[t].max() > 0.05 * areas.max()
        assert (np.abs(got.over_sqft[t] - expected.over_sqft[t]) < 0.01 * areas).all()
        # Flags come back in the working CRS, inside their geometries.
        np.testing.assert_allclose(
            shapely.area(got.flags[t]), got.over_sqft[t], rtol=0.01, atol=0.01 * areas.min()
        )
        inside = shapely.covers(shapely.buffer(polys, 0.01), got.flags[t])
        assert (inside | shapely.is_empty(got.flags[t])).all()


def test_geographic_cell_sizes_match_geodesics() -> None:
    crs = pyproj.CRS.from_epsg(4326)
    step = 1.0 / 3600.0
    transform = from_origin(-74.0, 42.5, step, step)
    widths, heights = geographic_cell_metres(transform, 100, 3, crs)
    geod = pyproj.Geod(ellps="WGS84")
    for k in range(3):
        lat = 42.5 - (100 + k + 0.5) * step
        _, _, east = geod.inv(-74.0, lat, -74.0 + step, lat)
        _, _, north = geod.inv(-74.0, lat - step / 2, -74.0, lat + step / 2)
        assert widths[k, 0] == pytest.approx(east, rel=1e-7)
        assert heights[k, 0] == pytest.approx(north, rel=1e-7)
    assert widths[0, 0] < widths[2, 0]  # further south, wider


def test_z_in_metres_over_feet(tmp_path: Path) -> None:
    x, _ = cell_xy((30, 30))
    dem = write_dem(tmp_path / "plane.tif", 0.10 * x)  # 10% if z is in feet
    rect = box(5, 5, 20, 20)
    thresholds = (9.99, 10.01, 32.80, 32.82)
    as_feet = measure(dem, geoms(rect), thresholds_pct=thresholds)
    as_metres = measure(dem, geoms(rect), thresholds_pct=thresholds, z_units="m")
    over_feet = [as_feet.over_sqft[t][0] > 0 for t in thresholds]
    over_metres = [as_metres.over_sqft[t][0] > 0 for t in thresholds]
    assert over_feet == [True, False, False, False]
    assert over_metres == [True, True, True, False]  # 10% x 3.2808 = 32.81%
    assert z_factor(pyproj.CRS.from_epsg(2260), "m")[0] == pytest.approx(3937 / 1200)
    assert z_factor(pyproj.CRS.from_epsg(2260), "us-ft")[0] == pytest.approx(1.0)
    assert z_factor(pyproj.CRS.from_epsg(32618), "ft")[0] == pytest.approx(0.3048)
    assert z_factor(pyproj.CRS.from_epsg(4326), "ft")[0] == pytest.approx(0.3048)
    assert z_factor(pyproj.CRS.from_epsg(4326), None)[0] == 1.0


def test_unknown_z_units_are_refused() -> None:
    with pytest.raises(InputError, match="unknown z units 'yards'"):
        SlopeSettings(z_units="yards")


# --- unreadable inputs ----------------------------------------------------------------


def test_unreadable_dem_names_the_file(tmp_path: Path) -> None:
    junk = tmp_path / "junk.tif"
    junk.write_bytes(b"this is not a raster")
    with pytest.raises(InputError, match=r"^dem raster \(.*junk\.tif\): cannot read: ") as info:
        measure(str(junk), geoms(box(1, 1, 5, 5)))
    assert "\n" not in str(info.value)
    with pytest.raises(InputError, match=r"missing\.tif\): cannot read"):
        open_dem(str(tmp_path / "missing.tif"))


def test_rotated_dem_is_refused(tmp_path: Path) -> None:
    x, _ = cell_xy((10, 10))
    rotated = Affine(RES, 2.0, X0, 0.5, -RES, Y0)
    dem = write_dem(tmp_path / "rotated.tif", x, transform=rotated)
    with pytest.raises(InputError, match=r"rotated\.tif\): grid is rotated"):
        measure(dem, geoms(box(1, 1, 5, 5)))


def test_dem_without_crs_names_the_file(tmp_path: Path) -> None:
    x, _ = cell_xy((10, 10))
    dem = write_dem(tmp_path / "nocrs.tif", x, crs=None)
    with pytest.raises(InputError, match=r"^dem raster \(.*nocrs\.tif\): has no CRS"):
        measure(dem, geoms(box(1, 1, 5, 5)))
