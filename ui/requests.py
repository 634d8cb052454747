"""Build the worker's requests from QGIS layers: the static layers once, the drawn ones per edit."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from qgis.core import (
    QgsCoordinateReferenceSystem,
    QgsCoordinateTransform,
    QgsFeatureRequest,
    QgsGeometry,
    QgsProject,
    QgsRectangle,
    QgsVectorLayer,
)

from ..bridge.exchange import engine_layer_spec
from ..bridge.vocabulary import ROLES

ID_FIELDS = ("parcel_id", "sbl", "print_key")
NEIGHBOURHOOD_FT = 300.0


def parcel_id_field(layer: QgsVectorLayer) -> str | None:
    """The parcel id field as the engine picks it: parcel_id, SBL, PRINT_KEY (else the FID)."""
    names = {name.lower(): name for name in layer.fields().names()}
    for candidate in ID_FIELDS:
        if candidate in names:
            return names[candidate]
    return None


def parcel_id_of(layer: QgsVectorLayer, feature) -> str:
    field = parcel_id_field(layer)
    value = feature[field] if field else feature.id()
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return str(value)


@dataclass(frozen=True)
class RulesChoice:
    """Which rules apply: one ordinance pack for every parcel, or a jurisdiction layer whose
    field names each parcel's."""

    ordinance: str | None
    jurisdictions: QgsVectorLayer | None = None
    jurisdiction_field: str | None = None


def open_request(
    layers: dict,
    rules: RulesChoice,
    folder: Path,
    runoff: dict | None = None,
    settings: dict | None = None,
) -> dict:
    """The ``open`` request: every static layer as a file the engine reads.

    ``runoff`` holds the runoff screen's ``default_hsg`` and ``rainfall``; the
    screen runs when a soils layer or a default soil group is given.
    ``settings`` are measuring options by name (``tolerance`` among them); the
    engine checks them as it checks the command line's.
    """
    settings = dict(settings or {})
    tolerance = settings.pop("tolerance", None)
    inputs = {}
    for role in ROLES:
        layer = layers.get(role.key)
        if layer is None or role.drawn or role.geometry == "raster":
            continue
        inputs[role.key] = engine_layer_spec(layer, folder)
    request = {
        "op": "open",
        "inputs": inputs,
        "ordinance": rules.ordinance,
        "settings": settings,
        "runoff": dict(runoff or {}),
    }
    if tolerance is not None:
        request["tolerance"] = tolerance
    dem = layers.get("dem")
    if dem is not None:
        request["dem"] = dem.source()
    if rules.jurisdictions is not None:
        request["jurisdictions"] = engine_layer_spec(rules.jurisdictions, folder)
        request["jurisdiction_field"] = rules.jurisdiction_field
        request["ordinance"] = None
    return request


def _feet_per_unit(crs: QgsCoordinateReferenceSystem) -> float:
    from qgis.core import QgsUnitTypes

    factor = QgsUnitTypes.fromUnitToUnitFactor(
        crs.mapUnits(), QgsUnitTypes.DistanceUnit.DistanceFeet
    )
    return factor if factor > 0 else 1.0


def neighbourhood(parcels: QgsVectorLayer, parcel) -> QgsRectangle:
    """The parcel's extent grown by 300 ft, in the parcel layer's CRS."""
    rect = QgsRectangle(parcel.geometry().boundingBox())
    rect.grow(NEIGHBOURHOOD_FT / _feet_per_unit(parcels.crs()))
    return rect


def drawn_layer_payload(layer: QgsVectorLayer, rect: QgsRectangle, rect_crs) -> dict:
    """Features of a drawn layer near the parcel, edits included, as WKB with the layer's CRS."""
    transform = QgsCoordinateTransform(rect_crs, layer.crs(), QgsProject.instance())
    request = QgsFeatureRequest().setFilterRect(transform.transformBoundingBox(rect))
    names = layer.fields().names()
    features = []
    for feature in layer.getFeatures(request):
        geometry = feature.geometry()
        if geometry is None or geometry.isEmpty():
            continue
        # A feature's values in one call: one call a field took a fifth of the request.
        values = feature.attributes()
        properties = {name: _plain(value) for name, value in zip(names, values, strict=True)}
        features.append({"wkb": bytes(geometry.asWkb()).hex(), "properties": properties})
    return {"crs": layer.crs().toWkt(), "features": features}


def _plain(value):
    """A field value as JSON takes it (QVariant NULLs and dates become null or text)."""
    if value is None:
        return None
    try:
        from qgis.PyQt.QtCore import QVariant

        if isinstance(value, QVariant):
            return None if value.isNull() else value.value()
    except ImportError:  # pragma: no cover - Qt 6 returns plain Python values
        pass
    if isinstance(value, bool | int | float | str):
        return value
    text = str(value)
    return None if text in ("NULL", "") else text


def evaluate_request(layers: dict, parcels: QgsVectorLayer, parcel) -> dict:
    """The ``evaluate`` request for one parcel with the drawn layers around it."""
    rect = neighbourhood(parcels, parcel)
    payload = {}
    for role in ROLES:
        layer = layers.get(role.key)
        if role.drawn and layer is not None:
            payload[role.key] = drawn_layer_payload(layer, rect, parcels.crs())
    return {"op": "evaluate", "parcel_id": parcel_id_of(parcels, parcel), "layers": payload}


def parcel_at(parcels: QgsVectorLayer, point, point_crs):
    """The parcel under a point given in another CRS, or None."""
    transform = QgsCoordinateTransform(point_crs, parcels.crs(), QgsProject.instance())
    local = transform.transform(point)
    probe = QgsGeometry.fromPointXY(local)
    rect = probe.boundingBox()
    rect.grow(1e-6)
    for feature in parcels.getFeatures(QgsFeatureRequest().setFilterRect(rect)):
        if feature.geometry().contains(probe):
            return feature
    return None


def parcel_under(parcels: QgsVectorLayer, geometry: QgsGeometry, geometry_crs):
    """The parcel holding the middle of a drawn feature (the one being edited), or None."""
    if geometry is None or geometry.isEmpty():
        return None
    return parcel_at(parcels, geometry.pointOnSurface().asPoint(), geometry_crs)


def parcel_feature(parcels: QgsVectorLayer, parcel_id: str):
    """The parcel of that id: among the selected ones first, else by its id field or FID."""
    for feature in parcels.getSelectedFeatures():
        if parcel_id_of(parcels, feature) == parcel_id:
            return feature
    field = parcel_id_field(parcels)
    if field is None:
        return parcels.getFeature(int(parcel_id))
    expression = f"\"{field}\" = '{parcel_id.replace(chr(39), chr(39) * 2)}'"

    return next(parcels.getFeatures(QgsFeatureRequest().setFilterExpression(expression)), None)
