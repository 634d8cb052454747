"""Write a styled QGIS project (.qgz) of the sample village, the SiteCheck panel set up.

    QT_QPA_PLATFORM=offscreen /usr/bin/python3 tools/make_project.py sample_data

Reads ``village.gpkg`` and ``dem.tif`` from the folder and writes
``village.qgz`` beside them: every layer styled, the DEM as a hillshade, the
map framed on the projects, and the panel's layers and ordinance recorded in
the project (Scarsdale).
"""

from __future__ import annotations

import atexit
import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from qgis.core import (
    QgsApplication,
    QgsCoordinateReferenceSystem,
    QgsHillshadeRenderer,
    QgsProject,
    QgsRasterLayer,
    QgsReferencedRectangle,
    QgsVectorLayer,
)

# The plugin's own map symbols, imported as QGIS would import the plugin.
_PLUGINS = Path(tempfile.mkdtemp(prefix="sitecheck-project-"))
(_PLUGINS / "sitecheck_qgis").symlink_to(Path(__file__).resolve().parent.parent)
atexit.register(_PLUGINS.rmdir)  # runs second: the link first, then its folder
atexit.register((_PLUGINS / "sitecheck_qgis").unlink)
sys.path.insert(0, str(_PLUGINS))
from sitecheck_qgis.layers.map_styles import ORDER as MAP_ORDER  # noqa: E402
from sitecheck_qgis.layers.map_styles import label_parcel_ids, style_input_layer  # noqa: E402

# The soils lie under everything else in the sample project.
ORDER = ("soils", *MAP_ORDER)


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
        style_input_layer(layer, name)
        if name == "parcels":
            label_parcel_ids(layer, 7, 4000)
        project.addMapLayer(layer)
        layers[name] = layer
    project.writeEntry("SiteCheck", "ordinance", "scarsdale")
    for key, layer in layers.items():  # every layer drawn is one the panel takes
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
