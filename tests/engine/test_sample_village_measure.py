"""The sample village's projects, measured end to end: each exercises what it claims."""

from __future__ import annotations

import json

import pyogrio
import pytest

from sitecheck.app.cli import main
from sitecheck.sample.village import generate_village

LAYERS = (
    "impervious_existing",
    "impervious_proposed",
    "floodplain",
    "wetlands",
    "watercourses",
    "sda",
    "zoning",
    "impaired_watersheds",
)


@pytest.fixture(scope="module")
def measured(tmp_path_factory) -> tuple[dict[str, dict], dict[str, str], dict]:
    folder = tmp_path_factory.mktemp("village")
    paths = generate_village(folder)
    gpkg = paths["gpkg"]
    argv = [
        "measure",
        "--quiet",
        "--parcels",
        f"{gpkg}:parcels",
        "--disturbance",
        f"{gpkg}:disturbance",
        "--dem",
        str(paths["dem"]),
        "--out",
        str(folder / "out.gpkg"),
        "--json-layout",
        "full",
        "--json",
        str(folder / "out.json"),
    ]
    for name in LAYERS:
        argv += [f"--{name.replace('_', '-')}", f"{gpkg}:{name}"]
    assert main(argv) == 0
    document = json.loads((folder / "out.json").read_text())
    metrics = {p["parcel_id"]: p["metrics"] for p in document["parcels"]}
    projects = pyogrio.read_dataframe(gpkg, layer="projects", read_geometry=False)
    lot_of = {
        name.split()[0]: parcel
        for name, parcel in zip(projects["name"], projects["parcel_id"], strict=True)
    }
    return metrics, lot_of, document


def test_every_project_lot_is_listed(measured):
    metrics, lot_of, document = measured
    assert set(lot_of.values()) <= set(metrics)
    assert document["crs"]["epsg"] == 2260
    assert document["parcel_count"] > 300


def test_each_project_exercises_its_measurement(measured):
    metrics, lot_of, _ = measured
    m = {project: metrics[lot] for project, lot in lot_of.items()}
    assert m["P1"]["disturbed_area_sqft"] < 500 and m["P1"]["lot_area_sqft"] < 7_500
    assert m["P2"]["disturbed_in_floodway_sqft"] > 0
    assert m["P2"]["disturbed_in_floodplain_1pct_sqft"] > m["P2"]["disturbed_in_floodway_sqft"]
    assert (
        m["P2"]["disturbed_in_floodplain_0_2pct_sqft"]
        > m["P2"]["disturbed_in_floodplain_1pct_sqft"]
    )
    assert m["P3"]["disturbed_area_sqft"] > 2 * 43_560
    assert 43_560 < m["P3"]["max_disturbed_at_one_time_sqft"] < m["P3"]["disturbed_area_sqft"]
    assert (
        m["P3"]["disturbed_in_wetland_sqft"] > 0
        and m["P3"]["disturbed_in_wetland_adjacent_sqft"] > 0
    )
    assert m["P3"]["disturbed_on_slope_over_25pct_sqft"] > 0
    assert (
        m["P3"]["disturbed_on_slope_over_15pct_sqft"]
        >= m["P3"]["disturbed_on_slope_over_25pct_sqft"]
    )
    assert (
        m["P4"]["disturbed_outside_parcel_sqft"] > 0 and m["P4"]["impervious_net_change_sqft"] > 0
    )
    assert m["P6"]["in_sda"] is True and m["P6"]["disturbed_in_adjoining_buffer_sqft"] > 0
    assert m["P7"]["impervious_net_change_sqft"] < 0
    assert m["P8"]["in_impaired_watershed"] is True
    assert 0.5 * 43_560 < m["P8"]["disturbed_area_sqft"] < 43_560
    assert m["P9"]["disturbed_in_watercourse_buffer_sqft"] > 0
    assert m["P10"]["impervious_net_change_sqft"] == 0
    assert all(v["slope_data_coverage"] == pytest.approx(1.0) for v in m.values())


def test_a_spill_onto_the_neighbour_is_measured_there_without_changing_its_cover(measured):
    metrics, lot_of, _ = measured
    pool_lot = lot_of["P5"]
    neighbours = [
        pid
        for pid, v in metrics.items()
        if pid not in lot_of.values() and v["disturbed_area_sqft"] > 0
    ]
    assert neighbours, "the pool's spill should show on the neighbouring lot"
    for pid in neighbours:
        assert metrics[pid]["impervious_net_change_sqft"] == 0
    assert metrics[pool_lot]["impervious_net_change_sqft"] > 0


def test_project_attributes_use_the_documented_codes(tmp_path_factory):
    from sitecheck.rules.attributes import ATTRIBUTES_BY_NAME

    paths = generate_village(tmp_path_factory.mktemp("codes"))
    disturbance = pyogrio.read_dataframe(paths["gpkg"], layer="disturbance", read_geometry=False)
    for name in ("project_type", "activity", "permit"):
        used = set(disturbance[name].dropna())
        assert used <= set(ATTRIBUTES_BY_NAME[name].codes), (name, used)
