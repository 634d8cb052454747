"""The plugin object QGIS loads: registers the Processing provider and the dock panel."""

from __future__ import annotations

from typing import Any

from qgis.core import QgsApplication

from .bridge.i18n import tr
from .bridge.icon import plugin_icon


class SiteCheckPlugin:
    """Loaded by QGIS through ``classFactory``; leaves nothing behind on unload."""

    def __init__(self, iface) -> None:
        self.iface = iface
        self.provider: Any = None
        self.action: Any = None
        self.dock: Any = None
        self.setup_action: Any = None
        self.setup_dialog: Any = None

    def initProcessing(self) -> None:  # noqa: N802 - QGIS API name
        """Register the Processing provider (also called by qgis_process)."""
        from .processing.provider import SiteCheckProvider

        if self.provider is None:
            self.provider = SiteCheckProvider()
            QgsApplication.processingRegistry().addProvider(self.provider)

    def initGui(self) -> None:  # noqa: N802 - QGIS API name
        """The provider, and the dock panel behind a toolbar button and a Plugins menu entry."""
        self.initProcessing()
        if self.iface is None:
            return
        from qgis.PyQt.QtCore import Qt

        from .bridge.qt_compat import QAction
        from .ui.dock import SiteCheckDock

        self.dock = SiteCheckDock(self.iface.mapCanvas(), self.iface, self.iface.mainWindow())
        self.iface.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.dock)
        self.dock.hide()
        self.action = QAction(plugin_icon(), tr("SiteCheck panel"), self.iface.mainWindow())
        self.action.setCheckable(True)
        self.action.setToolTip(tr("Show the ordinance triggers of the parcel being drawn"))
        self.action.toggled.connect(self._show_dock)
        self.dock.visibilityChanged.connect(self.action.setChecked)
        self.iface.addToolBarIcon(self.action)
        self.iface.addPluginToMenu("&SiteCheck", self.action)
        self.setup_action = QAction(tr("Set up the SiteCheck engine…"), self.iface.mainWindow())
        self.setup_action.setToolTip(
            tr("Make the Python SiteCheck measures in, outside QGIS, and install its libraries")
        )
        self.setup_action.triggered.connect(self.open_engine_setup)
        self.iface.addPluginToMenu("&SiteCheck", self.setup_action)
        self.dock.setup_requested.connect(self.open_engine_setup)

    def _show_dock(self, visible: bool) -> None:
        """Show or hide the panel; shown narrower than it needs, it opens at its own width."""
        from qgis.PyQt.QtCore import Qt, QTimer

        self.dock.setVisible(visible)
        if visible:
            # QGIS gives a new right-hand dock about 300 px, where the trigger list and the
            # threshold notes are cut; once laid out, widen it to the width it asks for
            def widen() -> None:
                if self.dock is None:  # unloaded meanwhile
                    return
                wanted = self.dock.sizeHint().width()
                if self.dock.width() < wanted:
                    window = self.iface.mainWindow()
                    window.resizeDocks([self.dock], [wanted], Qt.Orientation.Horizontal)

            QTimer.singleShot(0, widen)

    def open_engine_setup(self) -> None:
        """The set-up dialog (one per session: a set-up running in it keeps its progress)."""
        from .ui.engine_setup_dialog import EngineSetupDialog

        if self.setup_dialog is None:
            parent = self.iface.mainWindow() if self.iface is not None else None
            self.setup_dialog = EngineSetupDialog(parent=parent)
            self.setup_dialog.engine_ready.connect(self._engine_ready)
        self.setup_dialog.show()
        self.setup_dialog.raise_()
        self.setup_dialog.activateWindow()

    def _engine_ready(self, interpreter: str) -> None:
        if self.dock is not None:
            self.dock.engine_ready()
        if self.iface is not None:
            self.iface.messageBar().pushSuccess(
                tr("SiteCheck"), tr("the engine is ready ({0})").format(interpreter)
            )

    def unload(self) -> None:
        if self.setup_dialog is not None:
            if self.setup_dialog.task is not None:
                self.setup_dialog.task.cancel()
            self.setup_dialog.deleteLater()
            self.setup_dialog = None
        if self.setup_action is not None and self.iface is not None:
            self.iface.removePluginMenu("&SiteCheck", self.setup_action)
            self.setup_action.deleteLater()
            self.setup_action = None
        if self.action is not None and self.iface is not None:
            self.iface.removeToolBarIcon(self.action)
            self.iface.removePluginMenu("&SiteCheck", self.action)
            self.action.deleteLater()
            self.action = None
        if self.dock is not None:
            self.dock.shutdown()
            if self.iface is not None:
                self.iface.removeDockWidget(self.dock)
            self.dock.deleteLater()
            self.dock = None
        if self.provider is not None:
            QgsApplication.processingRegistry().removeProvider(self.provider)
            self.provider = None
