"""Start-up code for QGIS desktop (``qgis --code tools/qgis_session.py``), run by tools/run_qgis.py.

Opens the SiteCheck panel on the sample village and selects a project parcel.
With SITECHECK_SCREENSHOT set, waits for the panel's answer, saves a
screenshot of the main window there, writes SITECHECK_SESSION_STATUS (JSON)
and quits: that is how `make screenshot` and the desktop test use it.
"""

import json
import os

from qgis.core import QgsApplication, QgsProject
from qgis.PyQt.QtCore import Qt, QTimer
from qgis.PyQt.QtWidgets import QDockWidget
from qgis.utils import iface, plugins

PARCEL = os.environ.get("SITECHECK_PARCEL", "1.1-11-5")
SCREENSHOT = os.environ.get("SITECHECK_SCREENSHOT")
STATUS = os.environ.get("SITECHECK_SESSION_STATUS")
TIMEOUT_MS = 120_000


def _status(**fields):
    if STATUS:
        with open(STATUS, "w", encoding="utf-8") as handle:
            json.dump(fields, handle)


_done = []


def _quit():
    """Leave QGIS without its exit questions (unsaved layers): the work is saved by now."""
    QgsProject.instance().setDirty(False)
    QTimer.singleShot(5000, lambda: os._exit(0))  # if cleaning up hangs, leave anyway
    QgsApplication.instance().exit(0)


def _finish(reply=None, error=None):
    if _done:
        return
    _done.append(True)
    plugin = plugins.get("sitecheck_qgis")
    if SCREENSHOT and reply is not None:
        QTimer.singleShot(1500, lambda: _shoot(plugin, reply))
    elif SCREENSHOT:
        _status(ok=False, error=error or "no answer from the panel")
        _quit()


def _shoot(plugin, reply):
    iface.messageBar().clearWidgets()
    iface.mainWindow().grab().save(SCREENSHOT)
    _status(
        ok=True,
        parcel_id=reply.get("parcel_id"),
        highest_severity=reply.get("highest_severity"),
        triggers=len(reply.get("triggers", [])),
        dock_visible=plugin.dock.isVisible(),
    )
    _quit()


def _start():
    plugin = plugins.get("sitecheck_qgis")
    if plugin is None:
        _status(ok=False, error="the SiteCheck plugin is not loaded")
        if SCREENSHOT:
            _quit()
        return
    window = iface.mainWindow()
    window.setGeometry(0, 0, 1600, 1000)  # Xvfb has no window manager to maximise it
    browser = window.findChild(QDockWidget, "Browser")
    if browser is not None:
        browser.hide()
    plugin.action.setChecked(True)
    dock = plugin.dock
    # The panel at the width it opens with (its size hint): nothing in it may be cut off there.
    window.resizeDocks([dock], [dock.sizeHint().width()], Qt.Orientation.Horizontal)
    dock.evaluated.connect(lambda reply: _finish(reply))
    parcels = dock.layers().get("parcels")
    if parcels is None:
        _finish(error="the project's parcels layer is not set in the panel")
        return
    chosen = [f.id() for f in parcels.getFeatures() if str(f["parcel_id"]) == PARCEL]
    parcels.selectByIds(chosen)
    iface.mapCanvas().setExtent(QgsProject.instance().viewSettings().defaultViewExtent())
    if SCREENSHOT:
        QTimer.singleShot(TIMEOUT_MS, lambda: _finish(error=dock.status.text()))


QTimer.singleShot(2000, _start)
