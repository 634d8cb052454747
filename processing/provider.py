"""The SiteCheck Processing provider: its algorithms and its one setting."""

from __future__ import annotations

from qgis.core import QgsProcessingProvider

from ..bridge.engine import SETTING_NAME, forget_checked_interpreters
from ..bridge.engine_setup import probe
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
        # A text setting, not a file one: Processing's file field keeps a typed path only
        # after Enter and refuses `~`; this one is kept when the dialog closes, and checked.
        ProcessingConfig.addSetting(
            Setting(
                self.name(),
                SETTING_NAME,
                tr("Engine Python interpreter (empty: the one Plugins > SiteCheck set up)"),
                "",
                valuetype=Setting.STRING,
                validator=interpreter_setting_problem,
                placeholder="~/.sitecheck-engine/bin/python",
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


def interpreter_setting_problem(value) -> None:
    """Refuse a path that is not a Python 3.11 or later, saying why (Processing's validator).

    Quick (it asks the interpreter its version): the Options dialog calls it on
    every OK. Whether the engine's libraries import is checked at the first run.

    Raises
    ------
    ValueError
        Its message is shown by the Options dialog, which then stays open.
    """
    forget_checked_interpreters()
    if value and str(value).strip():
        found = probe(str(value))
        if isinstance(found, str):
            raise ValueError(found)
