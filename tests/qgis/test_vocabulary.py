"""Every surface names and colours each severity and flag kind as `sitecheck describe` says.

The description is asked of the engine itself (its own interpreter, as the
plugin runs it); the surfaces are the real ones in Debian's QGIS: the .qml
styles, the layers a Processing run loads, check_site's parameters, the
dock's trigger tree, the compliance atlas's legend and the HTML report.
"""

from __future__ import annotations

import importlib
import json
import re

import pytest
from qgis.core import (
    QgsProcessingContext,
    QgsProcessingFeedback,
    QgsProject,
    QgsVectorLayer,
)

import processing

from .conftest import REPO, engine, village_parameters


@pytest.fixture(scope="module")
def description() -> dict:
    return json.loads(engine("describe", "--json").stdout)


def _categories(layer: QgsVectorLayer) -> dict[str, tuple[str, str]]:
    """value -> (label, #rrggbb) of a categorised renderer."""
    renderer = layer.renderer()
    assert renderer.type() == "categorizedSymbol"
    return {
        str(category.value()): (category.label(), category.symbol().color().name())
        for category in renderer.categories()
        if category.value() not in (None, "")
    }


def _severities(description: dict) -> dict[str, tuple[str, str]]:
    return {s["key"]: (s["label"], s["colour"]) for s in description["severities"]}


def _flag_kinds(description: dict) -> dict[str, tuple[str, str]]:
    return {k["key"]: (k["label"], k["colour"]) for k in description["flag_kinds"]}


def test_the_plugins_copy_of_the_description_is_the_engines(description):
    committed = json.loads((REPO / "bridge" / "engine_description.json").read_text())
    assert committed == description


@pytest.mark.parametrize(
    ("style", "field", "part"), [("parcels", "highest_severity", "s"), ("flags", "kind", "f")]
)
def test_qml_styles_name_and_colour_as_described(qgis_app, description, style, field, part):
    layer = QgsVectorLayer(f"MultiPolygon?crs=EPSG:2260&field={field}:string", style, "memory")
    message, ok = layer.loadNamedStyle(str(REPO / "layers" / "styles" / f"{style}.qml"))
    assert ok, message
    expected = _severities(description) if part == "s" else _flag_kinds(description)
    assert _categories(layer) == expected


def test_processing_results_load_with_the_described_labels_and_colours(
    plugin, village, description, tmp_path
):
    project = QgsProject.instance()
    context = QgsProcessingContext()
    context.setProject(project)
    report = tmp_path / "report.html"
    processing.runAndLoadResults(
        "sitecheck:check_site",
        village_parameters(village, HTML_REPORT=str(report)),
        feedback=QgsProcessingFeedback(),
        context=context,
    )
    group = [g for g in project.layerTreeRoot().findGroups() if g.name().startswith("SiteCheck ")]
    layers = {
        node.layer().renderer().classAttribute(): node.layer() for node in group[-1].findLayers()
    }
    assert _categories(layers["highest_severity"]) == _severities(description)
    assert _categories(layers["kind"]) == _flag_kinds(description)
    project.clear()

    # The same run's HTML report: each severity's badge colour and label.
    html = report.read_text(encoding="utf-8")
    style = html[html.index("<style>") : html.index("</style>")]
    for key, (_label, colour) in _severities(description).items():
        found = re.search(rf"\.sev-{key} \{{ background: (#[0-9a-f]{{6}});", style)
        assert found and found.group(1) == colour, key
    for key in re.findall(r'class="badge sev-([a-z_]+)">', html):
        if key in _severities(description):
            assert f'class="badge sev-{key}">{_severities(description)[key][0]}</span>' in html


def test_check_site_parameters_take_the_described_options(plugin, description):
    from qgis.core import QgsApplication

    registry = QgsApplication.processingRegistry()
    algorithm = registry.algorithmById("sitecheck:check_site")
    names = ("check_site", "notification_list", "adjoining_buffer")
    every = [registry.algorithmById(f"sitecheck:{name}") for name in names]
    for described in description["options"]:
        key = described["processing"]
        if not key or described["kind"] != "number":
            continue
        found = [a.parameterDefinition(key) for a in every if a.parameterDefinition(key)]
        assert found, key
        parameter = found[0]
        assert parameter.description() == described["label"]
        assert parameter.defaultValue() == described["default"]
        if described["minimum"] is not None and described["above_minimum"]:
            assert parameter.minimum() > described["minimum"]  # the dialog's range is closed
        elif described["minimum"] is not None:
            assert parameter.minimum() == described["minimum"]
    for role in description["roles"]:
        if role["processing"]:
            parameter = algorithm.parameterDefinition(role["processing"])
            assert parameter is not None and parameter.description() == role["label"], role
    ordinance = algorithm.parameterDefinition("ORDINANCE")
    assert ordinance.options() == [p["title"] for p in description["packs"]]


def test_the_dock_groups_triggers_under_the_described_labels_and_colours(plugin, description):
    view = importlib.import_module("sitecheck_qgis.ui.results_view")
    from qgis.PyQt.QtWidgets import QTreeWidget

    reply = {
        "triggers": [
            {
                "rule_id": f"r.{s['key']}",
                "citation": "§ 1",
                "title": s["key"],
                "outcome": "triggered",
                "severity": s["key"],
                "reason": "because",
            }
            for s in description["severities"]
        ]
    }
    tree = QTreeWidget()
    tree.setColumnCount(2)
    view.fill_triggers(tree, reply)
    shown = {}
    for index in range(tree.topLevelItemCount()):
        branch = tree.topLevelItem(index)
        severity = branch.data(0, view.SEVERITY_ROLE)
        colour = branch.icon(0).pixmap(12, 12).toImage().pixelColor(6, 6).name()
        shown[severity] = (branch.text(0).rsplit(" (", 1)[0], colour)
    assert shown == _severities(description)
    # Most demanding first, as the description ranks them.
    order = [tree.topLevelItem(i).data(0, view.SEVERITY_ROLE) for i in range(len(shown))]
    assert order == [s["key"] for s in reversed(description["severities"])]


def test_the_atlas_legend_lists_the_flags_as_described(plugin, village, description, tmp_path):
    layout_module = importlib.import_module("sitecheck_qgis.layers.compliance_layout")
    pages = importlib.import_module("sitecheck_qgis.layers.atlas_pages")
    styling = importlib.import_module("sitecheck_qgis.layers.styling")
    out, flags_out, report = tmp_path / "parcels.gpkg", tmp_path / "flags.gpkg", tmp_path / "r.json"
    processing.run(
        "sitecheck:check_site",
        village_parameters(
            village, OUTPUT=str(out), FLAGS=str(flags_out), JSON_REPORT=str(report), JSON_LAYOUT=1
        ),
    )
    project = QgsProject()
    parcels = QgsVectorLayer(str(out), "Parcels checked", "ogr")
    flags = QgsVectorLayer(str(flags_out), "Where the work meets a constraint", "ogr")
    assert parcels.isValid() and flags.isValid()
    flags.loadNamedStyle(str(styling.style_path("flags")))
    document = json.loads(report.read_text())
    coverage = pages.coverage_layer(parcels, document)
    subject = pages.subject_layer(parcels)
    project.addMapLayers([flags, coverage, subject], False)
    layout = layout_module.load_layout(project)
    layout_module.bind(layout, coverage, [subject, flags], [flags], {})
    legend = layout.itemById("legend")
    model = legend.model()
    node = model.rootGroup().findLayer(flags)
    shown = {}
    for legend_node in model.layerLegendNodes(node):
        label = legend_node.data(0)
        symbol = legend_node.symbol() if hasattr(legend_node, "symbol") else None
        if symbol is not None:
            shown[label] = symbol.color().name()
    assert shown == {label: colour for label, colour in _flag_kinds(description).values()}
