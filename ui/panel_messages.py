"""What the panel tells the user in QGIS's message bar: errors, warnings, a restarted worker, a
missing engine (with a button that sets one up), and the bar cleared again once things work."""

from __future__ import annotations

from typing import Any

from qgis.core import Qgis
from qgis.gui import QgsMessageBarItem
from qgis.PyQt.QtWidgets import QMessageBox, QPushButton

from ..bridge.engine import forget_checked_interpreters
from ..bridge.i18n import tr


class PanelMessages:
    """Message-bar behaviour of :class:`~.dock.SiteCheckDock` (a mixin: it uses the dock's state)."""

    iface: Any
    busy: Any
    status: Any
    warnings_label: Any
    parcel_label: Any
    parcel_id: str | None
    recovered: str
    warned: set[str]
    bar_items: list  # what this panel pushed to the message bar and has not taken back yet
    engine_missing: bool
    setup_requested: Any  # the dock's signal: the user asked for the engine set-up
    worker: Any
    needs_open: bool

    def schedule(self, *_) -> None:
        raise NotImplementedError  # the dock's

    def push(self, item) -> None:
        if self.iface is not None:
            self.iface.messageBar().pushItem(item)
            self.bar_items.append(item)

    def push_with_button(self, title: str, text: str, button: QPushButton) -> None:
        """A lasting warning with a button beside its text, in every QGIS of the matrix.

        ``QgsMessageBarItem(title, text, widget, …)`` shows no widget in QGIS
        3.22, so the button goes into the layout of the bar's own message item.
        """
        if self.iface is None:
            return
        bar = self.iface.messageBar()
        item = bar.createMessage(title, text)
        item.layout().addWidget(button)
        bar.pushWidget(item, Qgis.MessageLevel.Warning, 0)
        self.bar_items.append(item)

    def take_back_messages(self) -> None:
        """Remove the panel's earlier errors from the message bar (their cause is gone)."""
        bar = self.iface.messageBar() if self.iface is not None else None
        for item in self.bar_items:
            try:
                if bar is not None:
                    bar.popWidget(item)
            except RuntimeError:  # the user closed it already
                pass
        self.bar_items = []

    def show_error(self, title: str, details: str) -> None:
        """Errors go to the message bar with their details, never as a traceback."""
        self.busy.setVisible(False)
        first = details.splitlines()[0] if details else ""
        self.status.setText(f"{title}: {first}")
        self.status.setToolTip(details)
        if self.iface is None:
            return
        if details != first:
            button = QPushButton(tr("Details…"))
            parent = self.iface.mainWindow()
            button.clicked.connect(lambda: QMessageBox.information(parent, title, details))
            self.push_with_button(title, first, button)
        else:
            self.push(QgsMessageBarItem(title, first, Qgis.MessageLevel.Warning, 0))

    def offer_engine_setup(self, details: str) -> None:
        """No engine yet: say so once, with a button that opens the set-up."""
        self.busy.setVisible(False)
        if self.parcel_id is not None:  # it said "checking…", which no engine will answer
            self.parcel_label.setText(
                tr("Parcel {0}: not checked: SiteCheck needs its engine").format(self.parcel_id)
            )
        self.status.setText(tr("SiteCheck needs its engine: Plugins > SiteCheck > Set up…"))
        self.status.setToolTip(details)
        if self.engine_missing or self.iface is None:
            self.engine_missing = True
            return
        self.engine_missing = True
        button = QPushButton(tr("Set up the SiteCheck engine…"))
        button.clicked.connect(self.setup_requested)
        text = tr("it measures in a Python of its own, outside QGIS, not set up yet.")
        title = tr("SiteCheck needs its engine")
        self.push_with_button(title, text, button)

    def _worker_restarted(self, why: str) -> None:
        self.recovered = tr("{0}; it was started again and its layers reopened").format(why)
        if self.iface is not None:
            self.iface.messageBar().pushMessage(
                tr("SiteCheck"), self.recovered, Qgis.MessageLevel.Info, 10
            )

    def _show_warnings(self, warnings: list[str]) -> None:
        """The engine's warnings in the panel, and each new one once in the message bar."""
        self.warnings_label.setText("\n".join(tr("Warning: {0}").format(w) for w in warnings))
        self.warnings_label.setVisible(bool(warnings))
        for warning in warnings:
            if warning not in self.warned and self.iface is not None:
                self.iface.messageBar().pushMessage(
                    tr("SiteCheck"), warning, Qgis.MessageLevel.Warning, 15
                )
            self.warned.add(warning)

    def engine_ready(self, *_) -> None:
        """An engine was set up or chosen: take back what said it was missing, check again."""
        forget_checked_interpreters()
        self.take_back_messages()
        self.engine_missing = False
        if self.worker is not None:
            self.worker.stop()
            self.worker = None
        self.needs_open = True
        self.status.setText(tr("The SiteCheck engine is ready."))
        self.status.setToolTip("")
        self.schedule()

    def _settings_changed(self) -> None:
        if self.engine_missing:
            self.engine_ready()
