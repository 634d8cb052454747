"""Inputs a careless or hostile user gives: each gets its answer or one line, never a hang.

A nested geometry collection holding the work. Expected areas are the boxes'
own, worked by hand.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from shapely.geometry import GeometryCollection, LineString, Point, box

from sitecheck.app.cli import main

from .conftest import write_layer

X0, Y0 = 690_000.0, 787_000.0


def _measure(tmp_path: Path, *extra: str, work: object = None) -> tuple[int, dict | None, str]:
    gpkg = tmp_path / "site.gpkg"
    lots = write_layer(
        gpkg, "lots", [{"parcel_id": "L1", "geometry": box(X0, Y0, X0 + 200, Y0 + 200)}]
    )
    drawn = work if work is not None else box(X0 + 50, Y0 + 50, X0 + 150, Y0 + 150)
    disturbance = write_layer(gpkg, "work", [{"geometry": drawn}])
    out = tmp_path / "out"
    argv = ["measure", "--quiet", "--parcels", lots, "--disturbance", disturbance, *extra]
    argv += ["--out", f"{out}.gpkg", "--json", f"{out}.json", "--json-layout", "full"]
    code = main(argv)
    document = json.loads(Path(f"{out}.json").read_text()) if code == 0 else None
    return code, document, ""


# --- 1. a nested collection ---------------------------------------------------


def test_the_polygon_in_a_nested_collection_is_measured_without_a_false_warning(tmp_path, capsys):
    # 50 x 50 ft = 2,500 sq ft, two collections deep, beside a point and a line
    square = box(X0 + 20, Y0 + 20, X0 + 70, Y0 + 70)
    inner = GeometryCollection([square, Point(X0 + 1, Y0 + 1)])
    nested = GeometryCollection([inner, LineString([(X0, Y0), (X0 + 5, Y0 + 5)])])
    code, document, _ = _measure(tmp_path, work=nested)
    assert code == 0 and document is not None
    assert document["parcels"][0]["metrics"]["disturbed_area_sqft"] == pytest.approx(2_500.0)
    warnings = " ".join(document["warnings"]) + capsys.readouterr().err
    assert "empty, null or zero-area" not in warnings
