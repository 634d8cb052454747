"""Properties that hold for any drawing, checked on random rectangles (hypothesis)."""

from __future__ import annotations

import tempfile
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from shapely.geometry import box

from sitecheck.io.readers import LayerSource
from sitecheck.measure.driver import measure
from sitecheck.measure.inputs import MeasureInputs, MeasureSettings

from .conftest import write_layer

pytestmark = pytest.mark.slow  # hundreds of generated site plans measured

GRID = 3
LOT = 100.0

coordinate = st.floats(min_value=-30, max_value=GRID * LOT + 30, allow_nan=False)


@st.composite
def rectangles(draw, min_count=1, max_count=6):
    count = draw(st.integers(min_value=min_count, max_value=max_count))
    out = []
    for _ in range(count):
        x0, x1 = sorted((draw(coordinate), draw(coordinate)))
        y0, y1 = sorted((draw(coordinate), draw(coordinate)))
        if x1 - x0 < 1 or y1 - y0 < 1:
            x1, y1 = x0 + 5, y0 + 5
        out.append(box(x0, y0, x1, y1))
    return out


def _lots() -> list[dict]:
    return [
        {
            "parcel_id": f"{row}-{col}",
            "geometry": box(col * LOT, row * LOT, (col + 1) * LOT, (row + 1) * LOT),
        }
        for row in range(GRID)
        for col in range(GRID)
    ]


def _run(disturbance, existing=None, proposed=None, crs: str | None = None):
    # Hypothesis calls this hundreds of times a run: each call's folder goes with it.
    with tempfile.TemporaryDirectory(prefix="sitecheck-prop-") as folder:
        return _measure_in(Path(folder) / "layers.gpkg", disturbance, existing, proposed, crs)


def _measure_in(gpkg: Path, disturbance, existing, proposed, crs: str | None):
    sources = {
        "parcels": LayerSource.parse("parcels", write_layer(gpkg, "parcels", _lots())),
        "disturbance": LayerSource.parse(
            "disturbance", write_layer(gpkg, "disturbance", [{"geometry": g} for g in disturbance])
        ),
    }
    if existing is not None:
        sources["impervious_existing"] = LayerSource.parse(
            "impervious_existing",
            write_layer(gpkg, "existing", [{"geometry": g} for g in existing]),
        )
    if proposed is not None:
        sources["impervious_proposed"] = LayerSource.parse(
            "impervious_proposed",
            write_layer(gpkg, "proposed", [{"geometry": g} for g in proposed]),
        )
    return measure(MeasureInputs(**sources), MeasureSettings(crs=crs)).parcels.set_index(
        "parcel_id"
    )


PROPERTY_SETTINGS = settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


@PROPERTY_SETTINGS
@given(rectangles())
def test_disturbance_inside_a_lot_never_exceeds_the_lot(drawn):
    table = _run(drawn)
    inside = table["disturbed_area_sqft"] - table["disturbed_outside_parcel_sqft"]
    assert (inside <= table["lot_area_sqft"] + 0.01).all()
    assert (table["max_disturbed_at_one_time_sqft"] <= table["disturbed_area_sqft"] + 0.01).all()


@PROPERTY_SETTINGS
@given(rectangles(max_count=4))
# Found in a run: one feature drawn twice with a 0.6 sq ft sliver over a lot line.
@example(drawn=[box(0, 99.875, 5, 104.875)])
def test_overlapping_disturbance_is_counted_once(drawn):
    once = _run(drawn)["disturbed_area_sqft"]
    twice = _run(drawn + drawn)["disturbed_area_sqft"]
    assert np.allclose(once, twice, atol=0.01)


@PROPERTY_SETTINGS
@given(rectangles(max_count=3), rectangles(max_count=3), rectangles(max_count=3))
def test_net_change_is_proposed_minus_existing(drawn, existing, proposed):
    table = _run(drawn, existing, proposed)
    difference = table["impervious_proposed_sqft"] - table["impervious_existing_sqft"]
    assert np.allclose(table["impervious_net_change_sqft"], difference, atol=0.02)


@PROPERTY_SETTINGS
@given(rectangles(max_count=4))
# Found in a run: a 0.5 sq ft sliver over a lot line lying on ground that another
# feature's work on that lot already counts must not be counted again on its own lot.
@example(drawn=[box(96, 0, 101, 5), box(0, 0, 5, 5), box(0, 0, 100.5, 1)])
def test_disturbance_inside_lots_adds_up_to_the_drawing_inside_lots(drawn):
    from shapely import intersection, union_all

    table = _run(drawn)
    inside = table["disturbed_area_sqft"] - table["disturbed_outside_parcel_sqft"]
    lots = union_all([lot["geometry"] for lot in _lots()])
    assert inside.sum() == pytest.approx(intersection(union_all(drawn), lots).area, abs=0.05)


def test_two_projected_crs_agree_within_a_tenth_of_a_percent():
    drawn = [box(10, 10, 180, 75), box(150, 40, 260, 290), box(-20, 120, 40, 160)]
    feet = _run(drawn, crs="EPSG:2260")
    metres = _run(drawn, crs="EPSG:32618")
    for name in ("lot_area_sqft", "disturbed_area_sqft", "disturbed_outside_parcel_sqft"):
        touched = feet[name] > 0
        ratio = metres.loc[touched, name] / feet.loc[touched, name]
        assert np.all(np.abs(ratio - 1) < 1e-3), name
