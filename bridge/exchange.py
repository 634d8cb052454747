"""Move layers between QGIS and the engine: export inputs, load and style results.

Inputs go to one temporary GeoPackage, one layer each, as Processing hands
them over: selected features only when the user ticked it, the layer's subset
filter applied. Results come back from the engine's GeoPackage.
"""

from __future__ import annotations

import json
from pathlib import Path

from qgis.core import (
    QgsCoordinateTransformContext,
    QgsDataSourceUri,
    QgsFeature,
    QgsFeatureSink,
    QgsProcessingException,
    QgsProcessingFeatureSourceDefinition,
    QgsVectorFileWriter,
    QgsVectorLayer,
)

from .i18n import tr
from .vocabulary import DESCRIPTION

NO_CRS = DESCRIPTION["messages"]["no_crs"]  # worded as the engine words it


def no_crs(layer: str) -> QgsProcessingException:
    """The error of a layer without a CRS, worded as the engine words it."""
    return QgsProcessingException(tr("{0}: {1}").format(layer, tr(NO_CRS)))


ORIGIN_KEY = "sitecheck_origin"
"""Key of a layer's origin in the exported layer's description; the engine's
``sitecheck.io.fingerprint.ORIGIN_KEY`` reads it into the audit."""


def source_origin(algorithm, parameters, key: str, context, source) -> dict:
    """Where QGIS has a Processing input: provider, source without passwords, subset
    filter, whether only the selected features were used, and how many were exported."""
    value = parameters.get(key)
    if isinstance(value, QgsProcessingFeatureSourceDefinition):
        selected = bool(value.selectedFeaturesOnly)
    else:
        selected = False
    layer = algorithm.parameterAsVectorLayer(parameters, key, context)
    origin: dict[str, object] = {
        "provider": layer.providerType() if layer is not None else None,
        "uri": source_without_password(layer) if layer is not None else str(value),
        "layer_name": layer.name() if layer is not None else None,
        "subset": (layer.subsetString() or None) if layer is not None else None,
        "selected_only": selected,
        "feature_count": source.featureCount(),
    }
    return origin


DATABASE_PROVIDERS = ("postgres", "mssql", "oracle", "hana", "db2")
"""Providers whose layer source is a connection string that may hold a password."""


def source_without_password(layer) -> str:
    """A layer's source without its password or credentials.

    A database layer's source is parsed by QGIS's own connection-string parser
    (quotes and backslash escapes included) and written again without them:
    ``QgsDataSourceUri.removePassword`` cuts at the next space, so a quoted
    password holding one (``password='se\\'cr et'``) would leave its tail.
    """
    source = layer.source()
    if layer.providerType() not in DATABASE_PROVIDERS:
        return QgsDataSourceUri.removePassword(source)
    uri = QgsDataSourceUri(source)
    uri.setPassword("")
    return uri.uri(False)


def export_source(
    source, path: Path, layer_name: str, feedback=None, origin: dict | None = None
) -> str:
    """Write a QgsProcessingFeatureSource into a GeoPackage layer; returns ``path:layer``.

    The layer keeps the source's CRS exactly (none when it has none, so the
    engine can name the layer in its error). Curves and Z/M values pass through;
    the engine linearises and flattens them. ``origin`` (:func:`source_origin`)
    goes into the layer's description, for the engine's audit.
    """
    if not source.sourceCrs().isValid():
        # QGIS would write such a layer as EPSG:4326; stop with the engine's own words instead.
        raise no_crs(f"{layer_name} layer ({source.sourceName()})")
    options = QgsVectorFileWriter.SaveVectorOptions()
    options.driverName = "GPKG"
    options.layerName = layer_name
    options.fileEncoding = "UTF-8"
    if origin is not None:
        options.layerOptions = [f"DESCRIPTION={json.dumps({ORIGIN_KEY: origin})}"]
    options.actionOnExistingFile = (
        QgsVectorFileWriter.ActionOnExistingFile.CreateOrOverwriteLayer
        if path.exists()
        else QgsVectorFileWriter.ActionOnExistingFile.CreateOrOverwriteFile
    )
    writer = QgsVectorFileWriter.create(
        str(path),
        source.fields(),
        source.wkbType(),
        source.sourceCrs(),
        QgsCoordinateTransformContext(),
        options,
    )
    if writer.hasError() != QgsVectorFileWriter.WriterError.NoError:
        raise QgsProcessingException(
            tr("cannot write {0} for the engine: {1}").format(layer_name, writer.errorMessage())
        )
    total = max(source.featureCount(), 1)
    for count, feature in enumerate(source.getFeatures()):
        if feedback is not None and feedback.isCanceled():
            break
        writer.addFeature(feature, QgsFeatureSink.Flag.FastInsert)
        if feedback is not None and count % 1000 == 0:
            feedback.setProgress(min(5.0, 5.0 * count / total))
    del writer  # closes the file
    return f"{path}:{layer_name}"


def result_layer(gpkg: Path, layer_name: str, display_name: str) -> QgsVectorLayer:
    """A layer of the engine's output GeoPackage."""
    layer = QgsVectorLayer(f"{gpkg}|layername={layer_name}", display_name, "ogr")
    if not layer.isValid():
        raise QgsProcessingException(
            tr("the engine's output has no readable layer {0} ({1})").format(layer_name, gpkg)
        )
    return layer


def copy_to_sink(layer: QgsVectorLayer, sink, feedback=None) -> int:
    """Copy every feature of a layer into a Processing feature sink."""
    copied = 0
    for feature in layer.getFeatures():
        if feedback is not None and feedback.isCanceled():
            break
        out = QgsFeature(feature)
        sink.addFeature(out, QgsFeatureSink.Flag.FastInsert)
        copied += 1
    return copied


def engine_layer_spec(layer: QgsVectorLayer, folder: Path) -> str:
    """How the engine reads a QGIS layer: its file directly when it can, else a copy.

    A plain OGR layer with no filter, no unsaved edits and a CRS is read from
    its own file (``path:layer``). Anything else (a filter, edits in progress,
    a memory or database layer) is copied as the user sees it into
    ``folder/<name>.gpkg``.
    """
    from qgis.core import QgsCoordinateTransformContext, QgsProviderRegistry

    if not layer.crs().isValid():
        raise no_crs(f"{layer.name()} layer")
    parts = QgsProviderRegistry.instance().decodeUri(layer.providerType(), layer.source())
    path = parts.get("path", "")
    plain = (
        layer.providerType() == "ogr"
        and path
        and Path(path).is_file()
        and not layer.subsetString()
        and not layer.isModified()
    )
    if plain:
        name = parts.get("layerName") or ""
        return f"{path}:{name}" if name else path
    target = folder / f"{layer.id()}.gpkg"
    options = QgsVectorFileWriter.SaveVectorOptions()
    options.driverName = "GPKG"
    options.layerName = "layer"
    error = QgsVectorFileWriter.writeAsVectorFormatV3(
        layer, str(target), QgsCoordinateTransformContext(), options
    )
    if error[0] != QgsVectorFileWriter.WriterError.NoError:
        raise QgsProcessingException(
            tr("cannot copy {0} for the engine: {1}").format(layer.name(), error[1])
        )
    return f"{target}:layer"
