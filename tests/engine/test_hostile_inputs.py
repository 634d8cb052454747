"""Inputs a careless or hostile user gives: each gets its answer or one line, never a hang.

A nested geometry collection holding the work, DEMs whose cells are far too fine,
have no size or are cut short, and notification CSV cells a spreadsheet would
split or run as formulas. Expected areas are the boxes' own, worked by hand.
"""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
from pathlib import Path

import geopandas as gpd
import numpy as np
import pytest
import rasterio
import shapely
from rasterio.transform import Affine, from_origin
from shapely.geometry import GeometryCollection, LineString, Point, box

from sitecheck.app.cli import main

from .conftest import STATE_PLANE_EAST, write_dem, write_layer

X0, Y0 = 690_000.0, 787_000.0


def _measure(tmp_path: Path, *extra: str, work: object = None) -> tuple[int, dict | None, str]:
    gpkg = tmp_path / "site.gpkg"
    lots = write_layer(
        gpkg, "lots", [{"parcel_id": "L1", "geometry": box(X0, Y0, X0 + 200, Y0 + 200)}]
    )
    drawn = work if work is not None else box(X0 + 50, Y0 + 50, X0 + 150, Y0 + 150)
    disturbance = write_layer(gpkg, "work", [{"geometry": drawn}])
    out = tmp_path / "out"
    argv = ["measure", "--quiet", "--parcels", lots, "--disturbance", disturbance, *extra]
    argv += ["--out", f"{out}.gpkg", "--json", f"{out}.json", "--json-layout", "full"]
    code = main(argv)
    document = json.loads(Path(f"{out}.json").read_text()) if code == 0 else None
    return code, document, ""


# --- 1. a nested collection ---------------------------------------------------


def test_the_polygon_in_a_nested_collection_is_measured_without_a_false_warning(tmp_path, capsys):
    # 50 x 50 ft = 2,500 sq ft, two collections deep, beside a point and a line
    square = box(X0 + 20, Y0 + 20, X0 + 70, Y0 + 70)
    inner = GeometryCollection([square, Point(X0 + 1, Y0 + 1)])
    nested = GeometryCollection([inner, LineString([(X0, Y0), (X0 + 5, Y0 + 5)])])
    code, document, _ = _measure(tmp_path, work=nested)
    assert code == 0 and document is not None
    assert document["parcels"][0]["metrics"]["disturbed_area_sqft"] == pytest.approx(2_500.0)
    warnings = " ".join(document["warnings"]) + capsys.readouterr().err
    assert "empty, null or zero-area" not in warnings


# --- 2. DEMs that would hang or crash a run -----------------------------------


def _error_line(capsys) -> str:
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1, lines
    return lines[0]


def test_a_sparse_dem_of_ten_thousandth_foot_cells_is_refused_before_any_read(tmp_path, capsys):
    # 20,000 x 20,000 cells of 0.0001 ft, sparse: almost no bytes on disk. Under the
    # 100 x 100 ft work they would be 10**12 cells, far over the documented 50,000,000.
    dem = tmp_path / "fine.tif"
    profile = {
        "driver": "GTiff",
        "width": 20_000,
        "height": 20_000,
        "count": 1,
        "dtype": "float32",
        "crs": STATE_PLANE_EAST,
        "transform": from_origin(X0 + 60, Y0 + 140, 0.0001, 0.0001),
        "tiled": True,
        "blockxsize": 256,
        "blockysize": 256,
        "sparse_ok": True,
        "nodata": -9999.0,
    }
    with rasterio.open(dem, "w", **profile):
        pass
    assert dem.stat().st_size < 5_000_000
    code, _, _ = _measure(tmp_path, "--dem", str(dem))
    assert code == 2
    line = _error_line(capsys)
    assert line.startswith(f"sitecheck: error: dem raster ({dem}):")
    assert "0.0001 x 0.0001" in line and "50,000,000" in line
    assert not list(tmp_path.glob("out.*"))


def test_a_dem_whose_cells_have_no_size_is_not_called_crs_less(tmp_path, capsys):
    dem = tmp_path / "flat.tif"
    with rasterio.open(
        dem,
        "w",
        driver="GTiff",
        width=10,
        height=10,
        count=1,
        dtype="float32",
        crs=STATE_PLANE_EAST,
        transform=Affine(0.0, 0.0, X0, 0.0, 0.0, Y0 + 200),
    ) as dataset:
        dataset.write(np.zeros((1, 10, 10), dtype="float32"))
    code, _, _ = _measure(tmp_path, "--dem", str(dem))
    assert code == 2
    line = _error_line(capsys)
    assert f"dem raster ({dem})" in line and "cells have no size" in line and "no CRS" not in line


def test_a_dem_cut_short_names_the_dem_and_the_option(tmp_path, capsys):
    # a 200 x 200 ft grid of 1 ft cells, written uncompressed in strips, then its
    # second half cut off: the header is whole, the cells under the work are not
    elevation = np.arange(200 * 200, dtype="float32").reshape(200, 200) * 0.001
    dem = write_dem(tmp_path / "cut.tif", elevation, X0, Y0 + 200, 1.0)
    size = os.path.getsize(dem)
    with open(dem, "r+b") as handle:
        handle.truncate(size // 3)
    code, _, _ = _measure(tmp_path, "--dem", dem)
    assert code == 2
    line = _error_line(capsys)
    assert f"dem raster ({dem})" in line and "cut short or damaged" in line
    assert "See previous exception" not in line


# --- 3. notification CSV cells --------------------------------------------------

HOSTILE_OWNERS = {
    "L0": "Ann\r=1+1",
    "L1": " =1+1",
    "L2": '\n=HYPERLINK("x")',
    "L4": "\t+SUM(A1)",
    "L5": 'O\'Hare, "Pat"',
}


def test_notify_csv_cells_neither_split_a_row_nor_run_as_formulas(tmp_path):
    rows = [
        {
            "parcel_id": f"L{i}",
            "owner": HOSTILE_OWNERS.get(f"L{i}", f"Owner {i}"),
            "address": f"{i} Elm St",
            "geometry": box(X0 + 100 * i, Y0, X0 + 100 * (i + 1), Y0 + 150),
        }
        for i in range(6)
    ]
    parcels = write_layer(tmp_path / "in.gpkg", "parcels", rows)
    table = tmp_path / "notify.csv"
    argv = ["notify", "--parcels", parcels, "--lot", "L3", "--out", str(tmp_path / "n.gpkg")]
    assert main([*argv, "--csv", str(table)]) == 0
    raw = table.read_bytes()
    # RFC 4180: records end in CRLF; a CR or LF inside a cell only within quotes
    with table.open(newline="") as handle:
        read = list(csv.DictReader(handle))
    owners = {row["parcel_id"]: row["owner"] for row in read}
    assert sorted(owners) == ["L0", "L1", "L2", "L4", "L5"]
    assert raw.count(b"\r\n") >= len(read) + 1
    for parcel_id, owner in owners.items():
        # OWASP: a cell whose first character other than white space starts a formula
        # is prefixed with a single quote; the user's text is otherwise kept whole
        given = HOSTILE_OWNERS[parcel_id]
        if given.lstrip()[:1] in "=+-@":
            assert owner == "'" + given, parcel_id
        else:
            assert owner == given, parcel_id


# --- 4. a lot of a million vertices ----------------------------------------------


def test_a_lot_of_a_million_vertices_gets_its_adjoining_buffer(tmp_path):
    """A 2,000 ft square lot segmentized to 1,000,001 vertices, a neighbour on its east side.

    The lot's frontage (west, south, north and the upper east side) faces no one
    way, so the shared line is a side line, 30 ft deep by default; the work is
    a 50 by 200 ft box against that line, so 30 x 200 = 6,000 sq ft of it lies
    in the buffer.
    """
    big = shapely.segmentize(box(X0, Y0, X0 + 2000, Y0 + 2000), 8000 / 1_000_000)
    assert shapely.get_num_coordinates(big) == 1_000_001
    gpkg = tmp_path / "site.gpkg"
    neighbour = box(X0 + 2000, Y0, X0 + 2400, Y0 + 400)
    lots = write_layer(
        gpkg,
        "lots",
        [{"parcel_id": "BIG", "geometry": big}, {"parcel_id": "N1", "geometry": neighbour}],
    )
    work = write_layer(gpkg, "work", [{"geometry": box(X0 + 1950, Y0 + 100, X0 + 2000, Y0 + 300)}])
    out = tmp_path / "out"
    argv = ["measure", "--quiet", "--parcels", lots, "--disturbance", work]
    argv += ["--out", f"{out}.gpkg", "--json", f"{out}.json", "--json-layout", "full"]
    assert main(argv) == 0
    parcel = json.loads(Path(f"{out}.json").read_text())["parcels"][0]
    assert parcel["parcel_id"] == "BIG"
    assert parcel["metrics"]["disturbed_area_sqft"] == pytest.approx(50 * 200, rel=1e-9)
    assert parcel["metrics"]["disturbed_in_adjoining_buffer_sqft"] == pytest.approx(
        30 * 200, rel=1e-5
    )


# --- 5. what the libraries would print --------------------------------------------

LOCAL_FEET = "+proj=tmerc +lat_0=40 +lon_0=-74 +k=1 +x_0=0 +y_0=0 +datum=NAD83 +units=us-ft"
"""A projected CRS of a survey, without an area of use to place a lot outside."""


def _run_engine(*argv: str) -> subprocess.CompletedProcess:
    """The CLI as a user runs it, so what Python itself prints on stderr is seen too."""
    command = [sys.executable, "-m", "sitecheck", *argv]
    return subprocess.run(command, capture_output=True, text=True, timeout=300)


def test_a_lot_near_1e300_is_refused_naming_it_without_a_library_warning(tmp_path):
    gpkg = tmp_path / "far.gpkg"
    frame = gpd.GeoDataFrame(
        {"parcel_id": ["OK", "FAR"]},
        geometry=[box(0, 0, 200, 200), box(1e300, 1e300, 3e300, 3e300)],
        crs=LOCAL_FEET,
    )
    frame.to_file(gpkg, layer="lots")
    work = gpd.GeoDataFrame(geometry=[box(50, 50, 150, 150)], crs=LOCAL_FEET)
    work.to_file(gpkg, layer="work")
    ran = _run_engine(
        "measure",
        "--quiet",
        "--parcels",
        f"{gpkg}:lots",
        "--disturbance",
        f"{gpkg}:work",
        "--out",
        str(tmp_path / "o.gpkg"),
    )
    lines = ran.stderr.strip().splitlines()
    assert ran.returncode == 2 and len(lines) == 1, ran.stderr
    assert lines[0].startswith("sitecheck: error: parcels layer") and "FID 2" in lines[0]
    assert not (tmp_path / "o.gpkg").exists()


def test_a_gdal_warning_is_one_line_of_sitechecks_own(tmp_path):
    """A GeoPackage whose application_id (SQLite header bytes 68-71) is not GeoPackage 1.3's "GPKG"."""
    lots = write_layer(
        tmp_path / "lots.gpkg",
        "lots",
        [{"parcel_id": "L1", "geometry": box(X0, Y0, X0 + 200, Y0 + 200)}],
    )
    work = write_layer(
        tmp_path / "work.gpkg",
        "work",
        [{"geometry": box(X0 + 50, Y0 + 50, X0 + 150, Y0 + 150)}],
    )
    with open(tmp_path / "lots.gpkg", "r+b") as handle:
        handle.seek(68)
        handle.write(b"\x00\x00\x00\x01")
    ran = _run_engine(
        "measure",
        "--quiet",
        "--parcels",
        lots,
        "--disturbance",
        work,
        "--out",
        str(tmp_path / "o.gpkg"),
    )
    assert ran.returncode == 0, ran.stderr
    assert ran.stderr.strip().splitlines() == [
        f"warning: GDAL: GPKG: bad application_id=0x00000001 on '{tmp_path / 'lots.gpkg'}'"
    ]
