"""Inputs in the forms users have them: geographic CRS, curves, fields instead of layers."""

from __future__ import annotations

import math
import struct
from pathlib import Path

import geopandas as gpd
import numpy as np
import pyogrio
import pytest
from shapely.geometry import box

from sitecheck.constraints.adjoining import AdjoiningSettings
from sitecheck.io.readers import LayerSource
from sitecheck.measure.driver import measure
from sitecheck.measure.inputs import MeasureInputs, MeasureSettings

from .conftest import write_layer

# Two lots near Scarsdale in NY State Plane East (US survey feet).
X0, Y0 = 690_000.0, 787_000.0
LOTS = [
    {"parcel_id": "W", "district": "A-2", "sda": "Y", "geometry": box(X0, Y0, X0 + 100, Y0 + 150)},
    {
        "parcel_id": "E",
        "district": "B-1",
        "sda": "N",
        "geometry": box(X0 + 100, Y0, X0 + 200, Y0 + 150),
    },
]
WORK = [{"geometry": box(X0 + 60, Y0 + 20, X0 + 140, Y0 + 60)}]  # 3,200 sq ft across the line


def _run(
    parcels: str, disturbance: str, settings: MeasureSettings | None = None, **layers: str
) -> dict[str, dict]:
    sources = {name: LayerSource.parse(name, spec) for name, spec in layers.items()}
    inputs = MeasureInputs(
        parcels=LayerSource.parse("parcels", parcels),
        disturbance=LayerSource.parse("disturbance", disturbance),
        **sources,
    )
    result = measure(inputs, settings or MeasureSettings())
    return {row["parcel_id"]: row for row in result.parcels.to_dict("records")}, result


def test_geographic_parcels_are_measured_in_the_state_plane_zone(tmp_path):
    gpkg = tmp_path / "in.gpkg"
    lonlat = gpd.GeoDataFrame(LOTS, crs="EPSG:2260").to_crs("EPSG:4326")
    lonlat.to_file(gpkg, layer="parcels", engine="pyogrio")
    rows, result = _run(f"{gpkg}:parcels", write_layer(gpkg, "work", WORK))
    assert result.working.crs.to_epsg() == 2260
    assert "geographic" in result.working.how_chosen
    assert rows["W"]["lot_area_sqft"] == pytest.approx(15_000, rel=1e-4)
    assert rows["W"]["disturbed_area_sqft"] == pytest.approx(1_600, rel=1e-4)
    assert rows["E"]["disturbed_area_sqft"] == pytest.approx(1_600, rel=1e-4)


def _curve_polygon_wkb(cx: float, cy: float, r: float) -> bytes:
    """WKB of a CURVEPOLYGON whose ring is a full circle (a CIRCULARSTRING of 5 points)."""
    points = [(cx - r, cy), (cx, cy + r), (cx + r, cy), (cx, cy - r), (cx - r, cy)]
    ring = struct.pack("<BII", 1, 8, len(points)) + b"".join(struct.pack("<dd", *p) for p in points)
    return struct.pack("<BII", 1, 10, 1) + ring


def test_curved_disturbance_is_linearised(tmp_path):
    gpkg = tmp_path / "in.gpkg"
    parcels = write_layer(gpkg, "parcels", LOTS)
    pyogrio.raw.write(
        str(gpkg),
        np.array([_curve_polygon_wkb(X0 + 50, Y0 + 75, 20.0)], dtype=object),
        field_data=[np.array(["W"])],
        fields=["parcel_id"],
        layer="curved",
        driver="GPKG",
        geometry_type="Unknown",
        crs="EPSG:2260",
        append=True,
    )
    rows, _ = _run(parcels, f"{gpkg}:curved")
    assert rows["W"]["disturbed_area_sqft"] == pytest.approx(math.pi * 20.0**2, rel=2e-3)


def test_zoning_and_sda_from_parcel_fields(tmp_path):
    gpkg = tmp_path / "in.gpkg"
    # § 254-4's Residence A districts (shared/ordinances/README.md), as Scarsdale's pack gives.
    residence_a = ("AA-1", "A-1", "A-2", "A-2a", "A-3", "A-4", "A-5")
    settings = MeasureSettings(adjoining=AdjoiningSettings(districts=residence_a))
    parcels, work = write_layer(gpkg, "parcels", LOTS), write_layer(gpkg, "work", WORK)
    rows, _ = _run(parcels, work, settings)
    assert rows["W"]["zoning_district"] == "A-2"
    assert rows["E"]["zoning_district"] == "B-1"
    assert bool(rows["W"]["in_sda"]) is True
    assert bool(rows["E"]["in_sda"]) is False
    # W is in Residence A: its strip along the shared line (30 ft by default) holds
    # the part of the work within 30 ft of x = X0 + 100, i.e. 30 x 40 sq ft. E is
    # in a business district: no buffer.
    assert rows["W"]["disturbed_in_adjoining_buffer_sqft"] == pytest.approx(1_200)
    assert rows["E"]["disturbed_in_adjoining_buffer_sqft"] == 0
    # With no pack naming the districts, E's strip along the line holds the other
    # 30 x 40 sq ft of the work.
    rows, _ = _run(parcels, work)
    assert rows["E"]["disturbed_in_adjoining_buffer_sqft"] == pytest.approx(1_200)


def test_a_drawn_adjoining_buffer_replaces_the_derived_one(tmp_path):
    gpkg = tmp_path / "in.gpkg"
    drawn = write_layer(gpkg, "buffer", [{"geometry": box(X0 + 90, Y0, X0 + 110, Y0 + 150)}])
    rows, _ = _run(
        write_layer(gpkg, "parcels", LOTS), write_layer(gpkg, "work", WORK), adjoining_buffer=drawn
    )
    assert rows["W"]["disturbed_in_adjoining_buffer_sqft"] == pytest.approx(400)
    assert rows["E"]["disturbed_in_adjoining_buffer_sqft"] == pytest.approx(400)


def test_watercourse_polygons_are_buffered_too(tmp_path):
    gpkg = tmp_path / "in.gpkg"
    parcels, work = write_layer(gpkg, "parcels", LOTS), write_layer(gpkg, "work", WORK)
    # A pond south of the street: its 100-ft buffer ends 10 ft into the work (y < Y0 + 30).
    pond = write_layer(gpkg, "pond", [{"geometry": box(X0 - 100, Y0 - 150, X0 + 300, Y0 - 70)}])
    rows, _ = _run(parcels, work, watercourses=pond)
    assert rows["W"]["disturbed_in_watercourse_buffer_sqft"] == pytest.approx(400)
    assert rows["E"]["disturbed_in_watercourse_buffer_sqft"] == pytest.approx(400)
    farther = write_layer(
        gpkg, "farther", [{"geometry": box(X0 - 100, Y0 - 190, X0 + 300, Y0 - 110)}]
    )
    rows, _ = _run(parcels, work, watercourses=farther)
    assert rows["E"]["disturbed_in_watercourse_buffer_sqft"] == 0


def test_layers_in_another_crs_are_reprojected(tmp_path):
    gpkg = tmp_path / "in.gpkg"
    work_utm = gpd.GeoDataFrame(WORK, crs="EPSG:2260").to_crs("EPSG:32618")
    work_utm.to_file(gpkg, layer="work_utm", engine="pyogrio")
    rows, _ = _run(write_layer(gpkg, "parcels", LOTS), f"{gpkg}:work_utm")
    assert rows["W"]["disturbed_area_sqft"] == pytest.approx(1_600, rel=1e-6)


def test_input_paths_may_hold_a_colon(tmp_path):
    folder = tmp_path / "site:2024"
    folder.mkdir()
    gpkg = Path(folder) / "in.gpkg"
    rows, _ = _run(write_layer(gpkg, "parcels", LOTS), write_layer(gpkg, "work", WORK))
    assert rows["W"]["disturbed_area_sqft"] == pytest.approx(1_600)
