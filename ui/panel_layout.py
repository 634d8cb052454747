"""The panel's widgets: ordinance, layers, runoff settings, the parcel, its figures and triggers."""

from __future__ import annotations

from qgis.core import QgsMapLayerProxyModel
from qgis.gui import QgsCollapsibleGroupBox, QgsFieldComboBox, QgsMapLayerComboBox
from qgis.PyQt.QtCore import Qt
from qgis.PyQt.QtWidgets import (
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QProgressBar,
    QPushButton,
    QSplitter,
    QTableWidget,
    QToolButton,
    QTreeWidget,
    QVBoxLayout,
    QWidget,
)

from ..bridge.i18n import tr
from ..bridge.vocabulary import BY_JURISDICTION, ORDINANCES, ROLES
from .runoff_box import RunoffBox
from .settings_box import SettingsBox

GEOMETRY_FILTERS = {
    "polygon": QgsMapLayerProxyModel.Filter.PolygonLayer,
    "line_or_polygon": QgsMapLayerProxyModel.Filter.PolygonLayer
    | QgsMapLayerProxyModel.Filter.LineLayer,
    "raster": QgsMapLayerProxyModel.Filter.RasterLayer,
}


def build_panel(dock) -> None:
    """Lay out the panel's widgets on ``dock`` and wire them to its slots."""
    body = QWidget()
    layout = QVBoxLayout(body)
    form = QFormLayout()
    dock.ordinance = QComboBox()
    for key, label in ORDINANCES:
        dock.ordinance.addItem(label, key)
    dock.ordinance.addItem(tr("By jurisdiction layer"), BY_JURISDICTION)
    form.addRow(tr("Ordinance"), dock.ordinance)
    dock.jurisdictions = QgsMapLayerComboBox()
    dock.jurisdictions.setFilters(QgsMapLayerProxyModel.Filter.PolygonLayer)
    dock.jurisdictions.setAllowEmptyLayer(True)
    dock.jurisdictions.setLayer(None)
    dock.jurisdiction_field = QgsFieldComboBox()
    dock.jurisdictions.layerChanged.connect(dock.jurisdiction_field.setLayer)
    form.addRow(tr("Jurisdictions"), dock.jurisdictions)
    form.addRow(tr("Jurisdiction field"), dock.jurisdiction_field)
    layout.addLayout(form)

    dock.layers_box = QgsCollapsibleGroupBox(tr("Layers"))
    dock.layers_box.setSaveCollapsedState(False)
    layers_form = QFormLayout(dock.layers_box)
    dock.layer_boxes = {}
    for role in ROLES:
        box = QgsMapLayerComboBox()
        box.setFilters(
            {
                "polygon": QgsMapLayerProxyModel.Filter.PolygonLayer,
                "line_or_polygon": QgsMapLayerProxyModel.Filter.PolygonLayer
                | QgsMapLayerProxyModel.Filter.LineLayer,
                "raster": QgsMapLayerProxyModel.Filter.RasterLayer,
            }[role.geometry]
        )
        box.setAllowEmptyLayer(not role.required)
        box.setLayer(None)
        box.layerChanged.connect(dock._configuration_changed)
        box.activated.connect(dock._chosen_by_user)
        layers_form.addRow(role.label, box)
        dock.layer_boxes[role.key] = box
    layout.addWidget(dock.layers_box)
    dock.runoff_box = RunoffBox()
    dock.runoff_box.changed.connect(dock._options_changed)
    layout.addWidget(dock.runoff_box)
    dock.settings_box = SettingsBox()
    dock.settings_box.changed.connect(dock._options_changed)
    layout.addWidget(dock.settings_box)

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
    layout.addLayout(row)
    # The nearest threshold that would change the outcome, updated as the work is drawn.
    dock.margin_label = QLabel("")
    dock.margin_label.setWordWrap(True)
    dock.margin_label.setVisible(False)
    layout.addWidget(dock.margin_label)
    # The engine's warnings about this parcel's data: they can change what the numbers mean.
    dock.warnings_label = QLabel("")
    dock.warnings_label.setWordWrap(True)
    dock.warnings_label.setStyleSheet("color: #8a4b00;")
    dock.warnings_label.setVisible(False)
    layout.addWidget(dock.warnings_label)

    dock.metrics = QTableWidget(0, 2)
    dock.metrics.setHorizontalHeaderLabels([tr("Measurement"), tr("Value")])
    dock.metrics.verticalHeader().setVisible(False)
    dock.metrics.horizontalHeader().setStretchLastSection(True)
    dock.metrics.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
    dock.metrics.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
    dock.results = QSplitter(Qt.Orientation.Vertical)
    dock.results.addWidget(dock.metrics)

    dock.triggers = QTreeWidget()
    dock.triggers.setHeaderLabels([tr("Section"), tr("Requirement")])
    dock.triggers.itemClicked.connect(dock._trigger_clicked)
    dock.results.addWidget(dock.triggers)
    dock.results.setStretchFactor(0, 2)
    dock.results.setStretchFactor(1, 3)
    layout.addWidget(dock.results, 1)

    dock.status = QLabel("")
    dock.status.setWordWrap(True)
    layout.addWidget(dock.status)
    buttons = QHBoxLayout()
    dock.export_button = QPushButton(tr("Export report…"))
    dock.export_button.clicked.connect(dock.export_report)
    dock.copy_button = QPushButton(tr("Copy"))
    dock.copy_button.clicked.connect(dock.copy_triggers)
    buttons.addWidget(dock.export_button)
    buttons.addWidget(dock.copy_button)
    layout.addLayout(buttons)

    dock.ordinance.currentIndexChanged.connect(dock._configuration_changed)
    dock.jurisdictions.layerChanged.connect(dock._configuration_changed)
    dock.jurisdiction_field.fieldChanged.connect(dock._configuration_changed)
    for combo in (dock.ordinance, dock.jurisdictions, dock.jurisdiction_field):
        combo.activated.connect(dock._chosen_by_user)
    dock.setWidget(body)
