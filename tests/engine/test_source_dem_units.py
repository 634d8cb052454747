"""A DEM's vertical unit as the file declares it (issue 12, item 7).

3DEP 1 m DEMs declare NAVD88 in metres; reprojected to State Plane feet the
elevations stay in metres. The DEM below rises 20% west to east: per 2-ft
(US survey) cell the ground rises 0.4 ft = 0.4 x 1200/3937 m. Read in metres,
the work is all on slope over 15% and none over 25%; read as feet, the slope
is 20% x 0.3048 = 6.1% and no work is steep.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
import rasterio
from pyproj import Transformer
from rasterio.crs import CRS
from rasterio.transform import from_origin
from shapely.geometry import box

from sitecheck.app.cli import main

from .conftest import write_layer

FOOT_M = 1200 / 3937  # US survey foot


def _write_dem(path: Path, crs: str, transform, elevations: np.ndarray, band_unit: str) -> str:
    rows, cols = elevations.shape
    profile = {
        "driver": "GTiff",
        "width": cols,
        "height": rows,
        "count": 1,
        "dtype": "float32",
        "crs": CRS.from_user_input(crs),
        "transform": transform,
        "nodata": -9999.0,
    }
    with rasterio.open(path, "w", **profile) as dataset:
        dataset.write(elevations.astype("float32"), 1)
        dataset.set_band_unit(1, band_unit)
    return str(path)


def _dem(path: Path, crs: str, band_unit: str | None) -> str:
    cols, rows, cell = 200, 200, 2.0
    elevation_m = np.tile(np.arange(cols) * cell * 0.20 * FOOT_M, (rows, 1))
    return _write_dem(path, crs, from_origin(0, 400, cell, cell), elevation_m, band_unit or "")


def _measure(tmp_path: Path, dem: str, *extra: str) -> tuple[dict, list[str]]:
    gpkg = tmp_path / "site.gpkg"
    parcels = write_layer(gpkg, "parcels", [{"parcel_id": "L1", "geometry": box(0, 0, 400, 400)}])
    work = write_layer(gpkg, "work", [{"parcel_id": "L1", "geometry": box(100, 100, 200, 200)}])
    out = tmp_path / "out"
    argv = ["measure", "--quiet", "--parcels", parcels, "--disturbance", work, "--dem", dem, *extra]
    assert (
        main([*argv, "--out", f"{out}.gpkg", "--json-layout", "full", "--json", f"{out}.json"]) == 0
    )
    document = json.loads(Path(f"{out}.json").read_text())
    return document["parcels"][0]["metrics"], document["warnings"]


@pytest.mark.parametrize(
    ("crs", "band_unit"),
    [("EPSG:2260+5703", None), ("EPSG:2260", "metre")],
    ids=["navd88-vertical-crs", "band-unit"],
)
def test_a_declared_metre_unit_is_read_without_the_option(tmp_path, crs, band_unit):
    metrics, warnings = _measure(tmp_path, _dem(tmp_path / "dem.tif", crs, band_unit))
    assert metrics["disturbed_on_slope_over_15pct_sqft"] == pytest.approx(10_000.0, rel=1e-3)
    assert metrics["disturbed_on_slope_over_25pct_sqft"] == 0.0
    assert not any("vertical unit" in w for w in warnings)


def test_the_file_wins_over_a_contradicting_option(tmp_path):
    dem = _dem(tmp_path / "dem.tif", "EPSG:2260+5703", None)
    metrics, warnings = _measure(tmp_path, dem, "--dem-z-units", "ft")
    assert metrics["disturbed_on_slope_over_15pct_sqft"] == pytest.approx(10_000.0, rel=1e-3)
    assert any("--dem-z-units ft ignored" in w for w in warnings)


def test_an_undeclared_unit_is_assumed_and_said(tmp_path):
    dem = _dem(tmp_path / "dem.tif", "EPSG:2260", None)
    metrics, warnings = _measure(tmp_path, dem)
    assert metrics["disturbed_on_slope_over_15pct_sqft"] == 0.0  # read as feet: 6.1%
    assert any("declares no vertical unit" in w and "US survey feet" in w for w in warnings)
    metrics, _ = _measure(tmp_path, dem, "--dem-z-units", "m")
    assert metrics["disturbed_on_slope_over_15pct_sqft"] == pytest.approx(10_000.0, rel=1e-3)


def test_a_geographic_dem_without_a_vertical_unit_says_metres_were_assumed_and_why(tmp_path):
    """A degree is no elevation unit: the run says it assumed metres (3DEP's convention)."""
    to_lonlat = Transformer.from_crs("EPSG:2260", "EPSG:4269", always_xy=True)
    west, south = to_lonlat.transform(-100, -100)
    east, north = to_lonlat.transform(500, 500)
    cols, rows = 60, 60
    transform = from_origin(west, north, (east - west) / cols, (north - south) / rows)
    path = _write_dem(tmp_path / "lonlat.tif", "EPSG:4269", transform, np.zeros((rows, cols)), "")
    _, warnings = _measure(tmp_path, path)
    said = [w for w in warnings if "declares no vertical unit" in w]
    assert len(said) == 1, warnings
    assert "horizontal unit is the degree" in said[0] and "assumed in metres" in said[0]
    assert "3DEP" in said[0] and "--dem-z-units" in said[0]
    assert "assumed in metres, its horizontal unit" not in said[0]
