"""What the panel's actions do on the map and on disk: frame a trigger's flags, print a page."""

from __future__ import annotations

from qgis.core import QgsCoordinateReferenceSystem, QgsCoordinateTransform, QgsGeometry, QgsProject

from ..bridge.vocabulary import FLAG_OF_METRIC

# The layers a parcel's compliance map page draws, top first.
PDF_ROLES = (
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


def show_trigger_flags(canvas, reply: dict, trigger: dict) -> None:
    """Frame and flash the flags of the metrics a trigger names (nothing when it names none)."""
    kinds = {FLAG_OF_METRIC[name] for name in trigger.get("names", []) if name in FLAG_OF_METRIC}
    geometries = [_geometry(flag["wkb"]) for flag in reply["flags"] if flag["kind"] in kinds]
    if not geometries:
        return
    source = QgsCoordinateReferenceSystem.fromWkt(reply["crs_wkt"])
    target = canvas.mapSettings().destinationCrs()
    transform = QgsCoordinateTransform(source, target, QgsProject.instance())
    shown = []
    for geometry in geometries:
        geometry.transform(transform)
        shown.append(geometry)
    extent = QgsGeometry.unaryUnion(shown).boundingBox()
    extent.scale(1.5)
    canvas.setExtent(extent)
    canvas.refresh()
    canvas.flashGeometries(shown, target)


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
