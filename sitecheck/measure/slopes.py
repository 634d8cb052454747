"""The disturbance on steep slopes, from the DEM."""

from __future__ import annotations

import numpy as np

from sitecheck.geometry.overlay import (
    empty_array,
)
from sitecheck.io.crs import WorkingCRS
from sitecheck.measure.inputs import MeasureSettings
from sitecheck.measure.table import FlagCollector
from sitecheck.terrain.slope import measure_slopes


def measure_slope_metrics(
    dem: str | None,
    settings: MeasureSettings,
    working: WorkingCRS,
    disturbed: np.ndarray,
    active: np.ndarray,
    n: int,
    metrics: dict[str, np.ndarray],
    flags: FlagCollector,
) -> None:
    low, high = settings.slope.thresholds_pct
    if dem is None:
        for name in (
            "disturbed_on_slope_over_15pct_sqft",
            "disturbed_on_slope_over_25pct_sqft",
            "slope_data_coverage",
        ):
            metrics[name] = np.full(n, np.nan)
        return
    result = measure_slopes(dem, disturbed[active], working, settings.slope, want_flags=True)
    coverage = np.full(n, np.nan)
    coverage[active] = result.coverage
    metrics["slope_data_coverage"] = coverage
    for threshold, metric, kind in (
        (low, "disturbed_on_slope_over_15pct_sqft", "slope_over_15pct"),
        (high, "disturbed_on_slope_over_25pct_sqft", "slope_over_25pct"),
    ):
        areas = np.zeros(n)
        areas[active] = result.over_sqft[threshold]
        metrics[metric] = areas
        geoms = empty_array(n)
        if result.flags is not None:
            geoms[active] = result.flags[threshold]
        flags.add(kind, geoms, working.sqft_per_unit2)
