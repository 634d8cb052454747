"""Hand-computed parcels: rectangles whose every metric has an exact answer.

Layout (EPSG:2260, feet). Lots A = [0,100]x[0,100], B = [100,200]x[0,100],
C = [0,100]x[100,200]; the street lies south of y = 0 and is no parcel.

Disturbance: d1 = [10,60]x[10,60] (phase 1) and d2 = [40,70]x[40,70] (phase 2)
overlap by 400 sq ft; d3 = [90,120]x[20,40] (phase 1) crosses the A/B line;
d4 = [20,30]x[-10,10] (no phase, parcel_id A) is a curb cut half in the street;
d5 = [10,30]x[150,170] on C.

A: 2,500 + 900 - 400 (d1 u d2) + 200 (d3 in A) + 200 (d4) = 3,400 disturbed,
100 of it in the street; phase 1 = d1 + d3a + d4 = 2,900; phase 2 = d2 + d4 = 1,100.
"""

from __future__ import annotations

import json

import geopandas as gpd
import numpy as np
import pandas as pd
import pytest
import shapely
from shapely.geometry import LineString, box

from sitecheck.app.cli import main
from sitecheck.constraints.adjoining import AdjoiningSettings
from sitecheck.io.readers import LayerSource
from sitecheck.measure.driver import measure
from sitecheck.measure.inputs import MeasureInputs, MeasureSettings

from .conftest import write_dem


@pytest.fixture
def hand_layers(layer_writer) -> dict[str, str]:
    lots = [
        {"parcel_id": "A", "owner": "Ames", "address": "1 Elm St", "geometry": box(0, 0, 100, 100)},
        {
            "parcel_id": "B",
            "owner": "Bell",
            "address": "3 Elm St",
            "geometry": box(100, 0, 200, 100),
        },
        {
            "parcel_id": "C",
            "owner": "Cole",
            "address": "2 Oak St",
            "geometry": box(0, 100, 100, 200),
        },
    ]
    disturbance = [
        {"parcel_id": "A", "phase": 1, "geometry": box(10, 10, 60, 60)},
        {"parcel_id": "A", "phase": 2, "geometry": box(40, 40, 70, 70)},
        {"parcel_id": "A", "phase": 1, "geometry": box(90, 20, 120, 40)},
        {"parcel_id": "A", "phase": None, "geometry": box(20, -10, 30, 10)},
        {"parcel_id": "C", "phase": None, "geometry": box(10, 150, 30, 170)},
    ]
    existing = [
        {"geometry": box(50, 50, 80, 80)},
        {"geometry": box(60, 60, 80, 80)},  # drawn twice over: counted once
        {"geometry": box(120, 60, 160, 90)},
        {"geometry": box(10, 110, 30, 130)},
    ]
    proposed = [
        {"geometry": box(50, 50, 80, 80)},
        {"geometry": box(20, 0, 30, 50)},
        {"geometry": box(120, 60, 160, 90)},
        {"geometry": box(160, 60, 170, 70)},
        {"geometry": box(10, 110, 30, 130)},
    ]
    flood = [
        {
            "FLD_ZONE": "AE",
            "ZONE_SUBTY": "FLOODWAY",
            "SFHA_TF": "T",
            "geometry": box(0, 0, 100, 15),
        },
        {"FLD_ZONE": "AE", "ZONE_SUBTY": None, "SFHA_TF": "T", "geometry": box(0, 15, 100, 30)},
        {
            "FLD_ZONE": "X",
            "ZONE_SUBTY": "0.2 PCT ANNUAL CHANCE FLOOD HAZARD",
            "SFHA_TF": "F",
            "geometry": box(0, 30, 100, 45),
        },
        {
            "FLD_ZONE": "X",
            "ZONE_SUBTY": "AREA OF MINIMAL FLOOD HAZARD",
            "SFHA_TF": "F",
            "geometry": box(0, 45, 100, 100),
        },
    ]
    return {
        "parcels": layer_writer("parcels", lots),
        "disturbance": layer_writer("disturbance", disturbance),
        "impervious_existing": layer_writer("existing", existing),
        "impervious_proposed": layer_writer("proposed", proposed),
        "floodplain": layer_writer("flood", flood),
        "wetlands": layer_writer("wetlands", [{"geometry": box(180, 0, 200, 50)}]),
        "watercourses": layer_writer(
            "streams", [{"geometry": LineString([(-50, 260), (250, 260)])}]
        ),
        "sda": layer_writer("sda", [{"geometry": box(100, 0, 200, 100)}]),
        "impaired_watersheds": layer_writer("impaired", [{"geometry": box(-50, -50, 300, 300)}]),
        "zoning": layer_writer(
            "zoning",
            [
                {"district": "A-3", "geometry": box(-50, -50, 100, 300)},
                {"district": "B-1", "geometry": box(100, -50, 300, 300)},
            ],
        ),
    }


def _inputs(layers: dict[str, str], **extra) -> MeasureInputs:
    sources = {name: LayerSource.parse(name, spec) for name, spec in layers.items()}
    return MeasureInputs(**sources, **extra)


def _by_id(result) -> dict[str, dict]:
    return {row["parcel_id"]: row for row in result.parcels.to_dict("records")}


EXPECTED = {
    "A": {
        "lot_area_sqft": 10_000,
        "disturbed_area_sqft": 3_400,
        "disturbed_outside_parcel_sqft": 100,
        "max_disturbed_at_one_time_sqft": 2_900,
        "impervious_existing_sqft": 900,
        "impervious_proposed_sqft": 1_400,
        "impervious_net_change_sqft": 500,
        "impervious_proposed_pct": 14.0,
        "disturbed_in_floodway_sqft": 350,
        "disturbed_in_floodplain_1pct_sqft": 1_200,
        "disturbed_in_floodplain_0_2pct_sqft": 2_100,
        "disturbed_in_wetland_sqft": 0,
        "disturbed_in_wetland_adjacent_sqft": 200,
        "disturbed_in_watercourse_buffer_sqft": 0,
        "disturbed_in_adjoining_buffer_sqft": 200,
        "in_sda": False,
        "in_impaired_watershed": True,
        "zoning_district": "A-3",
    },
    "B": {
        "lot_area_sqft": 10_000,
        "disturbed_area_sqft": 400,
        "disturbed_outside_parcel_sqft": 0,
        "max_disturbed_at_one_time_sqft": 400,
        "impervious_existing_sqft": 1_200,
        "impervious_proposed_sqft": 1_300,
        "impervious_net_change_sqft": 100,
        "impervious_proposed_pct": 13.0,
        "disturbed_in_floodway_sqft": 0,
        "disturbed_in_floodplain_1pct_sqft": 0,
        "disturbed_in_floodplain_0_2pct_sqft": 0,
        "disturbed_in_wetland_sqft": 0,
        "disturbed_in_wetland_adjacent_sqft": 400,
        "disturbed_in_watercourse_buffer_sqft": 0,
        "disturbed_in_adjoining_buffer_sqft": 0,
        "in_sda": True,
        "in_impaired_watershed": True,
        "zoning_district": "B-1",
    },
    "C": {
        "lot_area_sqft": 10_000,
        "disturbed_area_sqft": 400,
        "disturbed_outside_parcel_sqft": 0,
        "max_disturbed_at_one_time_sqft": 400,
        "impervious_existing_sqft": 400,
        "impervious_proposed_sqft": 400,
        "impervious_net_change_sqft": 0,
        "impervious_proposed_pct": 4.0,
        "disturbed_in_floodway_sqft": 0,
        "disturbed_in_floodplain_1pct_sqft": 0,
        "disturbed_in_floodplain_0_2pct_sqft": 0,
        "disturbed_in_wetland_sqft": 0,
        "disturbed_in_wetland_adjacent_sqft": 0,
        "disturbed_in_watercourse_buffer_sqft": 200,
        "disturbed_in_adjoining_buffer_sqft": 0,
        "in_sda": False,
        "in_impaired_watershed": True,
        "zoning_district": "A-3",
    },
}


# § 254-4's Residence A districts (shared/ordinances/README.md), which Scarsdale's pack names.
RESIDENCE_A = ("AA-1", "A-1", "A-2", "A-2a", "A-3", "A-4", "A-5")
SCARSDALE_BUFFER = MeasureSettings(adjoining=AdjoiningSettings(districts=RESIDENCE_A))


def test_every_metric_matches_the_hand_computation(hand_layers):
    result = measure(_inputs(hand_layers), SCARSDALE_BUFFER)
    rows = _by_id(result)
    for parcel_id, expected in EXPECTED.items():
        for name, value in expected.items():
            got = rows[parcel_id][name]
            if isinstance(value, bool | str):
                assert got == value, (parcel_id, name)
            else:
                assert got == pytest.approx(value, abs=0.01), (parcel_id, name)
    assert result.working.crs.to_epsg() == 2260
    assert result.working.area_unit == "sq ft (US survey)"


def test_the_measured_lots_hold_no_prepared_state(hand_layers):
    # Prepared, the lots keep GEOS's indexes of their edges once a predicate has used
    # them: 384 MB of the 250k bench village's check, at its peak, for no time gained.
    result = measure(_inputs(hand_layers), SCARSDALE_BUFFER)
    lots = result.parcels.geometry.to_numpy()
    assert len(lots) == 3
    assert not shapely.is_prepared(lots).any()


def test_without_a_district_list_the_business_lot_has_its_buffer_too(hand_layers):
    # B (B-1) is outside Residence A; with no pack naming districts its 30-ft side strip
    # along the A/B line holds d3's part in B, [100,120]x[20,40] = 400 sq ft.
    rows = _by_id(measure(_inputs(hand_layers), MeasureSettings()))
    assert rows["B"]["disturbed_in_adjoining_buffer_sqft"] == pytest.approx(400)
    assert rows["A"]["disturbed_in_adjoining_buffer_sqft"] == pytest.approx(200)


def test_metrics_of_missing_layers_are_null_not_zero(hand_layers):
    only = {name: hand_layers[name] for name in ("parcels", "disturbance")}
    rows = _by_id(measure(_inputs(only), MeasureSettings()))
    for name in (
        "impervious_existing_sqft",
        "impervious_proposed_sqft",
        "impervious_net_change_sqft",
        "disturbed_in_floodplain_1pct_sqft",
        "disturbed_in_floodway_sqft",
        "disturbed_in_wetland_sqft",
        "disturbed_in_wetland_adjacent_sqft",
        "disturbed_in_watercourse_buffer_sqft",
        "disturbed_on_slope_over_15pct_sqft",
        "slope_data_coverage",
    ):
        assert np.isnan(rows["A"][name]), name
    for name in ("in_sda", "in_impaired_watershed", "zoning_district"):
        assert pd.isna(rows["A"][name]), name
    assert rows["A"]["disturbed_area_sqft"] == pytest.approx(3_400)


def test_flags_hold_each_overlap_with_its_area(hand_layers):
    result = measure(_inputs(hand_layers), MeasureSettings())
    flags = result.flags
    by_key = {(row["parcel_id"], row["kind"]): row for row in flags.to_dict("records")}
    assert by_key[("A", "floodway")]["area_sqft"] == pytest.approx(350)
    assert by_key[("A", "outside_parcel")]["area_sqft"] == pytest.approx(100)
    assert by_key[("B", "wetland_adjacent")]["area_sqft"] == pytest.approx(400)
    assert by_key[("A", "adjoining_buffer")]["area_sqft"] == pytest.approx(200)
    street_part = by_key[("A", "outside_parcel")]["geometry"]
    assert street_part.equals(shapely.MultiPolygon([box(20, -10, 30, 0)]))
    assert ("C", "floodway") not in by_key
    assert set(flags["kind"]) <= {
        "outside_parcel",
        "floodplain_1pct",
        "floodplain_0_2pct",
        "floodway",
        "wetland",
        "wetland_adjacent",
        "watercourse_buffer",
        "adjoining_buffer",
        "slope_over_15pct",
        "slope_over_25pct",
    }


def test_slope_on_a_uniform_twenty_percent_plane(hand_layers, tmp_path):
    cell = 2.0
    west, north, size = -100.0, 400.0, 300
    columns = west + cell * (np.arange(size) + 0.5)
    elevation = np.tile(0.2 * columns, (size, 1))
    dem = write_dem(tmp_path / "plane.tif", elevation, west, north, cell)
    rows = _by_id(measure(_inputs(hand_layers, dem=dem), MeasureSettings()))
    assert rows["A"]["disturbed_on_slope_over_15pct_sqft"] == pytest.approx(3_400, abs=0.01)
    assert rows["A"]["disturbed_on_slope_over_25pct_sqft"] == pytest.approx(0)
    assert rows["A"]["slope_data_coverage"] == pytest.approx(1.0)


def test_cli_writes_geopackage_and_json(hand_layers, tmp_path, capsys):
    out, report = tmp_path / "result.gpkg", tmp_path / "result.json"
    argv = ["measure", "--quiet", "--out", str(out), "--json-layout", "full", "--json", str(report)]
    flags = {
        "parcels": "--parcels",
        "disturbance": "--disturbance",
        "impervious_existing": "--impervious-existing",
        "impervious_proposed": "--impervious-proposed",
        "floodplain": "--floodplain",
        "wetlands": "--wetlands",
        "watercourses": "--watercourses",
        "sda": "--sda",
        "zoning": "--zoning",
        "impaired_watersheds": "--impaired-watersheds",
    }
    for name, flag in flags.items():
        argv += [flag, hand_layers[name]]
    assert main(argv) == 0
    document = json.loads(report.read_text())
    assert document["crs"]["epsg"] == 2260
    assert [p["parcel_id"] for p in document["parcels"]] == ["A", "B", "C"]
    metrics_a = document["parcels"][0]["metrics"]
    assert metrics_a["disturbed_area_sqft"] == pytest.approx(3_400)
    assert metrics_a["disturbed_area_acres"] == pytest.approx(3_400 / 43_560, abs=1e-4)
    assert metrics_a["slope_data_coverage"] is None
    assert {i["name"] for i in document["inputs"]} >= {"parcels", "disturbance", "floodplain"}
    assert all(len(i["sha256"]) == 64 for i in document["inputs"])
    import pyogrio

    layers = {name for name, _ in pyogrio.list_layers(out)}
    assert layers == {"parcels", "flags", "sitecheck_audit"}
    assert "outputs:" in capsys.readouterr().out


def test_geopackage_carries_the_audit_block(hand_layers, tmp_path):
    import pyogrio

    out = tmp_path / "audited.gpkg"
    argv = [
        "check",
        "--quiet",
        "--ordinance",
        "scarsdale",
        "--out",
        str(out),
        "--parcels",
        hand_layers["parcels"],
        "--disturbance",
        hand_layers["disturbance"],
    ]
    assert main(argv) == 0
    metadata = json.loads(
        pyogrio.read_info(out, layer="parcels")["dataset_metadata"]["SITECHECK_AUDIT"]
    )
    assert metadata["crs"]["epsg"] == 2260
    assert metadata["packs"][0]["id"] == "scarsdale" and len(metadata["packs"][0]["sha256"]) == 64
    assert {i["name"] for i in metadata["inputs"]} == {"parcels", "disturbance"}
    table = pyogrio.read_dataframe(out, layer="sitecheck_audit", read_geometry=False)
    assert set(table["entry"]) >= {
        "sitecheck_version",
        "generated",
        "crs",
        "settings",
        "inputs",
        "packs",
    }


def test_a_lot_drawn_in_metres_is_measured_in_square_feet(tmp_path):
    """Lot A of the layout above drawn in UTM zone 18N metres (EPSG:26918), near Scarsdale:
    100 ft = 30.48 m exactly, so d1's 50 ft square (15.24 m) is 2,500 sq ft and the
    lot 10,000, to the grid's scale factor there (under 0.1%)."""
    x0, y0 = 598_000.0, 4_538_000.0
    gpkg = tmp_path / "metres.gpkg"
    lot = box(x0, y0, x0 + 30.48, y0 + 30.48)
    work = box(x0 + 3.048, y0 + 3.048, x0 + 3.048 + 15.24, y0 + 3.048 + 15.24)
    frames = {
        "parcels": gpd.GeoDataFrame({"parcel_id": ["A"]}, geometry=[lot], crs="EPSG:26918"),
        "work": gpd.GeoDataFrame(geometry=[work], crs="EPSG:26918"),
    }
    for layer, frame in frames.items():
        frame.to_file(gpkg, layer=layer)
    out = tmp_path / "o"
    argv = ["measure", "--quiet", "--parcels", f"{gpkg}:parcels", "--disturbance", f"{gpkg}:work"]
    assert (
        main([*argv, "--out", f"{out}.gpkg", "--json", f"{out}.json", "--json-layout", "full"]) == 0
    )
    metrics = json.loads((tmp_path / "o.json").read_text())["parcels"][0]["metrics"]
    assert metrics["lot_area_sqft"] == pytest.approx(10_000.0, rel=1e-3)
    assert metrics["disturbed_area_sqft"] == pytest.approx(2_500.0, rel=1e-3)
