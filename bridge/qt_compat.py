"""Names that differ between Qt 5 (QGIS 3.22 to 3.x) and Qt 6 (QGIS 4), chosen once here.

``QAction`` moved from QtWidgets to QtGui in Qt 6 (QGIS's PyQt6 shim does not
re-export it). Layer filters: QGIS 3.34 moved ``QgsMapLayerProxyModel.Filter``
to ``Qgis.LayerFilter`` and deprecated the old name. Field types: QGIS 3.38 took
``QMetaType.Type`` for ``QgsField``, and PyQt6 has no ``QVariant.Type``; QGIS
before 3.38 takes only ``QVariant.Type``.
"""

from __future__ import annotations

from qgis.core import Qgis, QgsMapLayerProxyModel, QgsTextFormat, QgsUnitTypes
from qgis.PyQt.QtGui import QFont

try:
    from qgis.PyQt.QtGui import QAction  # Qt 6
except ImportError:  # Qt 5
    from qgis.PyQt.QtWidgets import QAction

if Qgis.QGIS_VERSION_INT >= 33800:
    from qgis.PyQt.QtCore import QMetaType

    TEXT_FIELD = QMetaType.Type.QString
    REAL_FIELD = QMetaType.Type.Double
    INTEGER_FIELD = QMetaType.Type.Int
else:
    from qgis.PyQt.QtCore import QVariant

    TEXT_FIELD = QVariant.String
    REAL_FIELD = QVariant.Double
    INTEGER_FIELD = QVariant.Int

if hasattr(Qgis, "LayerFilter"):
    LAYER_FILTER = Qgis.LayerFilter
    _LAYER_FLAGS = getattr(Qgis, "LayerFilters", None)
else:
    LAYER_FILTER = QgsMapLayerProxyModel.Filter
    _LAYER_FLAGS = QgsMapLayerProxyModel.Filters


def layer_filters(*filters):
    """The flags a layer combo box takes, from ``LAYER_FILTER`` members.

    In PyQt 5 two members or'ed together are a plain int, which QGIS 3.34+
    takes only through its deprecated overload; wrapped in the flags type
    they reach the current one.
    """
    combined = filters[0]
    for member in filters[1:]:
        combined = combined | member
    return _LAYER_FLAGS(combined) if _LAYER_FLAGS is not None else combined


POINTS = Qgis.RenderUnit.Points if hasattr(Qgis, "RenderUnit") else QgsUnitTypes.RenderPoints


def set_label_font(label, font: QFont, size_pt: float) -> None:
    """Give a layout label ``font`` at ``size_pt`` points.

    QGIS 3.24 added ``QgsLayoutItemLabel.setTextFormat``; 3.40 deprecates
    ``setFont``, which is all 3.22 has.
    """
    if hasattr(label, "setTextFormat"):
        text = QgsTextFormat()
        text.setFont(font)
        text.setSize(size_pt)
        text.setSizeUnit(POINTS)
        label.setTextFormat(text)
    else:
        font.setPointSizeF(size_pt)
        label.setFont(font)


__all__ = [
    "INTEGER_FIELD",
    "LAYER_FILTER",
    "POINTS",
    "REAL_FIELD",
    "TEXT_FIELD",
    "QAction",
    "layer_filters",
    "set_label_font",
]
