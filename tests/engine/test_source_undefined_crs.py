"""Layers whose CRS says nothing about the ground: one line naming the layer, exit 2.

GDAL writes a GeoPackage layer without a CRS with ``srs_id`` 0 ("undefined
geographic") or -1 ("undefined Cartesian"), the two systems the GeoPackage
standard reserves for that; a CAD export may carry a local engineering CRS.
Read as if they were real, they gave "0 parcels with work" (the disturbance)
or a traceback (the parcels).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from shapely.geometry import box

from sitecheck.app.cli import main

from .conftest import write_layer

SITE_GRID = (
    'LOCAL_CS["Site grid",LOCAL_DATUM["Site datum",32767],UNIT["US survey foot",0.304800609601219],'
    'AXIS["Easting",EAST],AXIS["Northing",NORTH]]'
)


def _with_srs_id(path: Path, layer: str, srs_id: int, definition: str | None = None) -> None:
    """Point a GeoPackage layer at another spatial reference system row, as another writer did."""
    with sqlite3.connect(path) as db:
        if definition is not None:
            db.execute(
                "INSERT INTO gpkg_spatial_ref_sys VALUES ('Site grid', ?, 'NONE', ?, ?, NULL)",
                (srs_id, srs_id, definition),
            )
        db.execute(
            "UPDATE gpkg_geometry_columns SET srs_id = ? WHERE table_name = ?", (srs_id, layer)
        )
        db.execute("UPDATE gpkg_contents SET srs_id = ? WHERE table_name = ?", (srs_id, layer))


@pytest.fixture
def site(tmp_path: Path) -> Path:
    gpkg = tmp_path / "site.gpkg"
    write_layer(gpkg, "parcels", [{"parcel_id": "L1", "geometry": box(0, 0, 200, 200)}])
    write_layer(gpkg, "disturbance", [{"parcel_id": "L1", "geometry": box(50, 50, 150, 150)}])
    return gpkg


def _measure(gpkg: Path, tmp_path: Path, capsys) -> tuple[int, str]:
    code = main(
        [
            "measure",
            "--quiet",
            "--parcels",
            f"{gpkg}:parcels",
            "--disturbance",
            f"{gpkg}:disturbance",
            "--out",
            str(tmp_path / "out.gpkg"),
        ]
    )
    return code, capsys.readouterr().err


@pytest.mark.parametrize("layer", ["parcels", "disturbance"])
@pytest.mark.parametrize("srs_id", [0, -1])
def test_undefined_geopackage_systems_are_no_crs(site, tmp_path, capsys, layer, srs_id):
    _with_srs_id(site, layer, srs_id)
    code, err = _measure(site, tmp_path, capsys)
    assert code == 2 and err.count("\n") == 1
    assert f"{layer} layer ({site}:{layer}): has no CRS; assign one" in err
    assert not (tmp_path / "out.gpkg").exists()


def test_a_local_engineering_crs_is_refused_naming_it(site, tmp_path, capsys):
    _with_srs_id(site, "disturbance", 910001, SITE_GRID)
    code, err = _measure(site, tmp_path, capsys)
    assert code == 2 and err.count("\n") == 1
    assert "disturbance layer" in err and "local engineering CRS (Site grid)" in err
