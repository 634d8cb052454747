"""The panel's runoff-screen settings: the default soil group and the site's rainfall."""

from __future__ import annotations

from qgis.core import QgsProject
from qgis.gui import QgsCollapsibleGroupBox, QgsFileWidget
from qgis.PyQt.QtCore import pyqtSignal
from qgis.PyQt.QtWidgets import QComboBox, QFormLayout, QLineEdit

from ..bridge.i18n import tr
from ..bridge.vocabulary import SOIL_GROUPS

NO_DEFAULT = "none (soils layer only)"


class RunoffBox(QgsCollapsibleGroupBox):
    """Where the runoff screen's soil groups and rainfall depths come from.

    The screen runs when a soils layer is chosen among the layers or a default
    soil group is set here; rainfall depths not given stay the pack's defaults,
    which the panel flags as values to confirm for the site.
    """

    changed = pyqtSignal()

    def __init__(self, parent=None) -> None:
        super().__init__(tr("Runoff screen"), parent)
        self.setSaveCollapsedState(False)
        self.setCollapsed(True)  # folded like the other settings: the results keep the room
        form = QFormLayout(self)
        self.default_hsg = QComboBox()
        self.default_hsg.addItem(NO_DEFAULT, "")
        for group in SOIL_GROUPS:
            self.default_hsg.addItem(group, group)
        self.default_hsg.setToolTip(
            tr("Hydrologic soil group of lots (or parts of lots) the soils layer does not map.")
        )
        self.rainfall = QLineEdit()
        self.rainfall.setPlaceholderText(tr("pack defaults, e.g. 25=6.2,100=8.0"))
        self.rainfall.setToolTip(
            tr(
                "24-hour design-storm depths in inches for the site (NOAA Atlas 14); storms not "
                "given keep the ordinance pack's default depth, which must be confirmed."
            )
        )
        self.rainfall_file = QgsFileWidget()
        self.rainfall_file.setFilter(tr("Rainfall tables (*.csv *.txt);;All files (*)"))
        self.rainfall_file.setToolTip(
            tr(
                "The site's depths as downloaded: a NOAA Atlas 14 PFDS depth CSV or an NRCC "
                "extreme-precipitation table. Depths typed above replace its storms one by one."
            )
        )
        form.addRow(tr("Default soil group"), self.default_hsg)
        form.addRow(tr("Rainfall (in, 24-h)"), self.rainfall)
        form.addRow(tr("Rainfall file"), self.rainfall_file)
        self.default_hsg.activated.connect(self.changed)
        self.rainfall.editingFinished.connect(self.changed)
        self.rainfall_file.fileChanged.connect(self.changed)

    def options(self) -> dict:
        """The ``runoff`` object of the worker's ``open`` request."""
        return {
            "default_hsg": self.default_hsg.currentData() or None,
            "rainfall": self.rainfall.text().strip() or None,
            "rainfall_file": self.rainfall_file.filePath().strip() or None,
        }

    def save(self, scope: str) -> None:
        project = QgsProject.instance()
        project.writeEntry(scope, "runoff/default_hsg", self.default_hsg.currentData() or "")
        project.writeEntry(scope, "runoff/rainfall", self.rainfall.text().strip())
        project.writeEntry(scope, "runoff/rainfall_file", self.rainfall_file.filePath().strip())

    def restore(self, scope: str) -> None:
        project = QgsProject.instance()
        group, _ = project.readEntry(scope, "runoff/default_hsg", "")
        self.default_hsg.setCurrentIndex(max(self.default_hsg.findData(group), 0))
        rainfall, _ = project.readEntry(scope, "runoff/rainfall", "")
        self.rainfall.setText(rainfall)
        rainfall_file, _ = project.readEntry(scope, "runoff/rainfall_file", "")
        self.rainfall_file.setFilePath(rainfall_file)
