"""Larchmont Ch. 335: each rule under, at and over its thresholds, from drawn geometry."""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd
import pytest
from shapely.geometry import LineString, box

from sitecheck.io.readers import LayerSource
from sitecheck.measure.inputs import MeasureInputs, MeasureSettings
from sitecheck.pipeline.run import screen
from sitecheck.pipeline.spec import RunSpec
from sitecheck.rules.pack import load_pack

from .conftest import write_layer
from .rule_case import X0, Y0, Case, run_case

PACK = "larchmont"
HALF_ACRE, ACRE, FIVE_ACRES = 21_780.0, 43_560.0, 217_800.0
LAW = Path(__file__).resolve().parent / "laws/larchmont-ch335-stormwater.txt"

EXEMPTIONS = {
    "agricultural": ("larchmont.exempt.agricultural", "§ 335-23E(1)"),
    "silvicultural": ("larchmont.exempt.silvicultural", "§ 335-23E(2)"),
    "routine_maintenance": ("larchmont.exempt.routine_maintenance", "§ 335-23E(3)"),
    "stormwater_facility_repair": ("larchmont.exempt.stormwater_repair", "§ 335-23E(4)"),
    "cemetery_graves": ("larchmont.exempt.cemetery_graves", "§ 335-23E(7)"),
    "fence_sign_or_poles": ("larchmont.exempt.fence_sign_poles", "§ 335-23E(8)"),
    "emergency": ("larchmont.exempt.emergency", "§ 335-23E(9)"),
    "home_gardening": ("larchmont.exempt.home_gardening", "§ 335-23E(10)"),
}
# Rules that attach to every land development activity, with their citations.
LDA_RULES = {
    "larchmont.swppp": "§ 335-23D(4), § 335-25A",
    "larchmont.swppp.contents": "§ 335-25B(1)",
    "larchmont.swppp.no_net_increase": "§ 335-25B(1)(v)",
    "larchmont.certification.plan": "§ 335-25C",
    "larchmont.certification.contractor": "§ 335-25E(1)",
    "larchmont.swppp.on_site": "§ 335-25F",
    "larchmont.consultant_review": "§ 335-23D(2)",
    "larchmont.design_standards": "§ 335-26A",
    "larchmont.inspection.weekly": "§ 335-27A(2)",
    "larchmont.inspection.subsurface": "§ 335-27A(5)",
}


def outcomes(tmp_path, case: Case, tolerance: float = 0.0):
    by_rule, metrics, parcel = run_case(tmp_path, PACK, case, tolerance)
    return {rule: trigger.outcome for rule, trigger in by_rule.items()}, by_rule, metrics, parcel


# --- The land development activity and its SWPPP (§ 335-24, § 335-25A) ----------


@pytest.mark.parametrize(
    ("disturbed", "expected"),
    [(499.0, "not_triggered"), (500.0, "triggered"), (501.0, "triggered")],  # "equal to or greater"
)
def test_swppp_at_500_sqft(tmp_path, disturbed, expected):
    got, by_rule, metrics, parcel = outcomes(tmp_path, Case(disturbed_sqft=disturbed))
    assert metrics["disturbed_area_sqft"] == pytest.approx(disturbed)
    for rule, citation in LDA_RULES.items():
        assert got[rule] == expected, rule
        assert by_rule[rule].rule.citation == citation
    # Under 500 sq ft only the common-plan clause can bring the work in, and its
    # attribute was not given: asked once, by its own rule.
    common = by_rule["larchmont.swppp.common_plan"]
    assert common.rule.citation == "§ 335-24"
    if disturbed < 500:
        assert common.outcome == "needs_review"
        assert "part of a larger common plan not given" in common.reason
        assert parcel.design_storm_years is None
    else:
        assert common.outcome == "not_triggered"
        assert parcel.design_storm_years == 50  # § 335-25B(1)(v): 50-year at a minimum
    # Exemptions are asked about (activity missing) only for a land development activity.
    exemption = "needs_review" if disturbed >= 500 else "not_triggered"
    assert {got[rule] for rule, _ in EXEMPTIONS.values()} == {exemption}


def test_swppp_reason_names_the_threshold(tmp_path):
    _, by_rule, _, _ = outcomes(tmp_path, Case(disturbed_sqft=500.0))
    assert "disturbed 500 sq ft = 500 sq ft" in by_rule["larchmont.swppp"].reason


@pytest.mark.parametrize(
    ("disturbed", "expected"),
    [
        (480.0, "not_triggered"),
        (495.0, "needs_review"),
        (505.0, "needs_review"),
        (520.0, "triggered"),
    ],
)
def test_default_tolerance_band_at_500(tmp_path, disturbed, expected):
    got, by_rule, _, _ = outcomes(tmp_path, Case(disturbed_sqft=disturbed), tolerance=0.02)
    assert got["larchmont.swppp"] == expected
    if expected == "needs_review":
        assert "within 2% of 500 sq ft" in by_rule["larchmont.swppp"].reason


def test_common_plan_brings_small_disturbance_in(tmp_path):
    case = Case(disturbed_sqft=300.0, attributes={"larger_common_plan": True})
    # the disturbance layer's field must reach the rules (it was once dropped on the way,
    # and these two rules then read "not triggered")
    got, _, _, _ = outcomes(tmp_path, case)
    assert got["larchmont.swppp.common_plan"] == "triggered"
    assert got["larchmont.certification.plan"] == "triggered"
    assert got["larchmont.swppp"] == "not_triggered"


# --- Exemptions (§ 335-23E) --------------------------------------------------------


@pytest.mark.parametrize("activity", sorted(EXEMPTIONS))
def test_exempt_activity_switches_the_swppp_off(tmp_path, activity):
    attributes = {"activity": activity, "permit": "building"}
    if activity == "agricultural":
        attributes["project_type"] = "agricultural"  # farming that builds nothing
    case = Case(disturbed_sqft=2_000.0, attributes=attributes)
    got, by_rule, _, _ = outcomes(tmp_path, case)
    rule, citation = EXEMPTIONS[activity]
    assert got[rule] == "triggered"
    assert by_rule[rule].rule.citation == citation
    assert by_rule[rule].rule.severity == "exempt"
    others = {got[other] for other, _ in EXEMPTIONS.values() if other != rule}
    assert others == {"not_triggered"}
    for lda_rule in LDA_RULES:
        assert got[lda_rule] == "not_triggered", lda_rule
    assert f"exempt under {citation}" in by_rule["larchmont.swppp"].reason
    # § 335-28A applies "notwithstanding any of the foregoing": still the 50-year offset.
    assert got["larchmont.storm.50yr"] == "triggered"


@pytest.mark.parametrize(
    ("project_type", "proposed", "expected"),
    [
        ("agricultural_building", 1_000.0, "not_triggered"),
        ("agricultural", 3_000.0, "not_triggered"),  # new impervious cover: a structure
        (None, 1_000.0, "needs_review"),  # is a structure built? not recorded
    ],
)
def test_new_agricultural_structures_are_not_agricultural_activity(
    tmp_path, project_type, proposed, expected
):
    # § 335-24: agricultural activity "shall not include ... the construction of new
    # structures associated with agricultural activities"
    attributes = {"activity": "agricultural"}
    if project_type:
        attributes["project_type"] = project_type
    case = Case(disturbed_sqft=2_000.0, proposed_sqft=proposed, attributes=attributes)
    got, _, _, _ = outcomes(tmp_path, case)
    assert got["larchmont.exempt.agricultural"] == expected
    assert got["larchmont.swppp"] == "triggered"


def test_construction_is_not_exempt(tmp_path):
    case = Case(disturbed_sqft=2_000.0, attributes={"activity": "construction"})
    got, _, _, _ = outcomes(tmp_path, case)
    assert {got[rule] for rule, _ in EXEMPTIONS.values()} == {"not_triggered"}
    assert got["larchmont.swppp"] == "triggered"


@pytest.mark.parametrize(
    ("disturbed", "exempt", "swppp"),
    [
        (FIVE_ACRES - 1, "triggered", "not_triggered"),
        (FIVE_ACRES, "not_triggered", "triggered"),  # "less than five acres"
        (FIVE_ACRES + 1, "not_triggered", "triggered"),
    ],
)
def test_routine_maintenance_under_five_acres(tmp_path, disturbed, exempt, swppp):
    case = Case(
        lot_sqft=600_000.0, disturbed_sqft=disturbed, attributes={"activity": "routine_maintenance"}
    )
    got, _, _, _ = outcomes(tmp_path, case)
    assert got["larchmont.exempt.routine_maintenance"] == exempt
    assert got["larchmont.swppp"] == swppp
    assert got["larchmont.inspection.twice_weekly"] == swppp  # five acres or more at once
    assert got["larchmont.nysdec"] == "triggered"  # the state permit has no local exemption


# --- Conditions A and B (§ 335-25B(2)), § 335-27A(3), § 335-27B -------------------


@pytest.mark.parametrize(
    ("disturbed", "expected"),
    [(HALF_ACRE - 1, "not_triggered"), (HALF_ACRE, "triggered"), (HALF_ACRE + 1, "triggered")],
)
def test_condition_b_at_half_an_acre(tmp_path, disturbed, expected):
    case = Case(lot_sqft=100_000.0, disturbed_sqft=disturbed, in_impaired_watershed=False)
    got, by_rule, _, _ = outcomes(tmp_path, case)
    assert got["larchmont.post_construction.condition_b"] == expected
    assert by_rule["larchmont.post_construction.condition_b"].rule.citation == "§ 335-25B(2)(b)"
    assert got["larchmont.inspection.qualified"] == expected
    assert by_rule["larchmont.inspection.qualified"].rule.citation == "§ 335-27A(3)"
    assert got["larchmont.maintenance_easement"] == expected
    assert got["larchmont.post_construction.condition_a"] == "not_triggered"


@pytest.mark.parametrize(
    ("disturbed", "impaired", "expected"),
    [
        (1_000.0, True, "triggered"),
        (1_000.0, False, "not_triggered"),
        (1_000.0, None, "needs_review"),
        (300.0, True, "not_triggered"),  # not a land development activity
    ],
)
def test_condition_a_impaired_watershed(tmp_path, disturbed, impaired, expected):
    case = Case(disturbed_sqft=disturbed, in_impaired_watershed=impaired)
    got, by_rule, metrics, _ = outcomes(tmp_path, case)
    if impaired is None:
        assert pd.isna(metrics["in_impaired_watershed"])
    else:
        assert bool(metrics["in_impaired_watershed"]) is impaired
    trigger = by_rule["larchmont.post_construction.condition_a"]
    assert trigger.outcome == expected
    assert trigger.rule.citation == "§ 335-25B(2)(a)"
    assert got["larchmont.inspection.qualified"] == expected
    assert got["larchmont.maintenance_easement"] == expected
    assert got["larchmont.post_construction.condition_b"] == "not_triggered"
    if impaired is None:
        assert "no impaired-waters watershed layer was given" in trigger.reason


# --- Green infrastructure (§ 335-25B(4)) -------------------------------------------


@pytest.mark.parametrize(
    ("disturbed", "proposed", "expected"),
    [
        (1_000.0, 1_099.0, "not_triggered"),
        (1_000.0, 1_100.0, "triggered"),  # "100 square feet or more"
        (1_000.0, 1_101.0, "triggered"),
        (1_000.0, None, "needs_review"),  # no proposed cover layer
        (300.0, 1_200.0, "not_triggered"),  # not a land development activity
    ],
)
def test_green_infrastructure_at_100_sqft_net_increase(tmp_path, disturbed, proposed, expected):
    case = Case(disturbed_sqft=disturbed, existing_sqft=1_000.0, proposed_sqft=proposed)
    got, by_rule, metrics, _ = outcomes(tmp_path, case)
    if proposed is not None:
        assert metrics["impervious_net_change_sqft"] == pytest.approx(proposed - 1_000.0)
    assert got["larchmont.green_infrastructure"] == expected
    assert by_rule["larchmont.green_infrastructure"].rule.citation == "§ 335-25B(4)"


# --- Peak-runoff offset (§ 335-28) and the state permit ----------------------------


@pytest.mark.parametrize(
    ("disturbed", "permit", "storm_50", "storm_100", "years"),
    [
        (ACRE - 1, "building", "triggered", "not_triggered", 50),
        (ACRE, "building", "triggered", "not_triggered", 50),  # "greater than one acre": not met
        (ACRE + 1, "building", "not_triggered", "triggered", 100),
        (ACRE + 1, "demolition", "not_triggered", "triggered", 100),
        (ACRE - 1, None, "needs_review", "not_triggered", 50),
        (ACRE, None, "needs_review", "not_triggered", 50),
        (ACRE + 1, None, "not_triggered", "needs_review", 50),  # 25B(1)(v) minimum only
        (ACRE + 1, "none", "not_triggered", "not_triggered", 50),
    ],
)
def test_design_storm_at_one_acre(tmp_path, disturbed, permit, storm_50, storm_100, years):
    attributes = {} if permit is None else {"permit": permit}
    case = Case(lot_sqft=200_000.0, disturbed_sqft=disturbed, attributes=attributes)
    got, by_rule, _, parcel = outcomes(tmp_path, case)
    assert got["larchmont.storm.50yr"] == storm_50
    assert got["larchmont.storm.100yr"] == storm_100
    assert by_rule["larchmont.storm.50yr"].rule.citation == "§ 335-28A"
    assert by_rule["larchmont.storm.100yr"].rule.design_storms == (100,)
    assert parcel.design_storm_years == years
    if permit is None:
        review = storm_50 if storm_50 == "needs_review" else storm_100
        assert review == "needs_review"
        rule = "larchmont.storm.50yr" if storm_50 == "needs_review" else "larchmont.storm.100yr"
        assert "permit sought not given" in by_rule[rule].reason
    # NYSDEC SPDES construction permit: "one or more acres".
    assert got["larchmont.nysdec"] == ("not_triggered" if disturbed < ACRE else "triggered")
    assert by_rule["larchmont.nysdec"].rule.severity == "state_permit_required"


def test_one_acre_within_the_default_band_needs_review(tmp_path):
    case = Case(lot_sqft=200_000.0, disturbed_sqft=ACRE + 400, attributes={"permit": "building"})
    got, by_rule, _, parcel = outcomes(tmp_path, case, tolerance=0.02)
    assert got["larchmont.storm.50yr"] == "needs_review"
    assert got["larchmont.storm.100yr"] == "needs_review"
    assert "within 2% of 43,560 sq ft (1 acre)" in by_rule["larchmont.storm.100yr"].reason
    assert parcel.design_storm_years == 50


@pytest.mark.parametrize(
    ("disturbed", "proposed", "exception", "storm_50"),
    [
        (499.0, 1_000.0, "triggered", "not_triggered"),
        (500.0, 1_000.0, "not_triggered", "triggered"),  # "less than 500 square feet"
        (499.0, 1_200.0, "not_triggered", "triggered"),  # runoff changes
        (499.0, None, "needs_review", "triggered"),  # cover unknown: the offset stands
    ],
)
def test_under_500_sqft_exception(tmp_path, disturbed, proposed, exception, storm_50):
    case = Case(disturbed_sqft=disturbed, proposed_sqft=proposed, attributes={"permit": "building"})
    got, by_rule, _, parcel = outcomes(tmp_path, case)
    assert got["larchmont.storm.exception_small"] == exception
    assert by_rule["larchmont.storm.exception_small"].rule.citation == "§ 335-28B(1)"
    assert got["larchmont.storm.50yr"] == storm_50
    if exception == "triggered":
        assert "exempt under § 335-28B(1)" in by_rule["larchmont.storm.50yr"].reason
        assert parcel.design_storm_years is None
    else:
        assert parcel.design_storm_years == 50


# --- Five acres at any one time (§ 335-25B(1)(d), § 335-27A(4)) --------------------


@pytest.mark.parametrize(
    ("phases", "more_than_five", "five_or_more"),
    [
        ((150_000.0, 100_000.0), "not_triggered", "not_triggered"),  # 5.7 acres in all
        ((FIVE_ACRES - 1, 10_000.0), "not_triggered", "not_triggered"),
        ((FIVE_ACRES, 10_000.0), "not_triggered", "triggered"),
        ((FIVE_ACRES + 1, 10_000.0), "triggered", "triggered"),
    ],
)
def test_five_acres_at_any_one_time(tmp_path, phases, more_than_five, five_or_more):
    got, by_rule, metrics, _ = outcomes(tmp_path, Case(lot_sqft=600_000.0, phases=phases))
    assert metrics["max_disturbed_at_one_time_sqft"] == pytest.approx(max(phases))
    assert metrics["disturbed_area_sqft"] == pytest.approx(sum(phases))
    assert metrics["disturbed_area_sqft"] > FIVE_ACRES
    assert got["larchmont.phasing.five_acres"] == more_than_five
    assert by_rule["larchmont.phasing.five_acres"].rule.citation == "§ 335-25B(1)(d)"
    assert got["larchmont.inspection.twice_weekly"] == five_or_more
    assert by_rule["larchmont.inspection.twice_weekly"].rule.citation == "§ 335-27A(4)"


# --- Site map: slopes, wetlands, surface waters (§ 335-25B(1)(b)) ------------------


def test_every_swppp_site_map_shows_existing_and_final_slopes(tmp_path):
    # § 335-25B(1)(b): "At a minimum, the site map should show: ... existing and final
    # slopes": no slope threshold, so a SWPPP (from 500 sq ft, § 335-24) asks for them
    # with or without a DEM, on flat ground as on steep.
    got, by_rule, _, _ = outcomes(tmp_path / "a", Case(disturbed_sqft=1_000.0))
    slope = by_rule["larchmont.site_map.slopes"]
    assert slope.outcome == "triggered"
    assert slope.rule.citation == "§ 335-25B(1)(b)"
    assert "no watercourse layer was given" in by_rule["larchmont.site_map.surface_waters"].reason
    assert got["larchmont.site_map.wetlands"] == "needs_review"
    flat, _, _, _ = outcomes(tmp_path / "c", Case(disturbed_sqft=1_000.0, steep_pct=5.0))
    assert flat["larchmont.site_map.slopes"] == "triggered"
    small, _, _, _ = outcomes(tmp_path / "d", Case(disturbed_sqft=300.0, steep_pct=20.0))
    assert small["larchmont.site_map.slopes"] == "not_triggered"  # no SWPPP under 500 sq ft


@pytest.mark.parametrize("adjacent_only", [False, True])
def test_wetland_on_the_site_map(tmp_path, adjacent_only):
    case = Case(disturbed_sqft=1_000.0, wetland_sqft=200.0, wetland_adjacent_only=adjacent_only)
    got, by_rule, metrics, _ = outcomes(tmp_path, case)
    if adjacent_only:
        assert metrics["disturbed_in_wetland_sqft"] == pytest.approx(0.0)
        assert metrics["disturbed_in_wetland_adjacent_sqft"] > 0
    else:
        assert metrics["disturbed_in_wetland_sqft"] == pytest.approx(200.0)
    assert got["larchmont.site_map.wetlands"] == "triggered"
    assert by_rule["larchmont.site_map.wetlands"].rule.citation == "§ 335-25B(1)(b)"
    assert got["larchmont.other_permits"] == "triggered"
    assert by_rule["larchmont.other_permits"].rule.severity == "permit_required"
    if not adjacent_only:
        assert got["larchmont.water_quality.turbidity"] == "triggered"


def run_near_water(tmp_path: Path, watercourse_gap_ft: float):
    """A 1,000 sq ft disturbance, a stream line ``watercourse_gap_ft`` east of it,
    and a wetland and a floodplain far away (rule_case draws no watercourse)."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    gpkg = tmp_path / "waters.gpkg"
    lot = box(X0, Y0, X0 + 200, Y0 + 100)
    work = box(X0 + 40, Y0 + 10, X0 + 80, Y0 + 35)
    far = box(X0 - 5_000, Y0 - 5_000, X0 - 4_000, Y0 - 4_000)
    stream_x = X0 + 80 + watercourse_gap_ft
    layers = {
        "parcels": write_layer(gpkg, "parcels", [{"parcel_id": "LOT", "geometry": lot}]),
        "disturbance": write_layer(gpkg, "disturbance", [{"parcel_id": "LOT", "geometry": work}]),
        "watercourses": write_layer(
            gpkg,
            "watercourses",
            [{"geometry": LineString([(stream_x, Y0 - 300), (stream_x, Y0 + 300)])}],
        ),
        "wetlands": write_layer(gpkg, "wetlands", [{"geometry": far}]),
        "floodplain": write_layer(
            gpkg,
            "floodplain",
            [{"FLD_ZONE": "X", "ZONE_SUBTY": None, "SFHA_TF": "F", "geometry": far}],
        ),
    }
    sources = {name: LayerSource.parse(name, spec) for name, spec in layers.items()}
    settings = MeasureSettings(watercourse_buffer_ft=100.0)
    result = screen(RunSpec(MeasureInputs(**sources), settings, PACK, tolerance=0.0))
    measured = result.measured
    row = list(measured.parcels["parcel_id"]).index("LOT")
    by_rule = {t.rule.id: t for t in result.outcomes[row].triggers}
    return by_rule, measured.parcels.iloc[row].to_dict()


@pytest.mark.parametrize(("gap", "expected"), [(50.0, "triggered"), (150.0, "not_triggered")])
def test_surface_waters_on_the_site_map(tmp_path, gap, expected):
    by_rule, metrics = run_near_water(tmp_path, gap)
    assert (metrics["disturbed_in_watercourse_buffer_sqft"] > 0) == (expected == "triggered")
    waters = by_rule["larchmont.site_map.surface_waters"]
    assert waters.outcome == expected
    assert waters.rule.citation == "§ 335-25B(1)(b)"
    assert by_rule["larchmont.other_permits"].outcome == expected
    assert by_rule["larchmont.water_quality.turbidity"].outcome == expected
    assert by_rule["larchmont.site_map.wetlands"].outcome == "not_triggered"


# --- The pack against the law -------------------------------------------------------


def test_every_rule_cites_larchmont_and_quotes_the_law():
    pack = load_pack(PACK)
    # The stormwater article, §§ 335-23 to 335-29, and the illicit discharge article's
    # §§ 335-7 to 335-13.
    assert all(re.match(r"§ 335-(2[3-9]|[7-9]|1[0-3])(?!\d)", rule.citation) for rule in pack.rules)
    law = " ".join(LAW.read_text(encoding="utf-8").split())
    for rule in pack.rules:
        for piece in re.split(r"(?<=[.;:])\s+", rule.quote):
            assert piece in law, f"{rule.id}: not in the law: {piece!r}"


def test_an_exemption_under_review_does_not_clear_the_swppp(tmp_path):
    # § 335-23E(1) exempts agricultural activity, but § 335-24 says new structures of
    # agriculture are not agricultural activity: with the project type unknown, whether the
    # exemption applies is open, and § 335-25A's SWPPP for 500 sq ft or more still stands.
    case = Case(disturbed_sqft=3_000.0, attributes={"activity": "agricultural"})
    got, by_rule, _, _ = outcomes(tmp_path / "open", case)
    assert got["larchmont.exempt.agricultural"] == "needs_review"
    assert "project type not given" in by_rule["larchmont.exempt.agricultural"].reason
    assert got["larchmont.swppp"] == "triggered"
    assert got["larchmont.certification.plan"] == "triggered"
    # an exemption that applies outright (§ 335-23E(2), silviculture) does clear it
    forestry = Case(disturbed_sqft=3_000.0, attributes={"activity": "silvicultural"})
    cleared, _, _, _ = outcomes(tmp_path / "applies", forestry)
    assert cleared["larchmont.exempt.silvicultural"] == "triggered"
    assert cleared["larchmont.swppp"] == "not_triggered"


@pytest.mark.parametrize(
    ("disturbed", "permit", "outcome", "storm"),
    [
        (ACRE + 1, "none", "needs_review", "50, or 100: review"),
        (ACRE + 1, None, "needs_review", "50, or 100: review"),
        (ACRE + 1, "building", "triggered", "100"),
        (ACRE, "none", "not_triggered", "50"),  # "greater than one acre": not met
    ],
)
def test_a_swppp_over_one_acre_uses_the_100_year_storm_of_335_28(
    tmp_path, disturbed, permit, outcome, storm
):
    # § 335-25B(1)(v): "Using standards set in § 335-28, demonstration of no net increase
    # in peak stormwater runoff from, at a minimum, the fifty-year design storm"; § 335-28A:
    # "... or, if the site disturbance is greater than one acre, from the one-hundred-year
    # design storm". With no building or demolition permit the step is the officer's call.
    attributes = {} if permit is None else {"permit": permit}
    case = Case(lot_sqft=200_000.0, disturbed_sqft=disturbed, attributes=attributes)
    got, by_rule, _, parcel = outcomes(tmp_path, case)
    assert got["larchmont.swppp.no_net_increase_100yr"] == outcome
    assert got["larchmont.swppp.no_net_increase"] == "triggered"
    assert parcel.design_storm == storm
    if outcome == "needs_review":
        reason = by_rule["larchmont.swppp.no_net_increase_100yr"].reason
        assert "Stormwater Management Officer" in reason
