"""Bad input: one clear line naming the layer or field, exit code 2, nothing written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import shapely
from shapely.geometry import Point, Polygon, box

from sitecheck.app.cli import main

from .conftest import write_layer

LOTS = [
    {"parcel_id": "1", "geometry": box(0, 0, 100, 100)},
    {"parcel_id": "2", "geometry": box(100, 0, 200, 100)},
]
WORK = [{"geometry": box(10, 10, 50, 50)}]


def _measure(tmp_path: Path, parcels: str, disturbance: str, *extra: str) -> tuple[int, Path]:
    out = tmp_path / "out.gpkg"
    argv = [
        "measure",
        "--quiet",
        "--parcels",
        parcels,
        "--disturbance",
        disturbance,
        "--out",
        str(out),
        *extra,
    ]
    code = main(argv)
    return code, out


def _error_line(capsys) -> str:
    err = capsys.readouterr().err.strip().splitlines()
    errors = [line for line in err if line.startswith("sitecheck: error:")]
    assert len(errors) == 1, err
    return errors[0]


@pytest.mark.parametrize(
    ("case", "expected"),
    [
        ("points", "parcels layer"),
        ("no_crs", "has no CRS"),
        ("empty", "is empty"),
        ("duplicate_ids", "duplicate parcel ids in field 'parcel_id' (no owner or address"),
        ("empty_id", "id field 'parcel_id' is empty"),
    ],
)
def test_bad_parcel_layers_are_refused_with_the_layer_named(case, expected, tmp_path, capsys):
    gpkg = tmp_path / "in.gpkg"
    rows = {
        "points": [{"parcel_id": "1", "geometry": Point(0, 0)}],
        "no_crs": LOTS,
        "empty": [],
        "duplicate_ids": [
            {"parcel_id": "7", "geometry": box(0, 0, 1, 1)},
            {"parcel_id": "7", "geometry": box(1, 0, 2, 1)},
        ],
        "empty_id": [{"parcel_id": None, "geometry": box(0, 0, 1, 1)}],
    }[case]
    if case == "empty":
        import geopandas as gpd

        gpd.GeoDataFrame({"parcel_id": []}, geometry=[], crs="EPSG:2260").to_file(
            gpkg, layer="parcels"
        )
        parcels = f"{gpkg}:parcels"
    else:
        parcels = write_layer(gpkg, "parcels", rows, crs=None if case == "no_crs" else "EPSG:2260")
    disturbance = write_layer(gpkg, "work", WORK)
    code, out = _measure(tmp_path, parcels, disturbance)
    assert code == 2
    line = _error_line(capsys)
    assert expected in line
    assert "parcels" in line
    assert not out.exists()


def test_unknown_id_field_lists_the_fields(tmp_path, capsys):
    gpkg = tmp_path / "in.gpkg"
    code, _ = _measure(
        tmp_path,
        write_layer(gpkg, "parcels", LOTS),
        write_layer(gpkg, "work", WORK),
        "--id-field",
        "SBL_X",
    )
    assert code == 2
    assert "no id field 'SBL_X'; fields are: parcel_id" in _error_line(capsys)


def test_unreadable_dem_is_named(tmp_path, capsys):
    gpkg = tmp_path / "in.gpkg"
    broken = tmp_path / "dem.tif"
    broken.write_bytes(b"not a raster")
    code, out = _measure(
        tmp_path,
        write_layer(gpkg, "parcels", LOTS),
        write_layer(gpkg, "work", WORK),
        "--dem",
        str(broken),
    )
    assert code == 2
    line = _error_line(capsys)
    assert "dem raster" in line and str(broken) in line
    assert not out.exists()


def test_missing_file_is_named(tmp_path, capsys):
    code, _ = _measure(tmp_path, str(tmp_path / "nowhere.gpkg"), str(tmp_path / "nowhere.gpkg"))
    assert code == 2
    assert "parcels layer: no such file" in _error_line(capsys)


def test_floodplain_without_fema_fields_is_named(tmp_path, capsys):
    gpkg = tmp_path / "in.gpkg"
    flood = write_layer(gpkg, "flood", [{"zone": "AE", "geometry": box(0, 0, 50, 50)}])
    code, _ = _measure(
        tmp_path,
        write_layer(gpkg, "parcels", LOTS),
        write_layer(gpkg, "work", WORK),
        "--floodplain",
        flood,
    )
    assert code == 2
    assert "floodplain layer" in (line := _error_line(capsys)) and "FLD_ZONE" in line


def test_lines_where_polygons_are_needed(tmp_path, capsys):
    gpkg = tmp_path / "in.gpkg"
    lines = write_layer(gpkg, "lines", [{"geometry": shapely.LineString([(0, 0), (10, 10)])}])
    code, _ = _measure(tmp_path, write_layer(gpkg, "parcels", LOTS), lines)
    assert code == 2
    assert (
        "disturbance layer" in (line := _error_line(capsys))
        and "needs polygons, found lines" in line
    )


def test_invalid_and_3d_geometries_are_repaired_and_counted(tmp_path, capsys):
    gpkg = tmp_path / "in.gpkg"
    bowtie = Polygon([(10, 10), (50, 50), (50, 10), (10, 50), (10, 10)])  # two 400 sq ft triangles
    raised = shapely.force_3d(box(110, 10, 130, 30), 12.0)
    report = tmp_path / "out.json"
    code, _ = _measure(
        tmp_path,
        write_layer(gpkg, "parcels", LOTS),
        write_layer(gpkg, "work", [{"geometry": bowtie}, {"geometry": raised}]),
        "--json-layout",
        "full",
        "--json",
        str(report),
        "--all-parcels",
    )
    assert code == 0
    assert "repaired 1 invalid geometry" in capsys.readouterr().err
    parcels = {p["parcel_id"]: p["metrics"] for p in json.loads(report.read_text())["parcels"]}
    assert parcels["1"]["disturbed_area_sqft"] == pytest.approx(800)
    assert parcels["2"]["disturbed_area_sqft"] == pytest.approx(400)


def test_a_failed_run_leaves_an_existing_output_untouched(tmp_path, capsys):
    gpkg = tmp_path / "in.gpkg"
    out = tmp_path / "out.gpkg"
    out.write_bytes(b"previous result")
    code = main(
        [
            "measure",
            "--quiet",
            "--parcels",
            write_layer(gpkg, "parcels", LOTS),
            "--disturbance",
            write_layer(gpkg, "work", WORK),
            "--out",
            str(out),
            "--dem",
            str(tmp_path / "missing.tif"),
        ]
    )
    assert code == 2
    assert out.read_bytes() == b"previous result"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.gpkg", "out.gpkg"]
