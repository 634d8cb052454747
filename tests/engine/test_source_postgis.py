"""Layers kept in PostgreSQL + PostGIS, as county and village GIS keep parcels.

A real server (Debian's PostgreSQL and PostGIS, started for the tests) holds the
sample village, loaded with Debian's ogr2ogr as a county loads its data. The
engine reads the tables through ``PG:`` specs and must answer as it does from
the GeoPackage the tables were loaded from, lot by lot.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import shapely
from shapely.geometry import box

from sitecheck.app.cli import main
from sitecheck.io.extent import Extent
from sitecheck.io.readers import POLYGONAL, LayerReader, LayerSource
from sitecheck.sample.village import generate_village

from .conftest import write_layer

pytestmark = pytest.mark.slow  # a PostgreSQL server and a Dask cluster

FROM_POSTGIS = ("parcels", "disturbance", "floodplain", "wetlands", "impervious_proposed")
FROM_FILE = ("impervious_existing", "watercourses", "sda", "zoning", "impaired_watersheds")


@pytest.fixture(scope="module")
def village(tmp_path_factory, postgis) -> dict[str, object]:
    files = generate_village(tmp_path_factory.mktemp("postgis-village"))
    gpkg = str(files["gpkg"])
    specs = {role: postgis.load(gpkg, role, f"public.{role}") for role in FROM_POSTGIS}
    return {"gpkg": gpkg, "dem": str(files["dem"]), "pg": specs}


def _check(village: dict, folder: Path, from_postgis: bool, *extra: str) -> dict:
    gpkg = village["gpkg"]
    folder.mkdir(parents=True, exist_ok=True)
    out = folder / ("pg" if from_postgis else "gpkg")
    argv = ["check", "--quiet", "--ordinance", "scarsdale", "--dem", village["dem"], *extra]
    argv += ["--out", f"{out}.gpkg", "--json-layout", "full", "--json", f"{out}.json"]
    for role in FROM_POSTGIS:
        spec = village["pg"][role] if from_postgis else f"{gpkg}:{role}"
        argv += [f"--{role.replace('_', '-')}", spec]
    for role in FROM_FILE:
        argv += [f"--{role.replace('_', '-')}", f"{gpkg}:{role}"]
    assert main(argv) == 0
    return json.loads(Path(f"{out}.json").read_text())


def _by_lot(document: dict) -> dict[str, tuple]:
    return {
        parcel["parcel_id"]: (
            {k: v for k, v in parcel["metrics"].items() if v is not None},
            sorted((t["rule_id"], t["outcome"]) for t in parcel["triggers"]),
        )
        for parcel in document["parcels"]
    }


def _measure_tables(postgis, parcels: str, disturbance: str, out: Path) -> int:
    """``measure`` on two PostGIS tables, the JSON in the full layout beside ``out``."""
    return main(
        [
            "measure",
            "--quiet",
            "--parcels",
            f"PG:{postgis.conninfo} tables={parcels}",
            "--disturbance",
            f"PG:{postgis.conninfo} tables={disturbance}",
            "--out",
            f"{out}.gpkg",
            "--json-layout",
            "full",
            "--json",
            f"{out}.json",
        ]
    )


def test_a_check_from_postgis_answers_as_from_the_file_it_was_loaded_from(village, tmp_path):
    from_file = _check(village, tmp_path, False)
    from_postgis = _check(village, tmp_path, True)
    file_lots, pg_lots = _by_lot(from_file), _by_lot(from_postgis)
    assert file_lots.keys() == pg_lots.keys() and len(pg_lots) > 10
    for lot, (metrics, triggers) in file_lots.items():
        pg_metrics, pg_triggers = pg_lots[lot]
        assert pg_triggers == triggers, lot
        assert pg_metrics.keys() == metrics.keys(), lot
        for name, value in metrics.items():
            if isinstance(value, float):
                assert pg_metrics[name] == pytest.approx(value, rel=1e-9, abs=1e-6), (lot, name)
            else:
                assert pg_metrics[name] == value, (lot, name)
    assert from_postgis["crs"] == from_file["crs"]
    # The audit names the table read and counts its rows, as it does a file's layer.
    inputs = {record["name"]: record for record in from_postgis["inputs"]}
    assert inputs["parcels"]["layer"] == "public.parcels"
    assert inputs["parcels"]["path"].startswith("PG:host=127.0.0.1")
    file_inputs = {record["name"]: record for record in from_file["inputs"]}
    assert inputs["parcels"]["feature_count"] == file_inputs["parcels"]["feature_count"]


def test_the_dask_engine_reads_postgis_as_the_single_engine_does(village, tmp_path):
    single = _check(village, tmp_path / "single", True)
    dask = _check(
        village,
        tmp_path / "dask",
        True,
        "--engine",
        "dask",
        "--workers",
        "1",
        "--partition-size",
        "20",
    )
    assert _by_lot(dask) == _by_lot(single)


def test_an_extent_read_takes_only_the_rows_meeting_it(village, postgis):
    source = LayerSource.parse("parcels", village["pg"]["parcels"])
    whole = LayerReader().read(source, POLYGONAL)
    chosen = whole.geometry.to_numpy()[:3]
    reader = LayerReader()
    part = reader.read(source, POLYGONAL, within=Extent.around(chosen, 0.0, whole.crs))
    # The rows whose boxes meet the three lots' box, counted here with shapely alone.
    area = shapely.box(*shapely.total_bounds(chosen))
    expected = {
        int(fid)
        for fid, geom in zip(whole["_fid"], whole.geometry, strict=True)
        if shapely.intersects(shapely.box(*geom.bounds), area)
    }
    assert set(part["_fid"]) == expected and len(expected) < len(whole)
    assert reader.inputs[0].feature_count == len(whole)


def test_the_layer_must_be_named_when_the_database_holds_several(village, postgis, capsys):
    spec = f"PG:{postgis.conninfo}"
    with pytest.raises(Exception, match=r"holds 5 layers .*parcels \(POLYGON\)"):
        LayerSource.parse("parcels", spec)
    # the trailing form names it as a file's layer is named
    source = LayerSource.parse("parcels", f"{spec}:public.parcels")
    assert source.layer == "public.parcels"


def test_a_table_that_is_not_there_is_one_line_listing_those_that_are(
    village, postgis, tmp_path, capsys
):
    code = main(
        [
            "measure",
            "--quiet",
            "--parcels",
            f"PG:{postgis.conninfo} tables=public.lots",
            "--disturbance",
            f"PG:{postgis.conninfo} tables=public.disturbance",
            "--out",
            str(tmp_path / "out.gpkg"),
        ]
    )
    assert code == 2
    error = capsys.readouterr().err.strip().splitlines()
    assert len(error) == 1
    assert "'public.lots' is not a table with geometry" in error[0]
    assert "parcels(geom)" in error[0] or "parcels(wkb_geometry)" in error[0]


def test_a_server_that_does_not_answer_is_one_line_without_the_password(tmp_path, capsys):
    code = main(
        [
            "measure",
            "--quiet",
            "--parcels",
            "PG:host=127.0.0.1 port=1 dbname=x user=gis password=hunter2 tables=parcels",
            "--disturbance",
            "PG:host=127.0.0.1 port=1 dbname=x user=gis password=hunter2 tables=work",
            "--out",
            str(tmp_path / "out.gpkg"),
        ]
    )
    assert code == 2
    error = capsys.readouterr().err.strip().splitlines()
    assert len(error) == 1
    assert "cannot connect" in error[0] and "hunter2" not in error[0]
    assert "password=***" in error[0]
    assert not (tmp_path / "out.gpkg").exists()


def test_a_table_without_a_primary_key_or_a_crs(postgis, tmp_path, capsys):
    gpkg = tmp_path / "site.gpkg"
    write_layer(gpkg, "lots", [{"parcel_id": "L1", "geometry": box(0, 0, 200, 200)}])
    write_layer(gpkg, "work", [{"parcel_id": "L1", "geometry": box(50, 50, 150, 150)}])
    postgis.load(str(gpkg), "lots", "public.lots_loaded")
    postgis.load(str(gpkg), "work", "public.work_loaded")
    postgis.sql(
        "DROP TABLE IF EXISTS lots_nokey; CREATE TABLE lots_nokey AS SELECT * FROM lots_loaded"
    )
    out = tmp_path / "out"
    assert _measure_tables(postgis, "lots_nokey", "work_loaded", out) == 0
    parcel = json.loads(Path(f"{out}.json").read_text())["parcels"][0]
    assert parcel["parcel_id"] == "L1"
    assert parcel["metrics"]["disturbed_area_sqft"] == pytest.approx(100 * 100)
    # a geometry column of SRID 0 has no CRS: refused naming the table
    postgis.sql(
        "DROP TABLE IF EXISTS lots_nocrs; CREATE TABLE lots_nocrs AS "
        "SELECT parcel_id, ST_SetSRID(geom, 0)::geometry(Polygon, 0) AS geom FROM lots_loaded"
    )
    capsys.readouterr()
    code = main(
        [
            "measure",
            "--quiet",
            "--parcels",
            f"PG:{postgis.conninfo} tables=lots_nocrs",
            "--disturbance",
            f"PG:{postgis.conninfo} tables=work_loaded",
            "--out",
            str(tmp_path / "nocrs.gpkg"),
        ]
    )
    assert code == 2
    error = capsys.readouterr().err.strip()
    assert "parcels layer" in error and "lots_nocrs" in error and "no CRS" in error


@pytest.mark.parametrize(
    "kind, name",
    [
        ("VIEW", "lots_view"),
        ("MATERIALIZED VIEW", "lots_matview"),
        ("TABLE", "lots_keyless"),
    ],
)
def test_views_and_keyless_tables_are_read_as_the_table_they_show(postgis, tmp_path, kind, name):
    gpkg = tmp_path / "site.gpkg"
    lots = [
        {"parcel_id": f"L{i}", "geometry": box(300 * i, 0, 300 * i + 200, 200)} for i in range(3)
    ]
    work = [
        {"parcel_id": f"L{i}", "geometry": box(300 * i + 50, 50, 300 * i + 50 + 40 * (i + 1), 150)}
        for i in range(3)
    ]
    write_layer(gpkg, "lots", lots)
    write_layer(gpkg, "work", work)
    postgis.load(str(gpkg), "lots", "public.lots_loaded")
    postgis.load(str(gpkg), "work", "public.work_loaded")
    postgis.sql(f"DROP {kind} IF EXISTS {name}; CREATE {kind} {name} AS SELECT * FROM lots_loaded")
    out = tmp_path / "out"
    assert _measure_tables(postgis, name, "work_loaded", out) == 0, kind
    parcels = json.loads(Path(f"{out}.json").read_text())["parcels"]
    # each lot's work is 40 (i + 1) ft by 100 ft, as drawn above
    measured = {p["parcel_id"]: p["metrics"]["disturbed_area_sqft"] for p in parcels}
    assert measured == {f"L{i}": pytest.approx(40 * (i + 1) * 100) for i in range(3)}
    postgis.sql(f"DROP {kind} {name}")
