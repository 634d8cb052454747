"""SiteCheck QGIS plugin: the entry point QGIS calls.

Only PyQGIS and qgis.PyQt are imported here and in plugin.py; the measuring
engine (the ``sitecheck`` package beside this file) runs in its own process.
"""


def classFactory(iface):  # noqa: N802 - name required by QGIS
    """Create the plugin for QGIS."""
    from .plugin import SiteCheckPlugin

    return SiteCheckPlugin(iface)
