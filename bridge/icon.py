"""The SiteCheck icon, from the compiled resources.qrc (a leaf: it imports no other module)."""

from __future__ import annotations

from qgis.PyQt.QtGui import QIcon

from .. import resources  # noqa: F401 - registers the icons of resources.qrc

ICON_PATH = ":/plugins/sitecheck/icons/sitecheck.svg"


def plugin_icon() -> QIcon:
    """The SiteCheck icon."""
    return QIcon(ICON_PATH)
