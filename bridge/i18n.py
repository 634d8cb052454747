"""Translation of the plugin's user-facing text (QGIS's Qt translation machinery)."""

from __future__ import annotations

from qgis.PyQt.QtCore import QCoreApplication

CONTEXT = "SiteCheck"


def tr(text: str) -> str:
    """``text`` in the user's language when a translation is installed, else as written."""
    return QCoreApplication.translate(CONTEXT, text)
