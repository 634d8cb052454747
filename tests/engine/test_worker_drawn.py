"""The panel's drawn layers, read as the panel sends them."""

from __future__ import annotations

import numpy as np
import pyproj
import pytest
import shapely

from .test_worker import DRAWN, _layer_payload, _open_request, _run, village  # noqa: F401


def _moved(layer: dict, crs: str) -> dict:
    """A drawn layer sent in another CRS, its shapes moved there."""
    to = pyproj.Transformer.from_crs(layer["crs"], crs, always_xy=True)

    def move(hex_wkb: str) -> str:
        shape = shapely.from_wkb(hex_wkb)
        moved = shapely.transform(shape, lambda xy: np.column_stack(to.transform(*xy.T)))
        return shapely.to_wkb(moved, hex=True)

    features = [{**f, "wkb": move(f["wkb"])} for f in layer["features"]]
    return {"crs": crs, "features": features}


def test_work_drawn_in_another_crs_is_answered_as_in_the_lots_crs(village):  # noqa: F811
    """A project whose layers are in another CRS than the lots (here NAD83 / New York
    Long Island, US feet, and WGS 84) sends them so: the answer is the one for the same
    work sent in the lots' CRS, to the rounding the move leaves."""
    paths, full = village
    lot = sorted(p for p, e in full.items() if (e["metrics"]["disturbed_area_sqft"] or 0) > 0)[0]
    layers = {role: _layer_payload(paths["gpkg"], role) for role in DRAWN}
    requests = [_open_request(paths)]
    for crs in (None, "EPSG:2263", "EPSG:4326"):
        sent = layers if crs is None else {r: _moved(layer, crs) for r, layer in layers.items()}
        requests.append({"op": "evaluate", "parcel_id": lot, "layers": sent})
    same_crs, *others = _run(requests)[1:]
    assert same_crs["ok"], same_crs
    for reply in others:
        assert reply["ok"], reply
        for name, value in same_crs["metrics"].items():
            if isinstance(value, float):
                assert reply["metrics"][name] == pytest.approx(value, rel=1e-6, abs=0.02), name
        assert [t["rule_id"] for t in reply["triggers"]] == [
            t["rule_id"] for t in same_crs["triggers"]
        ]
