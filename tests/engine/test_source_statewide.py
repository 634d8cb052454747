"""A statewide layer read around the lots with work, not whole (issue 12, item 10).

The answers must be those of a whole read: every polygon within the run's
reach of a lot with work is read, features far away are not, and the audit
still counts the layer's features.
"""

from __future__ import annotations

import json
from pathlib import Path

import geopandas as gpd
import numpy as np
import pyproj
import pytest
import shapely
from shapely.geometry import box

from sitecheck.app.cli import main
from sitecheck.io.extent import Extent
from sitecheck.io.readers import LayerReader, LayerSource

from .conftest import STATE_PLANE_EAST, write_layer


def test_nearby_lots_share_a_box_and_far_ones_do_not():
    lots = np.array([box(0, 0, 100, 100), box(150, 0, 250, 100), box(50_000, 0, 50_100, 100)])
    extent = Extent.around(lots, 40.0, pyproj.CRS(STATE_PLANE_EAST))
    assert sorted(extent.boxes) == [
        (-40.0, -40.0, 290.0, 140.0),
        (49_960.0, -40.0, 50_140.0, 140.0),
    ]


def test_only_features_within_the_extent_are_read(tmp_path):
    gpkg = tmp_path / "state.gpkg"
    rows = [{"n": k, "geometry": box(k * 1000.0, 0, k * 1000.0 + 10, 10)} for k in range(200)]
    write_layer(gpkg, "wetlands", rows)
    # Read in another CRS (geographic), as NWI and statewide layers often are.
    gpd.read_file(gpkg, layer="wetlands").to_crs("EPSG:4269").to_file(gpkg, layer="geo")
    extent = Extent.around(np.array([box(5000, 0, 5100, 10)]), 1500.0, pyproj.CRS(STATE_PLANE_EAST))
    for name in ("wetlands", "geo"):
        reader = LayerReader()
        source = LayerSource.parse("wetlands", f"{gpkg}:{name}")
        frame = reader.read(source, ("Polygon", "MultiPolygon"), within=extent)
        assert sorted(frame["n"]) == [4, 5, 6]  # 3,500 to 6,610 ft east: the box 3,500..6,600
        assert reader.inputs[0].feature_count == 200


def test_more_boxes_than_one_pass_reads_are_read_through_their_mask(tmp_path):
    """Forty lots 5,000 ft apart give forty boxes, more than are read box by box: the
    features read are those meeting a box, in the layer's CRS and in another."""
    gpkg = tmp_path / "state.gpkg"
    rows = [{"n": k, "geometry": box(k * 1000.0, 0, k * 1000.0 + 10, 10)} for k in range(200)]
    write_layer(gpkg, "wetlands", rows)
    gpd.read_file(gpkg, layer="wetlands").to_crs("EPSG:4269").to_file(gpkg, layer="geo")
    lots = np.array([box(k * 5000.0, 0, k * 5000.0 + 100, 10) for k in range(40)])
    extent = Extent.around(lots, 50.0, pyproj.CRS(STATE_PLANE_EAST))
    assert len(extent.boxes) == 40
    for name in ("wetlands", "geo"):
        source = LayerSource.parse("wetlands", f"{gpkg}:{name}")
        frame = LayerReader().read(source, ("Polygon", "MultiPolygon"), within=extent)
        # Box k spans 5,000k - 50 to 5,000k + 150 ft: it meets the wetland at 1,000 * 5k.
        assert sorted(frame["n"]) == list(range(0, 200, 5))


def test_answers_equal_a_whole_read(tmp_path):
    gpkg = tmp_path / "site.gpkg"
    lots = [
        {"parcel_id": f"L{k}", "geometry": box(k * 5000.0, 0, k * 5000.0 + 200, 200)}
        for k in range(4)
    ]
    parcels = write_layer(gpkg, "parcels", lots)
    work = write_layer(gpkg, "work", [{"parcel_id": "L0", "geometry": box(50, 50, 150, 150)}])
    # A wetland 380 ft east of the work (beyond the adjacent area), one 60 ft north,
    # and a sensitive drainage area over the lot without work L3 only.
    wetlands = write_layer(
        gpkg,
        "wetlands",
        [{"geometry": box(530, 50, 560, 150)}, {"geometry": box(50, 210, 150, 260)}],
    )
    sda = write_layer(gpkg, "sda", [{"geometry": box(15_000, 0, 15_200, 200)}])
    out = tmp_path / "out"
    argv = ["measure", "--quiet", "--parcels", parcels, "--disturbance", work, "--all-parcels"]
    argv += [
        "--wetlands",
        wetlands,
        "--sda",
        sda,
        "--out",
        f"{out}.gpkg",
        "--json-layout",
        "full",
        "--json",
        f"{out}.json",
    ]
    assert main(argv) == 0
    document = json.loads(Path(f"{out}.json").read_text())
    by_id = {p["parcel_id"]: p["metrics"] for p in document["parcels"]}
    # Within 100 ft of the north wetland: the work's north 40 ft (110..150 is 60..100 ft).
    adjacent = shapely.box(50, 110, 150, 150).area
    assert by_id["L0"]["disturbed_in_wetland_adjacent_sqft"] == pytest.approx(adjacent)
    assert by_id["L3"]["in_sda"] is True  # a lot without work still gets its answer
    assert by_id["L1"]["in_sda"] is False
    counts = {record["name"]: record["feature_count"] for record in document["inputs"]}
    assert counts["wetlands"] == 2 and counts["sda"] == 1
