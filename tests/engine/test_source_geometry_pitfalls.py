"""Geometry as real parcel and drawing layers hold it (issue 12, item 13).

Stacked condominium records, work drawn far from every lot, a lot of no area, a
vertex that is not a number, slivers over a lot line from reprojection. Each
answer below is worked out by hand from the boxes drawn.
"""

from __future__ import annotations

import json
from pathlib import Path

import geopandas as gpd
import pytest
from shapely.geometry import Polygon, box

from sitecheck.app.cli import main

from .conftest import STATE_PLANE_EAST, write_layer


def _measure(tmp_path: Path, parcels: str, disturbance: str) -> dict:
    out = tmp_path / "out"
    argv = ["measure", "--quiet", "--parcels", parcels, "--disturbance", disturbance]
    assert (
        main([*argv, "--out", f"{out}.gpkg", "--json-layout", "full", "--json", f"{out}.json"]) == 0
    )
    return json.loads(Path(f"{out}.json").read_text())


def _disturbed(document: dict) -> dict[str, float]:
    return {
        p["parcel_id"]: p["metrics"]["disturbed_area_sqft"]
        for p in document["parcels"]
        if p["metrics"]["disturbed_area_sqft"] > 0
    }


def test_stacked_records_count_the_work_once(tmp_path, capsys):
    gpkg = tmp_path / "condo.gpkg"
    lot = box(0, 0, 200, 200)
    parcels = write_layer(
        gpkg,
        "parcels",
        [
            {"parcel_id": "8.-1-1.1", "geometry": lot},  # condominium unit records,
            {"parcel_id": "8.-1-1.2", "geometry": lot},  # one footprint each
            {"parcel_id": "8.-1-2", "geometry": box(200, 0, 400, 200)},
        ],
    )
    work = write_layer(gpkg, "work", [{"geometry": box(50, 50, 150, 150)}])  # 10,000 sq ft
    document = _measure(tmp_path, parcels, work)
    assert _disturbed(document) == {"8.-1-1.1": 10_000.0}
    assert "8.-1-1.1 and 8.-1-1.2 (the same footprint)" in " ".join(document["warnings"])


def test_overlapping_lots_share_the_work_in_their_overlap_once(tmp_path):
    gpkg = tmp_path / "extracts.gpkg"
    parcels = write_layer(
        gpkg,
        "parcels",
        [
            {"parcel_id": "A", "geometry": box(0, 0, 200, 200)},
            {"parcel_id": "B", "geometry": box(150, 0, 350, 200)},  # overlaps A by 50 ft
        ],
    )
    # 100 x 100 ft of work, half of it in the overlap.
    work = write_layer(gpkg, "work", [{"geometry": box(100, 50, 200, 150)}])
    document = _measure(tmp_path, parcels, work)
    disturbed = _disturbed(document)
    assert sum(disturbed.values()) == pytest.approx(10_000.0)  # the drawing, once
    assert disturbed == {"A": 10_000.0}  # A holds all of it and comes first
    assert any("A and B (overlapping by 5,000.0 sq ft" in w for w in document["warnings"])


def test_work_far_from_every_lot_is_unassigned_not_charged_to_the_nearest(tmp_path):
    gpkg = tmp_path / "far.gpkg"
    parcels = write_layer(gpkg, "parcels", [{"parcel_id": "A", "geometry": box(0, 0, 200, 200)}])
    ten_miles = 10 * 5280.0
    work = write_layer(gpkg, "work", [{"geometry": box(ten_miles, 0, ten_miles + 50, 40)}])
    document = _measure(tmp_path, parcels, work)
    assert _disturbed(document) == {}
    assert document["unassigned_work"] == [{"layer": "disturbance", "fid": 1, "area_sqft": 2000.0}]
    assert any("reported as unassigned work" in w for w in document["warnings"])


def test_a_curb_cut_still_goes_to_the_lot_it_spills_from(tmp_path):
    gpkg = tmp_path / "curb.gpkg"
    parcels = write_layer(gpkg, "parcels", [{"parcel_id": "A", "geometry": box(0, 0, 200, 200)}])
    work = write_layer(gpkg, "work", [{"geometry": box(80, -20, 120, 60)}])  # 800 in the street
    document = _measure(tmp_path, parcels, work)
    entry = document["parcels"][0]["metrics"]
    assert entry["disturbed_area_sqft"] == pytest.approx(3200.0)
    assert entry["disturbed_outside_parcel_sqft"] == pytest.approx(800.0)
    assert document["unassigned_work"] == []


def test_a_lot_of_no_area_is_named_and_its_work_is_not_given_to_a_neighbour(tmp_path):
    gpkg = tmp_path / "flat.gpkg"
    flat = Polygon([(200, 0), (300, 0), (400, 0), (200, 0)])  # every point on one line
    parcels = write_layer(
        gpkg,
        "parcels",
        [
            {"parcel_id": "A", "geometry": box(0, 0, 200, 200)},
            {"parcel_id": "FLAT-1", "geometry": flat},
        ],
    )
    # Work drawn for the flat lot, south of it, touching no lot.
    work = write_layer(gpkg, "work", [{"parcel_id": "FLAT-1", "geometry": box(250, -60, 300, -10)}])
    document = _measure(tmp_path, parcels, work)
    assert _disturbed(document) == {}
    assert [w["area_sqft"] for w in document["unassigned_work"]] == [2500.0]
    warnings = " ".join(document["warnings"])
    assert "lot(s) FLAT-1 have no area" in warnings


def test_a_vertex_that_is_not_a_number_is_refused_naming_the_feature(tmp_path, capsys):
    gpkg = tmp_path / "nan.gpkg"
    parcels = write_layer(gpkg, "parcels", [{"parcel_id": "A", "geometry": box(0, 0, 200, 200)}])
    broken = Polygon([(10, 10), (90, 10), (float("nan"), 50), (90, 90), (10, 90)])
    frame = gpd.GeoDataFrame(
        {"note": ["ok", "bad"]}, geometry=[box(20, 20, 40, 40), broken], crs=STATE_PLANE_EAST
    )
    frame.to_file(gpkg, layer="work", driver="GPKG")
    argv = ["measure", "--parcels", parcels, "--disturbance", f"{gpkg}:work"]
    assert main([*argv, "--out", str(tmp_path / "o.gpkg")]) == 2
    error = capsys.readouterr().err
    assert "disturbance layer" in error and "FID 2" in error and "not numbers" in error
    assert not (tmp_path / "o.gpkg").exists()


def test_a_reprojection_sliver_does_not_list_the_neighbour(tmp_path):
    gpkg = tmp_path / "sliver.gpkg"
    parcels = write_layer(
        gpkg,
        "parcels",
        [
            {"parcel_id": "A", "geometry": box(0, 0, 200, 200)},
            {"parcel_id": "B", "geometry": box(200, 0, 400, 200)},
        ],
    )
    # The work on A overruns the lot line by 0.004 ft over 100 ft: 0.4 sq ft on B.
    work = write_layer(gpkg, "work", [{"geometry": box(100, 50, 200.004, 150)}])
    document = _measure(tmp_path, parcels, work)
    disturbed = _disturbed(document)
    assert list(disturbed) == ["A"]
    assert disturbed["A"] == pytest.approx(10_000.4, abs=0.01)  # nothing lost
    # The sliver lies in a lot: it is not "outside the parcel", so the work inside
    # lots still adds up to the drawing inside lots.
    (entry,) = [p for p in document["parcels"] if p["parcel_id"] == "A"]
    assert entry["metrics"]["disturbed_outside_parcel_sqft"] == 0.0
    assert any("slivers under 1 sq ft" in w and "on B" in w for w in document["warnings"])


def test_a_sliver_of_work_covering_its_whole_lot_stays_on_the_lot_it_lies_in(tmp_path):
    """Found by the property test: a drawing over all of lot A and 0.5 sq ft past its corner
    could not count that sliver on A without A's work exceeding A's area."""
    gpkg = tmp_path / "full.gpkg"
    parcels = write_layer(
        gpkg,
        "parcels",
        [
            {"parcel_id": "A", "geometry": box(0, 0, 100, 100)},
            {"parcel_id": "B", "geometry": box(100, 100, 200, 200)},
        ],
    )
    work = write_layer(gpkg, "work", [{"geometry": box(0, 0, 101, 100.5)}])
    document = _measure(tmp_path, parcels, work)
    metrics = {p["parcel_id"]: p["metrics"] for p in document["parcels"]}
    inside_a = metrics["A"]["disturbed_area_sqft"] - metrics["A"]["disturbed_outside_parcel_sqft"]
    assert inside_a == pytest.approx(10_000.0, abs=0.01)  # never more than the lot
    # the street strips (100 + 50 sq ft) are A's work outside the parcel
    assert metrics["A"]["disturbed_outside_parcel_sqft"] == pytest.approx(150.0, abs=0.01)
    assert metrics["B"]["disturbed_area_sqft"] == pytest.approx(0.5, abs=0.01)  # nothing lost
