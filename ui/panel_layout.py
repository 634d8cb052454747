"""The panel's widgets: ordinance, layers, runoff settings, the parcel, its figures and triggers."""

from __future__ import annotations

from qgis.gui import QgsCollapsibleGroupBox, QgsFieldComboBox, QgsMapLayerComboBox
from qgis.PyQt.QtCore import Qt
from qgis.PyQt.QtWidgets import (
    QComboBox,
    QFormLayout,
    QFrame,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QProgressBar,
    QPushButton,
    QScrollArea,
    QSplitter,
    QTableWidget,
    QToolButton,
    QTreeWidget,
    QVBoxLayout,
    QWidget,
)

from ..bridge.i18n import tr
from ..bridge.qt_compat import LAYER_FILTER, layer_filters
from ..bridge.vocabulary import BY_JURISDICTION, ORDINANCES, ROLES
from .runoff_box import RunoffBox
from .settings_box import SettingsBox
from .wrapping import WrappingDelegate

GEOMETRY_FILTERS = {
    "polygon": layer_filters(LAYER_FILTER.PolygonLayer),
    "line_or_polygon": layer_filters(LAYER_FILTER.PolygonLayer, LAYER_FILTER.LineLayer),
    "raster": layer_filters(LAYER_FILTER.RasterLayer),
}


def build_panel(dock) -> None:
    """Lay out the panel's widgets on ``dock`` and wire them to its slots.

    The settings (ordinance, layers, runoff, measuring) and the results share
    a splitter: an expanded box scrolls in its own pane instead of squeezing
    the results to a row, and the user can move the line between them.
    """
    body = QWidget()
    layout = QVBoxLayout(body)
    dock.configuration = _configuration_pane(dock)
    dock.panes = QSplitter(Qt.Orientation.Vertical)
    dock.panes.addWidget(dock.configuration)
    dock.panes.addWidget(_answer_pane(dock))
    dock.panes.setCollapsible(1, False)
    dock.panes.setStretchFactor(0, 0)
    dock.panes.setStretchFactor(1, 1)
    layout.addWidget(dock.panes, 1)
    for box in (dock.layers_box, dock.runoff_box, dock.settings_box):
        box.collapsedStateChanged.connect(lambda *_: fit_configuration(dock))
    dock.status = QLabel("")
    dock.status.setWordWrap(True)
    layout.addWidget(dock.status)
    layout.addLayout(_buttons(dock))
    dock.ordinance.currentIndexChanged.connect(dock._configuration_changed)
    dock.jurisdictions.layerChanged.connect(dock._configuration_changed)
    dock.jurisdiction_field.fieldChanged.connect(dock._configuration_changed)
    for combo in (dock.ordinance, dock.jurisdictions, dock.jurisdiction_field):
        combo.activated.connect(dock._chosen_by_user)
    dock.setWidget(body)


def _configuration_pane(dock) -> QScrollArea:
    """The settings: ordinance or jurisdictions, the layers, runoff and measuring, scrolling."""
    configuration = QWidget()
    configuration_layout = QVBoxLayout(configuration)
    configuration_layout.setContentsMargins(0, 0, 0, 0)
    configuration_layout.addLayout(_ordinance_form(dock))
    dock.layers_box = _layers_box(dock)
    configuration_layout.addWidget(dock.layers_box)
    dock.runoff_box = RunoffBox()
    dock.runoff_box.changed.connect(dock._options_changed)
    configuration_layout.addWidget(dock.runoff_box)
    dock.settings_box = SettingsBox()
    dock.settings_box.changed.connect(dock._options_changed)
    configuration_layout.addWidget(dock.settings_box)
    configuration_layout.addStretch(1)
    pane = scroll_pane(configuration)
    fit_narrow(configuration)
    return pane


def _ordinance_form(dock) -> QFormLayout:
    """One ordinance for every parcel, or a jurisdiction layer and field choosing each's."""
    form = QFormLayout()
    dock.ordinance = QComboBox()
    for key, label in ORDINANCES:
        dock.ordinance.addItem(label, key)
    dock.ordinance.addItem(tr("By jurisdiction layer"), BY_JURISDICTION)
    form.addRow(tr("Ordinance"), dock.ordinance)
    dock.jurisdictions = QgsMapLayerComboBox()
    dock.jurisdictions.setFilters(GEOMETRY_FILTERS["polygon"])
    dock.jurisdictions.setAllowEmptyLayer(True)
    dock.jurisdictions.setLayer(None)
    dock.jurisdiction_field = QgsFieldComboBox()
    dock.jurisdictions.layerChanged.connect(dock.jurisdiction_field.setLayer)
    form.addRow(tr("Jurisdictions"), dock.jurisdictions)
    form.addRow(tr("Jurisdiction field"), dock.jurisdiction_field)
    return form


def _layers_box(dock) -> QgsCollapsibleGroupBox:
    """A layer box for every role of the engine's vocabulary, in its order."""
    box_of_layers = QgsCollapsibleGroupBox(tr("Layers"))
    box_of_layers.setSaveCollapsedState(False)
    layers_form = QFormLayout(box_of_layers)
    # each layer box under its label, the panel's whole width: layer names are not elided
    layers_form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapAllRows)
    layers_form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
    dock.layer_boxes = {}
    for role in ROLES:
        box = QgsMapLayerComboBox()
        box.setFilters(GEOMETRY_FILTERS[role.geometry])
        box.setAllowEmptyLayer(not role.required)
        box.setLayer(None)
        layers_form.addRow(role.label, box)
        dock.layer_boxes[role.key] = box
    # connected once every box exists: QGIS 3.40 signals a box's layer while the next is made
    for box in dock.layer_boxes.values():
        box.layerChanged.connect(dock._configuration_changed)
        box.activated.connect(dock._chosen_by_user)
    return box_of_layers


def _answer_pane(dock) -> QWidget:
    """The parcel, its nearest threshold and data warnings, its figures and triggers."""
    answer = QWidget()
    layout_of_answer = QVBoxLayout(answer)
    layout_of_answer.setContentsMargins(0, 0, 0, 0)
    layout_of_answer.addLayout(_parcel_row(dock))
    # The nearest threshold that would change the outcome, updated as the work is drawn, and
    # the engine's warnings about this parcel's data, which change what the figures mean:
    # both whole, right above the measurements they qualify.
    dock.margin_label = QLabel("")
    dock.margin_label.setWordWrap(True)
    dock.margin_label.setVisible(False)
    layout_of_answer.addWidget(dock.margin_label)
    dock.warnings_label = QLabel("")
    dock.warnings_label.setWordWrap(True)
    dock.warnings_label.setStyleSheet("color: #8a4b00;")
    dock.warnings_label.setVisible(False)
    layout_of_answer.addWidget(dock.warnings_label)
    dock.results = QSplitter(Qt.Orientation.Vertical)
    dock.metrics = _metrics_table()
    dock.results.addWidget(dock.metrics)
    dock.triggers = _triggers_tree(dock)
    dock.results.addWidget(dock.triggers)
    dock.results.setStretchFactor(0, 2)
    dock.results.setStretchFactor(1, 3)
    layout_of_answer.addWidget(dock.results, 1)
    return answer


def _parcel_row(dock) -> QHBoxLayout:
    """Which parcel the answer is for, a busy bar while the engine works, the pick tool."""
    row = QHBoxLayout()
    dock.parcel_label = QLabel(tr("Select a parcel, or pick one on the map."))
    dock.parcel_label.setWordWrap(True)
    dock.pick = QToolButton()
    dock.pick.setText(tr("Pick"))
    dock.pick.setToolTip(tr("Pick the parcel under a map click"))
    dock.pick.setCheckable(True)
    dock.pick.toggled.connect(dock._toggle_tool)
    dock.busy = QProgressBar()
    dock.busy.setRange(0, 0)
    dock.busy.setMaximumWidth(60)
    dock.busy.setVisible(False)
    row.addWidget(dock.parcel_label, 1)
    row.addWidget(dock.busy)
    row.addWidget(dock.pick)
    return row


def _metrics_table() -> QTableWidget:
    metrics = QTableWidget(0, 2)
    metrics.setHorizontalHeaderLabels([tr("Measurement"), tr("Value")])
    metrics.verticalHeader().setVisible(False)
    # Names and values share the width and wrap onto more lines in a narrow panel: never cut.
    metrics.setWordWrap(True)
    metrics.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
    metrics.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    metrics.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
    return metrics


def _triggers_tree(dock) -> QTreeWidget:
    triggers = QTreeWidget()
    triggers.setHeaderLabels([tr("Section"), tr("Requirement")])
    # Requirements wrap at any panel width; rows grow to hold them.
    triggers.header().setStretchLastSection(True)
    triggers.setItemDelegate(WrappingDelegate(triggers))
    triggers.itemClicked.connect(dock._trigger_clicked)
    return triggers


def _buttons(dock) -> QHBoxLayout:
    buttons = QHBoxLayout()
    dock.export_button = QPushButton(tr("Export report…"))
    dock.export_button.clicked.connect(dock.export_report)
    dock.copy_button = QPushButton(tr("Copy"))
    dock.copy_button.clicked.connect(dock.copy_triggers)
    buttons.addWidget(dock.export_button)
    buttons.addWidget(dock.copy_button)
    return buttons


LARGEST_SETTINGS_SHARE = 0.5
"""The settings pane takes at most this share of the panel by itself; the user may drag more."""


def fit_configuration(dock) -> None:
    """Give the settings pane the height its boxes need now (at most half), the rest to results."""
    total = sum(dock.panes.sizes())
    if total <= 0:
        return
    wanted = dock.configuration.widget().sizeHint().height() + 4
    settings = min(wanted, int(total * LARGEST_SETTINGS_SHARE))
    dock.panes.setSizes([settings, total - settings])


def fit_narrow(widget: QWidget) -> None:
    """Let the settings shrink to a narrow panel: labels above their fields when the row
    is too long and wrapped when longer than the panel, combo boxes sized by a few
    characters instead of their longest item."""
    for form in widget.findChildren(QFormLayout):
        if form.rowWrapPolicy() != QFormLayout.RowWrapPolicy.WrapAllRows:
            form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)
    for label in widget.findChildren(QLabel):
        label.setWordWrap(True)
    for combo in widget.findChildren(QComboBox):
        combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        combo.setMinimumContentsLength(10)


def scroll_pane(widget: QWidget) -> QScrollArea:
    """``widget`` in a frameless scroll area that resizes it: a splitter pane that scrolls."""
    pane = QScrollArea()
    pane.setWidget(widget)
    pane.setWidgetResizable(True)
    pane.setFrameShape(QFrame.Shape.NoFrame)
    return pane
