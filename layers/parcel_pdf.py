"""The compliance map of the panel's current parcel, from the panel's own layers."""

from __future__ import annotations

from qgis.core import (
    QgsCoordinateReferenceSystem,
    QgsFeature,
    QgsField,
    QgsGeometry,
    QgsProject,
    QgsVectorLayer,
)

from ..bridge.qt_compat import REAL_FIELD, TEXT_FIELD
from .atlas_pages import coverage_layer, requirements_layer, subject_layer
from .compliance_layout import bind, export_pdf, load_layout
from .styling import style_path


def _geometry(wkb_hex: str) -> QgsGeometry:
    geometry = QgsGeometry()
    geometry.fromWkb(bytes.fromhex(wkb_hex))
    return geometry


def flags_layer(reply: dict) -> QgsVectorLayer:
    """The reply's flags as a styled memory layer (working CRS)."""
    crs = QgsCoordinateReferenceSystem.fromWkt(reply["crs_wkt"])
    layer = QgsVectorLayer("MultiPolygon", "Where the work meets a constraint", "memory")
    layer.setCrs(crs)
    layer.dataProvider().addAttributes(
        [
            QgsField("parcel_id", TEXT_FIELD),
            QgsField("kind", TEXT_FIELD),
            QgsField("area_sqft", REAL_FIELD),
        ]
    )
    layer.updateFields()
    features = []
    for flag in reply.get("flags", []):
        feature = QgsFeature(layer.fields())
        feature.setGeometry(_geometry(flag["wkb"]))
        feature.setAttributes([reply["parcel_id"], flag["kind"], flag["area_sqft"]])
        features.append(feature)
    layer.dataProvider().addFeatures(features)
    layer.updateExtents()
    layer.loadNamedStyle(str(style_path("flags")))
    return layer


def parcel_layer(reply: dict, parcel_geometry: QgsGeometry, crs) -> QgsVectorLayer:
    """The current parcel alone, with the id the reply gives it."""
    layer = QgsVectorLayer("MultiPolygon", "Parcels checked", "memory")
    layer.setCrs(crs)
    layer.dataProvider().addAttributes([QgsField("parcel_id", TEXT_FIELD)])
    layer.updateFields()
    feature = QgsFeature(layer.fields())
    feature.setGeometry(parcel_geometry)
    feature.setAttributes([reply["parcel_id"]])
    layer.dataProvider().addFeatures([feature])
    layer.updateExtents()
    return layer


def write_parcel_pdf(reply: dict, parcel_feature, parcels_crs, map_layers: list, path: str) -> None:
    """One compliance map page for the parcel the panel shows.

    ``map_layers`` are the project's layers as the user styled them, top first.
    """
    project = QgsProject.instance()
    parcel = parcel_layer(reply, parcel_feature.geometry(), parcels_crs)
    flags = flags_layer(reply)
    document = {"parcels": [reply]}
    coverage = coverage_layer(parcel, document, only_flagged=False)
    subject = subject_layer(parcel)
    requirements = requirements_layer(document)
    project.addMapLayers([parcel, flags, coverage, subject, requirements], False)
    try:
        layout = load_layout(project)
        packs = reply.get("packs", [])
        crs = reply.get("crs", {})
        bind(
            layout,
            coverage,
            [subject, flags, *map_layers],
            [*map_layers, flags],
            {
                "version": reply.get("sitecheck_version", ""),
                "pack": "; ".join(f"{p['id']} {p['version']}" for p in packs),
                "pack_sha": "; ".join(p["sha256"][:16] for p in packs),
                "jurisdiction": "; ".join(
                    f"{p['name']} {p['chapter'].split(',')[0]}" for p in packs
                ),
                "crs": f"{crs.get('authid')} ({crs.get('area_unit')})",
                "inputs": ", ".join(
                    f"{i['name']} {i['feature_count']}" for i in reply.get("inputs", [])
                ),
                "generated": reply.get("generated", ""),
            },
            requirements,
        )
        export_pdf(layout, path)
    finally:
        project.removeMapLayers(
            [layer.id() for layer in (parcel, flags, coverage, subject, requirements)]
        )
