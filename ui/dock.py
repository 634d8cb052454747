"""The SiteCheck dock panel: the triggers of the parcel being drawn, live."""

from __future__ import annotations

import contextlib
import shutil
import tempfile
from pathlib import Path

from qgis.core import (
    Qgis,
    QgsCoordinateReferenceSystem,
    QgsCoordinateTransform,
    QgsGeometry,
    QgsMapLayerProxyModel,
    QgsProject,
    QgsVectorLayer,
)
from qgis.gui import QgsCollapsibleGroupBox, QgsDockWidget, QgsFieldComboBox, QgsMapLayerComboBox
from qgis.PyQt.QtCore import Qt, QTimer, pyqtSignal
from qgis.PyQt.QtWidgets import (
    QApplication,
    QComboBox,
    QFileDialog,
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

from ..bridge.engine import EngineUnavailableError, configured_interpreter, find_interpreter
from ..bridge.vocabulary import BY_JURISDICTION, FLAG_OF_METRIC, ORDINANCES, ROLES
from ..bridge.worker_client import WorkerClient
from .parcel_tool import ParcelPickTool
from .requests import evaluate_request, open_request, parcel_at, parcel_id_of, parcel_under
from .results_view import TRIGGER_ROLE, clipboard_text, fill_metrics, fill_triggers
from .runoff_box import RunoffBox

PROJECT_SCOPE = "SiteCheck"
DEBOUNCE_MS = 350


class SiteCheckDock(QgsDockWidget):
    """Lists the ordinance triggers of the active parcel and keeps them current while drawing.

    Signals
    -------
    evaluated(dict)
        Each reply shown (tests and the benchmark listen to it).
    """

    evaluated = pyqtSignal(dict)

    def __init__(self, canvas, iface=None, parent=None) -> None:
        super().__init__("SiteCheck", parent)
        self.setObjectName("SiteCheckDock")
        self.canvas = canvas
        self.iface = iface
        self.worker: WorkerClient | None = None
        self.folder = Path(tempfile.mkdtemp(prefix="sitecheck-dock-"))
        self.needs_open = True
        self.latest_request = 0
        self.parcel_id: str | None = None
        self.reply: dict | None = None
        self.open_error = ""
        self.watched: list[QgsVectorLayer] = []
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.setInterval(DEBOUNCE_MS)
        self.timer.timeout.connect(self.evaluate_now)
        self.tool = ParcelPickTool(canvas) if canvas is not None else None
        if self.tool is not None:
            self.tool.picked.connect(self._picked)
        self._build()
        self.restore_from_project()
        QgsProject.instance().readProject.connect(self._project_read)

    # --- layout ---------------------------------------------------------------------

    def _build(self) -> None:
        body = QWidget()
        layout = QVBoxLayout(body)
        form = QFormLayout()
        self.ordinance = QComboBox()
        for key, label in ORDINANCES:
            self.ordinance.addItem(label, key)
        self.ordinance.addItem("By jurisdiction layer", BY_JURISDICTION)
        form.addRow("Ordinance", self.ordinance)
        self.jurisdictions = QgsMapLayerComboBox()
        self.jurisdictions.setFilters(QgsMapLayerProxyModel.Filter.PolygonLayer)
        self.jurisdictions.setAllowEmptyLayer(True)
        self.jurisdictions.setLayer(None)
        self.jurisdiction_field = QgsFieldComboBox()
        self.jurisdictions.layerChanged.connect(self.jurisdiction_field.setLayer)
        form.addRow("Jurisdictions", self.jurisdictions)
        form.addRow("Jurisdiction field", self.jurisdiction_field)
        layout.addLayout(form)

        self.layers_box = QgsCollapsibleGroupBox("Layers")
        self.layers_box.setSaveCollapsedState(False)
        layers_form = QFormLayout(self.layers_box)
        self.layer_boxes: dict[str, QgsMapLayerComboBox] = {}
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
            box.layerChanged.connect(self._configuration_changed)
            box.activated.connect(self._chosen_by_user)
            layers_form.addRow(role.label, box)
            self.layer_boxes[role.key] = box
        layout.addWidget(self.layers_box)
        self.runoff_box = RunoffBox()
        self.runoff_box.changed.connect(self._runoff_changed)
        layout.addWidget(self.runoff_box)

        row = QHBoxLayout()
        self.parcel_label = QLabel("Select a parcel, or pick one on the map.")
        self.parcel_label.setWordWrap(True)
        self.pick = QToolButton()
        self.pick.setText("Pick")
        self.pick.setToolTip("Pick the parcel under a map click")
        self.pick.setCheckable(True)
        self.pick.toggled.connect(self._toggle_tool)
        self.busy = QProgressBar()
        self.busy.setRange(0, 0)
        self.busy.setMaximumWidth(60)
        self.busy.setVisible(False)
        row.addWidget(self.parcel_label, 1)
        row.addWidget(self.busy)
        row.addWidget(self.pick)
        layout.addLayout(row)

        self.metrics = QTableWidget(0, 2)
        self.metrics.setHorizontalHeaderLabels(["Measurement", "Value"])
        self.metrics.verticalHeader().setVisible(False)
        self.metrics.horizontalHeader().setStretchLastSection(True)
        self.metrics.horizontalHeader().setSectionResizeMode(
            0, QHeaderView.ResizeMode.ResizeToContents
        )
        self.metrics.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.results = QSplitter(Qt.Orientation.Vertical)
        self.results.addWidget(self.metrics)

        self.triggers = QTreeWidget()
        self.triggers.setHeaderLabels(["Section", "Requirement"])
        self.triggers.itemClicked.connect(self._trigger_clicked)
        self.results.addWidget(self.triggers)
        self.results.setStretchFactor(0, 2)
        self.results.setStretchFactor(1, 3)
        layout.addWidget(self.results, 1)

        self.status = QLabel("")
        self.status.setWordWrap(True)
        layout.addWidget(self.status)
        buttons = QHBoxLayout()
        self.export_button = QPushButton("Export report…")
        self.export_button.clicked.connect(self.export_report)
        self.copy_button = QPushButton("Copy")
        self.copy_button.clicked.connect(self.copy_triggers)
        buttons.addWidget(self.export_button)
        buttons.addWidget(self.copy_button)
        layout.addLayout(buttons)

        self.ordinance.currentIndexChanged.connect(self._configuration_changed)
        self.jurisdictions.layerChanged.connect(self._configuration_changed)
        self.jurisdiction_field.fieldChanged.connect(self._configuration_changed)
        for combo in (self.ordinance, self.jurisdictions, self.jurisdiction_field):
            combo.activated.connect(self._chosen_by_user)
        self.setWidget(body)

    # --- configuration, remembered in the project -------------------------------------

    def layers(self) -> dict:
        return {key: box.currentLayer() for key, box in self.layer_boxes.items()}

    def set_layer(self, key: str, layer) -> None:
        self.layer_boxes[key].setLayer(layer)
        self.save_to_project()

    def set_ordinance(self, key: str) -> None:
        self.ordinance.setCurrentIndex(self.ordinance.findData(key))
        self.save_to_project()

    def _chosen_by_user(self, *_) -> None:
        """Only a user's choice is written to the project, never the combos' own
        reshuffling while a project loads (which would overwrite its settings)."""
        self.save_to_project()

    def save_to_project(self) -> None:
        project = QgsProject.instance()
        project.writeEntry(PROJECT_SCOPE, "ordinance", self.ordinance.currentData() or "")
        for key, box in self.layer_boxes.items():
            layer = box.currentLayer()
            project.writeEntry(PROJECT_SCOPE, f"layer/{key}", layer.id() if layer else "")
        jurisdictions = self.jurisdictions.currentLayer()
        project.writeEntry(
            PROJECT_SCOPE, "jurisdictions", jurisdictions.id() if jurisdictions else ""
        )
        project.writeEntry(
            PROJECT_SCOPE, "jurisdiction_field", self.jurisdiction_field.currentField()
        )
        self.runoff_box.save(PROJECT_SCOPE)

    def _project_read(self, *_) -> None:
        self.restore_from_project()

    def restore_from_project(self) -> None:
        project = QgsProject.instance()
        self._restoring = True
        try:
            ordinance, found = project.readEntry(PROJECT_SCOPE, "ordinance", "")
            if found and ordinance:
                self.ordinance.setCurrentIndex(self.ordinance.findData(ordinance))
            for key, box in self.layer_boxes.items():
                layer_id, found = project.readEntry(PROJECT_SCOPE, f"layer/{key}", "")
                if found:
                    box.setLayer(project.mapLayer(layer_id) if layer_id else None)
            layer_id, found = project.readEntry(PROJECT_SCOPE, "jurisdictions", "")
            if found and layer_id:
                self.jurisdictions.setLayer(project.mapLayer(layer_id))
            field, found = project.readEntry(PROJECT_SCOPE, "jurisdiction_field", "")
            if found and field:
                self.jurisdiction_field.setField(field)
            self.runoff_box.restore(PROJECT_SCOPE)
        finally:
            self._restoring = False
        required = ("parcels", "disturbance")
        self.layers_box.setCollapsed(all(self.layer_boxes[k].currentLayer() for k in required))
        self._configuration_changed()

    def _configuration_changed(self, *_) -> None:
        if getattr(self, "_restoring", False):
            return
        by_jurisdiction = self.ordinance.currentData() == BY_JURISDICTION
        self.jurisdictions.setEnabled(by_jurisdiction)
        self.jurisdiction_field.setEnabled(by_jurisdiction)
        self.needs_open = True
        self._watch_layers()
        self.schedule()

    def _runoff_changed(self) -> None:
        self.save_to_project()
        self._configuration_changed()

    def _watch_layers(self) -> None:
        """Re-check when a drawn layer changes, edits in progress included."""
        for layer in self.watched:
            try:
                layer.featureAdded.disconnect(self._feature_edited)
                layer.geometryChanged.disconnect(self._geometry_edited)
                layer.attributeValueChanged.disconnect(self._attribute_edited)
                layer.featuresDeleted.disconnect(self.schedule)
                layer.afterCommitChanges.disconnect(self.schedule)
            except (TypeError, RuntimeError):
                pass
        self.watched = []
        for role in ROLES:
            layer = self.layer_boxes[role.key].currentLayer()
            if role.drawn and layer is not None:
                layer.featureAdded.connect(self._feature_edited)
                layer.geometryChanged.connect(self._geometry_edited)
                layer.attributeValueChanged.connect(self._attribute_edited)
                layer.featuresDeleted.connect(self.schedule)
                layer.afterCommitChanges.connect(self.schedule)
                self.watched.append(layer)
        parcels = self.layer_boxes["parcels"].currentLayer()
        if parcels is not None:
            with contextlib.suppress(TypeError, RuntimeError):
                parcels.selectionChanged.disconnect(self._selection_changed)
            parcels.selectionChanged.connect(self._selection_changed)
            for layer in (parcels,):
                with contextlib.suppress(TypeError, RuntimeError):
                    layer.layerModified.disconnect(self._static_layer_changed)
                layer.layerModified.connect(self._static_layer_changed)

    def _static_layer_changed(self) -> None:
        self.needs_open = True
        self.schedule()

    # --- following the active parcel --------------------------------------------------

    def _selection_changed(self, selected, deselected, clear_and_select) -> None:
        parcels = self.layer_boxes["parcels"].currentLayer()
        if parcels is None or not selected:
            return
        feature = parcels.getFeature(selected[0])
        self.set_parcel(parcel_id_of(parcels, feature))

    def _picked(self, point) -> None:
        parcels = self.layer_boxes["parcels"].currentLayer()
        if parcels is None:
            return
        feature = parcel_at(parcels, point, self.canvas.mapSettings().destinationCrs())
        if feature is not None:
            parcels.selectByIds([feature.id()])
            self.set_parcel(parcel_id_of(parcels, feature))

    def _toggle_tool(self, on: bool) -> None:
        if self.canvas is None or self.tool is None:
            return
        if on:
            self.canvas.setMapTool(self.tool)
        else:
            self.canvas.unsetMapTool(self.tool)

    def _follow_edit(self, layer: QgsVectorLayer, geometry) -> None:
        parcels = self.layer_boxes["parcels"].currentLayer()
        if parcels is None or geometry is None:
            return
        feature = parcel_under(parcels, geometry, layer.crs())
        if feature is not None:
            self.parcel_id = parcel_id_of(parcels, feature)

    def _feature_edited(self, fid) -> None:
        layer = self.sender()
        if isinstance(layer, QgsVectorLayer):
            self._follow_edit(layer, layer.getFeature(fid).geometry())
        self.schedule()

    def _geometry_edited(self, fid, geometry) -> None:
        layer = self.sender()
        if isinstance(layer, QgsVectorLayer):
            self._follow_edit(layer, geometry)
        self.schedule()

    def _attribute_edited(self, *_) -> None:
        self.schedule()

    def set_parcel(self, parcel_id: str) -> None:
        self.parcel_id = parcel_id
        self.schedule()

    # --- talking to the worker --------------------------------------------------------

    def schedule(self, *_) -> None:
        """Re-check after a short pause, so a burst of edits costs one evaluation."""
        self.timer.start()

    def _ensure_worker(self) -> WorkerClient:
        if self.worker is None:
            self.worker = WorkerClient(find_interpreter(configured_interpreter()), self)
            self.worker.replied.connect(self._replied)
            self.worker.failed.connect(
                lambda message: self.show_error("The SiteCheck engine stopped", message)
            )
        return self.worker

    def evaluate_now(self) -> None:
        layers = self.layers()
        parcels = layers.get("parcels")
        if parcels is None or layers.get("disturbance") is None:
            self.status.setText("Choose the parcels and the limits of disturbance layers.")
            return
        if self.parcel_id is None:
            return
        feature = self._parcel_feature(parcels, self.parcel_id)
        if feature is None:
            return
        try:
            worker = self._ensure_worker()
            if self.needs_open:
                by_jurisdiction = self.ordinance.currentData() == BY_JURISDICTION
                worker.send(
                    open_request(
                        layers,
                        None if by_jurisdiction else self.ordinance.currentData(),
                        self.folder,
                        self.jurisdictions.currentLayer() if by_jurisdiction else None,
                        self.jurisdiction_field.currentField() if by_jurisdiction else None,
                        self.runoff_box.options(),
                    )
                )
                self.needs_open = False
            self.latest_request = worker.send(evaluate_request(layers, parcels, feature))
        except EngineUnavailableError as error:
            self.show_error("SiteCheck needs its engine", str(error))
            return
        except Exception as error:
            self.show_error("SiteCheck could not check the parcel", str(error))
            return
        self.busy.setVisible(True)
        self.parcel_label.setText(f"Parcel {self.parcel_id}: checking…")

    def _parcel_feature(self, parcels: QgsVectorLayer, parcel_id: str):
        for feature in parcels.getSelectedFeatures():
            if parcel_id_of(parcels, feature) == parcel_id:
                return feature
        from .requests import parcel_id_field

        field = parcel_id_field(parcels)
        if field is None:
            return parcels.getFeature(int(parcel_id))
        expression = f"\"{field}\" = '{parcel_id.replace(chr(39), chr(39) * 2)}'"
        from qgis.core import QgsFeatureRequest

        return next(parcels.getFeatures(QgsFeatureRequest().setFilterExpression(expression)), None)

    def _replied(self, reply: dict) -> None:
        if reply.get("op") == "open":
            if not reply.get("ok"):
                self.needs_open = True
                self.open_error = reply.get("error", "")
                self.busy.setVisible(False)
                self.show_error("SiteCheck could not open the layers", self.open_error)
            return
        if reply.get("id") != self.latest_request:
            return  # an older edit's answer; a newer one is on its way
        self.busy.setVisible(False)
        if not reply.get("ok"):
            if self.open_error:
                return  # the open error, already shown, explains this one
            self.show_error("SiteCheck could not check the parcel", reply.get("error", ""))
            return
        self.open_error = ""
        self.reply = reply
        fill_metrics(self.metrics, reply)
        fill_triggers(self.triggers, reply)
        severity = (reply.get("highest_severity") or "no trigger").replace("_", " ")
        self.parcel_label.setText(f"Parcel {reply['parcel_id']}: {severity}")
        confirm = reply.get("runoff_confirm") or []
        self.status.setText(
            f"{reply.get('jurisdiction') or ''} · measured in {reply['crs'].get('authid')} "
            f"({reply['crs'].get('area_unit')}) · {reply.get('elapsed_ms', 0):.0f} ms"
            + (" · rainfall depths are pack defaults: confirm for the site" if confirm else "")
        )
        self.status.setToolTip("\n\n".join(confirm))
        self.evaluated.emit(reply)

    # --- actions ----------------------------------------------------------------------

    def _trigger_clicked(self, item, column) -> None:
        trigger = item.data(0, TRIGGER_ROLE)
        if not trigger or self.reply is None or self.canvas is None:
            return
        kinds = {
            FLAG_OF_METRIC[name] for name in trigger.get("names", []) if name in FLAG_OF_METRIC
        }
        geometries = [
            _geometry(flag["wkb"]) for flag in self.reply["flags"] if flag["kind"] in kinds
        ]
        if not geometries:
            return
        source = QgsCoordinateReferenceSystem.fromWkt(self.reply["crs_wkt"])
        target = self.canvas.mapSettings().destinationCrs()
        transform = QgsCoordinateTransform(source, target, QgsProject.instance())
        shown = []
        for geometry in geometries:
            geometry.transform(transform)
            shown.append(geometry)
        extent = QgsGeometry.unaryUnion(shown).boundingBox()
        extent.scale(1.5)
        self.canvas.setExtent(extent)
        self.canvas.refresh()
        self.canvas.flashGeometries(shown, target)

    def copy_triggers(self) -> None:
        if self.reply is not None:
            QApplication.clipboard().setText(
                clipboard_text(self.reply, self.ordinance.currentText())
            )

    def export_report(self) -> None:
        if self.reply is None or self.worker is None:
            return
        path, _ = QFileDialog.getSaveFileName(
            self,
            "Export the parcel's report",
            f"sitecheck-{self.reply['parcel_id']}.pdf",
            "Compliance map (*.pdf);;HTML report (*.html)",
        )
        if not path:
            return
        if path.lower().endswith(".pdf"):
            self.write_pdf(path)
        else:
            self.write_report(path)

    def write_pdf(self, path: str) -> None:
        """The compliance map page of the current parcel, from the panel's layers."""
        from ..layers.parcel_pdf import write_parcel_pdf

        parcels = self.layer_boxes["parcels"].currentLayer()
        feature = self._parcel_feature(parcels, self.reply["parcel_id"]) if parcels else None
        if feature is None or self.reply is None:
            return
        shown = [
            layer
            for key in (
                "disturbance",
                "impervious_proposed",
                "impervious_existing",
                "parcels",
                "wetlands",
                "watercourses",
                "floodplain",
                "sda",
                "zoning",
            )
            if (layer := self.layer_boxes[key].currentLayer()) is not None
        ]
        try:
            write_parcel_pdf(self.reply, feature, parcels.crs(), shown, path)
        except Exception as error:
            self.show_error("SiteCheck could not write the PDF", str(error))
            return
        self.status.setText(f"Wrote {path}")

    def write_report(self, path: str) -> None:
        parcels = self.layer_boxes["parcels"].currentLayer()
        feature = self._parcel_feature(parcels, self.reply["parcel_id"]) if parcels else None
        if feature is None or self.worker is None:
            return
        request = evaluate_request(self.layers(), parcels, feature)
        request.update(op="report", path=path)
        self.latest_request = self.worker.send(request)
        self.busy.setVisible(True)

    def show_error(self, title: str, details: str) -> None:
        """Errors go to the message bar with their details, never as a traceback."""
        self.busy.setVisible(False)
        self.status.setText(f"{title}: {details.splitlines()[0] if details else ''}")
        if self.iface is not None:
            self.iface.messageBar().pushMessage(
                title,
                details.splitlines()[0] if details else "",
                details,
                Qgis.MessageLevel.Warning,
                0,
            )

    def closeEvent(self, event) -> None:  # noqa: N802 - Qt API name
        if self.pick.isChecked():
            self.pick.setChecked(False)
        super().closeEvent(event)

    def shutdown(self) -> None:
        """Stop the worker, disconnect from the layers and remove temporary files."""
        self.timer.stop()
        with contextlib.suppress(TypeError, RuntimeError):
            QgsProject.instance().readProject.disconnect(self._project_read)
        if self.worker is not None:
            self.worker.stop()
            self.worker = None
        self._toggle_tool(False)
        for layer in self.watched:
            with contextlib.suppress(TypeError, RuntimeError):
                layer.featureAdded.disconnect(self._feature_edited)
        shutil.rmtree(self.folder, ignore_errors=True)


def _geometry(wkb_hex: str) -> QgsGeometry:
    """A geometry from hex WKB (QgsGeometry.fromWkb is not static before QGIS 3.36)."""
    geometry = QgsGeometry()
    geometry.fromWkb(bytes.fromhex(wkb_hex))
    return geometry
