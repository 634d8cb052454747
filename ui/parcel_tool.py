"""A map tool that picks the parcel under a click."""

from __future__ import annotations

from qgis.gui import QgsMapToolEmitPoint
from qgis.PyQt.QtCore import pyqtSignal


class ParcelPickTool(QgsMapToolEmitPoint):
    """Emits the clicked point in the canvas CRS; the dock finds the parcel under it."""

    picked = pyqtSignal(object)

    def __init__(self, canvas) -> None:
        super().__init__(canvas)
        self.canvasClicked.connect(lambda point, button: self.picked.emit(point))
