"""Write a styled QGIS project (.qgz) of the sample village, the SiteCheck panel set up.

    QT_QPA_PLATFORM=offscreen /usr/bin/python3 tools/make_project.py sample_data

Reads ``village.gpkg`` and ``dem.tif`` from the folder and writes
``village.qgz`` beside them: every layer styled, the DEM as a hillshade, the
map framed on the projects, and the panel's layers and ordinance recorded in
the project (Scarsdale).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from qgis.core import (
    QgsApplication,
    QgsCoordinateReferenceSystem,
    QgsFillSymbol,
    QgsHillshadeRenderer,
    QgsLineSymbol,
    QgsPalLayerSettings,
    QgsProject,
    QgsRasterLayer,
    QgsReferencedRectangle,
    QgsTextFormat,
    QgsVectorLayer,
    QgsVectorLayerSimpleLabeling,
)

STYLES = {
    "soils": {
        "color": "0,0,0,0",
        "outline_color": "#a6761d",
        "outline_width": "0.3",
        "outline_style": "dot",
    },
    "zoning": {
        "color": "255,255,255,0",
        "outline_color": "#9e9ac8",
        "outline_width": "0.6",
        "outline_style": "dash",
    },
    "sda": {"color": "255,237,160,70", "outline_color": "#fec44f", "outline_width": "0.4"},
    "impaired_watersheds": {"color": "0,0,0,0", "outline_color": "#8856a7", "outline_width": "0.8"},
    "floodplain": {"color": "107,174,214,110", "outline_color": "#3182bd", "outline_width": "0.2"},
    "wetlands": {"color": "116,196,118,140", "outline_color": "#238b45", "outline_width": "0.3"},
    "parcels": {"color": "255,255,255,0", "outline_color": "#636363", "outline_width": "0.25"},
    "impervious_existing": {
        "color": "150,150,150,180",
        "outline_color": "#525252",
        "outline_width": "0.1",
    },
    "impervious_proposed": {
        "color": "0,0,0,0",
        "outline_color": "#d95f0e",
        "outline_width": "0.4",
        "outline_style": "dash",
    },
    "disturbance": {"color": "254,153,41,120", "outline_color": "#cc4c02", "outline_width": "0.6"},
}
ORDER = (
    "soils",
    "zoning",
    "sda",
    "impaired_watersheds",
    "floodplain",
    "wetlands",
    "watercourses",
    "parcels",
    "impervious_existing",
    "impervious_proposed",
    "disturbance",
)


def build(folder: Path) -> Path:
    project = QgsProject.instance()
    project.clear()
    project.setCrs(QgsCoordinateReferenceSystem("EPSG:2260"))
    gpkg = folder / "village.gpkg"
    dem = QgsRasterLayer(str(folder / "dem.tif"), "elevation (DEM)")
    renderer = QgsHillshadeRenderer(dem.dataProvider(), 1, 315, 45)
    renderer.setZFactor(1.0)
    dem.setRenderer(renderer)
    project.addMapLayer(dem)
    layers = {}
    for name in ORDER:
        layer = QgsVectorLayer(f"{gpkg}|layername={name}", name.replace("_", " "), "ogr")
        if not layer.isValid():
            raise SystemExit(f"cannot load {name} from {gpkg}")
        if name == "watercourses":
            layer.renderer().setSymbol(
                QgsLineSymbol.createSimple({"color": "#2b8cbe", "width": "0.8"})
            )
        else:
            layer.renderer().setSymbol(QgsFillSymbol.createSimple(STYLES[name]))
        if name == "parcels":
            labels = QgsPalLayerSettings()
            labels.fieldName = "parcel_id"
            text = QgsTextFormat()
            text.setSize(7)
            labels.setFormat(text)
            labels.scaleVisibility = True
            labels.minimumScale = 4000
            labels.maximumScale = 1
            layer.setLabeling(QgsVectorLayerSimpleLabeling(labels))
            layer.setLabelsEnabled(True)
        project.addMapLayer(layer)
        layers[name] = layer
    project.writeEntry("SiteCheck", "ordinance", "scarsdale")
    for key, layer in layers.items():
        if key in (
            "parcels",
            "disturbance",
            "impervious_existing",
            "impervious_proposed",
            "floodplain",
            "wetlands",
            "watercourses",
            "sda",
            "zoning",
            "impaired_watersheds",
            "soils",
        ):
            project.writeEntry("SiteCheck", f"layer/{key}", layer.id())
    project.writeEntry("SiteCheck", "layer/dem", dem.id())
    extent = layers["disturbance"].extent()
    extent.scale(1.4)
    project.viewSettings().setDefaultViewExtent(QgsReferencedRectangle(extent, project.crs()))
    target = folder / "village.qgz"
    if not project.write(str(target)):
        raise SystemExit(f"cannot write {target}: {project.error()}")
    return target


def main() -> int:
    folder = Path(sys.argv[1] if len(sys.argv) > 1 else "sample_data").resolve()
    app = QgsApplication([], False)
    app.initQgis()
    target = build(folder)
    print(f"wrote {target}")
    app.exitQgis()
    return 0


if __name__ == "__main__":
    sys.exit(main())
