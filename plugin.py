"""The plugin object QGIS loads: registers the Processing provider and the UI."""

from __future__ import annotations

from pathlib import Path

from qgis.core import QgsApplication
from qgis.PyQt.QtGui import QIcon

PLUGIN_DIR = Path(__file__).resolve().parent


def plugin_icon() -> QIcon:
    """The SiteCheck icon (from the plugin folder, which resources.qrc also lists)."""
    return QIcon(str(PLUGIN_DIR / "icons" / "sitecheck.svg"))


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
