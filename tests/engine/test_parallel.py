"""Threads change how fast, never what: one thread and two give the same results."""

from __future__ import annotations

import pandas as pd
import pytest

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
