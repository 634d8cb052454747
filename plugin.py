"""The plugin object QGIS loads: registers the Processing provider and the user interface."""

from __future__ import annotations

from qgis.core import QgsApplication
from qgis.PyQt.QtGui import QIcon

from . import resources  # noqa: F401 - registers the icons of resources.qrc

ICON_PATH = ":/plugins/sitecheck/icons/sitecheck.svg"


def plugin_icon() -> QIcon:
    """The SiteCheck icon, from the compiled resources.qrc."""
    return QIcon(ICON_PATH)


class SiteCheckPlugin:
    """Loaded by QGIS through ``classFactory``; leaves nothing behind on unload."""

    def __init__(self, iface) -> None:
        self.iface = iface
        self.provider = None

    def initProcessing(self) -> None:  # noqa: N802 - QGIS API name
        """Register the Processing provider (also called by qgis_process)."""
        from .processing.provider import SiteCheckProvider

        if self.provider is None:
            self.provider = SiteCheckProvider()
            QgsApplication.processingRegistry().addProvider(self.provider)

    def initGui(self) -> None:  # noqa: N802 - QGIS API name
        self.initProcessing()

    def unload(self) -> None:
        if self.provider is not None:
            QgsApplication.processingRegistry().removeProvider(self.provider)
            self.provider = None
