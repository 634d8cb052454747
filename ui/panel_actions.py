"""What the panel's actions do on the map and on disk: frame a trigger's flags, print a page."""

from __future__ import annotations

from qgis.core import QgsCoordinateReferenceSystem, QgsCoordinateTransform, QgsGeometry, QgsProject

from ..bridge.vocabulary import FLAG_OF_METRIC, MAP_ROLES

PDF_ROLES: tuple[str, ...] = tuple(role.key for role in reversed(MAP_ROLES))
"""The layers a parcel's compliance map page draws, top first."""


def show_trigger_flags(canvas, reply: dict, trigger: dict, lot=None, lot_crs=None) -> None:
    """Frame the lot and flash where the trigger's metrics were measured.

    Every trigger shows something: the flags of the metrics it names, else the
    lot itself (a rule on the lot's disturbed or impervious area). The frame
    always holds the whole lot, so a thin strip of flag is never zoomed to alone.
    """
    target = canvas.mapSettings().destinationCrs()
    kinds = {FLAG_OF_METRIC[name] for name in trigger.get("names", []) if name in FLAG_OF_METRIC}
    flag_crs = QgsCoordinateReferenceSystem.fromWkt(reply["crs_wkt"])
    shown = [
        _in(target, _geometry(flag["wkb"]), flag_crs)
        for flag in reply["flags"]
        if flag["kind"] in kinds
    ]
    frame = list(shown)
    if lot is not None and lot_crs is not None:
        outline = _in(target, QgsGeometry(lot), lot_crs)
        frame.append(outline)
        shown = shown or [outline]
    if not frame:
        return
    extent = QgsGeometry.unaryUnion(frame).boundingBox()
    extent.scale(1.3)
    canvas.setExtent(extent)
    canvas.refresh()
    canvas.flashGeometries(shown, target)


def _in(target, geometry: QgsGeometry, source) -> QgsGeometry:
    """A geometry moved into the canvas CRS."""
    geometry.transform(QgsCoordinateTransform(source, target, QgsProject.instance()))
    return geometry


def write_panel_pdf(reply: dict, feature, parcels, layers: dict, path: str) -> None:
    """The parcel's compliance map page, drawn from the panel's layers."""
    from ..layers.parcel_pdf import write_parcel_pdf

    shown = [layers[key] for key in PDF_ROLES if layers.get(key) is not None]
    write_parcel_pdf(reply, feature, parcels.crs(), shown, path)


def _geometry(wkb_hex: str) -> QgsGeometry:
    """A geometry from hex WKB (QgsGeometry.fromWkb is not static before QGIS 3.36)."""
    geometry = QgsGeometry()
    geometry.fromWkb(bytes.fromhex(wkb_hex))
    return geometry
