"""The SiteCheck Processing provider."""

from __future__ import annotations

from qgis.core import QgsProcessingProvider

from ..plugin import plugin_icon


class SiteCheckProvider(QgsProcessingProvider):
    """Provider ``sitecheck``: its algorithms run the engine out of process."""

    def id(self) -> str:  # noqa: A003 - QGIS API name
        return "sitecheck"

    def name(self) -> str:
        return "SiteCheck"

    def longName(self) -> str:  # noqa: N802 - QGIS API name
        return "SiteCheck stormwater ordinance screening"

    def icon(self):
        return plugin_icon()

    def loadAlgorithms(self) -> None:  # noqa: N802 - QGIS API name
        """Algorithms arrive with the plugin issue; the provider is registered already."""
