"""Symbols of the input layers on maps (the sample project and the compliance atlas)."""

from __future__ import annotations

from typing import Any

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

from ..bridge.vocabulary import MAP_ROLES

ORDER: tuple[str, ...] = tuple(role.key for role in MAP_ROLES)
"""The layers maps draw, bottom first (each role's symbol rank in the engine's schema)."""
TITLES: dict[str, str] = {role.key: role.label for role in MAP_ROLES}
"""How legends name them: the roles' labels, as the panel and the reports name them."""
LEGEND: tuple[str, ...] = tuple(
    role.key for role in reversed(MAP_ROLES) if role.symbol and role.symbol["legend"]
)
"""The layers a compliance map's legend lists, top first."""
_SYMBOLS: dict[str, dict[str, Any]] = {role.key: role.symbol for role in MAP_ROLES if role.symbol}


def fill_properties(role: str) -> dict[str, str]:
    """QgsFillSymbol.createSimple's properties for a role's layer (parcels' for one maps
    do not draw)."""
    symbol = _SYMBOLS.get(role, _SYMBOLS["parcels"])
    properties = {
        "color": symbol["fill"],
        "outline_color": symbol["outline"],
        "outline_width": f"{symbol['outline_mm']:g}",
    }
    if symbol["dashed"]:
        properties["outline_style"] = "dash"
    return properties


def line_properties(role: str) -> dict[str, str]:
    """QgsLineSymbol.createSimple's properties for a role given as lines."""
    symbol = _SYMBOLS.get(role, _SYMBOLS["parcels"])
    return {
        "color": symbol["line"] or symbol["outline"],
        "width": f"{symbol['line_mm'] or symbol['outline_mm']:g}",
    }


def style_input_layer(layer, role: str) -> None:
    """Give an input layer its map symbol (lines for line watercourses)."""
    if QgsWkbTypes.geometryType(layer.wkbType()) == QgsWkbTypes.GeometryType.LineGeometry:
        symbol = QgsLineSymbol.createSimple(line_properties(role))
    else:
        symbol = QgsFillSymbol.createSimple(fill_properties(role))
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
