"""The panel as a new user first sees it, docked at its width in a real QGIS (issue 27, §3).

Warnings beside the figures they qualify, a trigger list that keeps its
Requirement column, settings folded, layer names whole.
"""

from __future__ import annotations

import copy

import pytest
from qgis.gui import QgsMapCanvas
from qgis.PyQt.QtCore import QPoint, Qt
from qgis.PyQt.QtWidgets import QApplication, QMainWindow

from .conftest import disturb_a_covered_lot, wait_for_reply

LONG_CITATION = "§ 254-5, § 254-5(11), § 254-5(4), § 254-5(1)"  # what widened the column


@pytest.fixture
def docked(dock):
    """The panel in a main window at the width a new dock opens with (its size hint)."""
    window = QMainWindow()
    window.setCentralWidget(QgsMapCanvas())
    window.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, dock)
    window.resize(1280, 900)
    window.show()
    window.resizeDocks([dock], [dock.sizeHint().width()], Qt.Orientation.Horizontal)
    settle()
    yield dock
    window.removeDockWidget(dock)
    dock.setParent(None)  # the fixture, not the window, ends the panel


def settle() -> None:
    for _ in range(5):
        QApplication.processEvents()


def _top_in(widget, ancestor) -> int:
    return widget.mapTo(ancestor, QPoint(0, 0)).y()


def test_a_warning_shows_whole_right_above_the_measurements(docked, project):
    """Existing cover and none proposed reads as all cover removed: the user must see it."""
    reply = disturb_a_covered_lot(docked)
    settle()
    assert any("none proposed" in w for w in reply["warnings"]), reply["warnings"]
    label = docked.warnings_label
    # all of it on screen, none below a fold or a scroll pane's edge
    assert label.visibleRegion().boundingRect().size() == label.size()
    assert label.height() >= label.heightForWidth(label.width())
    # and right above the table whose net impervious change it qualifies
    gap = _top_in(docked.metrics, docked) - (_top_in(label, docked) + label.height())
    assert 0 <= gap <= 12


def test_a_long_list_of_sections_leaves_the_requirement_its_room(docked, project):
    results_view = __import__("sitecheck_qgis.ui.results_view", fromlist=["fill_triggers"])
    parcels = docked.layers()["parcels"]
    busiest = max(parcels.getFeatures(), key=lambda f: f.geometry().area())
    parcels.selectByIds([busiest.id()])
    reply = copy.deepcopy(wait_for_reply(docked))
    triggered = next(t for t in reply["triggers"] if t["outcome"] == "triggered")
    triggered["citation"] = LONG_CITATION
    results_view.fill_triggers(docked.triggers, reply)
    settle()
    tree = docked.triggers
    header, room = tree.header(), tree.viewport().width()
    # both columns inside the list: no sideways scrolling to read a requirement
    assert header.sectionViewportPosition(1) + header.sectionSize(1) <= room + 1
    assert header.sectionSize(1) >= 0.55 * room
    assert tree.horizontalScrollBar().maximum() == 0


def test_the_panel_opens_with_its_settings_folded_and_layer_names_whole(docked, project):
    assert docked.runoff_box.isCollapsed() and docked.settings_box.isCollapsed()
    docked.layers_box.setCollapsed(False)
    settle()
    for key, box in docked.layer_boxes.items():
        text = box.currentText()
        if not text:
            continue
        # the name, the layer icon, the drop-down arrow and the frame's margins
        needed = box.fontMetrics().horizontalAdvance(text) + box.iconSize().width() + 40
        assert box.width() >= needed, (key, text, box.width(), needed)
