"""A PostGIS layer in a real QGIS: check_site reads it as it reads the file it was loaded from.

The village's parcels and disturbance are loaded into the tests' own PostGIS
server with ogr2ogr, opened in QGIS through its ``postgres`` provider, and
handed to check_site; the plugin exports them for the engine. The answers must
be the command line's on the GeoPackage, lot by lot.
"""

from __future__ import annotations

import json

from qgis.core import QgsDataSourceUri, QgsVectorLayer

import processing

from .conftest import village_parameters


def _postgis_layer(postgis, table: str) -> QgsVectorLayer:
    uri = QgsDataSourceUri()
    uri.setConnection("127.0.0.1", str(postgis.port), "village", "sitecheck", "")
    uri.setDataSource("public", table, "geom", "", "fid")
    layer = QgsVectorLayer(uri.uri(False), table, "postgres")
    assert layer.isValid(), layer.error().summary()
    return layer


def _outcomes(document: dict) -> dict:
    return {
        p["parcel_id"]: (p["metrics"], {t["rule_id"]: t["outcome"] for t in p["triggers"]})
        for p in document["parcels"]
    }


def test_check_site_on_postgis_layers_answers_as_the_cli_on_the_file(
    plugin, village, cli_reference, postgis, tmp_path
):
    gpkg = str(village / "village.gpkg")
    for role in ("parcels", "disturbance"):
        postgis.load(gpkg, role, f"public.{role}", "-lco", "FID=fid", "-lco", "GEOMETRY_NAME=geom")
    parcels = _postgis_layer(postgis, "parcels")
    disturbance = _postgis_layer(postgis, "disturbance")
    assert parcels.providerType() == "postgres"
    assert parcels.featureCount() == cli_reference["parcel_count"]
    report = tmp_path / "postgis.json"
    processing.run(
        "sitecheck:check_site",
        village_parameters(
            village,
            PARCELS=parcels,
            DISTURBANCE=disturbance,
            JSON_REPORT=str(report),
            JSON_LAYOUT=1,
        ),
    )
    document = json.loads(report.read_text())
    assert _outcomes(document) == _outcomes(cli_reference)
