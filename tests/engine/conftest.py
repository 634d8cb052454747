"""Shared helpers for engine tests: write small layers and rasters to temporary files, and
sample villages built once a session."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path

import geopandas as gpd
import numpy as np
import pytest
import rasterio
from rasterio.transform import from_origin

STATE_PLANE_EAST = "EPSG:2260"

SharedVillage = Callable[..., dict[str, Path]]


@pytest.fixture(scope="session")
def shared_village(tmp_path_factory: pytest.TempPathFactory) -> SharedVillage:
    """``generate_village`` by its arguments, each village built once a session and shared.

    The tests that take one read its layers and write their outputs in folders of their own,
    never next to it: another module reads the same files.
    """
    from sitecheck.sample.village import generate_village

    built: dict[tuple, dict[str, Path]] = {}

    def village(**arguments: object) -> dict[str, Path]:
        key = tuple(sorted(arguments.items()))
        if key not in built:
            built[key] = generate_village(tmp_path_factory.mktemp("shared-village"), **arguments)
        return built[key]

    return village


def let_settle(path: Path) -> None:
    """Wait until a file's last change is old enough for its hash to be kept
    (``sitecheck.io.fingerprint.SETTLED_NS``): one changed just now is hashed at every ask."""
    from sitecheck.io.fingerprint import SETTLED_NS

    status = path.stat()
    changed = max(status.st_mtime_ns, status.st_ctime_ns)
    time.sleep(max(0.0, (changed + 2 * SETTLED_NS - time.time_ns()) / 1e9))


def write_layer(
    path: Path, layer: str, rows: list[dict], crs: str | None = STATE_PLANE_EAST
) -> str:
    """Write rows (dicts with a 'geometry' key) as a layer of a GeoPackage; return 'path:layer'."""
    frame = (
        gpd.GeoDataFrame(rows, geometry="geometry", crs=crs)
        if rows
        else gpd.GeoDataFrame({"id": []}, geometry=gpd.GeoSeries([], crs=crs), crs=crs)
    )
    frame.to_file(path, layer=layer, driver="GPKG", engine="pyogrio")
    return f"{path}:{layer}"


def write_dem(
    path: Path,
    elevation: np.ndarray,
    west: float,
    north: float,
    cell: float,
    crs: str = STATE_PLANE_EAST,
    nodata: float | None = -9999.0,
) -> str:
    """Write a single-band float32 GeoTIFF with its top-left corner at (west, north)."""
    profile = {
        "driver": "GTiff",
        "height": elevation.shape[0],
        "width": elevation.shape[1],
        "count": 1,
        "dtype": "float32",
        "crs": crs,
        "transform": from_origin(west, north, cell, cell),
    }
    if nodata is not None:
        profile["nodata"] = nodata
    with rasterio.open(path, "w", **profile) as dataset:
        dataset.write(elevation.astype("float32"), 1)
    return str(path)


@pytest.fixture
def layer_writer(tmp_path: Path) -> Callable[..., str]:
    """Write a layer into tmp_path/data.gpkg."""
    target = tmp_path / "data.gpkg"

    def write(layer: str, rows: list[dict], crs: str | None = STATE_PLANE_EAST) -> str:
        return write_layer(target, layer, rows, crs)

    return write


def _postgis_server_module():
    """tests/postgis_server.py, shared with the QGIS tests (which run in another Python)."""
    import importlib.util

    path = Path(__file__).resolve().parents[1] / "postgis_server.py"
    spec = importlib.util.spec_from_file_location("sitecheck_tests_postgis_server", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def pytest_report_header(config) -> list[str]:
    """Say at the start, a line each, what the PostGIS tests will lack."""
    return [f"sitecheck: {line}" for line in _postgis_server_module().missing()]


@pytest.fixture(scope="session")
def postgis():
    """A PostgreSQL + PostGIS server of the tests' own, stopped at the end of the session."""
    module = _postgis_server_module()
    lacking = module.missing()
    if lacking:
        pytest.fail("; ".join(lacking), pytrace=False)
    server = module.start()
    yield server
    server.stop()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A test that needs the PostGIS server is slow, whatever its module says: starting the
    server takes seconds."""
    for item in items:
        if "postgis" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.slow)
