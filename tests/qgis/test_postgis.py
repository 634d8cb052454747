"""A PostGIS layer in a real QGIS: check_site reads it as it reads the file it was loaded from.

The village's parcels and disturbance are loaded into the tests' own PostGIS
server with ogr2ogr, opened in QGIS through its ``postgres`` provider, and
handed to check_site; the plugin exports them for the engine. The answers must
be the command line's on the GeoPackage, lot by lot.
"""

from __future__ import annotations

import json

from qgis.core import QgsDataSourceUri, QgsProcessingFeedback, QgsVectorLayer

import processing

from .conftest import village_parameters


def _postgis_layer(postgis, table: str, password: str = "") -> QgsVectorLayer:
    uri = QgsDataSourceUri()
    uri.setConnection("127.0.0.1", str(postgis.port), "village", "sitecheck", password)
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


class _Recorder(QgsProcessingFeedback):
    """Everything the algorithm tells the Processing log."""

    def __init__(self) -> None:
        super().__init__()
        self.lines: list[str] = []

    def pushInfo(self, info):  # noqa: N802 - QGIS API name
        self.lines.append(info)
        super().pushInfo(info)

    def pushWarning(self, warning):  # noqa: N802 - QGIS API name
        self.lines.append(warning)
        super().pushWarning(warning)

    def pushCommandInfo(self, info):  # noqa: N802 - QGIS API name
        self.lines.append(info)
        super().pushCommandInfo(info)

    def pushDebugInfo(self, info):  # noqa: N802 - QGIS API name
        self.lines.append(info)
        super().pushDebugInfo(info)

    def reportError(self, error, fatalError=False):  # noqa: N802, N803 - QGIS API names
        self.lines.append(error)
        super().reportError(error, fatalError)


def test_a_password_holding_a_quote_and_a_space_reaches_no_output_or_log_line(
    plugin, village, postgis, tmp_path
):
    gpkg = str(village / "village.gpkg")
    for role in ("parcels", "disturbance"):
        postgis.load(gpkg, role, f"public.{role}", "-lco", "FID=fid", "-lco", "GEOMETRY_NAME=geom")
    # QGIS writes it into the layer source as password='se\'cr et77', as libpq reads it;
    # the tests' server trusts its clients, so the layer opens with it
    password = "se'cr et77"
    parcels = _postgis_layer(postgis, "parcels", password)
    disturbance = _postgis_layer(postgis, "disturbance", password)
    assert "et77" in parcels.source()
    feedback = _Recorder()
    outputs = {
        "OUTPUT": str(tmp_path / "screened.gpkg"),
        "JSON_REPORT": str(tmp_path / "screened.json"),
        "HTML_REPORT": str(tmp_path / "screened.html"),
    }
    processing.run(
        "sitecheck:check_site",
        village_parameters(
            village, PARCELS=parcels, DISTURBANCE=disturbance, JSON_LAYOUT=1, **outputs
        ),
        feedback=feedback,
    )
    document = json.loads((tmp_path / "screened.json").read_text())
    assert document["parcels"] and any("postgres" in str(i) for i in document["inputs"])
    written = {path.name: path.read_bytes() for path in tmp_path.iterdir() if path.is_file()}
    assert {"screened.gpkg", "screened.json", "screened.html"} <= written.keys()
    log = "\n".join([*feedback.lines, feedback.textLog()])
    assert feedback.lines
    for word in ("cr et77", "et77", "se'cr", "se\\'cr"):
        assert word not in log, word
        assert [name for name, data in written.items() if word.encode() in data] == [], word
