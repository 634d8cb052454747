"""County-wide runs: each parcel gets the pack of the jurisdiction it lies in."""

from __future__ import annotations

import json

import pyogrio
from shapely.geometry import box

from sitecheck.app.cli import main

from .conftest import write_layer
from .test_pack_loading import GOOD_RULE, HEADER

X0, Y0 = 690_000.0, 787_000.0


def _layers(tmp_path, values: tuple[str, str]):
    gpkg = tmp_path / "in.gpkg"
    lots = [
        {"parcel_id": "WEST", "geometry": box(X0, Y0, X0 + 100, Y0 + 150)},
        {"parcel_id": "EAST", "geometry": box(X0 + 1_000, Y0, X0 + 1_100, Y0 + 150)},
    ]
    work = [
        {"geometry": box(X0 + 10, Y0 + 10, X0 + 50, Y0 + 50)},
        {"geometry": box(X0 + 1_010, Y0 + 10, X0 + 1_050, Y0 + 50)},
    ]
    areas = [
        {"village": values[0], "geometry": box(X0 - 100, Y0 - 100, X0 + 500, Y0 + 500)},
        {"village": values[1], "geometry": box(X0 + 500, Y0 - 100, X0 + 1_500, Y0 + 500)},
    ]
    return (
        write_layer(gpkg, "parcels", lots),
        write_layer(gpkg, "work", work),
        write_layer(gpkg, "villages", areas),
    )


def test_each_parcel_gets_its_jurisdictions_pack(tmp_path):
    pack = tmp_path / "testville.toml"
    pack.write_text(HEADER + GOOD_RULE, encoding="utf-8")
    parcels, work, villages = _layers(tmp_path, ("Village of Scarsdale", "testville"))
    report = tmp_path / "out.json"
    assert (
        main(
            [
                "check",
                "--quiet",
                "--parcels",
                parcels,
                "--disturbance",
                work,
                "--jurisdictions",
                villages,
                "--jurisdiction-field",
                "village",
                "--ordinance",
                str(pack),
                "--out",
                str(tmp_path / "out.gpkg"),
                "--json-layout",
                "full",
                "--json",
                str(report),
            ]
        )
        == 0
    )
    document = json.loads(report.read_text())
    by_id = {p["parcel_id"]: p for p in document["parcels"]}
    assert by_id["WEST"]["jurisdiction"] == "scarsdale"
    assert by_id["EAST"]["jurisdiction"] == "testville"
    assert {t["rule_id"] for t in by_id["EAST"]["triggers"]} == {"testville.swppp"}
    assert any(t["citation"] == "§ 254-7" for t in by_id["WEST"]["triggers"])
    assert {p["id"] for p in document["packs"]} == {"scarsdale", "testville"}


def test_a_jurisdiction_without_a_pack_lists_the_known_packs(tmp_path, capsys):
    parcels, work, villages = _layers(tmp_path, ("Scarsdale", "Springfield"))
    assert (
        main(
            [
                "check",
                "--quiet",
                "--parcels",
                parcels,
                "--disturbance",
                work,
                "--jurisdictions",
                villages,
                "--jurisdiction-field",
                "village",
                "--out",
                str(tmp_path / "out.gpkg"),
            ]
        )
        == 2
    )
    err = capsys.readouterr().err
    assert "Springfield" in err and "known packs: homer, larchmont, scarsdale" in err
    assert not (tmp_path / "out.gpkg").exists()


def test_the_geopackage_tells_a_lot_with_triggers_one_without_work_and_one_outside(tmp_path):
    """A lot with work lists its counts and storm; a lot without work is checked with
    nothing listed (an empty summary); a lot in no jurisdiction was not checked (null)."""
    gpkg = tmp_path / "in.gpkg"
    lots = [
        {"parcel_id": "WORK", "geometry": box(X0, Y0, X0 + 100, Y0 + 150)},
        {"parcel_id": "IDLE", "geometry": box(X0 + 200, Y0, X0 + 300, Y0 + 150)},
        {"parcel_id": "AWAY", "geometry": box(X0 + 3_000, Y0, X0 + 3_100, Y0 + 150)},
    ]
    work = [{"geometry": box(X0 + 10, Y0 + 10, X0 + 90, Y0 + 140)}]  # 10,400 sq ft
    village = [{"village": "Scarsdale", "geometry": box(X0 - 100, Y0 - 100, X0 + 500, Y0 + 500)}]
    out, report = tmp_path / "out.gpkg", tmp_path / "out.json"
    command = ["check", "--quiet", "--out", str(out), "--json", str(report)]
    command += ["--json-layout", "full", "--jurisdiction-field", "village"]
    command += ["--parcels", write_layer(gpkg, "parcels", lots)]
    command += ["--disturbance", write_layer(gpkg, "work", work)]
    assert main([*command, "--jurisdictions", write_layer(gpkg, "villages", village)]) == 0

    table = pyogrio.read_dataframe(out, layer="parcels").set_index("parcel_id")
    listed = json.loads(report.read_text())["parcels"][0]
    assert listed["parcel_id"] == "WORK"
    outcomes = [t["outcome"] for t in listed["triggers"]]
    triggered = [t for t in listed["triggers"] if t["outcome"] == "triggered"]
    # over 5,000 sq ft on a lot under two acres: § 254-9's 25-, 10- and 2-year storms
    assert table.loc["WORK", "design_storm_years"] == 25
    assert table.loc["WORK", "trigger_count"] == outcomes.count("triggered") > 0
    assert table.loc["WORK", "review_count"] == outcomes.count("needs_review") > 0
    summary = table.loc["WORK", "triggers_summary"]
    assert summary.startswith(f"{triggered[0]['citation']} {triggered[0]['title']}; ")
    assert table.loc["IDLE", "jurisdiction"] == "scarsdale"
    assert table.loc["IDLE", "triggers_summary"] == ""
    assert table.loc[["IDLE", "AWAY"], ["trigger_count", "review_count"]].eq(0).all(axis=None)
    assert table.loc["AWAY", ["jurisdiction", "triggers_summary"]].isna().all()
    for column in ("highest_severity", "design_storm_years", "design_storm"):
        assert table.loc[["IDLE", "AWAY"], column].isna().all(), column
