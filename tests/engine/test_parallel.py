"""Threads change how fast, never what: one thread and two give the same results."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
import shapely

from sitecheck.geometry import parallel
from sitecheck.io.readers import LayerSource
from sitecheck.measure.driver import measure
from sitecheck.measure.inputs import MeasureInputs, MeasureSettings

from .conftest import SharedVillage

LAYERS = (
    "impervious_existing",
    "impervious_proposed",
    "floodplain",
    "wetlands",
    "watercourses",
    "sda",
    "zoning",
    "impaired_watersheds",
)


@pytest.fixture(scope="module")
def village_inputs(shared_village: SharedVillage) -> MeasureInputs:
    paths = shared_village()
    gpkg = paths["gpkg"]
    sources = {name: LayerSource.parse(name, f"{gpkg}:{name}") for name in LAYERS}
    return MeasureInputs(
        parcels=LayerSource.parse("parcels", f"{gpkg}:parcels"),
        disturbance=LayerSource.parse("disturbance", f"{gpkg}:disturbance"),
        dem=str(paths["dem"]),
        **sources,
    )


def test_one_thread_and_two_threads_agree(village_inputs, monkeypatch):
    monkeypatch.setattr(parallel, "MIN_CHUNK", 4)  # split even this small village into chunks
    previous = parallel.workers()
    try:
        parallel.set_workers(1)
        single = measure(village_inputs, MeasureSettings())
        parallel.set_workers(2)
        double = measure(village_inputs, MeasureSettings())
    finally:
        parallel.set_workers(previous)
    pd.testing.assert_frame_equal(
        single.parcels.drop(columns="geometry"), double.parcels.drop(columns="geometry")
    )
    assert single.flags.geometry.geom_equals_exact(double.flags.geometry, tolerance=1e-9).all()
    pd.testing.assert_frame_equal(
        single.flags.drop(columns="geometry"), double.flags.drop(columns="geometry")
    )


def test_thread_count_must_be_positive():
    with pytest.raises(ValueError, match="at least 1"):
        parallel.set_workers(0)


def test_a_predicate_is_split_over_threads_only_where_no_geometry_is_prepared(monkeypatch):
    """Two threads testing ``covers`` against one prepared lot crashed GEOS: a predicate is
    cut into chunks only over unprepared geometries, and gives the same answers either way."""
    monkeypatch.setattr(parallel, "MIN_CHUNK", 4)
    lots = np.array([shapely.box(i, 0, i + 1, 1) for i in range(40)])
    # Every third piece reaches past its lot's right edge: not covered.
    pieces = np.array(
        [shapely.box(i + 0.25, 0.25, i + 0.75 + (i % 3 == 0), 0.75) for i in range(40)]
    )
    covered = np.array([i % 3 != 0 for i in range(40)])
    calls: list[int] = []

    def covers(a, b):
        calls.append(len(a))
        return shapely.covers(a, b)

    previous = parallel.workers()
    try:
        parallel.set_workers(2)
        assert (parallel.map_predicate(covers, lots, pieces) == covered).all()
        assert calls == [20, 20]
        calls.clear()
        shapely.prepare(lots[7])
        assert (parallel.map_predicate(covers, lots, pieces) == covered).all()
        assert calls == [40]
    finally:
        parallel.set_workers(previous)


def test_a_query_over_threads_gives_the_pairs_of_one_call_in_its_order(monkeypatch):
    """A tree queried in chunks of its query geometries: the same pairs, in the order one
    call lists them; in one call where a query geometry is prepared."""
    monkeypatch.setattr(parallel, "MIN_CHUNK", 4)
    lots = np.array([shapely.box(i, j, i + 1, j + 1) for i in range(8) for j in range(8)])
    # Each work box meets its own lot, and the lots right, above and above right of it.
    work = np.array(
        [shapely.box(i + 0.5, j + 0.5, i + 1.5, j + 1.5) for i in range(7) for j in range(7)]
    )
    tree = shapely.STRtree(lots)
    calls: list[int] = []
    query = shapely.STRtree.query

    def counted(self, geoms, predicate=None, distance=None):
        calls.append(np.size(geoms))
        return query(self, geoms, predicate=predicate, distance=distance)

    monkeypatch.setattr(shapely.STRtree, "query", counted)
    previous = parallel.workers()
    try:
        parallel.set_workers(2)
        one_call = query(tree, work, predicate="intersects")
        pairs = parallel.map_query(tree, work, "intersects")
        assert np.array_equal(pairs, one_call)
        assert len(one_call[0]) == 4 * len(work)  # every work box meets four lots
        assert sorted(calls) == [1, 24, 25]  # the tree built by one query, then two chunks
        calls.clear()
        shapely.prepare(work[10])
        assert np.array_equal(parallel.map_query(tree, work, "intersects"), one_call)
        assert calls == [49]
    finally:
        parallel.set_workers(previous)
