"""Names the dead-code check (vulture, in ``make lint``) must not report.

Each is called by a framework, not by SiteCheck's own code: QGIS and Qt call the
methods a plugin, a Processing algorithm or a layout item overrides; exactextract
calls a feature source's protocol; attributes set on QGIS objects are read by
QGIS. A name belongs here only for that reason, with the API that calls it.
"""

# ruff: noqa: B018
from vulture.whitelist_utils import Whitelist

qgis = Whitelist()

# The plugin's entry points (QGIS's plugin loader)
qgis.classFactory
qgis.initGui
qgis.unload

# QgsProcessingAlgorithm and QgsProcessingProvider overrides
qgis.displayName
qgis.shortHelpString
qgis.groupId
qgis.createInstance
qgis.prepareAlgorithm
qgis.processAlgorithm
qgis.postProcessLayer
qgis.toOutputDefinition
qgis.longName
qgis.loadAlgorithms

# Attributes QGIS reads: QgsVectorFileWriter.SaveVectorOptions, QgsPalLayerSettings,
# QgsLayoutExporter.ImageExportSettings and PdfExportSettings
qgis.driverName
qgis.layerName
qgis.fileEncoding
qgis.layerOptions
qgis.actionOnExistingFile
qgis.fieldName
qgis.scaleVisibility
qgis.maximumScale
qgis.minimumScale
qgis.dpi
qgis.rasterizeWholeImage
qgis.textRenderFormat

python = Whitelist()

# exactextract's FeatureSource / Feature protocol
python.set_geometry_format
# warnings.showwarning, replaced to word library warnings (sitecheck/app/library_warnings.py)
python.showwarning
python.file
python.lineno
# psycopg's connection attribute, read by the driver
python.read_only
# protocol arguments: a context manager's __exit__ (its traceback), a signal handler's
# signal number, QgsVectorLayer.selectionChanged(selected, deselected, clear_and_select)
python.exc_info
python.trace
python.signum
python.deselected
python.clear_and_select
