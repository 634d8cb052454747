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
        self.action.toggled.connect(self.dock.setVisible)
        self.dock.visibilityChanged.connect(self.action.setChecked)
        self.iface.addToolBarIcon(self.action)
        self.iface.addPluginToMenu("&SiteCheck", self.action)

    def unload(self) -> None:
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
