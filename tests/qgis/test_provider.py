"""The Processing provider in a real QGIS: algorithms, results equal to the CLI's, errors, Cancel."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest
from qgis.core import (
    QgsApplication,
    QgsFeature,
    QgsGeometry,
    QgsProcessingException,
    QgsProcessingFeedback,
    QgsVectorLayer,
)
from qgis.PyQt.QtCore import QCoreApplication, QEvent, QEventLoop, QFile, QTimer

import processing

from .conftest import REPO, engine, village_parameters

ALGORITHMS = {
    "check_site",
    "adjoining_buffer",
    "steep_slopes",
    "notification_list",
    "export_compliance_maps",
}


def test_provider_lists_its_algorithms_with_help(plugin):
    provider = QgsApplication.processingRegistry().providerById("sitecheck")
    assert provider is not None
    assert {a.name() for a in provider.algorithms()} == ALGORITHMS
    for algorithm in provider.algorithms():
        assert "§" in algorithm.shortHelpString(), algorithm.name()
        for parameter in algorithm.parameterDefinitions():
            assert parameter.help(), f"{algorithm.name()}: {parameter.name()} has no help"


def test_dialog_help_names_fields_not_command_line_flags(plugin):
    """A dialog user types no flags: help says 'Design-storm rainfall ...', not --rainfall."""
    import re

    provider = QgsApplication.processingRegistry().providerById("sitecheck")
    flagged = [
        (algorithm.name(), parameter.name(), parameter.help())
        for algorithm in provider.algorithms()
        for parameter in algorithm.parameterDefinitions()
        if re.search(r"--[a-z]", parameter.help())
    ]
    assert flagged == []
    # Where the engine's help names a flag, the dialog names that field instead.
    from sitecheck_qgis.bridge.vocabulary import DESCRIPTION, LABEL_OF_FLAG
    from sitecheck_qgis.processing.parameters import sentence

    check_site = provider.algorithm("check_site")
    translated = 0
    for described in DESCRIPTION["options"]:
        parameter = check_site.parameterDefinition(described["processing"] or "")
        flags = re.findall(r"--[a-z][a-z0-9-]*", described["help"])
        if parameter is None or not flags or parameter.help() != sentence(described["help"]):
            continue  # not a check_site parameter, or its dialog help is written apart
        for flag in flags:
            assert f"'{LABEL_OF_FLAG[flag]}'" in parameter.help(), (described["name"], flag)
            translated += 1
    assert translated > 0, "no dialog help came from an engine help naming a flag"


def test_every_font_the_styles_name_is_installed(plugin):
    """A font QGIS lacks is a warning on every load and another font on the page."""
    import re

    from qgis.PyQt.QtGui import QFontDatabase

    named = set()
    for path in [
        *(REPO / "layers" / "styles").glob("*.qml"),
        REPO / "layers" / "compliance_atlas.qpt",
    ]:
        text = path.read_text(encoding="utf-8")
        named |= set(re.findall(r'fontFamily="([^"]+)"', text))
        named |= {d.split(",")[0] for d in re.findall(r'styleFont[^>]*description="([^"]+)"', text)}
    assert named, "no font found: the pattern no longer matches the styles"
    installed = set(QFontDatabase().families())
    assert named - installed == set()


def test_check_site_parameter_keys(plugin):
    algorithm = QgsApplication.processingRegistry().algorithmById("sitecheck:check_site")
    keys = {p.name() for p in algorithm.parameterDefinitions()}
    assert keys >= {
        "ORDINANCE",
        "ORDINANCE_FILE",
        "PARCELS",
        "DISTURBANCE",
        "IMPERVIOUS_EXISTING",
        "IMPERVIOUS_PROPOSED",
        "FLOODPLAIN",
        "WETLANDS",
        "WATERCOURSES",
        "SDA",
        "ZONING",
        "IMPAIRED_WATERSHEDS",
        "DEM",
        "OUTPUT",
        "FLAGS",
        "PROJECTS",
        "JSON_REPORT",
        "HTML_REPORT",
        "SOILS",
        "SOIL_FIELD",
        "DEFAULT_HSG",
        "DUAL_HSG",
        "RAINFALL",
        "WQV_RAINFALL",
        "WATERSHEDS",
        "IMPAIRED_FLAG",
        "NWI_CLASSES",
        "SOIL_TABLE",
        "RAINFALL_FILE",
    }
    options = algorithm.parameterDefinition("ORDINANCE").options()
    assert [option.split(",")[0] for option in options] == ["Larchmont", "Homer", "Scarsdale"]


def test_icon_comes_from_resources(plugin):
    assert QFile.exists(":/plugins/sitecheck/icons/sitecheck.svg")
    provider = QgsApplication.processingRegistry().providerById("sitecheck")
    assert not provider.icon().isNull()


def _metrics_and_outcomes(document: dict) -> dict:
    return {
        p["parcel_id"]: (
            p["metrics"],
            {t["rule_id"]: t["outcome"] for t in p["triggers"]},
            p["highest_severity"],
            p["design_storm_years"],
        )
        for p in document["parcels"]
    }


def test_check_site_gives_the_same_answers_as_the_cli(plugin, village, cli_reference, tmp_path):
    report = tmp_path / "qgis.json"
    result = processing.run(
        "sitecheck:check_site", village_parameters(village, JSON_REPORT=str(report), JSON_LAYOUT=1)
    )
    plugin_document = json.loads(report.read_text())
    assert _metrics_and_outcomes(plugin_document) == _metrics_and_outcomes(cli_reference)
    parcels = result["OUTPUT"]
    if isinstance(parcels, str):
        parcels = QgsVectorLayer(parcels)
    by_id = {f["parcel_id"]: f for f in parcels.getFeatures()}
    assert len(by_id) == cli_reference["parcel_count"]
    for entry in cli_reference["parcels"]:
        feature = by_id[entry["parcel_id"]]
        assert feature["disturbed_area_sqft"] == pytest.approx(
            entry["metrics"]["disturbed_area_sqft"]
        )
        assert (feature["highest_severity"] or None) == entry["highest_severity"]
    assert result["TRIGGERED_PARCELS"] >= 1
    # The projects the sample's disturbance names, one feature each, as the CLI's JSON.
    projects = result["PROJECTS"]
    if isinstance(projects, str):
        projects = QgsVectorLayer(projects)
    rows = {f["project_id"]: f for f in projects.getFeatures()}
    assert set(rows) == {p["project_id"] for p in cli_reference["projects"]}
    for entry in cli_reference["projects"]:
        assert rows[entry["project_id"]]["lots"] == ", ".join(entry["lots"])
        assert (rows[entry["project_id"]]["highest_severity"] or None) == entry["highest_severity"]


def test_check_sites_json_report_is_compact_unless_full_is_chosen(
    plugin, village, cli_reference, tmp_path
):
    """The default JSON_LAYOUT writes each rule once and metrics as columns; the values and
    the listed rules are the full layout's (the CLI's, read apart)."""
    report = tmp_path / "compact.json"
    processing.run("sitecheck:check_site", village_parameters(village, JSON_REPORT=str(report)))
    document = json.loads(report.read_text())
    assert document["layout"] == "compact"
    assert len({rule["rule_id"] for rule in document["rules"]}) == len(document["rules"])
    full = {entry["parcel_id"]: entry for entry in cli_reference["parcels"]}
    assert sorted(full) == sorted(entry["parcel_id"] for entry in document["parcels"])
    for entry in document["parcels"]:
        metrics = dict(zip(document["metric_columns"], entry["metrics"], strict=True))
        reference = full[entry["parcel_id"]]
        assert metrics["disturbed_area_sqft"] == pytest.approx(
            reference["metrics"]["disturbed_area_sqft"], abs=0.01
        )
        listed = {t["rule_id"]: t["outcome"] for t in entry.get("triggers", [])}
        assert listed == {
            t["rule_id"]: t["outcome"]
            for t in reference["triggers"]
            if t["outcome"] != "not_triggered"
        }


def test_listed_streams_with_their_watersheds_answer_as_the_cli(plugin, village, tmp_path):
    """The village's stream given as a listed water, its zoning districts standing in for the
    basins (they cover the village and the stream crosses some of them)."""
    gpkg = village / "village.gpkg"
    cli_json = tmp_path / "cli.json"
    engine(
        "check", "--quiet", "--ordinance", "larchmont",
        "--parcels", f"{gpkg}:parcels", "--disturbance", f"{gpkg}:disturbance",
        "--impaired-watersheds", f"{gpkg}:watercourses",
        "--watersheds", f"{gpkg}:zoning",
        "--impaired-flag", "all", "--nwi-classes", "freshwater_emergent,freshwater_pond",
        "--out", str(tmp_path / "cli.gpkg"), "--json", str(cli_json), "--json-layout", "full",
    )  # fmt: skip
    report = tmp_path / "qgis.json"
    parameters = {
        "ORDINANCE": 0,
        "PARCELS": f"{gpkg}|layername=parcels",
        "DISTURBANCE": f"{gpkg}|layername=disturbance",
        "IMPAIRED_WATERSHEDS": f"{gpkg}|layername=watercourses",
        "WATERSHEDS": f"{gpkg}|layername=zoning",
        "IMPAIRED_FLAG": "all",
        "NWI_CLASSES": "freshwater_emergent,freshwater_pond",
        "OUTPUT": "TEMPORARY_OUTPUT",
        "FLAGS": "TEMPORARY_OUTPUT",
        "JSON_REPORT": str(report),
        "JSON_LAYOUT": 1,
    }
    processing.run("sitecheck:check_site", parameters)
    plugin_document = json.loads(report.read_text())
    cli_document = json.loads(cli_json.read_text())
    assert plugin_document["settings"]["impaired_flag"] == "all"
    assert plugin_document["settings"]["nwi_classes"] == ["freshwater_emergent", "freshwater_pond"]
    flags = {
        p["parcel_id"]: p["metrics"]["in_impaired_watershed"] for p in plugin_document["parcels"]
    }
    assert flags == {
        p["parcel_id"]: p["metrics"]["in_impaired_watershed"] for p in cli_document["parcels"]
    }
    assert True in flags.values() and False in flags.values()


PFDS_CSV = """Point precipitation frequency estimates (inches)
NOAA Atlas 14 Volume 10 Version 3
Data type: Precipitation depth
Time series type: Partial duration
Project area: Northeastern States
Location name (ESRI Maps): Scarsdale, New York, USA
Latitude: 40.9890 Degree
Longitude: -73.7960 Degree

PRECIPITATION FREQUENCY ESTIMATES
by duration for ARI (years):, 1,2,5,10,25,50,100,200,500,1000
12-hr:, 2.40,2.90,3.75,4.45,5.45,6.20,7.00,7.90,9.20,10.3
24-hr:, 2.81,3.42,4.43,5.27,6.43,7.30,8.21,9.26,10.8,12.1
"""


def test_a_rainfall_file_gives_the_sites_depths_as_the_cli_reads_them(plugin, village, tmp_path):
    rain = tmp_path / "PF_Depth_English_PDS.csv"
    rain.write_text(PFDS_CSV)
    report = tmp_path / "file.json"
    processing.run(
        "sitecheck:check_site",
        village_parameters(
            village,
            JSON_REPORT=str(report),
            RAINFALL_FILE=str(rain),
            DEFAULT_HSG=2,
            JSON_LAYOUT=1,
        ),
    )
    rainfall = json.loads(report.read_text())["runoff"]["rainfall"][0]
    # Scarsdale's design storms, each from the file's 24-hr row
    file_depths = dict(
        zip(
            ("1", "2", "5", "10", "25", "50", "100"),
            (2.81, 3.42, 4.43, 5.27, 6.43, 7.30, 8.21),
            strict=True,
        )
    )
    assert rainfall["depths_in"] and all(
        depth == file_depths[years] for years, depth in rainfall["depths_in"].items()
    )
    assert rainfall["confirm"] is None
    assert rainfall["site_file"]["source"] == "NOAA Atlas 14 Volume 10 Version 3"
    assert rainfall["site_file"]["series"] == "partial duration"


def test_the_sites_rainfall_replaces_pack_defaults_storm_by_storm(plugin, village, tmp_path):
    report = tmp_path / "rain.json"
    result = processing.run(
        "sitecheck:check_site",
        village_parameters(
            village,
            JSON_REPORT=str(report),
            RAINFALL="25=7.5",
            DEFAULT_HSG=2,
            DUAL_HSG=1,
            JSON_LAYOUT=1,
        ),
    )
    document = json.loads(report.read_text())
    rainfall = document["runoff"]["rainfall"][0]
    assert rainfall["depths_in"]["25"] == 7.5 and rainfall["given_by_user"] == [25]
    assert document["runoff"]["settings"]["default_hsg"] == "B"
    assert document["runoff"]["settings"]["dual_hsg"] == "drained"
    assert any("10-year" in note for note in document["runoff"]["confirm"])
    parcels = result["OUTPUT"]
    if isinstance(parcels, str):
        parcels = QgsVectorLayer(parcels)
    screened = [f for f in parcels.getFeatures() if f["retention_storm_yr"]]
    assert screened
    in_report = {p["parcel_id"]: p["metrics"] for p in document["parcels"]}
    for feature in screened:
        # TR-55 Table 2-2a bounds any composite: open space in good condition on group A
        # soil is CN 39, impervious cover 98; and the layer says what the report says
        assert 39.0 <= feature["cn_post"] <= 98.0, feature["parcel_id"]
        assert feature["cn_post"] == pytest.approx(in_report[feature["parcel_id"]]["cn_post"])


def test_selected_features_only_is_honoured(plugin, village, tmp_path):
    from qgis.core import QgsProcessingFeatureSourceDefinition

    gpkg = village / "village.gpkg"
    layer = QgsVectorLayer(f"{gpkg}|layername=disturbance", "disturbance", "ogr")
    first = next(layer.getFeatures())
    layer.selectByIds([first.id()])
    from qgis.core import QgsProject

    QgsProject.instance().addMapLayer(layer)
    try:
        report = tmp_path / "selected.json"
        processing.run(
            "sitecheck:check_site",
            village_parameters(
                village,
                DISTURBANCE=QgsProcessingFeatureSourceDefinition(
                    layer.id(), selectedFeaturesOnly=True
                ),
                JSON_REPORT=str(report),
                JSON_LAYOUT=1,
            ),
        )
        listed = json.loads(report.read_text())["parcels"]
        disturbed = [p for p in listed if p["metrics"]["disturbed_area_sqft"] > 0]
        assert len(disturbed) == 1
        assert disturbed[0]["parcel_id"] == first["parcel_id"]
        inputs = {r["name"]: r for r in json.loads(report.read_text())["inputs"]}
        origin = inputs["disturbance"]["origin"]
        assert origin["selected_only"] is True and origin["feature_count"] == 1
        assert inputs["disturbance"]["feature_count"] == 1
    finally:
        QgsProject.instance().removeMapLayer(layer.id())


def test_a_bad_pack_gives_the_engines_message(plugin, village, tmp_path):
    pack = tmp_path / "bad.toml"
    pack.write_text(
        '[pack]\nid = "bad"\nname = "Bad"\nchapter = "1"\nversion = "1"\n\n[[rules]]\nid = "bad.rule"\n'
        'citation = "§ 1"\ntitle = "t"\nseverity = "informational"\nrequirement = "r"\nquote = "q"\n'
        'when = "__import__(\\"os\\") > 0"\n',
        encoding="utf-8",
    )
    with pytest.raises(QgsProcessingException) as caught:
        processing.run(
            "sitecheck:check_site", village_parameters(village, ORDINANCE_FILE=str(pack))
        )
    message = str(caught.value)
    assert "rule bad.rule" in message and "line" in message


def test_a_layer_without_crs_is_named(plugin, village, tmp_path):
    from qgis.core import QgsCoordinateTransformContext, QgsVectorFileWriter

    memory = QgsVectorLayer("Polygon?crs=EPSG:2260&field=parcel_id:string", "lots", "memory")
    feature = QgsFeature(memory.fields())
    feature.setGeometry(
        QgsGeometry.fromWkt(
            "POLYGON((690000 787000,690100 787000,690100 787100,690000 787100,690000 787000))"
        )
    )
    feature.setAttribute("parcel_id", "1")
    memory.dataProvider().addFeatures([feature])
    options = QgsVectorFileWriter.SaveVectorOptions()
    options.driverName = "ESRI Shapefile"
    QgsVectorFileWriter.writeAsVectorFormatV3(
        memory, str(tmp_path / "lots.shp"), QgsCoordinateTransformContext(), options
    )
    (tmp_path / "lots.prj").unlink()  # a shapefile without its .prj: no CRS
    parcels = QgsVectorLayer(str(tmp_path / "lots.shp"), "lots", "ogr")
    assert not parcels.crs().isValid()
    with pytest.raises(QgsProcessingException) as caught:
        processing.run("sitecheck:check_site", village_parameters(village, PARCELS=parcels))
    assert "parcels layer" in str(caught.value) and "has no CRS" in str(caught.value)


class CancelOnProgress(QgsProcessingFeedback):
    """Cancels as soon as the engine reports progress beyond the export."""

    def setProgress(self, progress):  # noqa: N802 - QGIS API name
        super().setProgress(progress)
        if progress > 6:
            self.cancel()


def _engine_processes() -> list[str]:
    from sitecheck_qgis.bridge.engine import ENGINE_LAUNCH

    found = []
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            try:
                command = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
            except OSError:
                continue
            if f"{ENGINE_LAUNCH} check " in command:
                found.append(command)
    return found


def test_cancel_stops_the_engine_and_leaves_nothing(plugin, village):
    temp = Path(os.environ.get("TMPDIR", "/tmp"))
    before = set(temp.glob("sitecheck-*"))
    feedback = CancelOnProgress()
    with pytest.raises(QgsProcessingException, match="Canceled"):
        processing.run("sitecheck:check_site", village_parameters(village), feedback=feedback)
    time.sleep(0.2)
    assert _engine_processes() == []
    assert set(temp.glob("sitecheck-*")) - before == set()


class CancelWhileWriting(QgsProcessingFeedback):
    """Cancels once the engine has begun writing a file output beside its destination."""

    def __init__(self, folder: Path) -> None:
        super().__init__()
        self.folder = folder
        self.writing = False

    def isCanceled(self):  # noqa: N802 - QGIS API name
        if not self.writing and any(
            ".sitecheck-" in p.name and not p.name.endswith("lock") for p in self.folder.iterdir()
        ):
            self.writing = True
            self.cancel()
        return super().isCanceled()


def test_cancel_while_writing_leaves_nothing_in_the_users_folder(plugin, village, tmp_path):
    feedback = CancelWhileWriting(tmp_path)
    parameters = village_parameters(
        village,
        JSON_REPORT=str(tmp_path / "run.json"),
        HTML_REPORT=str(tmp_path / "run.html"),
        ALL_PARCELS=True,
    )
    with pytest.raises(QgsProcessingException, match="Canceled"):
        processing.run("sitecheck:check_site", parameters, feedback=feedback)
    assert feedback.writing, "the engine was never seen writing: nothing was tested"
    assert sorted(p.name for p in tmp_path.iterdir()) == []
    assert _engine_processes() == []


def test_other_algorithms_run(plugin, village, tmp_path):
    gpkg = village / "village.gpkg"
    buffers = processing.run(
        "sitecheck:adjoining_buffer",
        {
            "PARCELS": f"{gpkg}|layername=parcels",
            "ZONING": f"{gpkg}|layername=zoning",
            "OUTPUT": "TEMPORARY_OUTPUT",
        },
    )["OUTPUT"]
    assert buffers.featureCount() > 200
    slopes = processing.run(
        "sitecheck:steep_slopes",
        {
            "DEM": str(village / "dem.tif"),
            "OUTPUT": "TEMPORARY_OUTPUT",
            "OUTPUT_RASTER": str(tmp_path / "classes.tif"),
        },
    )
    assert slopes["OUTPUT"].featureCount() == 2
    assert (tmp_path / "classes.tif").is_file()
    notice = processing.run(
        "sitecheck:notification_list",
        {
            "PARCELS": f"{gpkg}|layername=parcels",
            "LOT_IDS": "1.1-7-10",
            "OUTPUT": "TEMPORARY_OUTPUT",
            "CSV": str(tmp_path / "notice.csv"),
        },
    )
    assert notice["OUTPUT"].featureCount() > 3
    assert (tmp_path / "notice.csv").read_text().startswith("parcel_id,owner,address,distance_ft")


def test_a_missing_engine_says_how_to_set_one_up(plugin, village, tmp_path, monkeypatch):
    import importlib

    engine = importlib.import_module("sitecheck_qgis.bridge.engine")
    monkeypatch.setenv("SITECHECK_PYTHON", str(tmp_path / "no-python"))
    monkeypatch.setattr(engine, "PLUGIN_DIR", tmp_path)  # no .venv there
    monkeypatch.setattr(engine, "_verified", {})
    with pytest.raises(QgsProcessingException) as caught:
        processing.run("sitecheck:check_site", village_parameters(village))
    message = str(caught.value)
    assert "SITECHECK_PYTHON" in message and "Set up the SiteCheck engine" in message
    assert "make install" not in message  # the ZIP has no Makefile
    assert "Settings > Options > Processing > Providers > SiteCheck" in message
    assert "engine-requirements.txt" in message


def test_results_load_styled_in_a_group(plugin, village):
    from qgis.core import QgsProcessingContext, QgsProject

    project = QgsProject.instance()
    context = QgsProcessingContext()
    context.setProject(project)
    feedback = QgsProcessingFeedback()
    processing.runAndLoadResults(
        "sitecheck:check_site", village_parameters(village), feedback=feedback, context=context
    )
    groups = [g for g in project.layerTreeRoot().findGroups() if g.name().startswith("SiteCheck ")]
    assert groups, "the results should sit in a group named after the run"
    layers = [node.layer() for node in groups[-1].findLayers()]
    renderers = {layer.name(): layer.renderer().type() for layer in layers}
    assert set(renderers.values()) == {"categorizedSymbol"}
    parcels = next(layer for layer in layers if "highest_severity" in layer.fields().names())
    assert parcels.renderer().classAttribute() == "highest_severity"
    assert parcels.labelsEnabled()
    project.clear()


def test_runs_load_layers_named_after_their_pack_and_parcels(plugin, village):
    """A batch over packs (or parcel layers) must not load three alike-named layer sets."""
    from qgis.core import QgsProcessingContext, QgsProject

    project = QgsProject.instance()
    for ordinance in (0, 2):
        context = QgsProcessingContext()
        context.setProject(project)
        processing.runAndLoadResults(
            "sitecheck:check_site",
            village_parameters(village, ORDINANCE=ordinance),
            feedback=QgsProcessingFeedback(),
            context=context,
        )
    names = sorted(layer.name() for layer in project.mapLayers().values())
    # The parcels are given as a file: QGIS names that layer after the file (village.gpkg).
    assert "Parcels with triggers (larchmont, village)" in names, names
    assert "Parcels with triggers (scarsdale, village)" in names, names
    assert len(names) == len(set(names))
    project.clear()


def test_check_site_runs_inside_a_model(plugin, village, tmp_path):
    """The Model Designer case: check_site as a child algorithm fed by model inputs."""
    from qgis.core import (
        QgsProcessingModelAlgorithm,
        QgsProcessingModelChildAlgorithm,
        QgsProcessingModelChildParameterSource,
        QgsProcessingModelOutput,
        QgsProcessingModelParameter,
        QgsProcessingParameterFeatureSource,
    )

    model = QgsProcessingModelAlgorithm("screen a site", "SiteCheck")
    for name in ("parcels", "disturbance"):
        model.addModelParameter(
            QgsProcessingParameterFeatureSource(name, name), QgsProcessingModelParameter(name)
        )
    child = QgsProcessingModelChildAlgorithm("sitecheck:check_site")
    child.setChildId("check")
    child.addParameterSources(
        "PARCELS", [QgsProcessingModelChildParameterSource.fromModelParameter("parcels")]
    )
    child.addParameterSources(
        "DISTURBANCE", [QgsProcessingModelChildParameterSource.fromModelParameter("disturbance")]
    )
    child.addParameterSources(
        "ORDINANCE", [QgsProcessingModelChildParameterSource.fromStaticValue(0)]
    )
    report = QgsProcessingModelOutput("report", "report")
    report.setChildOutputName("JSON_REPORT")
    child.setModelOutputs({"report": report})
    model.addChildAlgorithm(child)
    model.updateDestinationParameters()
    # QGIS 3.22 names the model's output "check:report", 3.40 "report"
    (output,) = [definition.name() for definition in model.destinationParameterDefinitions()]
    assert output in ("check:report", "report")
    gpkg = village / "village.gpkg"
    target = tmp_path / "model.json"
    results = processing.run(
        model,
        {
            "parcels": f"{gpkg}|layername=parcels",
            "disturbance": f"{gpkg}|layername=disturbance",
            output: str(target),
        },
    )
    assert Path(results[output]).is_file()
    document = json.loads(target.read_text())
    assert document["packs"][0]["id"] == "larchmont"
    assert any(p["triggers"] for p in document["parcels"])


def test_batch_of_parcels_one_run_each(plugin, village, tmp_path):
    """Batch mode runs the algorithm once per row; rows must not share state."""
    reports = []
    for ordinance in (0, 1, 2):
        report = tmp_path / f"batch{ordinance}.json"
        processing.run(
            "sitecheck:check_site",
            village_parameters(
                village, ORDINANCE=ordinance, JSON_REPORT=str(report), JSON_LAYOUT=1
            ),
        )
        reports.append(json.loads(report.read_text()))
    assert [r["packs"][0]["id"] for r in reports] == ["larchmont", "homer", "scarsdale"]


def test_a_batch_of_three_with_html_reports_through_the_batch_dialog(plugin, village, tmp_path):
    """QGIS 3.22's batch dialog broke on HTML results: no summary, a task left running."""
    from processing.core.ProcessingResults import resultsList
    from processing.gui.BatchAlgorithmDialog import BatchAlgorithmDialog
    from processing.tools import dataobjects

    algorithm = QgsApplication.processingRegistry().createAlgorithmById("sitecheck:check_site")
    dialog = BatchAlgorithmDialog(algorithm)
    panel = dialog.mainWidget()
    panel.addRow(2)
    assert panel.batchRowCount() == 3
    context = dataobjects.createContext()
    for row, ordinance in enumerate((0, 1, 2)):
        values = village_parameters(
            village,
            ORDINANCE=ordinance,
            OUTPUT=str(tmp_path / f"parcels{row}.gpkg"),
            FLAGS=str(tmp_path / f"flags{row}.gpkg"),
            PROJECTS=str(tmp_path / f"projects{row}.gpkg"),
            JSON_REPORT=str(tmp_path / f"run{row}.json"),
            HTML_REPORT=str(tmp_path / f"run{row}.html"),
        )
        for name, value in values.items():
            column = panel.parameter_to_column[name]
            if algorithm.parameterDefinition(name).isDestination():
                panel.tblParameters.cellWidget(row + 1, column).setValue(value)
            else:
                panel.wrappers[row][column].setParameterValue(value, context)
    panel.checkLoadLayersOnCompletion.setChecked(False)
    before = len(resultsList.getResults())
    # open, as a user's is: QGIS 3.44 deletes a batch dialog that is not visible when its
    # first run ends (algExecuted's deleteLater), which abandons the rest of the batch
    dialog.show()
    dialog.runAlgorithm()  # raised TypeError in loadHTMLResults before the fix
    # QGIS 3.22 runs the batch before returning; 3.40 and later run it as a task, which
    # finishes in a running event loop
    manager = QgsApplication.taskManager()
    if manager.countActiveTasks():
        loop = QEventLoop()
        manager.allTasksFinished.connect(loop.quit)
        QTimer.singleShot(120_000, loop.quit)
        loop.exec()
    packs = [
        json.loads((tmp_path / f"run{row}.json").read_text())["packs"][0]["id"] for row in range(3)
    ]
    assert packs == ["larchmont", "homer", "scarsdale"]
    assert all((tmp_path / f"run{row}.html").stat().st_size > 0 for row in range(3))
    summaries = [r for r in resultsList.getResults()[before:] if r.name.endswith("[summary]")]
    assert len(summaries) == 1
    deadline = time.monotonic() + 10
    while QgsApplication.taskManager().countActiveTasks() and time.monotonic() < deadline:
        QCoreApplication.processEvents()
        time.sleep(0.05)
    left = [task.description() for task in QgsApplication.taskManager().activeTasks()]
    assert left == []
    dialog.close()
    # deleted now, not at interpreter exit after QgsApplication (3.44 aborts: bad_alloc)
    dialog.deleteLater()
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)


@pytest.mark.parametrize("output", ["JSON_REPORT", "HTML_REPORT"])
def test_a_report_over_the_input_geopackage_is_refused_before_any_work(
    plugin, village, tmp_path, output
):
    import hashlib

    gpkg = village / "village.gpkg"
    before = hashlib.sha256(gpkg.read_bytes()).hexdigest()
    with pytest.raises(QgsProcessingException) as caught:
        processing.run("sitecheck:check_site", village_parameters(village, **{output: str(gpkg)}))
    message = str(caught.value)
    assert output in message and "PARCELS" in message and "replace" in message
    assert hashlib.sha256(gpkg.read_bytes()).hexdigest() == before


def test_a_pack_of_the_wrong_shape_gives_one_line(plugin, village, tmp_path):
    pack = tmp_path / "shape.toml"
    pack.write_text(
        'parameters = 5\n[pack]\nid = "x"\nname = "X"\nchapter = "1"\nversion = "1"\n',
        encoding="utf-8",
    )
    with pytest.raises(QgsProcessingException) as caught:
        processing.run(
            "sitecheck:check_site", village_parameters(village, ORDINANCE_FILE=str(pack))
        )
    message = str(caught.value)
    assert "'parameters' must be a [parameters] table" in message
    assert "Traceback" not in message and "AttributeError" not in message


def test_the_audit_identifies_each_layer_the_same_on_every_run(plugin, village, tmp_path):
    """Processing exports its inputs anew each run: the audit must still name the data."""
    runs = []
    for number in (1, 2):
        report = tmp_path / f"run{number}.json"
        processing.run(
            "sitecheck:check_site",
            village_parameters(village, JSON_REPORT=str(report), JSON_LAYOUT=1),
        )
        runs.append({r["name"]: r for r in json.loads(report.read_text())["inputs"]})
    first, second = runs
    layers = [name for name in first if name != "dem"]
    assert {"parcels", "disturbance", "wetlands"} <= set(layers)
    for name in layers:
        assert first[name]["features_sha256"] == second[name]["features_sha256"], name
        origin = first[name]["origin"]
        assert origin["provider"] == "ogr" and f"layername={name}" in origin["uri"], origin
        assert str(village / "village.gpkg") in origin["uri"]
        assert origin["selected_only"] is False
    hashes = [first[name]["features_sha256"] for name in layers]
    assert len(set(hashes)) == len(hashes), "two layers share a hash"
