"""Sources of several layers given without ``:layer``: refused, never read by their first layer.

Seen as published: an NWI File Geodatabase whose project-metadata polygons
come before the wetlands (every lot read as "in wetland"), and a village
GeoPackage given whole as the disturbance (every lot "fully disturbed").
"""

from __future__ import annotations

import json
from pathlib import Path

import geopandas as gpd
import pandas as pd
import pyogrio
import pytest
from shapely.geometry import LineString, Point, box

from sitecheck.app.cli import main

from .conftest import STATE_PLANE_EAST, write_layer


def _frame(rows: list[dict]) -> gpd.GeoDataFrame:
    return gpd.GeoDataFrame(rows, geometry="geometry", crs=STATE_PLANE_EAST)


@pytest.fixture
def site(tmp_path: Path) -> dict[str, str]:
    gpkg = tmp_path / "village.gpkg"
    return {
        "parcels": write_layer(
            gpkg, "parcels", [{"parcel_id": "L1", "geometry": box(0, 0, 200, 200)}]
        ),
        "disturbance": write_layer(
            gpkg, "disturbance", [{"parcel_id": "L1", "geometry": box(50, 50, 150, 150)}]
        ),
    }


def _nwi_gdb(tmp_path: Path) -> Path:
    """An NWI-style geodatabase: a project-metadata layer first, then the wetlands."""
    gdb = tmp_path / "NY_Wetlands.gdb"
    metadata = _frame([{"PROJECT_NAME": "NY 2015", "geometry": box(-1000, -1000, 1000, 1000)}])
    pyogrio.write_dataframe(
        metadata, gdb, layer="NY_Wetlands_Project_Metadata", driver="OpenFileGDB"
    )
    wetlands = _frame(
        [
            {
                "ATTRIBUTE": "PFO1E",
                "WETLAND_TYPE": "Freshwater Forested/Shrub Wetland",
                "geometry": box(150, 50, 300, 150),
            }
        ]
    )
    pyogrio.write_dataframe(wetlands, gdb, layer="NY_Wetlands", driver="OpenFileGDB", append=True)
    return gdb


def _run(tmp_path: Path, site: dict[str, str], extra: list[str], capsys) -> tuple[int, str]:
    argv = [
        "measure",
        "--quiet",
        "--out",
        str(tmp_path / "m.gpkg"),
        "--json-layout",
        "full",
        "--json",
        str(tmp_path / "m.json"),
    ]
    argv += ["--parcels", site["parcels"], "--disturbance", site["disturbance"], *extra]
    code = main(argv)
    return code, capsys.readouterr().err


def test_a_geodatabase_of_two_polygon_layers_without_layer_is_refused_listing_them(
    tmp_path, site, capsys
):
    gdb = _nwi_gdb(tmp_path)
    code, err = _run(tmp_path, site, ["--wetlands", str(gdb)], capsys)
    assert code == 2 and err.count("\n") == 1
    assert "holds 2 layers" in err
    assert "NY_Wetlands_Project_Metadata" in err and "NY_Wetlands (" in err
    assert not (tmp_path / "m.gpkg").exists()


def test_the_named_layer_of_a_geodatabase_is_read_and_recorded(tmp_path, site, capsys):
    gdb = _nwi_gdb(tmp_path)
    code, err = _run(tmp_path, site, ["--wetlands", f"{gdb}:NY_Wetlands"], capsys)
    assert code == 0, err
    document = json.loads((tmp_path / "m.json").read_text())
    metrics = document["parcels"][0]["metrics"]
    assert metrics["disturbed_in_wetland_sqft"] == pytest.approx(0.0, abs=0.01)  # 150-150: a line
    # The wetland starts at x = 150, the disturbance ends there: all of it lies in the 100-ft area.
    assert metrics["disturbed_in_wetland_adjacent_sqft"] == pytest.approx(10_000.0, abs=0.01)
    wetlands = next(i for i in document["inputs"] if i["name"] == "wetlands")
    assert wetlands["layer"] == "NY_Wetlands"


def test_a_whole_village_geopackage_as_the_disturbance_is_refused(tmp_path, site, capsys):
    village = site["disturbance"].rsplit(":", 1)[0]
    code, err = _run(tmp_path, {**site, "disturbance": village}, [], capsys)
    assert code == 2
    assert (
        "disturbance layer" in err
        and "holds 2 layers (parcels (Polygon), disturbance (Polygon))" in err
    )


def test_one_usable_layer_beside_a_table_is_read_and_named_in_the_audit(tmp_path, site, capsys):
    gpkg = tmp_path / "sda.gpkg"
    write_layer(gpkg, "sensitive_areas", [{"geometry": box(0, 0, 100, 100)}])
    table = pd.DataFrame({"note": ["digitised 2024"]})
    pyogrio.write_dataframe(table, gpkg, layer="notes", append=True)
    code, err = _run(tmp_path, site, ["--sda", str(gpkg)], capsys)
    assert code == 0, err
    document = json.loads((tmp_path / "m.json").read_text())
    assert document["parcels"][0]["metrics"]["in_sda"] is True
    sda = next(i for i in document["inputs"] if i["name"] == "sda")
    assert sda["layer"] == "sensitive_areas"


def test_a_shapefile_is_recorded_with_its_layer(tmp_path, site, capsys):
    path = tmp_path / "zones.shp"
    _frame([{"ZONE": "A-1", "geometry": box(-10, -10, 300, 300)}]).to_file(path)
    code, err = _run(tmp_path, site, ["--zoning", str(path)], capsys)
    assert code == 0, err
    document = json.loads((tmp_path / "m.json").read_text())
    zoning = next(i for i in document["inputs"] if i["name"] == "zoning")
    assert zoning["layer"] == "zones"
    assert document["parcels"][0]["metrics"]["zoning_district"] == "A-1"


# gSSURGO's File Geodatabase: four spatial layers (its map-unit and survey-area polygons,
# special-feature points and lines) beside the SSURGO tables; 68 of them here, named as
# the SSURGO 2.3.3 table list names its tables (the real database has about 70).
SSURGO_TABLES = [
    "chorizon",
    "component",
    "cointerp",
    "comonth",
    "copmgrp",
    "corestrictions",
    "cosoilmoist",
    "cosoiltemp",
    "cotext",
    "cotaxfmmin",
    "cotxfmmod",
    "coecoclass",
    "coeplants",
    "coerosionacc",
    "coforprod",
    "coforprodo",
    "cogeomordesc",
    "cohydriccriteria",
    "cosurffrags",
    "cosurfmorphgc",
    "cosurfmorphhpp",
    "cosurfmorphmr",
    "cosurfmorphss",
    "cocanopycover",
    "cocropyld",
    "codiagfeatures",
    "chaashto",
    "chconsistence",
    "chdesgnsuffix",
    "chfrags",
    "chpores",
    "chstructgrp",
    "chstruct",
    "chtext",
    "chtexturegrp",
    "chtexture",
    "chtexturemod",
    "chunified",
    "laoverlap",
    "legend",
    "legendtext",
    "mapunit",
    "muaggatt",
    "muaoverlap",
    "mucropyld",
    "mutext",
    "sacatalog",
    "sainterp",
    "sdvalgorithm",
    "sdvattribute",
    "sdvfolder",
    "sdvfolderattribute",
    "distmd",
    "distinterpmd",
    "distlegendmd",
    "featdesc",
    "month",
    "mdstatdomdet",
    "mdstatdommas",
    "mdstatidxdet",
    "mdstatidxmas",
    "mdstatrshipdet",
    "mdstatrshipmas",
    "mdstattabcols",
    "mdstattabs",
    "Valu1",
    "mupolygon_areas",
    "version",
]


def test_a_gssurgo_database_without_its_layer_is_refused_in_a_line_a_user_can_read(
    tmp_path, site, capsys
):
    gdb = tmp_path / "gSSURGO_NY.gdb"
    polygons = _frame([{"MUKEY": "289522", "geometry": box(-100, -100, 400, 400)}])
    pyogrio.write_dataframe(polygons, gdb, layer="MUPOLYGON", driver="OpenFileGDB")
    pyogrio.write_dataframe(polygons, gdb, layer="SAPOLYGON", driver="OpenFileGDB", append=True)
    point = _frame([{"FEATSYM": "SPR", "geometry": Point(10, 10)}])
    pyogrio.write_dataframe(point, gdb, layer="FEATPOINT", driver="OpenFileGDB", append=True)
    line = _frame([{"FEATSYM": "GUL", "geometry": LineString([(0, 0), (10, 10)])}])
    pyogrio.write_dataframe(line, gdb, layer="FEATLINE", driver="OpenFileGDB", append=True)
    for table in SSURGO_TABLES:
        pyogrio.write_dataframe(
            pd.DataFrame({"mukey": ["289522"]}), gdb, layer=table, driver="OpenFileGDB",
            append=True,
        )  # fmt: skip
    argv = ["check", "--quiet", "--ordinance", "scarsdale", "--soils", str(gdb)]
    argv += ["--parcels", site["parcels"], "--disturbance", site["disturbance"]]
    code = main([*argv, "--out", str(tmp_path / "c.gpkg")])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1, err
    # 72 layers: the two the soils can be read from, named; the other 70 counted
    assert "holds 72 layers: 2 of a geometry it can use (MUPOLYGON (" in err
    assert "SAPOLYGON (" in err and "and 70 other(s)" in err
    assert "chorizon" not in err and "FEATPOINT" not in err
    assert len(err) < 400, len(err)
