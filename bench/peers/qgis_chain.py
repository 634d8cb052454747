"""Peer: the same measurements with QGIS's own Processing algorithms.

The chain an analyst builds in the Model Designer: native:intersection of the
disturbance with the parcels, native:dissolve by parcel, the same for the
impervious layers, native:intersection of the disturbance with each constraint
class, native:slope and the raster calculator for the steep-slope masks, and
native:zonalstatisticsfb for the share of each lot's disturbance on steep
ground. Every intermediate stays in memory, the fastest way QGIS offers.

Run with Debian's Python (python3-qgis): /usr/bin/python3 qgis_chain.py VILLAGE_DIR OUT_JSON
"""

from __future__ import annotations

import json
import math
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.append("/usr/share/qgis/python/plugins")

from qgis.core import QgsApplication, QgsVectorLayer

APP = QgsApplication([], False)
APP.initQgis()

from processing.core.Processing import Processing  # noqa: E402

import processing  # noqa: E402

Processing.initialize()

MEMORY = "TEMPORARY_OUTPUT"
SFHA = "\"FLD_ZONE\" IN ('A','AE','AH','AO','A99','V','VE')"
CLASSES = {
    "floodplain_1pct": SFHA,
    "floodplain_0_2pct": SFHA + " OR \"ZONE_SUBTY\" LIKE '0.2 PCT%'",
    "floodway": "\"ZONE_SUBTY\" LIKE '%FLOODWAY%'",
}


def run(algorithm: str, **parameters):
    return processing.run(algorithm, parameters)["OUTPUT"]


def layer(gpkg: Path, name: str) -> QgsVectorLayer:
    loaded = QgsVectorLayer(f"{gpkg}|layername={name}", name, "ogr")
    if not loaded.isValid():
        raise SystemExit(f"cannot load {gpkg}:{name}")
    return loaded


def by_lot(per_lot_layer) -> dict[str, float]:
    return {f["parcel_id"]: f.geometry().area() for f in per_lot_layer.getFeatures()}


def split_and_dissolve(features, parcels):
    pieces = run(
        "native:intersection",
        INPUT=features,
        OVERLAY=parcels,
        INPUT_FIELDS=[],
        OVERLAY_FIELDS=["parcel_id"],
        OUTPUT=MEMORY,
    )
    return run("native:dissolve", INPUT=pieces, FIELD=["parcel_id"], OUTPUT=MEMORY)


def main(village: Path, out_json: Path) -> None:
    timings: dict[str, float] = {}
    start = time.perf_counter()
    gpkg = village / "village.gpkg"
    parcels = layer(gpkg, "parcels")

    t = time.perf_counter()
    disturbed = split_and_dissolve(layer(gpkg, "disturbance"), parcels)
    timings["disturbance"] = time.perf_counter() - t

    t = time.perf_counter()
    existing = by_lot(split_and_dissolve(layer(gpkg, "impervious_existing"), parcels))
    split_and_dissolve(layer(gpkg, "impervious_proposed"), parcels)
    timings["impervious"] = time.perf_counter() - t

    t = time.perf_counter()
    flood = layer(gpkg, "floodplain")
    wetlands = layer(gpkg, "wetlands")
    constraint_layers = {
        name: run("native:extractbyexpression", INPUT=flood, EXPRESSION=expression, OUTPUT=MEMORY)
        for name, expression in CLASSES.items()
    }
    constraint_layers["wetland"] = wetlands
    constraint_layers["wetland_zone"] = run(
        "native:buffer", INPUT=wetlands, DISTANCE=100, SEGMENTS=8, DISSOLVE=True, OUTPUT=MEMORY
    )
    constraint_layers["watercourse_buffer"] = run(
        "native:buffer",
        INPUT=layer(gpkg, "watercourses"),
        DISTANCE=100,
        SEGMENTS=8,
        DISSOLVE=True,
        OUTPUT=MEMORY,
    )
    overlaps = {}
    for name, constraint in constraint_layers.items():
        pieces = run(
            "native:intersection",
            INPUT=disturbed,
            OVERLAY=constraint,
            INPUT_FIELDS=["parcel_id"],
            OVERLAY_FIELDS=[],
            OUTPUT=MEMORY,
        )
        overlaps[name] = by_lot(
            run("native:dissolve", INPUT=pieces, FIELD=["parcel_id"], OUTPUT=MEMORY)
        )
    timings["constraints"] = time.perf_counter() - t

    t = time.perf_counter()
    slope = processing.run(
        "native:slope",
        {
            "INPUT": str(village / "dem.tif"),
            "Z_FACTOR": 1,
            "OUTPUT": str(out_json.parent / "slope.tif"),
        },
    )["OUTPUT"]
    steep = {}
    for percent in (15, 25):
        degrees = math.degrees(math.atan(percent / 100))
        mask = processing.run(
            "qgis:rastercalculator",
            {
                "EXPRESSION": f'"slope@1" > {degrees}',
                "LAYERS": [slope],
                "CELLSIZE": 0,
                "EXTENT": None,
                "CRS": None,
                "OUTPUT": str(out_json.parent / f"steep{percent}.tif"),
            },
        )["OUTPUT"]
        stats = run(
            "native:zonalstatisticsfb",
            INPUT=disturbed,
            INPUT_RASTER=mask,
            RASTER_BAND=1,
            COLUMN_PREFIX="s_",
            STATISTICS=[2],
            OUTPUT=MEMORY,
        )
        steep[percent] = {
            f["parcel_id"]: (f["s_mean"] or 0) * f.geometry().area() for f in stats.getFeatures()
        }
    timings["slope"] = time.perf_counter() - t
    timings["total"] = time.perf_counter() - start

    out_json.write_text(
        json.dumps(
            {
                "timings_s": timings,
                "disturbed_area_sqft": by_lot(disturbed),
                "impervious_existing_sqft": existing,
                "disturbed_in_floodplain_1pct_sqft": overlaps["floodplain_1pct"],
                "disturbed_on_slope_over_15pct_sqft": steep[15],
            }
        )
    )


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]))
