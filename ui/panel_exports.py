"""The panel's exports of the current parcel: its compliance map page (PDF) or HTML report."""

from __future__ import annotations

from typing import Any

from qgis.PyQt.QtWidgets import QFileDialog

from ..bridge.i18n import tr
from .panel_actions import write_panel_pdf
from .requests import evaluate_request, parcel_feature


class PanelExports:
    """Export actions of :class:`~.dock.SiteCheckDock` (a mixin: it uses the dock's state)."""

    # What the dock holds and the exports use.
    reply: dict | None
    worker: Any
    busy: Any
    status: Any
    layer_boxes: dict
    latest_request: int

    def layers(self) -> dict:
        raise NotImplementedError  # the dock's

    def show_error(self, title: str, details: str) -> None:
        raise NotImplementedError  # the dock's

    def export_report(self) -> None:
        if self.reply is None or self.worker is None:
            return
        path, _ = QFileDialog.getSaveFileName(
            self,
            tr("Export the parcel's report"),
            f"sitecheck-{self.reply['parcel_id']}.pdf",
            tr("Compliance map (*.pdf);;HTML report (*.html)"),
        )
        if not path:
            return
        if path.lower().endswith(".pdf"):
            self.write_pdf(path)
        else:
            self.write_report(path)

    def write_pdf(self, path: str) -> None:
        """The compliance map page of the current parcel, from the panel's layers."""
        parcels = self.layer_boxes["parcels"].currentLayer()
        if self.reply is None or parcels is None:
            return
        feature = parcel_feature(parcels, self.reply["parcel_id"])
        if feature is None:
            return
        try:
            write_panel_pdf(self.reply, feature, parcels, self.layers(), path)
        except Exception as error:
            self.show_error(tr("SiteCheck could not write the PDF"), str(error))
            return
        self.status.setText(tr("Wrote {path}").format(path=path))

    def write_report(self, path: str) -> None:
        parcels = self.layer_boxes["parcels"].currentLayer()
        if self.reply is None or parcels is None or self.worker is None:
            return
        feature = parcel_feature(parcels, self.reply["parcel_id"])
        if feature is None:
            return
        request = evaluate_request(self.layers(), parcels, feature)
        request.update(op="report", path=path)
        self.latest_request = self.worker.send(request)
        self.busy.setVisible(True)
