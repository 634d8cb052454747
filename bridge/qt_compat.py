"""Names that differ between Qt 5 (QGIS 3.22 to 3.x) and Qt 6 (QGIS 4), chosen once here.

``QAction`` moved from QtWidgets to QtGui in Qt 6 (QGIS's PyQt6 shim does not
re-export it). Field types: QGIS 3.38 took ``QMetaType.Type`` for ``QgsField``,
and PyQt6 has no ``QVariant.Type``; QGIS before 3.38 takes only ``QVariant.Type``.
"""

from __future__ import annotations

from qgis.core import Qgis

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

__all__ = ["INTEGER_FIELD", "REAL_FIELD", "TEXT_FIELD", "QAction"]
