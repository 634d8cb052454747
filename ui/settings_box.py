"""The panel's measuring settings, the same options (labels, defaults, bounds) as check_site."""

from __future__ import annotations

from qgis.core import QgsProject
from qgis.gui import QgsCollapsibleGroupBox, QgsDoubleSpinBox
from qgis.PyQt.QtCore import pyqtSignal
from qgis.PyQt.QtWidgets import QFormLayout, QLineEdit

from ..bridge.i18n import tr
from ..bridge.vocabulary import KIND_NUMBER_OPTIONS, KIND_TEXT_OPTIONS, dialog_words, option

# The settings a village changes; the others keep the engine's defaults.
NUMBER_SETTINGS = (
    "wetland_adjacent_ft",
    "watercourse_buffer_ft",
    "rear_setback_ft",
    "default_side_setback_ft",
    "tolerance",
    *KIND_NUMBER_OPTIONS,
)
TEXT_SETTINGS = (
    "side_setbacks",
    "zoning_field",
    "nwi_classes",
    "impaired_flag",
    *KIND_TEXT_OPTIONS,
)
LARGEST_WIDTH_FT = 10_000.0  # a spin box needs a top; no buffer of these laws comes near it


class SettingsBox(QgsCollapsibleGroupBox):
    """Measuring settings sent to the panel's worker and remembered in the project.

    Each field is an engine option as ``sitecheck describe`` states it, so the
    panel measures as a check_site run with the same values does.
    """

    changed = pyqtSignal()

    def __init__(self, parent=None) -> None:
        super().__init__(tr("Settings"), parent)
        self.setSaveCollapsedState(False)
        self.setCollapsed(True)
        form = QFormLayout(self)
        self.numbers: dict[str, QgsDoubleSpinBox] = {}
        for name in NUMBER_SETTINGS:
            described = option(name)
            box = QgsDoubleSpinBox()
            box.setDecimals(2 if described["unit"] == "share" else 1)
            box.setSingleStep(0.01 if described["unit"] == "share" else 5.0)
            box.setMinimum(described["minimum"] or 0.0)
            top = described["maximum"]
            box.setMaximum(top - 0.01 if described["below_maximum"] else top or LARGEST_WIDTH_FT)
            box.setClearValue(described["default"])
            box.setShowClearButton(True)
            box.setValue(described["default"])
            box.setToolTip(dialog_words(described["help"]))
            box.editingFinished.connect(self.changed)
            form.addRow(described["label"], box)
            self.numbers[name] = box
        self.texts: dict[str, QLineEdit] = {}
        for name in TEXT_SETTINGS:
            described = option(name)
            line = QLineEdit()
            line.setToolTip(dialog_words(described["help"]))
            if described["default"]:
                line.setPlaceholderText(str(described["default"]))  # empty: the default
            line.editingFinished.connect(self.changed)
            form.addRow(described["label"], line)
            self.texts[name] = line

    def values(self) -> dict:
        """The ``settings`` of the worker's ``open`` request, by option name."""
        values: dict[str, object] = {name: box.value() for name, box in self.numbers.items()}
        values.update({name: line.text().strip() for name, line in self.texts.items()})
        return values

    def save(self, scope: str) -> None:
        project = QgsProject.instance()
        for name, box in self.numbers.items():
            project.writeEntryDouble(scope, f"settings/{name}", box.value())
        for name, line in self.texts.items():
            project.writeEntry(scope, f"settings/{name}", line.text().strip())

    def restore(self, scope: str) -> None:
        project = QgsProject.instance()
        for name, box in self.numbers.items():
            value, found = project.readDoubleEntry(scope, f"settings/{name}", box.clearValue())
            box.setValue(value if found else box.clearValue())
        for name, line in self.texts.items():
            text, _ = project.readEntry(scope, f"settings/{name}", "")
            line.setText(text)
