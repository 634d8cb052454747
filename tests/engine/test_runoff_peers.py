"""The runoff screen side by side with two peers and TR-55's own runoff equation.

``cnkit`` (NEH-630 chapter 10 runoff, ``composite_runoff``: per subarea against
a weighted CN) and ``tr55`` (the Model My Watershed TR-55 model, its
``runoff_nrcs``) compute the same runoff depths independently. The engine must
agree with them surface by surface, and show what the composite CN loses.
"""

from __future__ import annotations

import cnkit
import numpy as np
import pytest
import tr55.model

from sitecheck.runoff.lot_runoff import RunoffSettings, parcel_runoff

# TR-55 Table 2-2a, open space in good condition; the same CNs as Table 2-2c's pasture in
# good condition, which is tr55's "pasture" land use.
OPEN_SPACE_GOOD = {"A": 39, "B": 61, "C": 74, "D": 80}
LOT_SQFT = 10_000.0


def _tr55_runoff_depth(p_in: float, group: str, impervious_share: float) -> float:
    """tr55's lawn depth beside TR-55's equation for CN 98 (tr55 has no CN 98 land use)."""
    lawn = tr55.model.runoff_nrcs(p_in, 0.0, group.lower(), "pasture")
    pavement = float(cnkit.runoff(p_in, 98))
    return impervious_share * pavement + (1 - impervious_share) * lawn


@pytest.mark.parametrize("group", ["A", "B", "C", "D"])
@pytest.mark.parametrize("rain", [1.0, 2.8, 5.1, 8.0])
@pytest.mark.parametrize("impervious", [0.05, 0.3, 0.75])
def test_runoff_surface_by_surface_agrees_with_cnkit_and_tr55(group, rain, impervious):
    result = parcel_runoff(LOT_SQFT, 0.0, impervious * LOT_SQFT, group, {1: rain}, 1).table.iloc[0]
    depth = result["runoff_post_cuft_1yr"] / LOT_SQFT * 12.0
    distributed, from_weighted_cn, _ = cnkit.composite_runoff(
        rain, [98, OPEN_SPACE_GOOD[group]], [impervious, 1 - impervious]
    )
    assert depth == pytest.approx(distributed, rel=1e-9, abs=1e-12)
    assert depth == pytest.approx(_tr55_runoff_depth(rain, group, impervious), rel=1e-9)
    # the composite CN is still reported, and is cnkit's weighted CN
    assert result["cn_post"] == pytest.approx(
        float(cnkit.composite_cn([98, OPEN_SPACE_GOOD[group]], [impervious, 1 - impervious]))
    )
    assert from_weighted_cn <= distributed + 1e-12  # weighting never adds runoff here


def test_new_pavement_on_a_soils_no_longer_vanishes_in_the_composite():
    """A driveway and house (3,000 sq ft) on a 10,000 sq ft lot of A soils, 1-year storm."""
    rain = 2.8
    row = parcel_runoff(LOT_SQFT, 0.0, 3_000.0, "A", {1: rain}, 1).table.iloc[0]
    # TR-55's equation by hand: CN 98, S = 0.2041, Ia = 0.0408,
    # Q = (2.8 - 0.0408)^2 / (2.8 + 0.1633) = 7.6131 / 2.9633 = 2.5692 in over 3,000 sq ft
    # = 642.3 cu ft;
    # the lawn (CN 39, Ia = 3.128 in) gives nothing.
    assert row["runoff_post_cuft_1yr"] == pytest.approx(642.3, abs=0.1)
    # the composite CN 56.7 (Ia = 1.53 in) gives under a quarter of it (151.5 cu ft)
    composite = float(cnkit.runoff(rain, row["cn_post"])) / 12 * LOT_SQFT
    assert composite == pytest.approx(151.5, abs=0.1)
    assert row["retention_required_cuft"] == pytest.approx(642.3, abs=0.1)


@pytest.mark.parametrize("reading", ["undrained", "drained"])
def test_a_dual_group_retention_takes_the_reading_with_the_larger_increase(reading):
    """B/D soil: undrained it is D (CN 80 lawn), drained it is B (CN 61 lawn).

    Total runoff follows the chosen reading; the retention takes the larger increase.
    """
    rain, before, after = 6.2, 1_000.0, 4_000.0
    row = parcel_runoff(
        LOT_SQFT, before, after, "B/D", {25: rain}, 25, settings=RunoffSettings(dual_hsg=reading)
    ).table.iloc[0]

    def volume(impervious: float, lawn_cn: int) -> float:
        depth, _, _ = cnkit.composite_runoff(
            rain, [98, lawn_cn], [impervious / LOT_SQFT, 1 - impervious / LOT_SQFT]
        )
        return depth / 12 * LOT_SQFT

    increase = {
        "undrained": volume(after, 80) - volume(before, 80),
        "drained": volume(after, 61) - volume(before, 61),
    }
    assert increase["drained"] > increase["undrained"]  # a drier lawn loses more to pavement
    lawn_cn = 80 if reading == "undrained" else 61
    assert row["runoff_post_cuft_25yr"] == pytest.approx(volume(after, lawn_cn))
    assert row["retention_required_cuft"] == pytest.approx(increase["drained"])
    assert row["retention_dual_drained"] == 1.0


def test_lots_without_a_dual_group_say_nothing_about_the_reading():
    row = parcel_runoff(LOT_SQFT, 0.0, 3_000.0, "C", {25: 6.2}, 25).table.iloc[0]
    assert np.isnan(row["retention_dual_drained"])
