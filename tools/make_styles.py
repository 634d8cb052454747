"""Write the result layers' .qml styles with PyQGIS (run with Debian's python3 and python3-qgis).

    QT_QPA_PLATFORM=offscreen /usr/bin/python3 tools/make_styles.py

The styles are committed in layers/styles. Labels and colours come from the engine's
description (bridge/engine_description.json); rerun this after changing them there.
"""

from __future__ import annotations

import atexit
import json
import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from qgis.core import (
    QgsApplication,
    QgsCategorizedSymbolRenderer,
    QgsFillSymbol,
    QgsRendererCategory,
    QgsVectorLayer,
)
from qgis.PyQt.QtGui import QColor

# The plugin's own label settings, imported as QGIS would import the plugin.
_PLUGINS = Path(tempfile.mkdtemp(prefix="sitecheck-styles-"))
(_PLUGINS / "sitecheck_qgis").symlink_to(Path(__file__).resolve().parent.parent)
atexit.register(_PLUGINS.rmdir)  # runs second: the link first, then its folder
atexit.register((_PLUGINS / "sitecheck_qgis").unlink)
sys.path.insert(0, str(_PLUGINS))
from sitecheck_qgis.layers.map_styles import label_parcel_ids  # noqa: E402

STYLES = Path(__file__).resolve().parent.parent / "layers" / "styles"

DESCRIPTION = json.loads(
    (Path(__file__).resolve().parent.parent / "bridge" / "engine_description.json").read_text(
        encoding="utf-8"
    )
)
# Most demanding first, as the panel lists them.
SEVERITY_COLOURS = tuple(
    (s["key"], s["label"], s["colour"]) for s in reversed(DESCRIPTION["severities"])
)
FLAG_COLOURS = tuple((k["key"], k["label"], k["colour"]) for k in DESCRIPTION["flag_kinds"])


def fill(colour: str, alpha: int, outline: str, width: str = "0.4") -> QgsFillSymbol:
    fill_colour = QColor(colour)
    fill_colour.setAlpha(alpha)
    return QgsFillSymbol.createSimple(
        {
            "color": ",".join(str(c) for c in fill_colour.getRgb()),
            "outline_color": outline,
            "outline_width": width,
            "outline_width_unit": "MM",
        }
    )


def parcels_style(path: Path) -> None:
    layer = QgsVectorLayer(
        "MultiPolygon?crs=EPSG:2260&field=parcel_id:string&field=highest_severity:string",
        "parcels",
        "memory",
    )
    categories = [
        QgsRendererCategory(value, fill(colour, 150, "#404040"), label)
        for value, label, colour in SEVERITY_COLOURS
    ]
    categories.append(QgsRendererCategory(None, fill("#ffffff", 0, "#9e9e9e", "0.2"), "No trigger"))
    layer.setRenderer(QgsCategorizedSymbolRenderer("highest_severity", categories))
    label_parcel_ids(layer, 8, 10000, halo_mm=0.8)
    _save(layer, path)


def flags_style(path: Path) -> None:
    layer = QgsVectorLayer("MultiPolygon?crs=EPSG:2260&field=kind:string", "flags", "memory")
    categories = [
        QgsRendererCategory(value, fill(colour, 170, colour, "0.6"), label)
        for value, label, colour in FLAG_COLOURS
    ]
    layer.setRenderer(QgsCategorizedSymbolRenderer("kind", categories))
    _save(layer, path)


def _save(layer: QgsVectorLayer, path: Path) -> None:
    message, ok = layer.saveNamedStyle(str(path))
    if not ok:
        raise SystemExit(f"cannot write {path}: {message}")
    print(f"wrote {path}")


def main() -> None:
    app = QgsApplication([], False)
    app.initQgis()
    STYLES.mkdir(parents=True, exist_ok=True)
    parcels_style(STYLES / "parcels.qml")
    flags_style(STYLES / "flags.qml")
    app.exitQgis()


if __name__ == "__main__":
    sys.exit(main())
