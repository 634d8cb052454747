"""Symbols of the input layers on maps (the sample project and the compliance atlas)."""

from __future__ import annotations

from qgis.core import (
    QgsFillSymbol,
    QgsLineSymbol,
    QgsPalLayerSettings,
    QgsSingleSymbolRenderer,
    QgsTextBufferSettings,
    QgsTextFormat,
    QgsVectorLayerSimpleLabeling,
    QgsWkbTypes,
)

FILLS = {
    "zoning": {
        "color": "255,255,255,0",
        "outline_color": "#9e9ac8",
        "outline_width": "0.5",
        "outline_style": "dash",
    },
    "sda": {"color": "255,237,160,70", "outline_color": "#fec44f", "outline_width": "0.4"},
    "impaired_watersheds": {"color": "0,0,0,0", "outline_color": "#8856a7", "outline_width": "0.7"},
    "floodplain": {"color": "107,174,214,110", "outline_color": "#3182bd", "outline_width": "0.2"},
    "wetlands": {"color": "116,196,118,140", "outline_color": "#238b45", "outline_width": "0.3"},
    "watercourses": {
        "color": "158,202,225,160",
        "outline_color": "#2b8cbe",
        "outline_width": "0.3",
    },
    "parcels": {"color": "255,255,255,0", "outline_color": "#636363", "outline_width": "0.25"},
    "impervious_existing": {
        "color": "150,150,150,180",
        "outline_color": "#525252",
        "outline_width": "0.1",
    },
    "impervious_proposed": {
        "color": "0,0,0,0",
        "outline_color": "#d95f0e",
        "outline_width": "0.4",
        "outline_style": "dash",
    },
    "disturbance": {"color": "254,153,41,120", "outline_color": "#cc4c02", "outline_width": "0.6"},
}
LINE = {"color": "#2b8cbe", "width": "0.8"}

# Drawing order on a map, bottom first.
ORDER = (
    "zoning",
    "sda",
    "impaired_watersheds",
    "floodplain",
    "wetlands",
    "watercourses",
    "parcels",
    "impervious_existing",
    "impervious_proposed",
    "disturbance",
)

TITLES = {
    "zoning": "Zoning districts",
    "sda": "Sensitive drainage area",
    "impaired_watersheds": "Impaired watershed",
    "floodplain": "FEMA floodplain",
    "wetlands": "Wetlands",
    "watercourses": "Watercourses",
    "parcels": "Parcels",
    "impervious_existing": "Impervious, existing",
    "impervious_proposed": "Impervious, proposed",
    "disturbance": "Limits of disturbance",
}


def style_input_layer(layer, role: str) -> None:
    """Give an input layer its map symbol (lines for line watercourses)."""
    if QgsWkbTypes.geometryType(layer.wkbType()) == QgsWkbTypes.GeometryType.LineGeometry:
        symbol = QgsLineSymbol.createSimple(LINE)
    else:
        symbol = QgsFillSymbol.createSimple(FILLS.get(role, FILLS["parcels"]))
    layer.setRenderer(QgsSingleSymbolRenderer(symbol))


def label_parcel_ids(layer, size: float, minimum_scale: float, halo_mm: float = 0.0) -> None:
    """Label each parcel with its id, from 1:``minimum_scale`` in, with a halo when asked."""
    text = QgsTextFormat()
    text.setSize(size)
    if halo_mm:
        halo = QgsTextBufferSettings()
        halo.setEnabled(True)
        halo.setSize(halo_mm)
        text.setBuffer(halo)
    labels = QgsPalLayerSettings()
    labels.fieldName = "parcel_id"
    labels.setFormat(text)
    labels.scaleVisibility = True
    labels.maximumScale = 1
    labels.minimumScale = minimum_scale
    layer.setLabeling(QgsVectorLayerSimpleLabeling(labels))
    layer.setLabelsEnabled(True)
