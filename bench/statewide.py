"""Ten lots checked against a statewide layer: the run reads only what it needs.

Builds (once) a 200,000-polygon wetland layer over a state-sized extent in
NWI's Albers CRS (EPSG:5070), and ten lots with work in State Plane feet
(EPSG:2260), then measures side by side:

- the engine: ``sitecheck measure`` with ``--wetlands`` (reads the layer within
  boxes around the lots with work, grown by the run's reach);
- the floor: a Python process reading the same boxes with pyogrio and nothing
  else (no engine can read less);
- whole-layer reading, what the engine did before: a Python process reading
  the whole layer with pyogrio (no measuring at all).

Results go to ``bench/results/statewide_200000.json`` with the ratios.
"""

from __future__ import annotations

import json
import sys
import time

import geopandas as gpd
import numpy as np
import pyogrio
import shapely
from common import BENCH, RESULTS, WORK, machine, metrics_by_parcel, peak_rss_run, versions

POLYGONS = 200_000
LOTS = 10
GOAL_SECONDS, GOAL_MB = 2.0, 300.0


def build() -> dict[str, str]:
    folder = WORK / "statewide"
    wetlands, site = folder / "NY_Wetlands.gpkg", folder / "site.gpkg"
    if wetlands.exists() and site.exists():
        return {"wetlands": f"{wetlands}:NY_Wetlands", "site": str(site)}
    folder.mkdir(parents=True, exist_ok=True)
    print(f"generating {POLYGONS:,} wetland polygons ...", flush=True)
    rng = np.random.default_rng(12)
    # About New York's extent in EPSG:5070 metres.
    x = rng.uniform(1_300_000, 1_900_000, POLYGONS)
    y = rng.uniform(2_150_000, 2_750_000, POLYGONS)
    # Rounded polygons of 33 vertices, 20 to 200 m across, as wetlands are drawn.
    geoms = shapely.buffer(shapely.points(x, y), rng.uniform(10, 100, POLYGONS), quad_segs=8)
    codes = rng.choice(["PFO1E", "PEM1C", "PSS1E", "L1UBH", "R2UBH", "PUBHh"], POLYGONS)
    # Ten lots near Scarsdale, 1,000 ft apart, each with a 60 x 60 ft work area.
    lots, work = [], []
    for k in range(LOTS):
        west, south = 680_000.0 + k * 1_000.0, 760_000.0
        lots.append(
            {"parcel_id": f"L{k}", "geometry": shapely.box(west, south, west + 200, south + 200)}
        )
        work.append(
            {
                "parcel_id": f"L{k}",
                "geometry": shapely.box(west + 70, south + 70, west + 130, south + 130),
            }
        )
    # A wetland 50 ft north of each lot's work, so every lot has adjacent-area work to measure.
    near = gpd.GeoSeries(
        [
            shapely.box(
                w["geometry"].bounds[0],
                w["geometry"].bounds[3] + 50,
                w["geometry"].bounds[2],
                w["geometry"].bounds[3] + 90,
            )
            for w in work
        ],
        crs="EPSG:2260",
    ).to_crs("EPSG:5070")
    geoms = np.concatenate([geoms, near.to_numpy()])
    codes = np.concatenate([codes, ["PFO1E"] * LOTS])
    gpd.GeoDataFrame(work, crs="EPSG:2260").to_file(site, layer="work", driver="GPKG")
    gpd.GeoDataFrame(lots, crs="EPSG:2260").to_file(site, layer="parcels", driver="GPKG")
    frame = gpd.GeoDataFrame(
        {"ATTRIBUTE": codes, "ACRES": shapely.area(geoms) / 4046.86},
        geometry=geoms,
        crs="EPSG:5070",
    )
    pyogrio.write_dataframe(frame, wetlands, layer="NY_Wetlands", use_arrow=True)
    return {"wetlands": f"{wetlands}:NY_Wetlands", "site": str(site)}


def _read_script(path: str, layer: str, boxes: list | None) -> str:
    if boxes is None:
        return f"import pyogrio; pyogrio.read_dataframe({path!r}, layer={layer!r}, use_arrow=True)"
    return (
        "import pyogrio\n"
        f"for b in {boxes!r}:\n"
        f"    pyogrio.read_dataframe({path!r}, layer={layer!r}, bbox=tuple(b), use_arrow=True)\n"
    )


def bench_statewide() -> dict:
    layers = build()
    out = WORK / "statewide" / "out"
    out.mkdir(exist_ok=True)
    command = [sys.executable, "-m", "sitecheck", "measure", "--quiet"]
    command += ["--parcels", f"{layers['site']}:parcels", "--disturbance", f"{layers['site']}:work"]
    command += [
        "--wetlands",
        layers["wetlands"],
        "--out",
        str(out / "r.gpkg"),
        "--json",
        str(out / "r.json"),
    ]
    for stale in out.iterdir():
        stale.unlink()
    engine_s, engine_mb = peak_rss_run(command)
    # The boxes the engine read, from its own rule, in the layer's CRS.
    sys.path.insert(0, str(WORK.parent.parent))
    import pyproj

    from sitecheck.io.extent import Extent

    lots = pyogrio.read_dataframe(layers["site"], layer="work")
    margin = 400.0  # the reach of default settings: 300 ft + the 100-ft adjacent area
    extent = Extent.around(lots.geometry.to_numpy(), margin, pyproj.CRS("EPSG:2260"))
    boxes = extent.in_crs(pyproj.CRS("EPSG:5070"))
    path, layer = layers["wetlands"].rsplit(":", 1)
    floor_s, floor_mb = peak_rss_run([sys.executable, "-c", _read_script(path, layer, boxes)])
    whole_s, whole_mb = peak_rss_run([sys.executable, "-c", _read_script(path, layer, None)])
    peer = [sys.executable, str(BENCH / "peers" / "whole_layer.py"), f"{layers['site']}:parcels"]
    peer += [f"{layers['site']}:work", layers["wetlands"]]
    before_s, before_mb = peak_rss_run(peer)
    document = json.loads((out / "r.json").read_text())
    engine_sqft = sum(
        m["disturbed_in_wetland_adjacent_sqft"] for m in metrics_by_parcel(document).values()
    )
    result = {
        "polygons": POLYGONS,
        "lots_with_work": LOTS,
        "engine": {"seconds": round(engine_s, 3), "peak_mb": round(engine_mb, 1)},
        "floor_bbox_read": {"seconds": round(floor_s, 3), "peak_mb": round(floor_mb, 1)},
        "whole_layer_read": {"seconds": round(whole_s, 3), "peak_mb": round(whole_mb, 1)},
        "engine_reading_whole_layers": {
            "seconds": round(before_s, 3),
            "peak_mb": round(before_mb, 1),
        },
        "wetland_adjacent_sqft": round(engine_sqft, 1),
        "speedup_vs_whole_layers": round(before_s / engine_s, 2),
        "memory_vs_whole_layers": round(engine_mb / before_mb, 3),
        "engine_vs_floor_time": round(engine_s / floor_s, 2),
        "goal": {"seconds": GOAL_SECONDS, "peak_mb": GOAL_MB},
        "meets_goal": engine_s < GOAL_SECONDS and engine_mb < GOAL_MB,
        "versions": versions(),
        "machine": machine(),
        "measured": time.strftime("%Y-%m-%d %H:%M:%S %Z"),
    }
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / f"statewide_{POLYGONS}.json").write_text(json.dumps(result, indent=2) + "\n")
    return result


if __name__ == "__main__":
    print(json.dumps(bench_statewide(), indent=2))
