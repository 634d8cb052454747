"""NYS tax parcels as counties publish them: SBLs that repeat or are missing (issue 12, item 3).

A multipart parcel stored as several rows repeats its SBL with the same owner
and address: one lot. A village and a town extract together repeat SBLs across
SWIS codes, with different owners: not one lot, and the refusal names the
fields that are unique (``SWIS_SBL_ID``, ``SWIS`` + ``PRINT_KEY``). Road and
water polygons carry no SBL.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from shapely.geometry import box

from sitecheck.app.cli import main

from .conftest import write_layer


def _row(sbl: str, owner: str, geometry, swis: str = "552601") -> dict:
    return {
        "SWIS": swis,
        "SBL": sbl,
        "PRINT_KEY": sbl,
        "SWIS_SBL_ID": f"{swis}{sbl}",
        "PRIMARY_OWNER": owner,
        "PARCEL_ADDR": f"1 {owner.title()} Way",
        "geometry": geometry,
    }


def _measure(tmp_path: Path, parcels: str, work: str, *extra: str) -> tuple[int, dict | None]:
    out = tmp_path / "out"
    argv = ["measure", "--quiet", "--parcels", parcels, "--disturbance", work, *extra]
    code = main([*argv, "--out", f"{out}.gpkg", "--json-layout", "full", "--json", f"{out}.json"])
    document = json.loads(Path(f"{out}.json").read_text()) if code == 0 else None
    return code, document


def test_rows_of_one_lot_are_merged_with_a_warning(tmp_path):
    gpkg = tmp_path / "county.gpkg"
    parcels = write_layer(
        gpkg,
        "parcels",
        [
            _row("1.-1-1", "SMITH", box(0, 0, 100, 100)),
            _row("1.-1-1", "SMITH", box(300, 0, 400, 100)),  # the lot's other part
            _row("1.-1-2", "JONES", box(100, 0, 200, 100)),
        ],
    )
    # 20 x 50 ft of work on each part of 1.-1-1.
    work = write_layer(
        gpkg, "work", [{"geometry": box(10, 10, 30, 60)}, {"geometry": box(310, 10, 330, 60)}]
    )
    code, document = _measure(tmp_path, parcels, work)
    assert code == 0
    lots = {p["parcel_id"]: p["metrics"] for p in document["parcels"]}
    assert set(lots) == {"1.-1-1"}
    assert lots["1.-1-1"]["disturbed_area_sqft"] == pytest.approx(2000.0)
    assert lots["1.-1-1"]["lot_area_sqft"] == pytest.approx(20_000.0)
    assert any("merged into one lot" in w and "1.-1-1" in w for w in document["warnings"])


def test_repeats_of_different_owners_are_refused_naming_the_unique_fields(tmp_path, capsys):
    gpkg = tmp_path / "village_and_town.gpkg"
    parcels = write_layer(
        gpkg,
        "parcels",
        [
            _row("1.-1-1", "SMITH", box(0, 0, 100, 100), swis="552601"),  # the village
            _row("1.-1-1", "BROWN", box(500, 0, 600, 100), swis="552689"),  # the town
        ],
    )
    work = write_layer(gpkg, "work", [{"geometry": box(10, 10, 30, 60)}])
    code, _ = _measure(tmp_path, parcels, work)
    assert code == 2
    error = [line for line in capsys.readouterr().err.splitlines() if "error" in line]
    assert len(error) == 1
    assert "field 'SBL'" in error[0] and "different owners or addresses" in error[0]
    assert "--id-field SWIS_SBL_ID" in error[0] and "SWIS+PRINT_KEY" in error[0]


def test_joined_id_fields_tell_the_lots_apart(tmp_path):
    gpkg = tmp_path / "village_and_town.gpkg"
    parcels = write_layer(
        gpkg,
        "parcels",
        [
            _row("1.-1-1", "SMITH", box(0, 0, 100, 100), swis="552601"),
            _row("1.-1-1", "BROWN", box(500, 0, 600, 100), swis="552689"),
        ],
    )
    work = write_layer(gpkg, "work", [{"geometry": box(510, 10, 530, 60)}])
    code, document = _measure(tmp_path, parcels, work, "--id-field", "SWIS+PRINT_KEY")
    assert code == 0
    assert [p["parcel_id"] for p in document["parcels"]] == ["552689/1.-1-1"]


def test_rows_without_an_sbl_are_not_lots(tmp_path):
    gpkg = tmp_path / "roads.gpkg"
    road = _row("", "", box(0, -50, 400, 0))
    road["SBL"] = None
    parcels = write_layer(gpkg, "parcels", [_row("1.-1-1", "SMITH", box(0, 0, 100, 100)), road])
    work = write_layer(gpkg, "work", [{"geometry": box(40, -20, 60, 50)}])  # 400 sq ft in the road
    code, document = _measure(tmp_path, parcels, work)
    assert code == 0
    (lot,) = document["parcels"]
    assert lot["parcel_id"] == "1.-1-1"
    assert lot["metrics"]["disturbed_area_sqft"] == pytest.approx(1400.0)
    assert lot["metrics"]["disturbed_outside_parcel_sqft"] == pytest.approx(400.0)
    assert any("have no id in field 'SBL'" in w and "FID 2" in w for w in document["warnings"])


@pytest.mark.slow
def test_the_dask_engine_merges_the_same_rows_and_finds_the_same_unassigned_work(tmp_path):
    gpkg = tmp_path / "county.gpkg"
    parcels = write_layer(
        gpkg,
        "parcels",
        [
            _row("1.-1-1", "SMITH", box(0, 0, 100, 100)),
            _row("1.-1-2", "JONES", box(100, 0, 200, 100)),
            _row("1.-1-1", "SMITH", box(300, 0, 400, 100)),
        ],
    )
    work = write_layer(
        gpkg,
        "work",
        [
            {"geometry": box(10, 10, 30, 60)},
            {"geometry": box(310, 10, 330, 60)},
            {"geometry": box(50_000, 0, 50_010, 10)},  # ten miles out: no lot's
        ],
    )
    documents = []
    for engine in (["--engine", "single"], ["--engine", "dask", "--workers", "1"]):
        out = tmp_path / engine[1]
        argv = ["check", "--quiet", "--ordinance", "scarsdale", "--parcels", parcels]
        argv += [
            "--disturbance",
            work,
            "--out",
            f"{out}.gpkg",
            "--json-layout",
            "full",
            "--json",
            f"{out}.json",
        ]
        assert main([*argv, *engine, *(["--partition-size", "1"] if "dask" in engine else [])]) == 0
        documents.append(json.loads(Path(f"{out}.json").read_text()))
    single, dask = documents
    for document in documents:
        (lot,) = document["parcels"]
        assert lot["parcel_id"] == "1.-1-1"
        assert lot["metrics"]["disturbed_area_sqft"] == pytest.approx(2000.0)
        assert document["unassigned_work"] == [
            {"layer": "disturbance", "fid": 3, "area_sqft": 100.0}
        ]
    assert single["warnings"] == dask["warnings"]
