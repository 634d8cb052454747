"""The layers a QGIS project gives SiteCheck: those its panel saved, else ones named for the role.

The panel saves its layer choices in the project (``ui/project_settings.py``);
Processing dialogs start from them, so a dialog opened with another layer
active does not offer that layer as the parcels and the limits of
disturbance at once.
"""

from __future__ import annotations

import re

from qgis.core import QgsMapLayer, QgsProject, QgsVectorLayer, QgsWkbTypes

PROJECT_SCOPE = "SiteCheck"
"""The project-file scope of the panel's saved choices."""

# What a layer of a required role is commonly called when the panel saved none.
NAMED_LIKE = {
    "parcels": re.compile(r"parcel|tax ?lots?\b", re.IGNORECASE),
    "disturbance": re.compile(r"disturb|\blod\b|limits? of work", re.IGNORECASE),
}


def saved_layer(key: str, project: QgsProject | None = None) -> QgsMapLayer | None:
    """The layer the panel saved for role ``key`` in the project, if it is still there."""
    project = project or QgsProject.instance()
    layer_id, found = project.readEntry(PROJECT_SCOPE, f"layer/{key}", "")
    return project.mapLayer(layer_id) if found and layer_id else None


def _is_polygon(layer: QgsMapLayer) -> bool:
    return (
        isinstance(layer, QgsVectorLayer)
        and layer.geometryType() == QgsWkbTypes.GeometryType.PolygonGeometry
    )


def default_layer(key: str, project: QgsProject | None = None) -> str | None:
    """The id of the layer a dialog should start with for role ``key``, or None.

    The panel's saved layer first; for the parcels and the limits of
    disturbance, else the first polygon layer of the layer tree whose name
    says it is one (``Parcels``, ``Tax lots``; ``Limits of disturbance``, ``LOD``).
    """
    project = project or QgsProject.instance()
    saved = saved_layer(key, project)
    if saved is not None:
        return saved.id()
    pattern = NAMED_LIKE.get(key)
    if pattern is None:
        return None
    for tree_layer in project.layerTreeRoot().findLayers():
        layer = tree_layer.layer()
        if layer is not None and _is_polygon(layer) and pattern.search(layer.name()):
            return layer.id()
    return None
