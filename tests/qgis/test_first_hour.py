"""What a new user meets in their first hour with the Processing algorithms (issue 27, §3).

Each test does what the user did, in a real QGIS, and checks what they saw.
"""

from __future__ import annotations

import re

import pytest
from qgis.core import (
    QgsApplication,
    QgsProcessingException,
    QgsProcessingFeedback,
    QgsProject,
    QgsVectorLayer,
)

import processing

from .conftest import village_parameters

FLAG = re.compile(r"--[a-z][a-z-]+")


def _check_site():
    return QgsApplication.processingRegistry().createAlgorithmById("sitecheck:check_site")


def _layer(project: QgsProject, name: str) -> QgsVectorLayer:
    found = project.mapLayersByName(name)
    assert len(found) == 1, name
    return found[0]


def test_the_dialog_starts_from_the_layers_the_panel_saved(project):
    algorithm = _check_site()
    # tools/make_project.py saved the panel with the layer of each role's name
    assert (
        algorithm.parameterDefinition("PARCELS").defaultValue() == _layer(project, "parcels").id()
    )
    assert (
        algorithm.parameterDefinition("DISTURBANCE").defaultValue()
        == _layer(project, "disturbance").id()
    )
    assert (
        algorithm.parameterDefinition("WETLANDS").defaultValue() == _layer(project, "wetlands").id()
    )


def test_without_saved_layers_the_dialog_takes_layers_named_for_their_role(project):
    project.removeEntry("SiteCheck", "layer")
    _layer(project, "parcels").setName("Tax lots 2024")
    _layer(project, "disturbance").setName("Limits of disturbance (proposed)")
    algorithm = _check_site()
    assert (
        algorithm.parameterDefinition("PARCELS").defaultValue()
        == _layer(project, "Tax lots 2024").id()
    )
    assert (
        algorithm.parameterDefinition("DISTURBANCE").defaultValue()
        == _layer(project, "Limits of disturbance (proposed)").id()
    )
    # an optional layer is never guessed from its name
    assert algorithm.parameterDefinition("WETLANDS").defaultValue() is None


def test_a_refusal_names_the_users_layer_and_the_dialogs_field(plugin, village, project, tmp_path):
    """The disturbance layer given as the parcels: its lots repeat, so the engine refuses."""
    disturbance = _layer(project, "disturbance")
    parameters = village_parameters(
        village, PARCELS=disturbance.id(), JSON_REPORT=str(tmp_path / "run.json")
    )
    with pytest.raises(QgsProcessingException) as refused:
        processing.run("sitecheck:check_site", parameters)
    message = str(refused.value)
    assert "duplicate parcel ids" in message
    assert "'disturbance'" in message  # the user's layer, by its name in the project
    assert "'Parcel id field'" in message  # the dialog's field, where the CLI says --id-field
    assert "inputs.gpkg" not in message and "sitecheck-" not in message
    assert not FLAG.findall(message), message


class Messages(QgsProcessingFeedback):
    """What the algorithm dialog's log shows."""

    def __init__(self) -> None:
        super().__init__()
        self.lines: list[str] = []

    def pushWarning(self, warning):  # noqa: N802 - QGIS API name
        self.lines.append(warning)
        super().pushWarning(warning)

    def pushInfo(self, info):  # noqa: N802 - QGIS API name
        self.lines.append(info)
        super().pushInfo(info)


def test_the_engines_messages_name_the_dialogs_fields(plugin, village, tmp_path):
    feedback = Messages()
    processing.run(
        "sitecheck:check_site",
        village_parameters(village, JSON_REPORT=str(tmp_path / "run.json")),
        feedback=feedback,
    )
    rainfall = [line for line in feedback.lines if "pack defaults" in line]
    # Scarsdale's design storms are placeholders: the run asks for the site's depths
    assert rainfall and "'Design-storm rainfall" in rainfall[0], feedback.lines
    for line in feedback.lines:
        assert not FLAG.findall(line) and "inputs.gpkg" not in line, line


def test_a_run_ends_naming_where_its_outputs_went(plugin, village, tmp_path):
    feedback = Messages()
    parcels, report = tmp_path / "parcels.gpkg", tmp_path / "run.json"
    processing.run(
        "sitecheck:check_site",
        village_parameters(village, OUTPUT=str(parcels), JSON_REPORT=str(report)),
        feedback=feedback,
    )
    # the algorithm's last line (QGIS's own "Results: {...}" may follow it)
    algorithm_lines = [line for line in feedback.lines if not line.startswith("Results: ")]
    last = algorithm_lines[-1]
    assert last.startswith("outputs: "), algorithm_lines[-3:]
    assert f"Parcels with triggers: {parcels}" in last and f"JSON report: {report}" in last
    assert "Flags: temporary layer" in last
    assert not [line for line in feedback.lines if "result.gpkg" in line or "sitecheck-" in line]


def test_the_projects_table_is_made_only_when_asked_for(plugin, village, tmp_path):
    """A table nobody asked for, as a temporary layer, made every quit ask to save it."""
    parameters = village_parameters(village, JSON_REPORT=str(tmp_path / "run.json"))
    del parameters["PROJECTS"]  # as the dialog leaves it: the output's default
    results = processing.run("sitecheck:check_site", parameters)
    assert "PROJECTS" not in results
    assert {"OUTPUT", "FLAGS"} <= set(results)


def test_the_reports_audit_shows_the_users_layers_not_the_temporary_export(
    plugin, village, tmp_path
):
    import html as html_module
    import json

    report, document = tmp_path / "run.html", tmp_path / "run.json"
    processing.run(
        "sitecheck:check_site",
        village_parameters(village, HTML_REPORT=str(report), JSON_REPORT=str(document)),
    )
    page = html_module.unescape(report.read_text(encoding="utf-8"))
    inputs = {i["name"]: i for i in json.loads(document.read_text())["inputs"]}
    assert "inputs.gpkg" not in page
    assert f"{village / 'village.gpkg'}|layername=parcels" in page  # the QGIS source
    assert inputs["parcels"]["features_sha256"] in page
    assert inputs["parcels"]["sha256"] not in page  # the export's file, gone after the run
    assert "a temporary export, not kept" in page
