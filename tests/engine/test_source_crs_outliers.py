"""Coordinates that cannot be where their CRS says, and one stray lot among many.

Seen in parcel layers as published and as exported: one geographic parcel at
(0, 0) (a null island row) made a Scarsdale run measure in UTM zone 24N, every
area 22.7% too large; a longitude of 500 picked EPSG:32666, which is no UTM
zone. The zone comes from where most lots lie, the stray lot is named, and
coordinates outside the CRS's area of use are refused naming the features.
"""

from __future__ import annotations

import json
from pathlib import Path

import pyproj
import pytest
import shapely.ops
from shapely.geometry import box

from sitecheck.app.cli import main
from sitecheck.errors import InputError
from sitecheck.io.crs import utm_crs

from .conftest import write_layer

WGS84, NAD83 = "EPSG:4326", "EPSG:4269"
# Lots in Scarsdale, Westchester County (New York State Plane East), about 60 m square.
SCARSDALE_LON, SCARSDALE_LAT = -73.7960, 40.9890
SIDE_DEG = 0.0007


def _lot(lon: float, lat: float, side: float = SIDE_DEG):
    return box(lon, lat, lon + side, lat + side)


def _geodesic_sqft(geometry) -> float:
    """The lot's area on the WGS 84 ellipsoid, in international square feet (a peer of the
    projected measure: a State Plane area agrees with it to well under 0.1%)."""
    area_m2, _ = pyproj.Geod(ellps="WGS84").geometry_area_perimeter(geometry)
    return abs(area_m2) / 0.3048**2


def _lots_with_a_stray(tmp_path: Path, crs: str = WGS84) -> tuple[dict[str, str], object]:
    gpkg = tmp_path / "site.gpkg"
    lots = [
        {"parcel_id": f"S{i}", "geometry": _lot(SCARSDALE_LON + i * 0.001, SCARSDALE_LAT)}
        for i in range(5)
    ]
    lots.append({"parcel_id": "NULL-ISLAND", "geometry": _lot(0.0, 0.0)})
    work = _lot(SCARSDALE_LON + 0.0001, SCARSDALE_LAT + 0.0001, 0.0004)
    layers = {
        "parcels": write_layer(gpkg, "parcels", lots, crs=crs),
        "disturbance": write_layer(
            gpkg, "disturbance", [{"parcel_id": "S0", "geometry": work}], crs=crs
        ),
    }
    return layers, work


def _run(tmp_path: Path, layers: dict[str, str], *extra: str) -> tuple[int, dict | None]:
    out = tmp_path / "out"
    argv = [
        "measure",
        "--quiet",
        "--out",
        f"{out}.gpkg",
        "--json-layout",
        "full",
        "--json",
        f"{out}.json",
        *extra,
    ]
    for role, spec in layers.items():
        argv += [f"--{role}", spec]
    code = main(argv)
    document = json.loads(Path(f"{out}.json").read_text()) if code == 0 else None
    return code, document


def test_one_stray_lot_does_not_move_the_working_crs(tmp_path):
    layers, work = _lots_with_a_stray(tmp_path)
    code, document = _run(tmp_path, layers)
    assert code == 0
    # Westchester lies in the New York State Plane East zone (NOAA NOS NGS 5).
    assert document["crs"]["epsg"] == 2260
    lot = next(p for p in document["parcels"] if p["parcel_id"] == "S0")
    assert lot["metrics"]["disturbed_area_sqft"] == pytest.approx(_geodesic_sqft(work), rel=1e-3)
    stray = [w for w in document["warnings"] if "NULL-ISLAND" in w]
    assert len(stray) == 1
    assert "NULL-ISLAND at (0.0003" in stray[0] and "EPSG:2260" in stray[0]


@pytest.mark.slow
def test_the_dask_engine_chooses_the_same_crs_and_names_the_same_stray_lot(tmp_path):
    layers, _ = _lots_with_a_stray(tmp_path)
    documents = []
    for engine in (["--engine", "single"], ["--engine", "dask", "--workers", "1"]):
        out = tmp_path / engine[1]
        argv = ["check", "--quiet", "--ordinance", "scarsdale", *engine]
        argv += ["--out", f"{out}.gpkg", "--json-layout", "full", "--json", f"{out}.json"]
        argv += [arg for role, spec in layers.items() for arg in (f"--{role}", spec)]
        assert main([*argv, *(["--partition-size", "2"] if "dask" in engine else [])]) == 0
        documents.append(json.loads(Path(f"{out}.json").read_text()))
    single, dask = documents
    assert single["crs"]["epsg"] == dask["crs"]["epsg"] == 2260
    assert [w for w in single["warnings"] if "NULL-ISLAND" in w] == [
        w for w in dask["warnings"] if "NULL-ISLAND" in w
    ]


@pytest.mark.parametrize("role", ["parcels", "disturbance"])
def test_a_longitude_of_500_is_refused_naming_the_feature(tmp_path, capsys, role):
    layers, _ = _lots_with_a_stray(tmp_path)
    gpkg = tmp_path / "bad.gpkg"
    rows = [{"parcel_id": "S0", "geometry": _lot(SCARSDALE_LON, SCARSDALE_LAT)}]
    rows.append({"parcel_id": "S9", "geometry": _lot(500.0, SCARSDALE_LAT)})
    layers[role] = write_layer(gpkg, role, rows, crs=WGS84)
    code, _ = _run(tmp_path, layers)
    assert code == 2
    error = capsys.readouterr().err.strip().splitlines()
    assert len(error) == 1
    assert f"{role} layer ({gpkg}:{role})" in error[0]
    assert "FID 2 lie outside the area where WGS 84" in error[0]


def test_a_nad83_feature_outside_north_america_is_refused(tmp_path, capsys):
    layers, _ = _lots_with_a_stray(tmp_path, crs=NAD83)
    code, _ = _run(tmp_path, layers)
    assert code == 2
    error = capsys.readouterr().err.strip()
    assert "parcels layer" in error and "FID 6" in error and "NAD83" in error


def test_projected_coordinates_far_from_their_zone_are_refused(tmp_path, capsys):
    gpkg = tmp_path / "feet.gpkg"
    layers = {
        "parcels": write_layer(
            gpkg,
            "parcels",
            [
                {"parcel_id": "A", "geometry": box(640_000, 760_000, 640_200, 760_200)},
                {"parcel_id": "B", "geometry": box(9e9, 9e9, 9e9 + 200, 9e9 + 200)},
            ],
        ),
        "disturbance": write_layer(
            gpkg,
            "disturbance",
            [{"parcel_id": "A", "geometry": box(640_050, 760_050, 640_100, 760_100)}],
        ),
    }
    code, _ = _run(tmp_path, layers)
    assert code == 2
    assert "FID 2 lie outside the area where NAD83 / New York East" in capsys.readouterr().err


def test_geographic_lots_outside_new_york_take_the_utm_zone_of_their_bulk(tmp_path):
    gpkg = tmp_path / "ohio.gpkg"
    lots = [{"parcel_id": f"C{i}", "geometry": _lot(-82.99 + i * 0.001, 39.96)} for i in range(3)]
    lots.append({"parcel_id": "STRAY", "geometry": _lot(0.0, 0.0)})
    layers = {
        "parcels": write_layer(gpkg, "parcels", lots, crs=WGS84),
        "disturbance": write_layer(
            gpkg,
            "disturbance",
            [{"parcel_id": "C0", "geometry": _lot(-82.9899, 39.9601, 0.0003)}],
            crs=WGS84,
        ),
    }
    code, document = _run(tmp_path, layers)
    assert code == 0
    # Columbus, Ohio at 83 W lies in UTM zone 17 (84 W to 78 W): EPSG:32617.
    assert document["crs"]["epsg"] == 32617


def test_no_utm_zone_is_made_up_for_a_point_that_is_not_on_earth():
    assert utm_crs(179.9, 10.0).to_epsg() == 32660
    with pytest.raises(InputError, match="not a longitude and latitude"):
        utm_crs(500.0, 10.0)


def test_lots_in_a_metre_crs_are_measured_in_square_feet(tmp_path):
    """UTM zone 18N (NAD83, EPSG:26918) is in metres: the areas still come out in square
    feet, the geodesic area of the same ground in international feet to 0.1%."""
    to_utm = pyproj.Transformer.from_crs(WGS84, "EPSG:26918", always_xy=True)
    x0, y0 = to_utm.transform(SCARSDALE_LON, SCARSDALE_LAT)
    gpkg = tmp_path / "metres.gpkg"
    lots = [{"parcel_id": "M1", "geometry": box(x0, y0, x0 + 60.0, y0 + 60.0)}]
    work = box(x0 + 10.0, y0 + 10.0, x0 + 40.0, y0 + 30.0)  # 30 m x 20 m = 600 m2
    layers = {
        "parcels": write_layer(gpkg, "parcels", lots, crs="EPSG:26918"),
        "disturbance": write_layer(gpkg, "work", [{"geometry": work}], crs="EPSG:26918"),
    }
    code, document = _run(tmp_path, layers)
    assert code == 0
    to_lonlat = pyproj.Transformer.from_crs("EPSG:26918", WGS84, always_xy=True)
    on_earth = shapely.ops.transform(to_lonlat.transform, work)
    metrics = document["parcels"][0]["metrics"]
    assert metrics["disturbed_area_sqft"] == pytest.approx(_geodesic_sqft(on_earth), rel=1e-3)
    assert metrics["disturbed_area_sqft"] == pytest.approx(600 / 0.3048**2, rel=2e-3)
