"""The SiteCheck dock panel: the triggers of the parcel being drawn, live."""

from __future__ import annotations

import shutil
import time

from qgis.core import (
    QgsProject,
    QgsVectorLayer,
)
from qgis.gui import QgsDockWidget, QgsMapLayerComboBox
from qgis.PyQt.QtCore import QSize, QTimer, pyqtSignal
from qgis.PyQt.QtWidgets import (
    QApplication,
)

from ..bridge.engine import EngineUnavailableError, configured_interpreter, find_interpreter
from ..bridge.i18n import tr
from ..bridge.scratch import scratch_folder
from ..bridge.vocabulary import BY_JURISDICTION, ROLES, reply_error_words
from ..bridge.worker_client import WorkerClient
from ..layers.project_layers import PROJECT_SCOPE
from .connections import Connections
from .panel_actions import show_trigger_flags
from .panel_exports import PanelExports
from .panel_layout import build_panel, fit_configuration
from .panel_messages import PanelMessages
from .parcel_tool import ParcelPickTool
from .pause import AdaptivePause
from .project_settings import restore_panel, save_panel
from .requests import (
    RulesChoice,
    evaluate_request,
    open_request,
    parcel_at,
    parcel_feature,
    parcel_id_of,
    parcel_under,
)
from .results_view import TRIGGER_ROLE, clipboard_text, fill_metrics, fill_triggers

DEFAULT_WIDTH_PX = 400


class SiteCheckDock(PanelMessages, PanelExports, QgsDockWidget):
    """Lists the ordinance triggers of the active parcel and keeps them current while drawing.

    Signals
    -------
    evaluated(dict)
        Each reply shown (tests and the benchmark listen to it).
    setup_requested()
        The user asked for the engine set-up (the button shown when there is no engine).
    """

    evaluated = pyqtSignal(dict)
    setup_requested = pyqtSignal()

    def __init__(self, canvas, iface=None, parent=None) -> None:
        super().__init__("SiteCheck", parent)
        self.setObjectName("SiteCheckDock")
        self.canvas = canvas
        self.iface = iface
        self.worker: WorkerClient | None = None
        self.folder = scratch_folder()
        self.needs_open = True
        self.latest_request = 0
        self.parcel_id: str | None = None
        self.reply: dict | None = None
        self.open_error = ""
        self.recovered = ""  # what the panel said when it restarted a dead worker
        self.warned: set[str] = set()  # warnings already pushed to the message bar
        self.bar_items: list = []
        self.engine_missing = False
        self.shut_down = False
        self.watched: list[QgsVectorLayer] = []
        self.layer_boxes: dict[str, QgsMapLayerComboBox] = {}
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.pause = AdaptivePause()  # the pause follows how fast the worker answers
        self.timer.setInterval(self.pause.interval_ms)
        self.sent_at = 0.0
        self.timer.timeout.connect(self.evaluate_now)
        self.tool = ParcelPickTool(canvas) if canvas is not None else None
        if self.tool is not None:
            self.tool.picked.connect(self._picked)
        self.layer_signals = Connections()  # re-made whenever the layers change
        self.project_signals = Connections()
        build_panel(self)
        self.restore_from_project()
        self.project_signals.connect(QgsProject.instance().readProject, self._project_read)
        try:  # an engine chosen under Settings > Options > Processing is tried at once
            from processing.core.ProcessingConfig import settingsWatcher

            self.project_signals.connect(settingsWatcher.settingsChanged, self._settings_changed)
        except ImportError:  # the Processing plugin is not loaded
            pass

    # --- configuration, remembered in the project -------------------------------------

    def layers(self) -> dict:
        return {key: box.currentLayer() for key, box in self.layer_boxes.items()}

    def _chosen_by_user(self, *_) -> None:
        """Only a user's choice is written to the project, never the combos' own
        reshuffling while a project loads (which would overwrite its settings)."""
        self.save_to_project()

    def save_to_project(self) -> None:
        save_panel(self, PROJECT_SCOPE)

    def _project_read(self, *_) -> None:
        # Nothing of the previous project's parcel stays: its status, numbers, triggers.
        self.parcel_id = None
        self.clear_results("")
        self.parcel_label.setText("")
        self.status.setText("")
        self.restore_from_project()

    def restore_from_project(self) -> None:
        self._restoring = True
        try:
            restore_panel(self, PROJECT_SCOPE)
        finally:
            self._restoring = False
        required = ("parcels", "disturbance")
        self.layers_box.setCollapsed(all(self.layer_boxes[k].currentLayer() for k in required))
        self._configuration_changed()

    def _configuration_changed(self, *_) -> None:
        # after shutdown its combo boxes still signal while QGIS removes the project's layers
        if getattr(self, "_restoring", False) or self.shut_down:
            return
        by_jurisdiction = self.ordinance.currentData() == BY_JURISDICTION
        self.jurisdictions.setEnabled(by_jurisdiction)
        self.jurisdiction_field.setEnabled(by_jurisdiction)
        self.needs_open = True
        self._watch_layers()
        self.schedule()

    def _options_changed(self) -> None:
        self.save_to_project()
        self._configuration_changed()

    def _watch_layers(self) -> None:
        """Re-check when a drawn layer changes, edits in progress included."""
        self.layer_signals.disconnect_all()
        self.watched = []
        for role in ROLES:
            layer = self.layer_boxes[role.key].currentLayer()
            if role.drawn and layer is not None:
                connect = self.layer_signals.connect
                connect(layer.featureAdded, self._feature_edited)
                connect(layer.geometryChanged, self._geometry_edited)
                connect(layer.attributeValueChanged, self._attribute_edited)
                connect(layer.featuresDeleted, self._attribute_edited)
                connect(layer.afterCommitChanges, self.schedule)
                self.watched.append(layer)
        parcels = self.layer_boxes["parcels"].currentLayer()
        if parcels is not None:
            self.layer_signals.connect(parcels.selectionChanged, self._selection_changed)
            self.layer_signals.connect(parcels.layerModified, self._static_layer_changed)

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
        self.schedule(edit=True)

    def _geometry_edited(self, fid, geometry) -> None:
        layer = self.sender()
        if isinstance(layer, QgsVectorLayer):
            self._follow_edit(layer, geometry)
        self.schedule(edit=True)

    def _attribute_edited(self, *_) -> None:
        self.schedule(edit=True)

    def set_parcel(self, parcel_id: str) -> None:
        if parcel_id != self.parcel_id:
            self.clear_results(parcel_id)
        self.parcel_id = parcel_id
        self.schedule()

    def clear_results(self, parcel_id: str) -> None:
        """Nothing of the previous parcel stays on screen under the new one's name."""
        self.reply = None
        self.metrics.setRowCount(0)
        self.triggers.clear()
        for label in (self.margin_label, self.warnings_label):
            label.setText("")
            label.setVisible(False)
        self.parcel_label.setText(tr("Parcel {0}: checking…").format(parcel_id))

    # --- talking to the worker --------------------------------------------------------

    def schedule(self, *_, edit: bool = False) -> None:
        """Re-check: at once when the panel waits for nothing; in a burst of edits (an answer
        or a re-check pending), after a pause once they stop, so the burst costs one more.
        Only an ``edit`` of a drawn layer times a burst (a parcel chosen is no edit)."""
        if not self.shut_down:  # its widgets may still signal while QGIS removes the project
            waiting = self.timer.isActive() or self.busy.isVisibleTo(self)
            now = time.monotonic()
            pause = self.pause.edited(now, waiting) if edit else self.pause.changed_otherwise()
            self.timer.setInterval(pause if waiting else 0)
            self.timer.start()

    def _ensure_worker(self) -> WorkerClient:
        if self.worker is None:
            self.worker = WorkerClient(find_interpreter(configured_interpreter()), self)
            self.worker.replied.connect(self._replied)
            self.worker.failed.connect(self._worker_stopped)
            self.worker.restarted.connect(self._worker_restarted)
        return self.worker

    def _worker_stopped(self, message: str) -> None:
        """A worker that dies is started again by the next request: re-check the parcel now."""
        self.busy.setVisible(False)
        self.status.setText(message)
        if self.parcel_id is not None and not self.needs_open:
            self.schedule()

    def rules_choice(self) -> RulesChoice:
        if self.ordinance.currentData() == BY_JURISDICTION:
            return RulesChoice(
                None, self.jurisdictions.currentLayer(), self.jurisdiction_field.currentField()
            )
        return RulesChoice(self.ordinance.currentData())

    def evaluate_now(self) -> None:
        layers = self.layers()
        parcels = layers.get("parcels")
        if parcels is None or layers.get("disturbance") is None:
            self.status.setText(tr("Choose the parcels and the limits of disturbance layers."))
            return
        if self.parcel_id is None:
            return
        feature = parcel_feature(parcels, self.parcel_id)
        if feature is None:
            return
        try:
            worker = self._ensure_worker()
            if self.needs_open:
                worker.send(
                    open_request(
                        layers,
                        self.rules_choice(),
                        self.folder,
                        self.runoff_box.options(),
                        self.settings_box.values(),
                    )
                )
                self.needs_open = False
            self.latest_request = worker.send(evaluate_request(layers, parcels, feature))
            self.sent_at = time.monotonic()
        except EngineUnavailableError as error:
            self.offer_engine_setup(str(error))
            return
        except Exception as error:
            self.show_error(tr("SiteCheck could not check the parcel"), str(error))
            return
        self.busy.setVisible(True)
        self.parcel_label.setText(tr("Parcel {0}: checking…").format(self.parcel_id))

    def _replied(self, reply: dict) -> None:
        if reply.get("op") == "open":
            if not reply.get("ok"):
                self.needs_open = True
                self.open_error = reply_error_words(reply)
                self.busy.setVisible(False)
                self.show_error(tr("SiteCheck could not open the layers"), self.open_error)
            return
        if reply.get("id") != self.latest_request:
            return  # an older edit's answer; a newer one is on its way
        self.timer.setInterval(self.pause.answered(1000 * (time.monotonic() - self.sent_at)))
        self.busy.setVisible(False)
        if not reply.get("ok"):
            if self.open_error:
                return  # the open error, already shown, explains this one
            self.show_error(tr("SiteCheck could not check the parcel"), reply_error_words(reply))
            return
        self.open_error = ""
        self.take_back_messages()  # whatever failed before works now
        self.reply = reply
        fill_metrics(self.metrics, reply)
        fill_triggers(self.triggers, reply)
        severity = (reply.get("highest_severity") or "no trigger").replace("_", " ")
        storm = reply.get("design_storm")
        self.parcel_label.setText(
            tr("Parcel {0}: {1}").format(reply["parcel_id"], severity)
            + (tr(" · design storm {0} (years)").format(storm) if storm and storm != "none" else "")
            + "".join(
                tr(" · project {0} ({1}): {2}").format(
                    project["project_id"],
                    ", ".join(project["lots"]),
                    (project.get("highest_severity") or "no trigger").replace("_", " "),
                )
                for project in reply.get("projects", [])
                if reply.get("project_note")  # a project of several lots or named in a field
            )
        )
        margins = reply.get("margins") or []
        self.margin_label.setText(
            "\n".join(tr("Nearest threshold: {0}").format(m["text"]) for m in margins[:2])
        )
        self.margin_label.setToolTip("\n\n".join(m["text"] for m in margins))
        self.margin_label.setVisible(bool(margins))
        self._show_warnings(reply.get("warnings") or [])
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
        parcels = self.layer_boxes["parcels"].currentLayer()
        if trigger and self.reply is not None and self.canvas is not None and parcels:
            lot = parcel_feature(parcels, self.reply["parcel_id"])
            shape = lot.geometry() if lot is not None else None
            show_trigger_flags(self.canvas, self.reply, trigger, shape, parcels.crs())

    def copy_triggers(self) -> None:
        if self.reply is not None:
            QApplication.clipboard().setText(
                clipboard_text(self.reply, self.ordinance.currentText())
            )

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt API name
        """Opens at most DEFAULT_WIDTH_PX wide: the map keeps the room; the panel's text wraps."""
        hint = super().sizeHint()
        return QSize(min(hint.width(), DEFAULT_WIDTH_PX), hint.height())

    def showEvent(self, event) -> None:  # noqa: N802 - Qt API name
        super().showEvent(event)
        QTimer.singleShot(0, lambda: fit_configuration(self))

    def closeEvent(self, event) -> None:  # noqa: N802 - Qt API name
        if self.pick.isChecked():
            self.pick.setChecked(False)
        super().closeEvent(event)

    def shutdown(self) -> None:
        """Stop the worker, disconnect from the layers and the project, remove temporary files."""
        self.shut_down = True
        self.timer.stop()
        self.project_signals.disconnect_all()
        self.layer_signals.disconnect_all()
        self.watched = []
        if self.worker is not None:
            self.worker.stop()
            self.worker = None
        self._toggle_tool(False)
        shutil.rmtree(self.folder, ignore_errors=True)
