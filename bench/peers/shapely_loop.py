"""Peer: the plain per-feature shapely loop a script writer would start with.

It measures the same things as the engine's core (disturbed area per lot,
existing and proposed impervious area per lot, disturbance in the 1% and 0.2%
floodplain, the floodway, wetlands, the wetland adjacent area and the
watercourse buffer, and disturbed area on slopes over 15% and 25%) one feature
at a time, with a spatial index for candidates but no vectorisation.

Run: python shapely_loop.py VILLAGE_DIR OUT_JSON
"""

from __future__ import annotations

import json
import sys
import time
from collections import defaultdict
from pathlib import Path

import numpy as np
import pyogrio
import rasterio
import rasterio.features
import rasterio.windows
import shapely
from shapely.strtree import STRtree

SFHA = {"A", "AE", "AH", "AO", "A99", "V", "VE"}


def read(gpkg: Path, layer: str):
    return pyogrio.read_dataframe(gpkg, layer=layer)


def pieces_by_lot(features, lots, tree) -> dict[int, list]:
    out: dict[int, list] = defaultdict(list)
    for feature in features:
        for lot_index in tree.query(feature):
            lot = lots[lot_index]
            if feature.intersects(lot):
                piece = feature.intersection(lot)
                if piece.area > 0:
                    out[int(lot_index)].append(piece)
    return out


def overlap_area(geom, layer_geoms, layer_tree) -> float:
    parts = [
        geom.intersection(layer_geoms[i])
        for i in layer_tree.query(geom)
        if geom.intersects(layer_geoms[i])
    ]
    return shapely.union_all(parts).area if parts else 0.0


def horn_slope_percent(z: np.ndarray, cell: float) -> np.ndarray:
    slope = np.full(z.shape, np.nan)
    a, b, c = z[:-2, :-2], z[:-2, 1:-1], z[:-2, 2:]
    d, f = z[1:-1, :-2], z[1:-1, 2:]
    g, h, i = z[2:, :-2], z[2:, 1:-1], z[2:, 2:]
    dx = ((c + 2 * f + i) - (a + 2 * d + g)) / (8 * cell)
    dy = ((g + 2 * h + i) - (a + 2 * b + c)) / (8 * cell)
    slope[1:-1, 1:-1] = 100 * np.hypot(dx, dy)
    return slope


def main(village: Path, out_json: Path) -> None:
    timings: dict[str, float] = {}
    start = time.perf_counter()
    gpkg = village / "village.gpkg"
    parcels = read(gpkg, "parcels")
    lots = list(parcels.geometry)
    ids = list(parcels["parcel_id"])
    lot_tree = STRtree(lots)
    timings["read"] = time.perf_counter() - start

    t = time.perf_counter()
    disturbance = pieces_by_lot(read(gpkg, "disturbance").geometry, lots, lot_tree)
    disturbed = {i: shapely.union_all(parts) for i, parts in disturbance.items()}
    timings["disturbance"] = time.perf_counter() - t

    t = time.perf_counter()
    cover: dict[str, dict[int, float]] = {}
    for layer in ("impervious_existing", "impervious_proposed"):
        by_lot = pieces_by_lot(read(gpkg, layer).geometry, lots, lot_tree)
        cover[layer] = {i: shapely.union_all(parts).area for i, parts in by_lot.items()}
    timings["impervious"] = time.perf_counter() - t

    t = time.perf_counter()
    flood = read(gpkg, "floodplain")
    zone = flood["FLD_ZONE"].fillna("")
    subtype = flood["ZONE_SUBTY"].fillna("")
    wetlands = list(read(gpkg, "wetlands").geometry)
    streams = list(read(gpkg, "watercourses").geometry)
    layers = {
        "floodplain_1pct": list(flood.geometry[zone.isin(SFHA)]),
        "floodplain_0_2pct": list(
            flood.geometry[zone.isin(SFHA) | subtype.str.startswith("0.2 PCT")]
        ),
        "floodway": list(flood.geometry[subtype.str.contains("FLOODWAY")]),
        "wetland": wetlands,
        "wetland_zone": [w.buffer(100) for w in wetlands],
        "watercourse_buffer": [s.buffer(100) for s in streams],
    }
    overlaps: dict[str, dict[int, float]] = {}
    for name, geoms in layers.items():
        tree = STRtree(geoms)
        overlaps[name] = {i: overlap_area(d, geoms, tree) for i, d in disturbed.items()}
    timings["constraints"] = time.perf_counter() - t

    t = time.perf_counter()
    with rasterio.open(village / "dem.tif") as dem:
        z = dem.read(1, masked=True).filled(np.nan).astype(float)
        slope = horn_slope_percent(z, dem.res[0])
        cell_area = dem.res[0] * dem.res[1]
        steep: dict[str, dict[int, float]] = {"15": {}, "25": {}}
        for i, d in disturbed.items():
            window = rasterio.windows.from_bounds(*d.bounds, transform=dem.transform)
            window = window.round_offsets().round_lengths()
            row, col = int(window.row_off), int(window.col_off)
            height, width = int(window.height) + 1, int(window.width) + 1
            values = slope[max(row, 0) : row + height, max(col, 0) : col + width]
            inside = rasterio.features.geometry_mask(
                [d], values.shape, rasterio.windows.transform(window, dem.transform), invert=True
            )
            steep["15"][i] = float(np.sum(values[inside] > 15) * cell_area)
            steep["25"][i] = float(np.sum(values[inside] > 25) * cell_area)
    timings["slope"] = time.perf_counter() - t
    timings["total"] = time.perf_counter() - start

    result = {
        "timings_s": timings,
        "disturbed_area_sqft": {ids[i]: d.area for i, d in disturbed.items()},
        "impervious_existing_sqft": {ids[i]: a for i, a in cover["impervious_existing"].items()},
        "disturbed_in_floodplain_1pct_sqft": {
            ids[i]: a for i, a in overlaps["floodplain_1pct"].items()
        },
        "disturbed_on_slope_over_15pct_sqft": {ids[i]: a for i, a in steep["15"].items()},
    }
    out_json.write_text(json.dumps(result))


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]))
