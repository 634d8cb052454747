"""The boxes a run reads a layer in (``Extent.around``): every lot's box grown by the
run's reach lies in one of them, no two of them meet, and each is no larger than the
box around the lots it holds; checked on drawn lots, not against the code's own way."""

from __future__ import annotations

import numpy as np
import pyproj
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st
from shapely.geometry import box

from sitecheck.io.extent import Extent

CRS = pyproj.CRS("EPSG:2263")

corners = st.tuples(
    st.integers(0, 400), st.integers(0, 400), st.integers(1, 40), st.integers(1, 40)
)


@settings(max_examples=200, deadline=None)
@given(st.lists(corners, min_size=1, max_size=60), st.sampled_from([0.0, 2.5, 15.0]))
def test_every_grown_lot_is_in_one_box_no_two_boxes_meet_and_none_is_larger(lots, margin):
    geoms = np.array([box(x, y, x + w, y + h) for x, y, w, h in lots])
    boxes = [box(*bounds) for bounds in Extent.around(geoms, margin, CRS).boxes]
    grown = [box(x - margin, y - margin, x + w + margin, y + h + margin) for x, y, w, h in lots]
    holders = [[b for b in boxes if b.covers(lot)] for lot in grown]
    assert all(len(found) == 1 for found in holders)
    for number, one in enumerate(boxes):
        assert not any(one.intersects(other) for other in boxes[number + 1 :])
        held = [lot for lot, found in zip(grown, holders, strict=True) if found[0] is one]
        assert one.equals(shapely.envelope(shapely.union_all(held)))


def test_a_chain_of_boxes_meeting_end_to_end_is_one_box():
    # Listed out of order, each meeting the next only: the merge must follow the chain.
    order = [5, 0, 9, 3, 7, 1, 8, 2, 6, 4]
    lots = np.array([box(10.0 * k, 0, 10.0 * k + 10, 10) for k in order])
    assert Extent.around(lots, 0.0, CRS).boxes == ((0.0, 0.0, 100.0, 10.0),)


def test_empty_and_missing_geometries_give_no_box():
    lots = np.array([shapely.Polygon(), None], dtype=object)
    assert Extent.around(lots, 10.0, CRS).boxes == ()
