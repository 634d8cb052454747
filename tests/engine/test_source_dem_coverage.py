"""A DEM with no elevations under the work says nothing about its slopes: review, not "flat".

Seen with 3DEP tiles: the neighbouring tile given instead of the site's, or a
void (nodata) under the work. ``slope_data_coverage`` is 0 and the slope rules
of every pack must need review, as they do with no DEM at all.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from shapely.geometry import box

from sitecheck.app.cli import main
from sitecheck.rules.pack import load_pack

from .conftest import write_dem, write_layer

SLOPE_METRICS = {"disturbed_on_slope_over_15pct_sqft", "disturbed_on_slope_over_25pct_sqft"}


def _site(tmp_path: Path, dem_west: float, nodata_under_work: bool) -> dict[str, str]:
    gpkg = tmp_path / "site.gpkg"
    rows, cols, cell = 200, 200, 2.0
    elevation = np.tile(np.arange(cols) * cell * 0.30, (rows, 1))  # a 30% slope, west to east
    if nodata_under_work:
        elevation[:, :] = -9999.0
    return {
        "parcels": write_layer(
            gpkg, "parcels", [{"parcel_id": "L1", "geometry": box(0, 0, 300, 300)}]
        ),
        "disturbance": write_layer(
            gpkg,
            "disturbance",
            [{"parcel_id": "L1", "activity": "construction", "geometry": box(50, 50, 250, 250)}],
        ),
        "dem": write_dem(tmp_path / "dem.tif", elevation, dem_west, 400.0, cell),
    }


def _slope_outcomes(tmp_path: Path, layers: dict[str, str], pack: str) -> tuple[dict, dict]:
    out = tmp_path / pack
    argv = [
        "check",
        "--quiet",
        "--ordinance",
        pack,
        "--out",
        f"{out}.gpkg",
        "--json",
        f"{out}.json",
    ]
    for role, spec in layers.items():
        argv += [f"--{role}", spec]
    assert main(argv) == 0
    parcel = json.loads(Path(f"{out}.json").read_text())["parcels"][0]
    return parcel["metrics"], {t["rule_id"]: t for t in parcel["triggers"]}


def _slope_rules(pack: str, triggers: dict) -> dict:
    """The outcomes of the pack's rules whose conditions name a slope metric."""
    rules = {rule.id for rule in load_pack(pack).rules if set(rule.names()) & SLOPE_METRICS}
    return {rule_id: t for rule_id, t in triggers.items() if rule_id in rules}


@pytest.mark.parametrize(
    ("case", "dem_west", "nodata"),
    [("neighbouring tile", 5_000.0, False), ("void under the work", 0.0, True)],
)
@pytest.mark.parametrize("pack", ["scarsdale", "larchmont", "homer"])
def test_slope_rules_need_review_when_the_dem_has_nothing_under_the_work(
    tmp_path, case, dem_west, nodata, pack
):
    metrics, triggers = _slope_outcomes(tmp_path, _site(tmp_path, dem_west, nodata), pack)
    assert metrics["slope_data_coverage"] == 0
    slope_rules = _slope_rules(pack, triggers)
    assert slope_rules, f"{pack} has rules on slopes"
    for rule_id, trigger in slope_rules.items():
        assert trigger["outcome"] == "needs_review", (case, rule_id, trigger["reason"])
        assert "no elevations under the disturbance" in trigger["reason"]


def test_the_same_dem_over_the_work_measures_the_slope(tmp_path):
    metrics, triggers = _slope_outcomes(tmp_path, _site(tmp_path, 0.0, False), "scarsdale")
    assert metrics["slope_data_coverage"] == pytest.approx(1.0)
    assert metrics["disturbed_on_slope_over_25pct_sqft"] == pytest.approx(40_000.0, rel=0.02)
    assert triggers["scarsdale.site_limits.slope"]["outcome"] == "triggered"
