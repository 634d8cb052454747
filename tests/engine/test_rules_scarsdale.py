"""Scarsdale Ch. 254: each rule under, at and over its thresholds, from drawn geometry."""

from __future__ import annotations

import pytest

from .rule_case import Case, run_case

PACK = "scarsdale"
BIG_LOT, SMALL_LOT, TWO_ACRES = 20_000.0, 6_000.0, 87_120.0


def outcome(tmp_path, case: Case, rule: str, tolerance: float = 0.0) -> str:
    by_rule, _, _ = run_case(tmp_path, PACK, case, tolerance)
    return by_rule[rule].outcome


@pytest.mark.parametrize(
    ("lot", "disturbed", "exempt", "permit"),
    [
        (BIG_LOT, 499.0, "triggered", "not_triggered"),
        (BIG_LOT, 500.0, "needs_review", "needs_review"),  # "less than 500" / "more than 500"
        (BIG_LOT, 501.0, "not_triggered", "triggered"),
        (SMALL_LOT, 199.0, "triggered", "not_triggered"),
        (SMALL_LOT, 200.0, "needs_review", "needs_review"),
        (SMALL_LOT, 201.0, "not_triggered", "triggered"),
        (7_500.0, 300.0, "not_triggered", "triggered"),  # 7,500 is a small lot ("or less")
        (7_501.0, 300.0, "triggered", "not_triggered"),
    ],
)
def test_exemption_and_permit_thresholds(tmp_path, lot, disturbed, exempt, permit):
    by_rule, metrics, _ = run_case(tmp_path, PACK, Case(lot_sqft=lot, disturbed_sqft=disturbed))
    assert metrics["disturbed_area_sqft"] == pytest.approx(disturbed)
    assert by_rule["scarsdale.exempt.small_disturbance"].outcome == exempt
    assert by_rule["scarsdale.permit"].outcome == permit
    assert by_rule["scarsdale.permit"].rule.citation == "§ 254-7"
    assert by_rule["scarsdale.exempt.small_disturbance"].rule.citation == "§ 254-5"


def test_exactly_500_says_why_it_needs_review(tmp_path):
    by_rule, _, _ = run_case(tmp_path, PACK, Case(disturbed_sqft=500.0))
    reason = by_rule["scarsdale.permit"].reason
    assert "exactly at the threshold the law names neither" in reason
    assert "disturbed 500 sq ft = 500 sq ft" in reason


def test_within_the_tolerance_band_needs_review(tmp_path):
    by_rule, _, _ = run_case(tmp_path, PACK, Case(disturbed_sqft=5_050.0), tolerance=0.02)
    trigger = by_rule["scarsdale.tier.254_9"]
    assert trigger.outcome == "needs_review"
    assert "within 2% of 5,000 sq ft" in trigger.reason


@pytest.mark.parametrize(
    ("disturbed", "in_sda", "tier_8", "tier_9"),
    [
        (4_999.0, False, "triggered", "not_triggered"),
        (5_000.0, False, "triggered", "not_triggered"),  # "up to 5,000" / "greater than 5,000"
        (5_001.0, False, "not_triggered", "triggered"),
        (1_499.0, True, "triggered", "not_triggered"),
        (1_500.0, True, "triggered", "not_triggered"),
        (1_501.0, True, "not_triggered", "triggered"),
        (3_000.0, None, "needs_review", "needs_review"),  # SDA unknown decides the tier
        (1_000.0, None, "triggered", "not_triggered"),  # 254-8 whatever the SDA
    ],
)
def test_application_tiers(tmp_path, disturbed, in_sda, tier_8, tier_9):
    by_rule, _, _ = run_case(tmp_path, PACK, Case(disturbed_sqft=disturbed, in_sda=in_sda))
    assert by_rule["scarsdale.tier.254_8"].outcome == tier_8
    assert by_rule["scarsdale.tier.254_9"].outcome == tier_9


def test_missing_sda_layer_names_what_is_missing(tmp_path):
    by_rule, _, _ = run_case(tmp_path, PACK, Case(disturbed_sqft=3_000.0, in_sda=None))
    assert "no SDA layer or parcel field was given" in by_rule["scarsdale.tier.254_9"].reason


@pytest.mark.parametrize(
    ("lot", "storm_25", "storm_100", "years"),
    [
        (TWO_ACRES - 1_000, "triggered", "not_triggered", 25),
        (TWO_ACRES, "needs_review", "needs_review", None),
        (TWO_ACRES + 1_000, "not_triggered", "triggered", 100),
    ],
)
def test_design_storm_by_site_size(tmp_path, lot, storm_25, storm_100, years):
    by_rule, _, outcome_ = run_case(tmp_path, PACK, Case(lot_sqft=lot, disturbed_sqft=6_000.0))
    assert by_rule["scarsdale.storm.25yr"].outcome == storm_25
    assert by_rule["scarsdale.storm.100yr"].outcome == storm_100
    assert outcome_.design_storm_years == years
    if lot == TWO_ACRES:
        assert "at exactly two acres" in by_rule["scarsdale.storm.25yr"].reason


def test_two_acre_storm_sets_of_254_9(tmp_path):
    large, _, _ = run_case(tmp_path, PACK, Case(lot_sqft=TWO_ACRES + 1_000, disturbed_sqft=6_000.0))
    assert large["scarsdale.storm_set.large"].outcome == "triggered"
    assert large["scarsdale.storm_set.large"].rule.design_storms == (100, 50, 25, 10, 2)
    assert large["scarsdale.storm_set.small"].outcome == "not_triggered"


@pytest.mark.parametrize(
    ("disturbed", "expected"),
    [(43_000.0, "not_triggered"), (43_560.0, "triggered"), (44_000.0, "triggered")],
)
def test_nysdec_at_one_acre(tmp_path, disturbed, expected):
    case = Case(lot_sqft=200_000.0, disturbed_sqft=disturbed)
    assert outcome(tmp_path, case, "scarsdale.nysdec") == expected


@pytest.mark.parametrize(
    ("in_sda", "expected"), [(True, "triggered"), (False, "not_triggered"), (None, "needs_review")]
)
def test_sda_retrofit_and_unimproved_predevelopment(tmp_path, in_sda, expected):
    by_rule, _, _ = run_case(tmp_path, PACK, Case(disturbed_sqft=1_200.0, in_sda=in_sda))
    assert by_rule["scarsdale.sda.retrofit"].outcome == expected
    assert by_rule["scarsdale.sda.retrofit"].rule.citation == "§ 254-7E"
    assert by_rule["scarsdale.sda.predevelopment"].outcome == expected


@pytest.mark.parametrize(
    ("zoning", "expected"), [("A-3", "triggered"), ("B-1", "not_triggered"), (None, "needs_review")]
)
def test_adjoining_buffer_needs_the_planning_board(tmp_path, zoning, expected):
    # 600 sq ft: over § 254-5's small-disturbance limit, so no exemption is in question
    # (test_law_scarsdale_reading.py asks about exempt work in the buffer).
    case = Case(
        disturbed_sqft=600.0, neighbour=True, zoning=zoning, attributes={"activity": "construction"}
    )
    by_rule, metrics, _ = run_case(tmp_path, PACK, case)
    assert by_rule["scarsdale.adjoining_buffer.site_plan"].outcome == expected
    assert (
        by_rule["scarsdale.adjoining_buffer.site_plan"].rule.severity == "board_approval_required"
    )
    if zoning != "B-1":
        assert metrics["disturbed_in_adjoining_buffer_sqft"] > 0
        assert by_rule["scarsdale.adjoining_buffer.notice_lot"].outcome == expected


def test_no_disturbance_in_the_buffer_no_board(tmp_path):
    assert outcome(
        tmp_path, Case(disturbed_sqft=300.0), "scarsdale.adjoining_buffer.site_plan"
    ) == ("not_triggered")


@pytest.mark.parametrize(
    ("activity", "permit"),
    [
        ("lawn_stripping_and_sod", "not_triggered"),
        ("construction", "triggered"),
        (None, "triggered"),
    ],
)
def test_lawn_stripping_and_sod_is_exempt(tmp_path, activity, permit):
    attributes = {} if activity is None else {"activity": activity}
    by_rule, _, _ = run_case(tmp_path, PACK, Case(disturbed_sqft=2_000.0, attributes=attributes))
    exemption = by_rule["scarsdale.exempt.lawn_sod"]
    assert (
        exemption.outcome
        == {
            "lawn_stripping_and_sod": "triggered",
            "construction": "not_triggered",
            None: "needs_review",
        }[activity]
    )
    assert by_rule["scarsdale.permit"].outcome == permit
    if activity == "lawn_stripping_and_sod":
        assert "§ 254-5(11)" in by_rule["scarsdale.permit"].reason


@pytest.mark.parametrize(
    ("cultivated", "exemption", "permit"),
    [
        (None, "needs_review", "triggered"),  # the question is asked, the permit stands
        ("true", "triggered", "not_triggered"),
        ("false", "not_triggered", "triggered"),
    ],
)
def test_landscaping_is_exempt_only_of_existing_cultivated_areas(
    tmp_path, cultivated, exemption, permit
):
    # § 254-5(1): "Lawn maintenance and landscaping of existing cultivated areas, including
    # gardens."
    attributes = {"activity": "landscaping"}
    if cultivated is not None:
        attributes["existing_cultivated"] = cultivated
    by_rule, _, _ = run_case(tmp_path, PACK, Case(disturbed_sqft=3_000.0, attributes=attributes))
    assert by_rule["scarsdale.exempt.landscaping"].outcome == exemption
    assert by_rule["scarsdale.exempt.listed_activity"].outcome == "not_triggered"
    assert by_rule["scarsdale.permit"].outcome == permit
    if cultivated is None:
        assert "landscaping of an existing cultivated area not given" in (
            by_rule["scarsdale.exempt.landscaping"].reason
        )


@pytest.mark.parametrize("activity", [None, "fence_sign_or_poles"])
def test_small_or_exempt_work_on_exactly_two_acres_asks_no_storm_question(tmp_path, activity):
    # § 254-5: work under 500 sq ft needs no permit, so § 254-7's "up to two acres" /
    # "two acres or greater" storms never arise for it.
    attributes = {} if activity is None else {"activity": activity}
    disturbed = 300.0 if activity is None else 3_000.0
    case = Case(lot_sqft=TWO_ACRES, disturbed_sqft=disturbed, attributes=attributes)
    by_rule, _, outcome_ = run_case(tmp_path, PACK, case)
    for rule in ("scarsdale.storm.25yr", "scarsdale.storm.100yr", "scarsdale.storm_set.large"):
        assert by_rule[rule].outcome == "not_triggered", (rule, by_rule[rule].reason)
    assert outcome_.design_storm_years is None


def test_emergency_work_is_exempt_as_the_village_engineer_determines(tmp_path):
    # § 254-5(4): "Any emergency activity which is immediately necessary for the protection
    # of life, property or natural resources, as determined by the Village Engineer."
    case = Case(disturbed_sqft=3_000.0, attributes={"activity": "emergency"})
    by_rule, _, _ = run_case(tmp_path, PACK, case)
    assert by_rule["scarsdale.exempt.emergency"].outcome == "needs_review"
    assert "the Village Engineer determines" in by_rule["scarsdale.exempt.emergency"].reason
    assert by_rule["scarsdale.permit"].outcome == "triggered"


def test_slope_rule_needs_a_dem(tmp_path):
    without, _, _ = run_case(tmp_path / "a", PACK, Case(disturbed_sqft=6_000.0))
    assert without["scarsdale.site_limits.slope"].outcome == "needs_review"
    assert "no DEM was given" in without["scarsdale.site_limits.slope"].reason
    steep, _, _ = run_case(tmp_path / "b", PACK, Case(disturbed_sqft=6_000.0, steep_pct=20.0))
    assert steep["scarsdale.site_limits.slope"].outcome == "triggered"
    flat, _, _ = run_case(tmp_path / "c", PACK, Case(disturbed_sqft=6_000.0, steep_pct=5.0))
    assert flat["scarsdale.site_limits.slope"].outcome == "not_triggered"


def test_floodplain_on_the_plan(tmp_path):
    case = Case(disturbed_sqft=6_000.0, floodway_sqft=300.0)
    by_rule, metrics, _ = run_case(tmp_path, PACK, case)
    assert metrics["disturbed_in_floodway_sqft"] == pytest.approx(300.0)
    assert by_rule["scarsdale.site_limits.flood_wetland"].outcome == "triggered"


def test_retrofit_relief_when_cover_does_not_grow(tmp_path):
    same = Case(disturbed_sqft=2_000.0, existing_sqft=1_000.0, proposed_sqft=1_000.0)
    more = Case(disturbed_sqft=2_000.0, existing_sqft=1_000.0, proposed_sqft=1_400.0)
    assert outcome(tmp_path / "a", same, "scarsdale.retrofit_relief") == "triggered"
    assert outcome(tmp_path / "b", more, "scarsdale.retrofit_relief") == "not_triggered"


def test_every_quote_is_the_law_word_for_word():
    import re
    from pathlib import Path

    from sitecheck.rules.pack import load_pack

    law_file = Path(__file__).resolve().parent / "laws/scarsdale-ch254-stormwater.txt"
    pack = load_pack(PACK)
    assert all(rule.citation.startswith("§ 254-") for rule in pack.rules)
    law = " ".join(law_file.read_text(encoding="utf-8").split())
    for rule in pack.rules:
        for piece in re.split(r"(?<=[.;:])\s+", rule.quote):
            assert piece in law, f"{rule.id}: not in the law: {piece!r}"
