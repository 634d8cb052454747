"""Start-up code for QGIS desktop: a new user's first steps, recorded for test_desktop.py.

Run by ``tools/run_qgis.py SAMPLE --code tests/qgis/desktop_first_hour.py`` under
Xvfb, with the sample village project open. It opens the SiteCheck panel from
its toolbar action, opens check_site's dialog with the limits of disturbance
as the active layer, makes the panel say it needs its engine and presses the
message bar's button, then writes what it saw to SITECHECK_SESSION_STATUS and quits.
"""

import json
import os
import traceback

from qgis.core import QgsProject
from qgis.PyQt.QtCore import QTimer
from qgis.PyQt.QtWidgets import QApplication, QDialog, QPushButton
from qgis.utils import iface, plugins

STATUS = os.environ["SITECHECK_SESSION_STATUS"]
seen: dict = {}


def _write(ok: bool, **fields) -> None:
    with open(STATUS, "w", encoding="utf-8") as handle:
        json.dump({"ok": ok, **seen, **fields}, handle)


def _quit() -> None:
    # at once: QGIS 3.22 can crash in its own shutdown (QgisApp::setMapStyleDockLayer) after
    # the active layer was changed from code; what the test reads is written by now
    os._exit(0)


def _guarded(step):
    def run():
        try:
            step()
        except Exception:  # any failure ends the session, with its traceback
            _write(False, error=traceback.format_exc())
            _quit()

    return run


def _layer(name):
    return QgsProject.instance().mapLayersByName(name)[0]


@_guarded
def open_panel():
    window = iface.mainWindow()
    window.setGeometry(0, 0, 1600, 1000)  # Xvfb has no window manager to maximise it
    plugins["sitecheck_qgis"].action.trigger()  # the toolbar button
    QTimer.singleShot(1500, measure_panel)


@_guarded
def measure_panel():
    dock = plugins["sitecheck_qgis"].dock
    seen["dock_width"] = dock.width()
    seen["dock_size_hint"] = dock.sizeHint().width()
    open_check_site()


@_guarded
def open_check_site():
    import processing

    iface.setActiveLayer(_layer("disturbance"))
    dialog = processing.createAlgorithmDialog("sitecheck:check_site")
    dialog.show()
    wrappers = dialog.mainWidget().wrappers
    layers = QgsProject.instance()
    for key in ("PARCELS", "DISTURBANCE"):
        value = wrappers[key].parameterValue()
        layer = layers.mapLayer(str(value))
        seen[f"dialog_{key.lower()}"] = layer.name() if layer is not None else str(value)
    dialog.close()
    QTimer.singleShot(500, offer_set_up)


def _visible_button(text: str):
    for button in iface.messageBar().findChildren(QPushButton):
        if button.text() == text and button.isVisible():
            return button
    return None


@_guarded
def offer_set_up():
    dock = plugins["sitecheck_qgis"].dock
    dock.take_back_messages()
    dock.engine_missing = False
    dock.offer_engine_setup("no engine interpreter (the test's words)")
    QTimer.singleShot(800, press_set_up)


@_guarded
def press_set_up():
    button = _visible_button("Set up the SiteCheck engine…")
    seen["set_up_button"] = button is not None
    if button is not None:
        button.click()
    QTimer.singleShot(1500, show_an_error)


@_guarded
def show_an_error():
    titles = [
        widget.windowTitle()
        for widget in QApplication.topLevelWidgets()
        if isinstance(widget, QDialog) and widget.isVisible()
    ]
    seen["dialogs_open"] = titles
    for widget in QApplication.topLevelWidgets():
        if isinstance(widget, QDialog) and widget.isVisible():
            widget.close()
    dock = plugins["sitecheck_qgis"].dock
    dock.take_back_messages()
    dock.show_error("SiteCheck could not check the parcel", "first line\nsecond line")
    QTimer.singleShot(800, look_for_details)


@_guarded
def look_for_details():
    seen["details_button"] = _visible_button("Details…") is not None
    _write(True)
    _quit()


QTimer.singleShot(2000, open_panel)
