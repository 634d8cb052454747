"""Benchmark: the panel's worker answering one lot's edits in villages of 3k, 30k and 250k lots.

    python bench/panel_scale.py            # every size; writes bench/results/panel_scale.json
    python bench/panel_scale.py FOLDER     # one village; prints its figures as JSON

The dock bench (``bench/dock.py``) times the panel in QGIS on the sample village of
300 lots; a village or county GIS analyst opens the panel on every parcel they hold.
Here the worker (``sitecheck serve``'s loop, in its own process per village) opens
the bench village's layers, then answers 41 edits of one lot's work, each grown by
half a foot as the dock bench grows it, the first answer left out (the worker
warm). The lot is the one whose work lies nearest the village's centre; each
request carries the drawn features within 300 ft of the lot, as the panel sends
them. An answer's time runs from the worker reading the request to its reply.
The time should not grow with the village: only the lot's neighbourhood changes.
"""

from __future__ import annotations

import io
import json
import statistics
import subprocess
import sys
import time
from itertools import pairwise
from pathlib import Path

from common import CHECK_LAYERS, RESULTS, machine, village

SIZES = (3_000, 30_000, 250_000)
PARCEL = "1.1-11-4"  # bench/dock.py's lot
EDITS = 40
REACH_FT = 300.0  # the panel's neighbourhood (ui/requests.py, NEIGHBOURHOOD_FT)
DRAWN = ("disturbance", "impervious_proposed")
STATIC = tuple(layer for layer in CHECK_LAYERS if layer not in DRAWN)
"""The layers the session opens, as ``check`` is given them; the drawn ones come with
each request."""


def bench_panel_scale() -> dict:
    """Every size in its own process; the figures to ``bench/results/panel_scale.json``."""
    villages = []
    for size in SIZES:
        folder = village(size)
        run = subprocess.run(
            [sys.executable, __file__, str(folder)], check=True, capture_output=True, text=True
        )
        villages.append(json.loads(run.stdout.strip().splitlines()[-1]))
        print(
            f"panel worker, {villages[-1]['lots']:,} lots: answer median "
            f"{villages[-1]['answer_median_ms']} ms",
            flush=True,
        )
    result = {
        "villages": villages,
        "edits": EDITS,
        "machine": machine(),
        "measured": time.strftime("%Y-%m-%d %H:%M:%S %Z"),
        "note": (
            "the worker's own answer to each edit of one lot's work, grown half a foot an "
            "edit; open_s: reading the session's layers once"
        ),
    }
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "panel_scale.json").write_text(json.dumps(result, indent=2) + "\n")
    return result


def one_village(folder: Path) -> dict:
    """Open a session on the village and time its answers to one lot's growing work."""
    import pyogrio
    import shapely

    from sitecheck.app.worker import serve

    gpkg = folder / "village.gpkg"
    lots = pyogrio.read_dataframe(gpkg, layer="parcels", columns=["parcel_id"])
    parcel_id = PARCEL
    lot = lots.geometry[lots["parcel_id"] == parcel_id].iloc[0]
    minx, miny, maxx, maxy = lot.bounds
    near = (minx - REACH_FT, miny - REACH_FT, maxx + REACH_FT, maxy + REACH_FT)
    drawn = {role: pyogrio.read_dataframe(gpkg, layer=role, bbox=near) for role in DRAWN}

    def payload(role: str, grow_ft: float) -> dict:
        frame = drawn[role]
        features = []
        for geometry, (_, row) in zip(
            frame.geometry, frame.drop(columns="geometry").iterrows(), strict=True
        ):
            properties = {key: _plain(value) for key, value in row.items()}
            if role == "disturbance" and properties.get("parcel_id") == parcel_id:
                geometry = geometry.buffer(grow_ft, 2)
            features.append({"wkb": shapely.to_wkb(geometry, hex=True), "properties": properties})
        return {"crs": frame.crs.to_wkt(), "features": features}

    inputs = {"parcels": f"{gpkg}:parcels", **{name: f"{gpkg}:{name}" for name in STATIC}}
    requests = [
        {"op": "open", "inputs": inputs, "dem": str(folder / "dem.tif"), "ordinance": "scarsdale"}
    ]
    for edit in range(EDITS + 1):
        layers = {
            role: payload(role, 0.5 * edit if role == "disturbance" else 0.0) for role in DRAWN
        }
        requests.append({"op": "evaluate", "parcel_id": parcel_id, "layers": layers})
    replies = _Stamped()
    started = time.perf_counter()
    serve(io.StringIO("".join(json.dumps(r) + "\n" for r in requests)), replies)
    stamps = [started, *replies.stamps]
    # stamps[1] the session opened, [2] the first answer (left out: the worker warms up)
    answers = sorted(1000 * (b - a) for a, b in pairwise(stamps[2:]))
    last = json.loads(replies.getvalue().splitlines()[-1])
    if not last.get("ok"):
        raise SystemExit(f"{folder}: the worker answered {last}")
    return {
        "lots": len(lots),
        "parcel": parcel_id,
        "open_s": round(stamps[1] - stamps[0], 2),
        "answer_median_ms": round(statistics.median(answers), 1),
        "answer_p95_ms": round(answers[int(0.95 * len(answers)) - 1], 1),
    }


class _Stamped(io.StringIO):
    """The worker's output, with the time each reply was written."""

    def __init__(self) -> None:
        super().__init__()
        self.stamps: list[float] = []

    def write(self, text: str) -> int:
        self.stamps.append(time.perf_counter())
        return super().write(text)


def _plain(value: object) -> object:
    """A field's value as JSON has it (the panel sends null for a missing one)."""
    if value is None or value != value:
        return None
    return value.item() if hasattr(value, "item") else value


if __name__ == "__main__":
    if len(sys.argv) > 1:
        print(json.dumps(one_village(Path(sys.argv[1]))))
    else:
        bench_panel_scale()
