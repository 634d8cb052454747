"""The dock panel in a real QGIS (offscreen): it follows a parcel and re-checks as it is drawn."""

from __future__ import annotations

import importlib
import math
import os
import statistics
import subprocess
import sys
import time

import pytest
from qgis.core import QgsFeature, QgsGeometry, QgsProject, QgsRectangle
from qgis.gui import QgsMapCanvas
from qgis.PyQt.QtCore import QCoreApplication
from qgis.PyQt.QtWidgets import QApplication

from .conftest import disturb_a_covered_lot, pdf_words, square, wait_for_reply


def outcomes(reply: dict) -> dict[str, str]:
    return {t["rule_id"]: t["outcome"] for t in reply["triggers"]}


def quiet_lot(layers):
    """A lot of 15,000 to 30,000 sq ft without a project."""
    parcels, disturbance = layers["parcels"], layers["disturbance"]
    busy = {f["parcel_id"] for f in disturbance.getFeatures()}
    candidates = [
        f
        for f in parcels.getFeatures()
        if 15_000 < f.geometry().area() < 30_000 and f["parcel_id"] not in busy
    ]
    return sorted(candidates, key=lambda f: f["parcel_id"])[0]


def tree_texts(dock) -> list[str]:
    texts = []
    for i in range(dock.triggers.topLevelItemCount()):
        branch = dock.triggers.topLevelItem(i)
        texts.append(branch.text(0))
        texts += [
            f"{branch.child(j).text(0)} {branch.child(j).text(1)}"
            for j in range(branch.childCount())
        ]
    return texts


def test_the_panel_follows_a_parcel_as_it_is_drawn(dock, project, tmp_path):
    layers = dock.layers()
    assert layers["parcels"] is not None and layers["dem"] is not None  # restored from the project
    assert dock.ordinance.currentData() == "scarsdale"
    lot = quiet_lot(layers)
    layers["parcels"].selectByIds([lot.id()])
    first = wait_for_reply(dock)
    assert first["parcel_id"] == lot["parcel_id"]
    assert first["triggers"] == []

    disturbance = layers["disturbance"]
    disturbance.startEditing()
    feature = QgsFeature(disturbance.fields())
    feature.setGeometry(square(lot.geometry().centroid().asPoint(), 1_000.0))
    feature.setAttribute("parcel_id", lot["parcel_id"])
    feature.setAttribute("activity", "construction")
    disturbance.addFeature(feature)
    drawn = wait_for_reply(dock)
    assert drawn["metrics"]["disturbed_area_sqft"] == pytest.approx(1_000.0, abs=0.01)
    assert outcomes(drawn)["scarsdale.permit"] == "triggered"
    assert outcomes(drawn)["scarsdale.tier.254_8"] == "triggered"
    assert any(text.startswith("§ 254-7 ") for text in tree_texts(dock))
    # While drawing, the nearest threshold that would change the outcome (issue 13, item 13).
    assert drawn["margin"]["metric"] == "disturbed_area_sqft"
    assert dock.margin_label.isVisibleTo(dock)
    assert dock.margin_label.text().startswith("Nearest threshold: disturbed 1,000 sq ft:")

    new_id = next(f.id() for f in disturbance.getFeatures() if f["parcel_id"] == lot["parcel_id"])
    disturbance.changeGeometry(new_id, square(lot.geometry().centroid().asPoint(), 6_000.0))
    bigger = wait_for_reply(dock)
    assert outcomes(bigger)["scarsdale.tier.254_9"] == "triggered"
    assert outcomes(bigger)["scarsdale.tier.254_8"] == "not_triggered"
    assert outcomes(bigger)["scarsdale.site_limits.slope"] != "needs_review"

    dock.layer_boxes["dem"].setLayer(None)  # as a user clearing the box
    no_dem = wait_for_reply(dock)
    slope = next(t for t in no_dem["triggers"] if t["rule_id"] == "scarsdale.site_limits.slope")
    assert slope["outcome"] == "needs_review" and "no DEM was given" in slope["reason"]
    assert any(text.startswith("Needs review") for text in tree_texts(dock))
    # The reviews by cause, in the engine's order (those that could change the most first).
    texts = tree_texts(dock)
    assert any(text.startswith("Questions to answer") for text in texts)
    questions = [r["question"] for r in no_dem["reviews"]]
    assert all(any(text.endswith(q) for text in texts) for q in questions)
    # What the pack does not evaluate is listed too (issue 13, item 9): § 254-6 waivers.
    assert any(text.startswith("Not evaluated by the pack") for text in texts)
    assert any(text.startswith("§ 254-6 ") for text in texts)
    assert any("no DEM was given" in q for q in questions)
    assert no_dem["design_storm"] == "25"
    assert "design storm 25 (years)" in dock.parcel_label.text()

    dock.copy_triggers()
    assert "§ 254-9" in QApplication.clipboard().text()
    report = tmp_path / "parcel.html"
    dock.write_report(str(report))
    wait_for_reply(dock)
    assert report.is_file() and lot["parcel_id"] in report.read_text()
    disturbance.rollBack()


def test_the_pause_before_a_re_check_follows_the_workers_answers(dock, project):
    """Before any answer the panel waits the longest pause; once answers come, the pause is
    twice their median (from 120 to 350 ms), timed by the panel itself. A parcel chosen
    30 ms after a setting changed, while that re-check still waits, is no burst of edits:
    the pause stays the answers'."""
    assert dock.pause.interval_ms == 350
    layers = dock.layers()
    parcels = layers["parcels"]
    lot = quiet_lot(layers)
    parcels.selectByIds([lot.id()])
    wait_for_reply(dock)
    dock.evaluate_now()
    wait_for_reply(dock)
    answers = list(dock.pause.answers_ms)
    assert len(answers) >= 2 and all(answer > 0 for answer in answers)
    expected = min(350, max(120, int(2 * statistics.median(answers))))
    assert dock.pause.interval_ms == expected

    dock.settings_box.changed.emit()
    assert dock.timer.isActive()  # the setting's re-check waits for the event loop
    time.sleep(0.03)
    other = next(f for f in parcels.getFeatures() if f["parcel_id"] != lot["parcel_id"])
    parcels.selectByIds([other.id()])
    assert wait_for_reply(dock)["parcel_id"] == other["parcel_id"]
    assert not dock.pause.gaps_ms, "a parcel chosen was timed as an edit of a burst"
    answers = list(dock.pause.answers_ms)
    assert dock.pause.interval_ms == min(350, max(120, int(2 * statistics.median(answers))))


def test_an_edit_is_checked_at_once_when_idle_and_a_burst_after_the_pause(dock, project):
    """An edit the panel is waiting for nothing else on is sent to the worker at once; the
    edits that follow while its answer is pending wait the pause, and the last one wins."""
    layers = dock.layers()
    lot = quiet_lot(layers)
    layers["parcels"].selectByIds([lot.id()])
    wait_for_reply(dock)
    disturbance = layers["disturbance"]
    disturbance.startEditing()
    feature = QgsFeature(disturbance.fields())
    feature.setGeometry(square(lot.geometry().centroid().asPoint(), 900.0))
    feature.setAttribute("parcel_id", lot["parcel_id"])
    before = dock.latest_request
    disturbance.addFeature(feature)
    for _ in range(5):  # well under any pause: the event loop turns a few times
        QCoreApplication.processEvents()
    assert dock.latest_request != before, "the idle panel did not check the edit at once"
    sent = dock.latest_request
    new_id = next(f.id() for f in disturbance.getFeatures() if f["parcel_id"] == lot["parcel_id"])
    disturbance.changeGeometry(new_id, square(lot.geometry().centroid().asPoint(), 1_200.0))
    time.sleep(0.05)  # the panel still waits (its pause runs): the next edit is the burst's
    disturbance.changeGeometry(new_id, square(lot.geometry().centroid().asPoint(), 1_600.0))
    assert dock.timer.isActive() and dock.timer.interval() == dock.pause.interval_ms
    assert dock.latest_request == sent  # the burst's edits wait for the pause
    assert dock.pause.gaps_ms and dock.pause.gaps_ms[-1] >= 50, "the burst's pace not timed"
    replies = [wait_for_reply(dock)]  # the first edit's answer may show before the last's
    if replies[0]["metrics"]["disturbed_area_sqft"] == pytest.approx(900.0, abs=0.01):
        replies.append(wait_for_reply(dock))
    assert replies[-1]["metrics"]["disturbed_area_sqft"] == pytest.approx(1_600.0, abs=0.01)
    disturbance.rollBack()


def test_the_panel_screens_runoff_and_flags_default_rainfall(dock, project):
    layers = dock.layers()
    assert layers["soils"] is not None  # restored from the project
    lot = quiet_lot(layers)
    disturbance = layers["disturbance"]
    disturbance.startEditing()
    feature = QgsFeature(disturbance.fields())
    feature.setGeometry(square(lot.geometry().centroid().asPoint(), 6_000.0))
    feature.setAttribute("parcel_id", lot["parcel_id"])
    feature.setAttribute("activity", "construction")
    disturbance.addFeature(feature)
    proposed = layers["impervious_proposed"]
    proposed.startEditing()
    # Proposed cover is the lot's complete cover after the work: what stands, plus a patio.
    standing = [
        f.geometry()
        for f in layers["impervious_existing"].getFeatures()
        if f["parcel_id"] == lot["parcel_id"]
    ]
    for geometry in [*standing, square(lot.geometry().centroid().asPoint(), 1_500.0)]:
        cover = QgsFeature(proposed.fields())
        cover.setGeometry(geometry)
        cover.setAttribute("parcel_id", lot["parcel_id"])
        proposed.addFeature(cover)
    layers["parcels"].selectByIds([lot.id()])
    defaults = wait_for_reply(dock)
    metrics = defaults["metrics"]
    assert metrics["cn_post"] > metrics["cn_pre"] > 0
    assert metrics["retention_storm_yr"] == 25 and metrics["retention_required_cuft"] > 0
    assert defaults["runoff_confirm"] and "confirm" in dock.status.text()
    shown = {
        dock.metrics.item(r, 0).text(): dock.metrics.item(r, 1).text()
        for r in range(dock.metrics.rowCount())
    }
    assert shown["Retention to offset the increase"].endswith("cu ft")

    dock.runoff_box.rainfall.setText("2=3.6,10=5.3,25=6.6,50=7.4,100=8.5")
    dock.runoff_box.changed.emit()
    site = wait_for_reply(dock)
    assert site["runoff_confirm"] == [] and "confirm" not in dock.status.text()
    assert site["metrics"]["retention_required_cuft"] > metrics["retention_required_cuft"]
    entry, _ = QgsProject.instance().readEntry("SiteCheck", "runoff/rainfall", "")
    assert entry.startswith("2=3.6")
    disturbance.rollBack()
    proposed.rollBack()


def test_clicking_a_trigger_frames_its_flag(dock, project):
    layers = dock.layers()
    parcels = layers["parcels"]
    p3 = next(
        f for f in parcels.getFeatures() if f["parcel_id"] == "1.1-11-5"
    )  # the estate subdivision
    parcels.selectByIds([p3.id()])
    reply = wait_for_reply(dock)
    slope_rule = next(t for t in reply["triggers"] if t["rule_id"] == "scarsdale.site_limits.slope")
    assert slope_rule["outcome"] == "triggered"
    # The sample's disturbance names its projects: the panel shows the parcel's.
    assert [p["project_id"] for p in reply["projects"]] == ["P3 estate subdivision"]
    assert "project P3 estate subdivision (1.1-11-5)" in dock.parcel_label.text()
    branch_items = [dock.triggers.topLevelItem(i) for i in range(dock.triggers.topLevelItemCount())]
    item = next(
        branch.child(j)
        for branch in branch_items
        for j in range(branch.childCount())
        if branch.child(j).text(1) == slope_rule["title"]
    )
    before = dock.canvas.extent()
    dock._trigger_clicked(item, 0)
    after = dock.canvas.extent()
    assert after != before
    flag = next(f for f in reply["flags"] if f["kind"] == "slope_over_15pct")
    geometry = QgsGeometry()
    geometry.fromWkb(bytes.fromhex(flag["wkb"]))
    assert geometry.boundingBox().intersects(after)
    # The frame holds the whole lot, never a strip of flag alone (canvas and layer share a CRS).
    assert after.contains(p3.geometry().boundingBox())
    # A rule on an area no flag shows (the permit, on the disturbed area) frames the lot.
    permit = next(t for t in reply["triggers"] if t["rule_id"] == "scarsdale.permit")
    row = next(
        branch.child(j)
        for branch in branch_items
        for j in range(branch.childCount())
        if branch.child(j).text(1) == permit["title"]
    )
    dock.canvas.setExtent(QgsRectangle(0, 0, 10, 10))
    dock._trigger_clicked(row, 0)
    framed = dock.canvas.extent()
    assert framed.contains(p3.geometry().boundingBox())
    assert framed.width() < 3 * p3.geometry().boundingBox().width()


def test_the_worker_stops_with_the_panel(dock, project):
    layers = dock.layers()
    lot = quiet_lot(layers)
    layers["parcels"].selectByIds([lot.id()])
    wait_for_reply(dock)
    process = dock.worker.process
    dock.shutdown()
    assert process.state() == process.ProcessState.NotRunning


def test_a_new_parcel_clears_the_previous_ones_results_at_once(dock, project):
    layers = dock.layers()
    lot = quiet_lot(layers)
    layers["parcels"].selectByIds([lot.id()])
    wait_for_reply(dock)
    assert dock.metrics.rowCount() > 0
    other = next(f for f in layers["parcels"].getFeatures() if f["parcel_id"] != lot["parcel_id"])
    layers["parcels"].selectByIds([other.id()])
    # Before the worker answers: no number of the previous parcel under the new one's name.
    assert dock.reply is None and dock.metrics.rowCount() == 0
    assert dock.triggers.topLevelItemCount() == 0
    assert dock.parcel_label.text() == f"Parcel {other['parcel_id']}: checking…"
    assert wait_for_reply(dock)["parcel_id"] == other["parcel_id"]


def test_the_panel_shows_the_engines_warnings(dock, project):
    """Existing cover and none proposed reads as all cover removed: the panel must say so."""
    reply = disturb_a_covered_lot(dock)
    removed = [w for w in reply["warnings"] if "none proposed" in w]
    assert removed, reply["warnings"]
    assert dock.warnings_label.isVisibleTo(dock)
    assert f"Warning: {removed[0]}" in dock.warnings_label.text()


def test_a_worker_that_dies_is_restarted_with_its_session(dock, project):
    """Killed as the out-of-memory killer would: the next pick still gets the parcel's answer."""
    layers = dock.layers()
    lot = quiet_lot(layers)
    layers["parcels"].selectByIds([lot.id()])
    first = wait_for_reply(dock)
    process = dock.worker.process
    process.kill()
    process.waitForFinished(10_000)
    QCoreApplication.processEvents()
    other = sorted(
        (f for f in layers["parcels"].getFeatures() if f.id() != lot.id()),
        key=lambda f: f["parcel_id"],
    )[0]
    layers["parcels"].selectByIds([other.id()])
    reply = wait_for_reply(dock)
    assert reply["ok"] and reply["parcel_id"] == other["parcel_id"] != first["parcel_id"]
    assert "started again" in dock.recovered and "exit code" in dock.recovered
    assert dock.worker.process is not process and dock.worker.is_running()


def test_after_shutdown_no_layer_or_project_signal_reaches_the_panel(dock, project):
    layers = dock.layers()
    assert len(dock.layer_signals) >= 7  # five per drawn layer, two on the parcels
    lot = quiet_lot(layers)
    dock.shutdown()
    assert len(dock.layer_signals) == 0 and len(dock.project_signals) == 0
    dock.timer.stop()
    layers["parcels"].selectByIds([lot.id()])  # selectionChanged
    assert dock.parcel_id is None and not dock.timer.isActive()
    disturbance = layers["disturbance"]
    disturbance.startEditing()
    feature = QgsFeature(disturbance.fields())
    feature.setGeometry(square(lot.geometry().centroid().asPoint(), 500.0))
    disturbance.addFeature(feature)  # featureAdded
    disturbance.rollBack()  # featuresDeleted / layerModified
    assert not dock.timer.isActive()


def test_the_panel_writes_the_parcels_compliance_map(dock, project, tmp_path):
    """Every requirement of the parcel is on its map, those needing review and the questions
    too: a list longer than the first page continues on the next."""
    layers = dock.layers()
    parcels = layers["parcels"]
    p2 = next(
        f for f in parcels.getFeatures() if f["parcel_id"] == "1.1-11-4"
    )  # the floodplain terrace
    parcels.selectByIds([p2.id()])
    reply = wait_for_reply(dock)
    pdf = tmp_path / "p2.pdf"
    dock.write_pdf(str(pdf))
    text = subprocess.run(
        ["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True
    ).stdout
    assert "parcel 1.1-11-4" in text
    assert "§ 254-9" in text and "Floodway" in text
    busy = sorted({f["parcel_id"] for f in layers["disturbance"].getFeatures()} - {None})
    for parcel_id in busy:  # a parcel whose page also lists rules needing review
        if any(t["outcome"] == "needs_review" for t in reply["triggers"]):
            break
        parcels.selectByIds([f.id() for f in parcels.getFeatures() if f["parcel_id"] == parcel_id])
        reply = wait_for_reply(dock)
    assert any(t["outcome"] == "needs_review" for t in reply["triggers"])
    dock.write_pdf(str(pdf))
    words = pdf_words(pdf)
    # The requirement column read top to bottom, page by page (its left edge is its heading's).
    left = min(w["xmin"] for w in words if w["text"] == "Requirement") - 1
    right = 182 * 72 / 25.4  # where the page's measurements column starts (mm to points)
    column = sorted(
        (w for w in words if left <= w["xmin"] < right),
        key=lambda w: (w["page"], w["ymin"], w["xmin"]),
    )
    words = " ".join(w["text"] for w in column)
    listed = [t for t in reply["triggers"] if t["outcome"] in ("triggered", "needs_review")]
    for trigger in listed:
        assert " ".join(f"{trigger['title']}:".split()) in words, trigger["title"]
    for review in reply.get("reviews", []):
        assert " ".join(review["question"].split()) in words, review["question"]


def test_the_panels_settings_reach_the_engine_and_stay_in_the_project(dock, project):
    layers = dock.layers()
    parcels, disturbance = layers["parcels"], layers["disturbance"]
    by_id = {f["parcel_id"]: f for f in parcels.getFeatures()}
    near_stream = None
    for parcel_id in sorted({f["parcel_id"] for f in disturbance.getFeatures()} & set(by_id)):
        parcels.selectByIds([by_id[parcel_id].id()])
        reply = wait_for_reply(dock)
        if (reply["metrics"]["disturbed_in_watercourse_buffer_sqft"] or 0) > 0:
            near_stream = parcel_id
            break
    assert near_stream, "the sample village has work in a watercourse buffer"
    box = dock.settings_box.numbers["watercourse_buffer_ft"]
    assert box.value() == 100.0  # the engine's default, from its description
    box.setValue(0.0)
    dock.settings_box.changed.emit()
    reply = wait_for_reply(dock)
    assert reply["parcel_id"] == near_stream
    assert reply["metrics"]["disturbed_in_watercourse_buffer_sqft"] == 0
    value, found = project.readDoubleEntry("SiteCheck", "settings/watercourse_buffer_ft", -1.0)
    assert found and value == 0.0


def test_scratch_folders_of_a_crashed_qgis_are_removed(tmp_path, monkeypatch, plugin):
    import importlib
    import tempfile

    scratch = importlib.import_module("sitecheck_qgis.bridge.scratch")
    ended = subprocess.Popen([sys.executable, "-c", "pass"])
    ended.wait()
    crashed = tmp_path / f"sitecheck-dock-{ended.pid}-abcd"
    crashed.mkdir()
    (crashed / "inputs.gpkg").write_bytes(b"x")
    alive = tmp_path / f"sitecheck-dock-{os.getpid()}-efgh"
    alive.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    made = scratch.scratch_folder()
    assert not crashed.exists() and alive.exists()
    assert made.parent == tmp_path and made.name.startswith(f"sitecheck-dock-{os.getpid()}-")


def test_opening_a_project_leaves_nothing_of_the_last_one(dock, project):
    layers = dock.layers()
    lot = quiet_lot(layers)
    layers["parcels"].selectByIds([lot.id()])
    wait_for_reply(dock)
    assert dock.status.text() and dock.metrics.rowCount() > 0
    path = project.fileName()
    project.clear()
    assert project.read(path)
    assert dock.status.text() == "" and dock.metrics.rowCount() == 0
    assert dock.parcel_id is None and dock.reply is None


@pytest.mark.parametrize("width", [None, 340])
def test_no_value_is_cut_off_at_the_panels_default_width(dock, project, width):
    """Docked at the width QGIS gives it (or a narrow 340 px), every measurement and
    requirement shows whole."""
    from qgis.PyQt.QtCore import QRect, Qt
    from qgis.PyQt.QtWidgets import QMainWindow

    dock_module = importlib.import_module("sitecheck_qgis.ui.dock")

    window = QMainWindow()
    window.setCentralWidget(QgsMapCanvas())
    window.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, dock)
    window.resize(1280, 900)
    window.show()
    assert dock.sizeHint().width() <= dock_module.DEFAULT_WIDTH_PX
    width = width or dock.sizeHint().width()  # a new dock opens at its size hint
    window.resizeDocks([dock], [width], Qt.Orientation.Horizontal)
    parcels = dock.layers()["parcels"]
    busiest = max(parcels.getFeatures(), key=lambda f: f.geometry().area())
    parcels.selectByIds([busiest.id()])
    reply = wait_for_reply(dock)
    assert reply["triggers"]
    for _ in range(5):
        QApplication.processEvents()
    assert abs(dock.width() - width) <= 10

    def fits(text: str, rect: QRect, metrics) -> bool:
        """On one line, or wrapped at spaces onto as many lines as the cell is tall."""
        room = rect.width() - 6  # the cell less its padding (Qt's focus-frame margins)
        width = metrics.horizontalAdvance(text)
        if width <= room:
            return True
        longest = max(metrics.horizontalAdvance(word) for word in text.split())
        return longest <= room and rect.height() >= math.ceil(width / room) * metrics.lineSpacing()

    settings = dock.configuration
    for box in (dock.layers_box, dock.runoff_box, dock.settings_box):
        box.setCollapsed(False)  # every setting shown: none wider than the panel
    QApplication.processEvents()
    assert settings.widget().minimumSizeHint().width() <= settings.viewport().width()
    table = dock.metrics
    for row in range(table.rowCount()):
        for column in (0, 1):
            rect = table.visualRect(table.model().index(row, column))
            text = table.item(row, column).text()
            assert fits(text, rect, table.fontMetrics()), (text, rect.width(), rect.height())
    value = table.visualRect(table.model().index(0, 1))
    assert value.right() <= table.viewport().width()  # the value column is inside the panel
    tree = dock.triggers
    checked = 0
    for item in _all_items(tree):
        if item.isHidden() or (item.parent() is not None and not item.parent().isExpanded()):
            continue
        for column in (0, 1) if not item.isFirstColumnSpanned() else (0,):
            text = item.text(column)
            if not text:
                continue
            rect = tree.visualItemRect(item)
            if not item.isFirstColumnSpanned():
                left = tree.header().sectionViewportPosition(column)
                width = tree.header().sectionSize(column)
                if column == 0:
                    indent = tree.indentation() * _depth(item)
                    left, width = left + indent, width - indent
                rect = QRect(left, rect.top(), width, rect.height())
            assert fits(text, rect, tree.fontMetrics()), (text, rect.width(), rect.height())
            checked += 1
    assert checked > len(reply["triggers"])
    window.removeDockWidget(dock)
    dock.setParent(None)  # the fixture, not the window, ends the panel


def _all_items(tree):
    pending = [tree.topLevelItem(i) for i in range(tree.topLevelItemCount())]
    while pending:
        item = pending.pop()
        yield item
        pending += [item.child(i) for i in range(item.childCount())]


def _depth(item) -> int:
    depth = 1
    while item.parent() is not None:
        item, depth = item.parent(), depth + 1
    return depth


def test_an_unfolded_layers_box_leaves_the_results_their_room(dock, project):
    """Unfolding every settings box scrolls them in their pane; the results keep half or more."""
    from qgis.PyQt.QtCore import Qt
    from qgis.PyQt.QtWidgets import QMainWindow

    window = QMainWindow()
    window.setCentralWidget(QgsMapCanvas())
    window.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, dock)
    window.resize(1280, 800)
    window.show()
    for _ in range(5):
        QApplication.processEvents()
    before = dock.results.height()
    for box in (dock.layers_box, dock.runoff_box, dock.settings_box):
        box.setCollapsed(False)
    for _ in range(5):
        QApplication.processEvents()
    assert dock.results.height() >= 0.4 * dock.panes.height()
    assert dock.results.height() >= 0.5 * before
    assert dock.configuration.verticalScrollBar().maximum() > 0  # the settings scroll instead
    window.removeDockWidget(dock)
    dock.setParent(None)
