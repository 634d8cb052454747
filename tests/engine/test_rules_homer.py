"""Homer Ch. 228 Art. XII: each rule under, at and over its thresholds, from drawn geometry."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from sitecheck.rules.attributes import ATTRIBUTES_BY_NAME
from sitecheck.rules.pack import load_pack

from .rule_case import Case, run_case

PACK = "homer"
ACRE = 43_560.0
LAW = Path(__file__).resolve().parent / "laws/homer-ch228-art12-stormwater.txt"

T, N, R = "triggered", "not_triggered", "needs_review"

CITATIONS = {
    "homer.swppp.review": "§ 228-77D(2)",
    "homer.construction_standards": "§ 228-78C, § 228-78D(1)",
    "homer.exempt.listed_activity": "§ 228-77E",
    "homer.exempt.routine_maintenance": "§ 228-77E(3)",
    "homer.exempt.landscaping": "§ 228-77E(9)",
    "homer.exempt.agricultural": "§ 228-77E(1)",
    "homer.exempt.public_maintenance": "§ 228-77E(5)",
    "homer.swppp": "§ 228-77D(4)",
    "homer.swppp.larger_common_plan": "§ 228-78A",
    "homer.phasing_plan": "§ 228-78B(2)(a)[14]",
    "homer.stabilization.14_days": "§ 228-78C(3)(d)",
    "homer.stabilization.7_days": "§ 228-78C(3)(d)",
    "homer.site_map.floodway": "§ 228-78B(2)(a)[2]",
    "homer.site_map.floodplain_100": "§ 228-78B(2)(a)[2]",
    "homer.site_map.wetlands": "§ 228-78B(2)(a)[2]",
    "homer.site_map.floodplain_500": "§ 228-78B(2)(a)[3]",
    "homer.site_map.steep_slopes": "§ 228-78B(2)(a)[3]",
    "homer.other_permits": "§ 228-78B(3)",
    "homer.post_construction.listed_types": (
        "§ 228-78B(2)(b)[3]-[5], [7], [8], [10]-[18], [20], [21]"
    ),
    "homer.post_construction.subdivision_40pct": "§ 228-78B(2)(b)[1]",
    "homer.post_construction.subdivision": "§ 228-78B(2)(b)[2]",
    "homer.post_construction.cemetery": "§ 228-78B(2)(b)[6]",
    "homer.post_construction.agricultural_building": "§ 228-78B(2)(b)[9]",
    "homer.post_construction.athletic_field": "§ 228-78B(2)(b)[19]",
    "homer.post_construction.other": "§ 228-78B(2)(b)[22]",
    "homer.post_construction.swppp_contents": "§ 228-78B(2)(c)",
    "homer.inspection.daily": "§ 228-78D(2)(a)",
    "homer.inspection.weekly": "§ 228-78D(2)(b)",
    "homer.inspection_exempt.agricultural": "§ 228-78D(2)(c)[1]",
    "homer.inspection_exempt.subdivision": "§ 228-78D(2)(c)[2]",
    "homer.inspection_exempt.single_family_home": "§ 228-78D(2)(c)[3]",
    "homer.inspection.twice_weekly": "§ 228-78D(2)(d)",
    "homer.nysdec": "§ 228-78A",
}


def run(tmp_path, case: Case, tolerance: float = 0.0):
    return run_case(tmp_path, PACK, case, tolerance)


def expect(by_rule, expected: dict[str, str]) -> None:
    """Each rule's outcome and citation, with the reason shown when one is wrong."""
    got = {rule: (by_rule[rule].outcome, by_rule[rule].rule.citation) for rule in expected}
    want = {rule: (outcome, CITATIONS[rule]) for rule, outcome in expected.items()}
    reasons = {rule: by_rule[rule].reason for rule in expected if got[rule] != want[rule]}
    assert got == want, reasons


# --- The pack as text ------------------------------------------------------------------


def test_every_rule_has_its_citation():
    pack = load_pack(PACK)
    assert {rule.id: rule.citation for rule in pack.rules} == CITATIONS


def test_quotes_are_the_words_of_the_law():
    law = " ".join(LAW.read_text(encoding="utf-8").split())
    for rule in load_pack(PACK).rules:
        assert rule.quote in law, rule.id


def test_conditions_name_only_documented_codes():
    codes = set(ATTRIBUTES_BY_NAME["project_type"].codes) | set(
        ATTRIBUTES_BY_NAME["activity"].codes
    )
    for rule in load_pack(PACK).rules:
        for text in (rule.when_text, rule.review_when_text or ""):
            assert set(re.findall(r'"([^"]*)"', text)) <= codes, rule.id


# --- Land development activity: the SWPPP at 10,000 sq ft (§ 228-77D(4), § 228-78A) ----


@pytest.mark.parametrize(
    ("disturbed", "lda", "larger_plan"),
    [(9_999.0, N, R), (10_000.0, T, N), (10_001.0, T, N)],
)
def test_swppp_at_10000_sqft(tmp_path, disturbed, lda, larger_plan):
    attributes = {"activity": "construction", "project_type": "commercial"}
    case = Case(lot_sqft=40_000.0, disturbed_sqft=disturbed, attributes=attributes)
    by_rule, metrics, outcome = run(tmp_path, case)
    assert metrics["disturbed_area_sqft"] == pytest.approx(disturbed)
    expect(
        by_rule,
        {
            "homer.swppp": lda,
            "homer.swppp.larger_common_plan": larger_plan,
            "homer.inspection.daily": lda,
            "homer.inspection.weekly": lda,
            "homer.stabilization.14_days": lda,
            "homer.post_construction.listed_types": lda,
            "homer.post_construction.swppp_contents": lda,
            "homer.exempt.listed_activity": N,
            "homer.phasing_plan": N,
            "homer.nysdec": N,
        },
    )
    assert outcome.design_storm_years is None  # the article names no storm
    if larger_plan == R:
        assert "part of a larger common plan not given" in (
            by_rule["homer.swppp.larger_common_plan"].reason
        )


def test_within_the_default_band_of_10000_needs_review(tmp_path):
    by_rule, _, _ = run(tmp_path, Case(lot_sqft=40_000.0, disturbed_sqft=10_100.0), 0.02)
    assert by_rule["homer.swppp"].outcome == R
    assert "within 2% of 10,000 sq ft" in by_rule["homer.swppp"].reason


def test_a_small_project_asks_only_the_larger_plan_question(tmp_path):
    by_rule, _, _ = run(tmp_path, Case(disturbed_sqft=5_000.0, floodway_sqft=300.0))
    review = sorted(rule for rule, t in by_rule.items() if t.outcome == R)
    assert review == ["homer.swppp.larger_common_plan"]
    assert not [rule for rule, t in by_rule.items() if t.outcome == T]


@pytest.mark.parametrize(("declared", "expected"), [("true", T), ("false", N)])
def test_larger_common_plan_brings_a_small_project_in(tmp_path, declared, expected):
    case = Case(disturbed_sqft=5_000.0, attributes={"larger_common_plan": declared})
    by_rule, _, _ = run(tmp_path, case)
    expect(
        by_rule,
        {
            "homer.swppp.larger_common_plan": expected,
            "homer.swppp": N,
            "homer.inspection.daily": expected,
            "homer.inspection.weekly": expected,
            "homer.stabilization.14_days": expected,
        },
    )


# --- Exemptions (§ 228-77E): "may be exempt", so the officer decides --------------------
# § 228-77E: "The following activities may be exempt from review under this article."
# (Larchmont § 335-23E: "shall be exempt".) An activity on the list is a question for
# the stormwater management officer; the rules it would switch off stay in force.

MAY_BE_EXEMPT = (
    "may be exempt from review under § 228-77E: the stormwater management officer decides"
)


@pytest.mark.parametrize(
    ("activity", "disturbed", "exemption", "exempt"),
    [
        ("emergency", ACRE + 1_000, "homer.exempt.listed_activity", R),
        ("fence_sign_or_poles", 12_000.0, "homer.exempt.listed_activity", R),
        ("construction", 15_000.0, "homer.exempt.listed_activity", N),
        (None, 15_000.0, "homer.exempt.listed_activity", R),
        ("silvicultural", 15_000.0, "homer.exempt.listed_activity", R),
        ("routine_maintenance", ACRE - 1, "homer.exempt.routine_maintenance", R),
        ("routine_maintenance", ACRE, "homer.exempt.routine_maintenance", N),
        ("landscaping", 15_000.0, "homer.exempt.landscaping", R),
    ],
)
def test_a_listed_activity_may_be_exempt_and_the_officer_decides(
    tmp_path, activity, disturbed, exemption, exempt
):
    attributes = {} if activity is None else {"activity": activity}
    case = Case(lot_sqft=100_000.0, disturbed_sqft=disturbed, attributes=attributes)
    by_rule, _, _ = run(tmp_path, case)
    # the SWPPP, inspections and stabilization are never switched off by a "may"
    expect(
        by_rule,
        {
            exemption: exempt,
            "homer.swppp": T,
            "homer.inspection.daily": T,
            "homer.stabilization.14_days": T if disturbed < ACRE else N,
            "homer.nysdec": T if disturbed >= ACRE else N,  # state law: never exempted here
        },
    )
    if exempt == R and activity not in (None, "silvicultural"):
        assert MAY_BE_EXEMPT in by_rule[exemption].reason
    if activity == "silvicultural":
        assert "regulated silvicultural activity" in by_rule[exemption].reason


def test_public_maintenance_asks_whether_a_public_entity_performs_it(tmp_path):
    # § 228-77E(5): "Roadway and utility maintenance activities performed by a public entity."
    case = Case(disturbed_sqft=15_000.0, attributes={"activity": "road_or_utility_maintenance"})
    by_rule, _, _ = run(tmp_path, case)
    expect(by_rule, {"homer.exempt.public_maintenance": R, "homer.swppp": T})
    assert "is the work performed by a public entity?" in (
        by_rule["homer.exempt.public_maintenance"].reason
    )


@pytest.mark.parametrize(
    ("project_type", "proposed", "exemption", "barn_rule"),
    [
        # § 228-78A: agricultural activity "shall not include ... the construction of a barn or
        # other agricultural building, silo, stockyard or pen"
        ("agricultural_building", 16_000.0, N, T),
        (None, 16_000.0, N, R),  # new impervious cover: something is built; is it a barn?
        ("agricultural", 1_000.0, R, N),  # grazing, crops: may be exempt
    ],
)
def test_a_barn_is_not_agricultural_activity(
    tmp_path, project_type, proposed, exemption, barn_rule
):
    attributes = {"activity": "agricultural"}
    if project_type:
        attributes["project_type"] = project_type
    case = Case(
        lot_sqft=100_000.0,
        disturbed_sqft=15_000.0,
        existing_sqft=1_000.0,
        proposed_sqft=proposed,
        attributes=attributes,
    )
    by_rule, _, _ = run(tmp_path, case)
    expect(
        by_rule,
        {
            "homer.exempt.agricultural": exemption,
            "homer.swppp": T,
            "homer.post_construction.agricultural_building": barn_rule,
        },
    )


def test_landscaping_without_an_existing_structure_is_not_exempt(tmp_path):
    case = Case(
        disturbed_sqft=15_000.0,
        existing_sqft=0.0,
        proposed_sqft=0.0,
        attributes={"activity": "landscaping"},
    )
    by_rule, metrics, _ = run(tmp_path, case)
    assert metrics["impervious_existing_sqft"] == 0
    expect(by_rule, {"homer.exempt.landscaping": N, "homer.swppp": T})


def test_a_small_listed_activity_is_asked_both_questions(tmp_path):
    """A 5,000 sq ft fence job: the larger-plan question stays, beside the officer's."""
    case = Case(disturbed_sqft=5_000.0, attributes={"activity": "fence_sign_or_poles"})
    by_rule, _, _ = run(tmp_path, case)
    expect(by_rule, {"homer.exempt.listed_activity": R, "homer.swppp.larger_common_plan": R})


# --- One acre: NYSDEC, phasing, 7-day stabilization, twice-weekly inspection -----------


@pytest.mark.parametrize(
    ("disturbed", "acre", "below"), [(ACRE - 1, N, T), (ACRE, T, N), (ACRE + 1, T, N)]
)
def test_one_acre_disturbed(tmp_path, disturbed, acre, below):
    by_rule, metrics, _ = run(tmp_path, Case(lot_sqft=100_000.0, disturbed_sqft=disturbed))
    assert metrics["max_disturbed_at_one_time_sqft"] == pytest.approx(disturbed)
    expect(
        by_rule,
        {
            "homer.nysdec": acre,
            "homer.phasing_plan": acre,
            "homer.stabilization.7_days": acre,
            "homer.stabilization.14_days": below,
            # the DEC's authorization is a fact no input records: asked from one acre up
            "homer.inspection.twice_weekly": R if acre == T else N,
        },
    )
    assert by_rule["homer.nysdec"].rule.severity == "state_permit_required"


@pytest.mark.parametrize(
    ("first_phase", "at_one_time", "below"),
    [(ACRE - 1, N, T), (ACRE, T, N), (ACRE + 1, T, N)],
)
def test_one_acre_at_one_time_follows_the_phases(tmp_path, first_phase, at_one_time, below):
    case = Case(lot_sqft=200_000.0, phases=(first_phase, 100.0))
    by_rule, metrics, _ = run(tmp_path, case)
    assert metrics["max_disturbed_at_one_time_sqft"] == pytest.approx(first_phase)
    assert metrics["disturbed_area_sqft"] == pytest.approx(first_phase + 100.0)
    expect(
        by_rule,
        {
            "homer.nysdec": T,  # the whole project is over one acre
            "homer.phasing_plan": at_one_time,
            "homer.stabilization.7_days": at_one_time,
            "homer.stabilization.14_days": below,
            "homer.inspection.twice_weekly": R if at_one_time == T else N,
        },
    )


@pytest.mark.parametrize(("authorized", "expected"), [("true", T), ("false", N)])
def test_twice_weekly_inspection_follows_the_dec_authorization(tmp_path, authorized, expected):
    # § 228-78D(2)(d): "Land development activities where the applicant or developer has
    # received authorization from the DEC to disturb one acre or more at any one time shall
    # be inspected by a qualified inspector twice every seven days."
    case = Case(
        lot_sqft=100_000.0,
        disturbed_sqft=ACRE + 1,
        attributes={"dec_one_acre_authorization": authorized},
    )
    by_rule, _, _ = run(tmp_path, case)
    expect(by_rule, {"homer.inspection.twice_weekly": expected})
    rule = by_rule["homer.inspection.twice_weekly"].rule
    assert not any("authorization" in item for item in rule.requirements)


@pytest.mark.parametrize(
    ("at_one_time", "authorized", "expected"),
    [(ACRE - 1, "true", T), (ACRE - 1, "false", N), (ACRE - 1, None, N), (ACRE, None, R)],
)
def test_the_dec_authorization_alone_decides_the_twice_weekly_inspection(
    tmp_path, at_one_time, authorized, expected
):
    # § 228-78D(2)(d) applies "where the applicant or developer has received authorization
    # from the DEC to disturb one acre or more at any one time": the authorization, not the
    # plan's measured area at one time, decides it. Only an unrecorded one is asked, and
    # only of a plan that reaches one acre at one time.
    case = Case(
        lot_sqft=200_000.0,
        phases=(at_one_time, 100.0),
        attributes={} if authorized is None else {"dec_one_acre_authorization": authorized},
    )
    by_rule, metrics, _ = run(tmp_path, case)
    assert metrics["max_disturbed_at_one_time_sqft"] == pytest.approx(at_one_time)
    expect(by_rule, {"homer.inspection.twice_weekly": expected})


# --- Post-construction controls (§ 228-78B(2)(b), (c)) ----------------------------------


def test_post_construction_needs_the_project_type(tmp_path):
    case = Case(lot_sqft=40_000.0, disturbed_sqft=15_000.0, proposed_sqft=1_500.0)
    by_rule, _, _ = run(tmp_path, case)
    expect(
        by_rule,
        {
            "homer.post_construction.listed_types": R,
            "homer.post_construction.other": R,
            "homer.post_construction.swppp_contents": R,
            "homer.inspection_exempt.single_family_home": R,
            "homer.swppp": T,
        },
    )
    assert "project type not given" in by_rule["homer.post_construction.swppp_contents"].reason


@pytest.mark.parametrize(("proposed", "over_40"), [(47_990.0, N), (48_000.0, N), (48_010.0, T)])
def test_subdivision_over_40_percent_impervious(tmp_path, proposed, over_40):
    case = Case(
        lot_sqft=120_000.0,
        disturbed_sqft=44_000.0,
        proposed_sqft=proposed,
        attributes={"project_type": "single_family_subdivision"},
    )
    by_rule, metrics, _ = run(tmp_path, case)
    assert metrics["impervious_proposed_pct"] == pytest.approx(100 * proposed / 120_000, abs=0.01)
    expect(
        by_rule,
        {
            "homer.post_construction.subdivision_40pct": over_40,
            "homer.post_construction.subdivision": T,  # [2]: every subdivision of one acre
            "homer.post_construction.swppp_contents": T,
            "homer.inspection_exempt.subdivision": N,
            "homer.inspection.weekly": T,
        },
    )


@pytest.mark.parametrize(
    ("proposed", "exempt", "weekly"), [(24_990.0, T, N), (25_000.0, T, N), (25_010.0, N, T)]
)
def test_small_subdivision_at_25_percent_impervious(tmp_path, proposed, exempt, weekly):
    case = Case(
        lot_sqft=100_000.0,
        disturbed_sqft=20_000.0,
        proposed_sqft=proposed,
        attributes={"project_type": "single_family_subdivision"},
    )
    by_rule, _, _ = run(tmp_path, case)
    expect(
        by_rule,
        {
            "homer.inspection_exempt.subdivision": exempt,
            "homer.inspection.weekly": weekly,
            "homer.inspection.daily": T,
            # under one acre [2] turns on the larger common plan, not given here
            "homer.post_construction.subdivision": R,
            "homer.post_construction.subdivision_40pct": N,
        },
    )


@pytest.mark.parametrize(
    ("disturbed", "declared", "expected"),
    [(ACRE - 1, "false", N), (ACRE, "false", T), (20_000.0, "true", R)],
)
def test_subdivision_of_one_acre_or_part_of_a_larger_plan(tmp_path, disturbed, declared, expected):
    attributes = {"project_type": "single_family_subdivision", "larger_common_plan": declared}
    case = Case(lot_sqft=100_000.0, disturbed_sqft=disturbed, attributes=attributes)
    by_rule, _, _ = run(tmp_path, case)
    expect(
        by_rule,
        {
            "homer.post_construction.subdivision": expected,
            "homer.post_construction.swppp_contents": expected,
        },
    )
    if expected == R:
        assert "ultimately disturb one acre or more" in (
            by_rule["homer.post_construction.subdivision"].reason
        )


@pytest.mark.parametrize(
    ("project_type", "proposed", "expected"),
    [
        ("cemetery", 1_000.0, N),  # no new impervious cover
        ("cemetery", 1_999.0, R),  # under 5%, but "or alter the hydrology"
        ("cemetery", 2_000.0, R),  # exactly 5%: not "greater than 5%"
        ("cemetery", 2_001.0, T),
        ("athletic_field_natural_grass", 2_000.0, R),
        ("athletic_field_natural_grass", 2_001.0, T),
    ],
)
def test_five_percent_of_the_disturbed_area(tmp_path, project_type, proposed, expected):
    case = Case(
        lot_sqft=40_000.0,
        disturbed_sqft=20_000.0,
        existing_sqft=1_000.0,
        proposed_sqft=proposed,
        attributes={"project_type": project_type},
    )
    by_rule, metrics, _ = run(tmp_path, case)
    assert metrics["impervious_net_change_sqft"] == pytest.approx(proposed - 1_000.0)
    rule = {
        "cemetery": "homer.post_construction.cemetery",
        "athletic_field_natural_grass": "homer.post_construction.athletic_field",
    }[project_type]
    expect(by_rule, {rule: expected, "homer.post_construction.swppp_contents": expected})
    if expected == R:
        assert '"or" by altering the hydrology' in by_rule[rule].reason


def test_five_percent_within_the_default_band_needs_review(tmp_path):
    case = Case(
        lot_sqft=40_000.0,
        disturbed_sqft=20_000.0,
        proposed_sqft=2_010.0,
        attributes={"project_type": "cemetery"},
    )
    by_rule, _, _ = run(tmp_path, case, tolerance=0.02)
    assert by_rule["homer.post_construction.cemetery"].outcome == R
    assert "within 2%" in by_rule["homer.post_construction.cemetery"].reason


@pytest.mark.parametrize(
    ("project_type", "proposed", "rule", "expected"),
    [
        ("agricultural_building", 1_500.0, "homer.post_construction.agricultural_building", T),
        ("agricultural_building", 1_000.0, "homer.post_construction.agricultural_building", N),
        ("single_family_home", 1_500.0, "homer.post_construction.other", T),
        ("other", 1_000.0, "homer.post_construction.other", N),
    ],
)
def test_new_impervious_area(tmp_path, project_type, proposed, rule, expected):
    case = Case(
        lot_sqft=40_000.0,
        disturbed_sqft=15_000.0,
        proposed_sqft=proposed,
        attributes={"project_type": project_type},
    )
    by_rule, _, _ = run(tmp_path, case)
    expect(
        by_rule,
        {
            rule: expected,
            "homer.post_construction.swppp_contents": expected,
            "homer.post_construction.listed_types": N,
        },
    )


# --- Inspections (§ 228-78D(2)) --------------------------------------------------------


@pytest.mark.parametrize(
    ("project_type", "disturbed", "exemption", "exempt", "weekly"),
    [
        ("single_family_home", 9_999.0, "homer.inspection_exempt.single_family_home", N, N),
        ("single_family_home", 10_000.0, "homer.inspection_exempt.single_family_home", T, N),
        ("single_family_home", ACRE - 1, "homer.inspection_exempt.single_family_home", T, N),
        ("single_family_home", ACRE, "homer.inspection_exempt.single_family_home", N, T),
        ("agricultural", ACRE - 1, "homer.inspection_exempt.agricultural", N, T),
        ("agricultural", ACRE, "homer.inspection_exempt.agricultural", T, N),
        ("agricultural", 5 * ACRE - 1, "homer.inspection_exempt.agricultural", T, N),
        ("agricultural", 5 * ACRE, "homer.inspection_exempt.agricultural", N, T),
    ],
)
def test_weekly_qualified_inspection_and_its_exemptions(
    tmp_path, project_type, disturbed, exemption, exempt, weekly
):
    lot = 100_000.0 if disturbed < 2 * ACRE else 320_000.0
    case = Case(lot_sqft=lot, disturbed_sqft=disturbed, attributes={"project_type": project_type})
    by_rule, _, _ = run(tmp_path, case)
    lda = T if disturbed >= 10_000 else N
    expect(
        by_rule,
        {exemption: exempt, "homer.inspection.weekly": weekly, "homer.inspection.daily": lda},
    )
    if exempt == T:
        assert f"exempt under {CITATIONS[exemption]}" in by_rule["homer.inspection.weekly"].reason


# --- Sensitive areas on the site map (§ 228-78B(2)(a)[2]-[3]) ---------------------------


@pytest.mark.parametrize(
    ("case", "expected"),
    [
        (
            Case(disturbed_sqft=15_000.0, lot_sqft=40_000.0, floodway_sqft=300.0),
            {
                "homer.site_map.floodway": T,
                "homer.site_map.floodplain_100": T,
                "homer.site_map.floodplain_500": T,  # the 0.2% floodplain holds the 1%
                "homer.other_permits": T,
                "homer.site_map.wetlands": R,
            },
        ),
        (
            Case(disturbed_sqft=15_000.0, lot_sqft=40_000.0, floodplain_sqft=500.0),
            {
                "homer.site_map.floodway": N,
                "homer.site_map.floodplain_100": T,
                "homer.site_map.floodplain_500": T,
            },
        ),
        (
            Case(disturbed_sqft=15_000.0, lot_sqft=40_000.0, floodway_sqft=0.0),
            {
                "homer.site_map.floodway": N,
                "homer.site_map.floodplain_100": N,
                "homer.site_map.floodplain_500": N,
            },
        ),
        (
            Case(disturbed_sqft=15_000.0, lot_sqft=40_000.0),
            {"homer.site_map.floodway": R, "homer.site_map.floodplain_500": R},
        ),
        (
            Case(disturbed_sqft=9_999.0, lot_sqft=40_000.0, floodway_sqft=300.0),
            {"homer.site_map.floodway": N, "homer.other_permits": N},
        ),
        (
            Case(disturbed_sqft=15_000.0, lot_sqft=40_000.0, wetland_sqft=400.0),
            {"homer.site_map.wetlands": T, "homer.other_permits": T},
        ),
        (
            Case(
                disturbed_sqft=15_000.0,
                lot_sqft=40_000.0,
                wetland_sqft=0.0,
                wetland_adjacent_only=True,
            ),
            {"homer.site_map.wetlands": T, "homer.other_permits": T},
        ),
    ],
    ids=[
        "floodway",
        "floodplain",
        "flood-layer-elsewhere",
        "no-flood-layer",
        "small",
        "wetland",
        "wetland-adjacent",
    ],
)
def test_sensitive_areas_on_the_site_map(tmp_path, case, expected):
    by_rule, metrics, _ = run(tmp_path, case)
    expect(by_rule, expected)
    if case.floodway_sqft:
        assert metrics["disturbed_in_floodway_sqft"] == pytest.approx(case.floodway_sqft)
    if case.wetland_adjacent_only:
        assert metrics["disturbed_in_wetland_sqft"] == 0
        assert metrics["disturbed_in_wetland_adjacent_sqft"] > 0
    if case.floodway_sqft is None and case.floodplain_sqft is None:
        assert "no floodplain layer was given" in by_rule["homer.site_map.floodway"].reason


@pytest.mark.parametrize(
    ("lot", "steep", "expected", "words"),
    [
        (40_000.0, None, R, "no DEM was given"),
        (40_000.0, 20.0, T, None),
        (40_000.0, 5.0, N, None),
        (294_000.0, 5.0, R, "so whether it is over 0 sq ft is not known"),  # the DEM ends
    ],
)
def test_slopes_over_15_percent(tmp_path, lot, steep, expected, words):
    case = Case(lot_sqft=lot, disturbed_sqft=15_000.0, steep_pct=steep)
    by_rule, metrics, _ = run(tmp_path, case)
    expect(by_rule, {"homer.site_map.steep_slopes": expected})
    if words:
        assert words in by_rule["homer.site_map.steep_slopes"].reason
    if lot > 100_000:
        assert 0 < metrics["slope_data_coverage"] < 1


def test_an_exemption_the_officer_may_grant_does_not_clear_the_swppp(tmp_path):
    # § 228-77E: landscaping "may be exempt", as the stormwater management officer decides;
    # until then § 228-77D(4)'s SWPPP for 10,000 sq ft or more still applies.
    case = Case(disturbed_sqft=12_000.0, attributes={"activity": "landscaping"})
    by_rule, _, _ = run_case(tmp_path, PACK, case)
    exemption = by_rule["homer.exempt.landscaping"]
    assert exemption.outcome == "needs_review"
    assert "the stormwater management officer decides" in exemption.reason
    assert by_rule["homer.swppp"].outcome == "triggered"
    assert by_rule["homer.inspection.weekly"].outcome == "triggered"
