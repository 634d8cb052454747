"""FEMA NFHL flood hazard areas as published: every ZONE_SUBTY of the D_Zone_Subtype domain.

The layer is written as FEMA's state NFHL shapefile has it (S_FLD_HAZ_AR.shp,
fields FLD_ZONE, ZONE_SUBTY, SFHA_TF). Each lot carries a 100 x 100 ft
disturbance, half of which (5,000 sq ft, by hand) lies in one flood polygon of
one subtype. Which floodplain a subtype belongs to is read off FEMA's FIRM
legend: "other areas of flood hazard" (shaded Zone X) lie in the 0.2% annual
chance floodplain; floodways and encroachment areas are regulatory floodways
inside the 1%; unshaded Zone X is neither.
"""

from __future__ import annotations

import json
from pathlib import Path

import geopandas as gpd
import pytest
from shapely.geometry import box

from sitecheck.app.cli import main

from .conftest import STATE_PLANE_EAST, write_layer

HALF = 5_000.0  # sq ft of each lot's disturbance inside its flood polygon
FLOOD_METRICS = (  # in the 1%, in the 0.2%, in the floodway
    "disturbed_in_floodplain_1pct_sqft",
    "disturbed_in_floodplain_0_2pct_sqft",
    "disturbed_in_floodway_sqft",
)

# (FLD_ZONE, ZONE_SUBTY, SFHA_TF) -> in the 1%, in the 0.2%, in the floodway
CASES: list[tuple[str, str | None, str, bool, bool, bool]] = [
    ("X", "0.2 PCT ANNUAL CHANCE FLOOD HAZARD", "F", False, True, False),
    ("X", "0.2 PCT ANNUAL CHANCE FLOOD HAZARD CONTAINED IN CHANNEL", "F", False, True, False),
    ("X", "0.2 PCT ANNUAL CHANCE FLOOD HAZARD IN COASTAL ZONE", "F", False, True, False),
    ("X", "1 PCT DEPTH LESS THAN 1 FOOT", "F", False, True, False),
    ("X", "1 PCT DRAINAGE AREA LESS THAN 1 SQUARE MILE", "F", False, True, False),
    ("X", "1 PCT FUTURE CONDITIONS", "F", False, True, False),
    ("X", "AREA WITH REDUCED FLOOD RISK DUE TO LEVEE", "F", False, True, False),
    ("X", "1 PERCENT DEPTH LESS THAN 1 FOOT", "F", False, True, False),  # spelled out
    ("X", "0400", "F", False, True, False),  # a coded FIRM database: 0400 is depth < 1 ft
    ("X", "AREA OF MINIMAL FLOOD HAZARD", "F", False, False, False),
    ("X", "2000", "F", False, False, False),  # coded minimal hazard
    ("AE", "FLOODWAY", "T", True, True, True),
    ("AE", "1100", "T", True, True, True),  # coded floodway
    ("AE", "ADMINISTRATIVE FLOODWAY", "T", True, True, True),
    ("AE", "COMMUNITY ENCROACHMENT AREA", "T", True, True, True),
    ("AE", "FLOODWAY CONTAINED IN CHANNEL", "T", True, True, True),
    ("AE", None, "T", True, True, False),
    ("AO", "1 PCT ANNUAL CHANCE FLOOD HAZARD CONTAINED IN STRUCTURE", "T", True, True, False),
    ("B", None, "F", False, True, False),  # older FIRMs' 0.2% zone
]


def _site(tmp_path: Path, cases, shapefile: bool = True) -> dict[str, str]:
    gpkg = tmp_path / "site.gpkg"
    lots, work, flood = [], [], []
    for index, (zone, subtype, sfha, *_) in enumerate(cases):
        x0 = index * 300.0
        lots.append({"parcel_id": f"L{index}", "geometry": box(x0, 0, x0 + 200, 200)})
        work.append({"parcel_id": f"L{index}", "geometry": box(x0 + 50, 50, x0 + 150, 150)})
        flood.append(
            {
                "FLD_ZONE": zone,
                "ZONE_SUBTY": subtype,
                "SFHA_TF": sfha,
                "geometry": box(x0 + 50, 100, x0 + 150, 180),  # the disturbance's north half
            }
        )
    layers = {
        "parcels": write_layer(gpkg, "parcels", lots),
        "disturbance": write_layer(gpkg, "disturbance", work),
    }
    if shapefile:
        path = tmp_path / "NFHL_36_20240101" / "S_FLD_HAZ_AR.shp"
        path.parent.mkdir()
        gpd.GeoDataFrame(flood, geometry="geometry", crs=STATE_PLANE_EAST).to_file(path)
        layers["floodplain"] = str(path)
    else:
        layers["floodplain"] = write_layer(gpkg, "S_FLD_HAZ_AR", flood)
    return layers


def _measure(tmp_path: Path, layers: dict[str, str], capsys) -> tuple[int, dict, str]:
    out = tmp_path / "out"
    out.mkdir(exist_ok=True)
    argv = [
        "measure",
        "--quiet",
        "--out",
        str(out / "m.gpkg"),
        "--json-layout",
        "full",
        "--json",
        str(out / "m.json"),
    ]
    for role, spec in layers.items():
        argv += [f"--{role}", spec]
    code = main(argv)
    err = capsys.readouterr().err
    if code != 0:
        return code, {}, err
    document = json.loads((out / "m.json").read_text())
    return code, {p["parcel_id"]: p["metrics"] for p in document["parcels"]}, err


@pytest.mark.parametrize("shapefile", [True, False], ids=["state shapefile", "geopackage"])
def test_every_subtype_is_measured_in_the_floodplain_fema_maps_it_in(tmp_path, capsys, shapefile):
    code, metrics, err = _measure(tmp_path, _site(tmp_path, CASES, shapefile), capsys)
    assert code == 0, err
    for index, (zone, subtype, _, one, zero_two, floodway) in enumerate(CASES):
        lot = metrics[f"L{index}"]
        expected = (HALF if one else 0.0, HALF if zero_two else 0.0, HALF if floodway else 0.0)
        measured = tuple(lot[name] for name in FLOOD_METRICS)
        assert measured == pytest.approx(expected, abs=0.01), (zone, subtype)


def test_an_unknown_subtype_is_a_warning_naming_it(tmp_path, capsys):
    cases = [("X", "SOMETHING FEMA NEVER WROTE", "F", False, False, False)]
    code, metrics, err = _measure(tmp_path, _site(tmp_path, cases), capsys)
    assert code == 0
    assert "ZONE_SUBTY 'SOMETHING FEMA NEVER WROTE' (1 polygon(s)) is not in FEMA's" in err
    assert metrics["L0"]["disturbed_in_floodplain_0_2pct_sqft"] == 0.0  # FLD_ZONE X, SFHA F


def test_an_unknown_subtype_code_stops_the_run_naming_the_field(tmp_path, capsys):
    cases = [("AE", "9999", "T", True, True, False)]
    code, _, err = _measure(tmp_path, _site(tmp_path, cases), capsys)
    assert code == 2
    assert err.count("\n") == 1 and "ZONE_SUBTY holds code(s) 9999" in err
    assert "S_FLD_HAZ_AR.shp" in err


# A city's published copy of its NFHL: one field `zone` (renamed FLD_ZONE), no subtype,
# no SFHA_TF, the zones worded as its legend has them. What each means is FEMA's: a
# floodway lies in the 1% floodplain, which lies in the 0.2%; shaded X and X500 are the
# 0.2% band alone; unshaded X is neither.
MUNICIPAL_CASES: list[tuple[str, str | None, str, bool, bool, bool]] = [
    ("AE Floodway", None, "", True, True, True),
    ("Zone AE (Floodway)", None, "", True, True, True),
    ("AE", None, "", True, True, False),
    ("a", None, "", True, True, False),  # any case
    ("X Shaded", None, "", False, True, False),
    ("Zone X (Shaded)", None, "", False, True, False),
    ("x500", None, "", False, True, False),
    ("0.2 PCT ANNUAL CHANCE FLOOD HAZARD", None, "", False, True, False),
    ("X", None, "", False, False, False),
]


def test_a_municipal_copys_zone_words_are_read_as_fema_means_them(tmp_path, capsys):
    code, metrics, err = _measure(tmp_path, _site(tmp_path, MUNICIPAL_CASES), capsys)
    assert code == 0, err
    assert "FLD_ZONE" not in err  # every value here is one SiteCheck reads
    for index, (zone, _, _, one, zero_two, floodway) in enumerate(MUNICIPAL_CASES):
        lot = metrics[f"L{index}"]
        expected = (HALF if one else 0.0, HALF if zero_two else 0.0, HALF if floodway else 0.0)
        measured = tuple(lot[name] for name in FLOOD_METRICS)
        assert measured == pytest.approx(expected, abs=0.01), zone


def test_an_unknown_zone_value_is_named_with_its_count_and_never_read_as_no_hazard(
    tmp_path, capsys
):
    cases = [
        ("FLOOD FRINGE", None, "", False, False, False),
        ("FLOOD FRINGE", None, "", False, False, False),
        ("X", None, "", False, False, False),
    ]
    code, metrics, err = _measure(tmp_path, _site(tmp_path, cases), capsys)
    assert code == 0, err
    assert "FLD_ZONE 'FLOOD FRINGE' (2 polygon(s)) is not a FEMA flood zone" in err
    assert "the work on 2 lot(s) (L0, L1) touches flood polygons" in err
    for lot in ("L0", "L1"):
        assert all(metrics[lot][name] is None for name in FLOOD_METRICS), metrics[lot]
    assert [metrics["L2"][name] for name in FLOOD_METRICS] == [0.0, 0.0, 0.0]


def test_zone_d_leaves_the_flood_figures_blank_saying_why(tmp_path, capsys):
    """FEMA: Zone D, "possible but undetermined flood hazard"; no zone is read there."""
    cases = [("D", None, "", False, False, False), ("AE", None, "T", True, True, False)]
    code, metrics, err = _measure(tmp_path, _site(tmp_path, cases), capsys)
    assert code == 0, err
    assert "1 polygon(s) of Zone D, possible but undetermined flood hazard" in err
    assert all(metrics["L0"][name] is None for name in FLOOD_METRICS), metrics["L0"]
    assert metrics["L1"]["disturbed_in_floodplain_1pct_sqft"] == pytest.approx(HALF, abs=0.01)


def test_a_layer_without_fld_zone_is_refused_listing_the_fields_it_has(tmp_path, capsys):
    layers = _site(tmp_path, [("AE", None, "T", True, True, False)], shapefile=False)
    gpkg, layer = layers["floodplain"].rsplit(":", 1)
    frame = gpd.read_file(gpkg, layer=layer).rename(columns={"FLD_ZONE": "zone"})
    frame.to_file(gpkg, layer=layer, driver="GPKG")
    code, _, err = _measure(tmp_path, layers, capsys)
    assert code == 2
    assert err.count("\n") == 1
    assert "needs the FEMA NFHL field FLD_ZONE" in err
    assert err.endswith("; the layer has zone, ZONE_SUBTY, SFHA_TF\n"), err


def test_work_in_zone_d_puts_the_flood_site_map_rules_under_review(tmp_path, capsys):
    """Homer § 228-78B(2)(a)[2]: the site map shows the 100-year floodplain where the work
    reaches it. 15,000 sq ft disturbed (over the 10,000 of § 228-78A), half in a polygon:
    in Zone AE the rule is triggered; in Zone D nobody knows, so it needs review."""
    gpkg = tmp_path / "site.gpkg"
    lots, work, flood = [], [], []
    for index, zone in enumerate(("D", "AE")):
        x0 = index * 400.0
        lots.append({"parcel_id": f"L{index}", "geometry": box(x0, 0, x0 + 300, 300)})
        work.append({"parcel_id": f"L{index}", "geometry": box(x0 + 50, 50, x0 + 200, 150)})
        flood.append({"FLD_ZONE": zone, "geometry": box(x0 + 50, 100, x0 + 200, 200)})
    report = tmp_path / "check.json"
    argv = ["check", "--quiet", "--ordinance", "homer", "--json-layout", "full"]
    argv += ["--parcels", write_layer(gpkg, "parcels", lots)]
    argv += ["--disturbance", write_layer(gpkg, "disturbance", work)]
    argv += ["--floodplain", write_layer(gpkg, "flood", flood)]
    argv += ["--json", str(report), "--out", str(tmp_path / "check.gpkg")]
    assert main(argv) == 0, capsys.readouterr().err
    parcels = {p["parcel_id"]: p for p in json.loads(report.read_text())["parcels"]}
    outcome = {
        lot: {t["rule_id"]: t["outcome"] for t in parcel["triggers"]}
        for lot, parcel in parcels.items()
    }
    assert outcome["L1"]["homer.site_map.floodplain_100"] == "triggered"
    assert outcome["L0"]["homer.site_map.floodplain_100"] == "needs_review"
    assert outcome["L0"]["homer.site_map.floodway"] == "needs_review"
