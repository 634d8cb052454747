"""The SiteCheck Processing provider: its algorithms and its one setting."""

from __future__ import annotations

from qgis.core import QgsProcessingProvider

from ..bridge.engine import SETTING_NAME
from ..bridge.i18n import tr
from ..bridge.icon import plugin_icon
from .adjoining_buffer import AdjoiningBufferAlgorithm
from .check_site import CheckSiteAlgorithm
from .export_compliance_maps import ExportComplianceMapsAlgorithm
from .notification_list import NotificationListAlgorithm
from .steep_slopes import SteepSlopesAlgorithm


class SiteCheckProvider(QgsProcessingProvider):
    """Provider ``sitecheck``; its algorithms run the engine out of process."""

    def id(self) -> str:
        return "sitecheck"

    def name(self) -> str:
        return "SiteCheck"

    def longName(self) -> str:  # noqa: N802 - QGIS API name
        return tr("SiteCheck stormwater ordinance screening")

    def icon(self):
        return plugin_icon()

    def load(self) -> bool:
        """Register the engine-interpreter setting (Settings > Options > Processing > Providers)."""
        try:
            from processing.core.ProcessingConfig import ProcessingConfig, Setting
        except ImportError:
            return super().load()
        ProcessingConfig.settingIcons[self.name()] = self.icon()
        ProcessingConfig.addSetting(
            Setting(
                self.name(),
                SETTING_NAME,
                "Engine Python interpreter (empty: $SITECHECK_PYTHON or the plugin folder's .venv)",
                "",
                valuetype=Setting.FILE,
            )
        )
        ProcessingConfig.readSettings()
        self.refreshAlgorithms()
        return True

    def unload(self) -> None:
        try:
            from processing.core.ProcessingConfig import ProcessingConfig
        except ImportError:
            return
        ProcessingConfig.removeSetting(SETTING_NAME)

    def loadAlgorithms(self) -> None:  # noqa: N802 - QGIS API name
        for algorithm in (
            CheckSiteAlgorithm(),
            AdjoiningBufferAlgorithm(),
            SteepSlopesAlgorithm(),
            NotificationListAlgorithm(),
            ExportComplianceMapsAlgorithm(),
        ):
            self.addAlgorithm(algorithm)
