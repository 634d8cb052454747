"""The disturbance on steep slopes, from the DEM."""

from __future__ import annotations

import numpy as np

from sitecheck.geometry.overlay import empty_array
from sitecheck.measure.context import Measuring
from sitecheck.terrain.slope import measure_slopes

SLOPE_METRICS = (
    ("disturbed_on_slope_over_15pct_sqft", "slope_over_15pct"),
    ("disturbed_on_slope_over_25pct_sqft", "slope_over_25pct"),
)


def measure_slope_metrics(run: Measuring, dem: str | None) -> None:
    """Each lot's disturbance over the two slope thresholds, and how much of it the DEM covers."""
    if dem is None:
        run.not_measured(*(metric for metric, _ in SLOPE_METRICS), "slope_data_coverage")
        return
    slope = run.settings.slope
    result = measure_slopes(
        dem, run.disturbed[run.active], run.working, slope, want_flags=True, kept=run.reader.kept
    )
    if result.z_warning:
        run.reader.warn(f"dem ({dem}): {result.z_warning}")
    coverage = np.full(run.count, np.nan)
    coverage[run.active] = result.coverage
    run.metrics["slope_data_coverage"] = coverage
    sqft = run.working.sqft_per_unit2
    for threshold, (metric, kind) in zip(slope.thresholds_pct, SLOPE_METRICS, strict=True):
        areas = np.zeros(run.count)
        areas[run.active] = result.over_sqft[threshold]  # square feet already
        run.metrics[metric] = areas
        geoms = empty_array(run.count)
        if result.flags is not None:
            geoms[run.active] = result.flags[threshold]
        run.flags.add(kind, geoms, sqft)
