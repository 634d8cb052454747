"""A DEM with no elevations under the work says nothing about its slopes: review, not "flat".

Seen with 3DEP tiles: the neighbouring tile given instead of the site's, or a
void (nodata) under the work. ``slope_data_coverage`` is 0 and the slope rules
of every pack must need review, as they do with no DEM at all.

A tile that ends across the work measures a least value: the slope area found
on the covered part, which the uncovered rest could raise by up to its whole
area. Every pack's slope rules are decided only where that range decides them.
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


def _site(
    tmp_path: Path,
    dem_west: float,
    nodata_under_work: bool,
    cols: int = 200,
    grade: float = 0.30,
    work: tuple[float, float, float, float] = (50, 50, 250, 250),
) -> dict[str, str]:
    gpkg = tmp_path / "site.gpkg"
    rows, cell = 200, 2.0
    elevation = np.tile(np.arange(cols) * cell * grade, (rows, 1))  # west to east
    if nodata_under_work:
        elevation[:, :] = -9999.0
    return {
        "parcels": write_layer(
            gpkg, "parcels", [{"parcel_id": "L1", "geometry": box(0, 0, 300, 300)}]
        ),
        "disturbance": write_layer(
            gpkg,
            "disturbance",
            [{"parcel_id": "L1", "activity": "construction", "geometry": box(*work)}],
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
        "--json-layout",
        "full",
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


# The packs with rules on measured slopes. Larchmont has none: § 335-25B(1)(b) asks for
# existing and final slopes on every SWPPP site map, whatever the ground.
SLOPE_PACKS = ["scarsdale", "homer"]


@pytest.mark.parametrize(
    ("case", "dem_west", "nodata"),
    [("neighbouring tile", 5_000.0, False), ("void under the work", 0.0, True)],
)
@pytest.mark.parametrize("pack", SLOPE_PACKS)
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


# The tile ends at x = 150 ft: it covers the west half of the 200 x 200 ft work
# (40,000 sq ft), less the one-cell edge ring where Horn's slope has no neighbours.
HALF_TILE_COLUMNS = 75


@pytest.mark.parametrize("pack", SLOPE_PACKS)
def test_flat_ground_on_half_the_work_is_not_a_finding_of_no_steep_slope(tmp_path, pack):
    layers = _site(tmp_path, 0.0, False, cols=HALF_TILE_COLUMNS, grade=0.0)
    metrics, triggers = _slope_outcomes(tmp_path, layers, pack)
    assert 0.45 < metrics["slope_data_coverage"] < 0.5
    assert metrics["disturbed_on_slope_over_15pct_sqft"] == 0
    slope_rules = _slope_rules(pack, triggers)
    assert slope_rules
    covered = f"{metrics['slope_data_coverage']:.0%}"
    for rule_id, trigger in slope_rules.items():
        assert trigger["outcome"] == "needs_review", (rule_id, trigger["reason"])
        # the most the slope area can be: the uncovered share of the 40,000 sq ft
        most = (1 - metrics["slope_data_coverage"]) * 40_000
        assert f"0 to {most:,.0f} sq ft" in trigger["reason"]
        assert f"the DEM covers {covered} of the disturbance" in trigger["reason"]


@pytest.mark.parametrize("pack", SLOPE_PACKS)
def test_steep_ground_on_half_the_work_already_decides_the_rule(tmp_path, pack):
    layers = _site(tmp_path, 0.0, False, cols=HALF_TILE_COLUMNS, grade=0.30)
    metrics, triggers = _slope_outcomes(tmp_path, layers, pack)
    # the covered half is all 30% slope: about 20,000 sq ft less the edge ring
    assert 18_000 < metrics["disturbed_on_slope_over_15pct_sqft"] < 20_000
    for rule_id, trigger in _slope_rules(pack, triggers).items():
        assert trigger["outcome"] == "triggered", (rule_id, trigger["reason"])
        assert "disturbed on slopes over 15% at least" in trigger["reason"]


@pytest.mark.parametrize("pack", SLOPE_PACKS)
def test_work_under_the_threshold_is_decided_whatever_the_slope(tmp_path, pack):
    # 20 x 20 ft of work (400 sq ft), under every pack's disturbance threshold (Larchmont's
    # 500 sq ft the least), part of it on the tile
    layers = _site(tmp_path, 0.0, False, cols=HALF_TILE_COLUMNS, grade=0.0, work=(140, 50, 160, 70))
    metrics, triggers = _slope_outcomes(tmp_path, layers, pack)
    assert 0 < metrics["slope_data_coverage"] < 1
    for rule_id, trigger in _slope_rules(pack, triggers).items():
        assert trigger["outcome"] == "not_triggered", (rule_id, trigger["reason"])
