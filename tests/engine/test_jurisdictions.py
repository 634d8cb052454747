"""County-wide runs: each parcel gets the pack of the jurisdiction it lies in."""

from __future__ import annotations

import json

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
