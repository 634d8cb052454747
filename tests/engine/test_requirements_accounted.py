"""Requirements of the three texts that were neither carried nor listed (issue 28, item 3).

Each test quotes the law it holds and draws the case that decides it: the rule
applies where the law's condition holds, not where it does not, and where an input
the condition needs is missing the rule needs review.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from sitecheck.rules.pack import load_pack

from .rule_case import Case, run_case

LAWS = Path(__file__).resolve().parent / "laws"
ONE_ACRE = 43_560.0


def _law(name: str) -> str:
    return " ".join((LAWS / name).read_text(encoding="utf-8").split())


def _outcomes(tmp_path: Path, ordinance: str, case: Case) -> dict:
    by_rule, _, _ = run_case(tmp_path, ordinance, case)
    return by_rule


# --- Larchmont: the illicit discharge article ------------------------------------


def test_larchmont_construction_activity_complies_with_its_npdes_permit(tmp_path):
    law = _law("larchmont-ch335-stormwater.txt")
    # "CONSTRUCTION ACTIVITY: Construction projects resulting in land disturbance of one
    # acre or more." and "Any person subject to an industrial or construction activity
    # NPDES stormwater discharge permit shall comply with all provisions of such permit."
    assert "land disturbance of one acre or more" in law
    assert "shall comply with all provisions of such permit" in law
    big = Case(lot_sqft=120_000.0, disturbed_sqft=ONE_ACRE, attributes={"activity": "construction"})
    small = Case(lot_sqft=120_000.0, disturbed_sqft=ONE_ACRE - 100.0)
    rule = "larchmont.discharge.construction_permit"
    got = _outcomes(tmp_path / "acre", "larchmont", big)[rule]
    assert got.outcome == "triggered" and got.rule.citation == "§ 335-9"
    assert _outcomes(tmp_path / "less", "larchmont", small)[rule].outcome == "not_triggered"


@pytest.mark.parametrize(
    ("watercourse", "expected"),
    [("through", "triggered"), ("along", "not_triggered"), (None, "needs_review")],
)
def test_larchmont_a_watercourse_through_the_lot_is_kept_clear(tmp_path, watercourse, expected):
    # "Every person owning property through which a watercourse passes ... shall keep and
    # maintain that part of the watercourse within the property free of trash, debris,
    # excessive vegetation, and other obstacles". A stream on the lot line does not pass
    # through the property; without a watercourse layer no one can say.
    assert "Every person owning property through which a watercourse passes" in _law(
        "larchmont-ch335-stormwater.txt"
    )
    case = Case(disturbed_sqft=600.0, watercourse=watercourse)
    got = _outcomes(tmp_path, "larchmont", case)["larchmont.watercourse.upkeep"]
    assert got.outcome == expected
    assert got.rule.citation == "§ 335-12"
    if expected == "needs_review":
        assert "no watercourse layer was given" in got.reason


@pytest.mark.parametrize(
    ("project_type", "expected"),
    [
        ("commercial", "triggered"),
        ("industrial", "triggered"),
        ("single_family_home", "not_triggered"),
    ],
)
def test_larchmont_a_commercial_establishment_keeps_bmps_against_spills(
    tmp_path, project_type, expected
):
    # "The owner or operator of a commercial or industrial establishment shall provide, at
    # its own expense, reasonable protection from accidental discharge of prohibited
    # materials or other wastes into the municipal storm drainage system or watercourses".
    assert "The owner or operator of a commercial or industrial establishment" in _law(
        "larchmont-ch335-stormwater.txt"
    )
    case = Case(disturbed_sqft=600.0, attributes={"project_type": project_type})
    got = _outcomes(tmp_path, "larchmont", case)["larchmont.discharge.establishment_bmps"]
    assert got.outcome == expected and got.rule.citation == "§ 335-11"


def test_larchmont_lists_the_parts_no_input_decides():
    listed = {item.citation for item in load_pack("larchmont").not_evaluated}
    assert {"§ 335-23E(5)", "§ 335-23E(6)", "§ 335-7", "§ 335-13"} <= listed


# --- Homer ---------------------------------------------------------------------------


def test_homer_asks_how_the_officer_will_review_the_swppp(tmp_path):
    # § 228-77D(2): "The stormwater management officer may 1) review the plans, 2) ...
    # engage the services of a registered professional engineer ..., or 3) accept the
    # certification of a licensed professional": the officer's choice is a question.
    assert "accept the certification of a licensed professional" in _law(
        "homer-ch228-art12-stormwater.txt"
    )
    case = Case(lot_sqft=40_000.0, disturbed_sqft=10_000.0, attributes={"activity": "construction"})
    got = _outcomes(tmp_path, "homer", case)["homer.swppp.review"]
    assert got.outcome == "needs_review"
    assert "the stormwater management officer chooses how the SWPPP is reviewed" in got.reason


def test_homer_standards_and_upkeep_attach_to_every_land_development_activity(tmp_path):
    # § 228-78C: "All land development activities shall be subject to the following
    # performance and design criteria"; (3)(a) "using clean water only. Soaps, detergents
    # and solvents shall not be used."; D(1) "Sediment shall be removed from sediment traps
    # or sediment ponds whenever their design capacity has been reduced by 50%."
    law = _law("homer-ch228-art12-stormwater.txt")
    assert "Soaps, detergents and solvents shall not be used." in law
    assert "whenever their design capacity has been reduced by 50%" in law
    rule = "homer.construction_standards"
    at = Case(lot_sqft=40_000.0, disturbed_sqft=10_000.0, attributes={"activity": "construction"})
    under = Case(lot_sqft=40_000.0, disturbed_sqft=9_990.0, attributes={"activity": "construction"})
    got = _outcomes(tmp_path / "at", "homer", at)[rule]
    assert got.outcome == "triggered"
    lines = " ".join(got.rule.requirements)
    for section in (
        "§ 228-78C(1)(a)",
        "§ 228-78C(2)",
        "§ 228-78C(3)(a)",
        "§ 228-78C(3)(c)",
        "§ 228-78D(1)",
    ):
        assert section in lines, section
    assert _outcomes(tmp_path / "under", "homer", under)[rule].outcome == "not_triggered"


# --- Scarsdale -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("permit", "expiring"), [("none", "triggered"), ("building", "not_triggered")]
)
def test_scarsdale_without_a_building_permit_the_permit_expires_after_180_days(
    tmp_path, permit, expiring
):
    # § 254-7D: "The permit shall be valid for the same period as the associated building
    # or other municipal permit ... Where a building or other municipal permit is not
    # issued, the ... permit shall expire within 180 days from the date of issuance".
    assert "shall expire within 180 days from the date of issuance" in _law(
        "scarsdale-ch254-stormwater.txt"
    )
    case = Case(disturbed_sqft=600.0, attributes={"activity": "construction", "permit": permit})
    got = _outcomes(tmp_path, "scarsdale", case)
    assert got["scarsdale.permit.expiry_180_days"].outcome == expiring
    assert got["scarsdale.permit.expiry_180_days"].rule.citation == "§ 254-7D"


def test_scarsdale_without_the_permit_field_the_term_is_a_question(tmp_path):
    case = Case(disturbed_sqft=600.0, attributes={"activity": "construction"})
    got = _outcomes(tmp_path, "scarsdale", case)["scarsdale.permit.expiry_180_days"]
    assert got.outcome == "needs_review" and "permit sought not given" in got.reason


def _requirement_lines(rule_id: str) -> str:
    rule = next(rule for rule in load_pack("scarsdale").rules if rule.id == rule_id)
    return " ".join(rule.requirements)


def test_scarsdale_the_permit_states_the_application_its_term_and_the_appeal(tmp_path):
    law = _law("scarsdale-ch254-stormwater.txt")
    # § 254-7C "sufficient information ... to evaluate ... the potential and predicted
    # impacts of the proposed activity on watercourses"; § 254-7D the Village's forms and
    # a certification that earth-moving follows the approved plans; § 254-7F a denial
    # "may be appealed to the Planning Board".
    assert "impacts of the proposed activity on watercourses" in law
    assert "which decision may be appealed to the Planning Board" in law
    lines = _requirement_lines("scarsdale.permit")
    for section in ("§ 254-7C", "§ 254-7D", "§ 254-7F"):
        assert section in lines, section
    assert "appealed to the Planning Board" in lines
    case = Case(disturbed_sqft=600.0, attributes={"activity": "construction", "permit": "building"})
    assert _outcomes(tmp_path, "scarsdale", case)["scarsdale.permit"].outcome == "triggered"


def test_scarsdale_inspections_state_who_is_on_site_and_the_backfill_inspection(tmp_path):
    law = _law("scarsdale-ch254-stormwater.txt")
    # § 254-10: the applicant or a representative "shall be on site at all times when
    # construction or grading activity takes place", and "An inspection prior to
    # backfilling any underground drainage or stormwater conveyance structures."
    assert "shall be on site at all times when construction or grading activity" in law
    assert "An inspection prior to backfilling any underground drainage" in law
    lines = _requirement_lines("scarsdale.inspections")
    assert (
        "on site at all times" in lines and "before backfilling any underground drainage" in lines
    )
    case = Case(disturbed_sqft=600.0, attributes={"activity": "construction", "permit": "building"})
    assert _outcomes(tmp_path, "scarsdale", case)["scarsdale.inspections"].outcome == "triggered"


def test_scarsdale_buffer_work_is_published_and_weighed_by_the_planning_board(tmp_path):
    # § 254-10.1: notice "published by the Clerk in the official newspaper ... at least five
    # days preceding the date of the hearing", and for a Residence A lot "the Planning
    # Board shall consider" seven things.
    law = _law("scarsdale-ch254-stormwater.txt")
    assert "at least once and at least five days preceding the date of the hearing" in law
    considered = {
        "aggravate drainage conditions": "drainage, erosion and runoff across property lines",
        "unique physical or environmental condition": "a unique condition",
        "character of the neighborhood": "the neighbourhood's character",
        "size and location of the proposed activities": "size and location",
        "some alternative method": "an alternative outside the buffer",
        "necessary and unavoidable": "regrading necessary and unavoidable",
        "adequate sediment and erosion control measures": "adequate sediment and erosion controls",
    }
    lines = _requirement_lines("scarsdale.adjoining_buffer.site_plan")
    assert "official newspaper at least five days before" in lines
    for words, ours in considered.items():
        assert words in law and ours in lines, words
    case = Case(disturbed_sqft=600.0, neighbour=True, attributes={"activity": "construction"})
    got = _outcomes(tmp_path, "scarsdale", case)
    assert got["scarsdale.adjoining_buffer.site_plan"].outcome == "triggered"


def test_scarsdale_states_the_five_year_certification_on_a_254_9_application(tmp_path):
    # "Property owners of stormwater management systems constructed after March 24, 2009,
    # shall submit ... at five-year intervals": a § 254-9 application (over 5,000 sq ft)
    # builds one, and its entry says so.
    assert "at five-year intervals, certifying that the stormwater management system" in _law(
        "scarsdale-ch254-stormwater.txt"
    )
    large = Case(
        lot_sqft=40_000.0,
        disturbed_sqft=6_000.0,
        in_sda=False,
        attributes={"activity": "construction"},
    )
    got = _outcomes(tmp_path, "scarsdale", large)["scarsdale.tier.254_9"]
    assert got.outcome == "triggered"
    assert any("every five years" in line for line in got.rule.requirements)
    assert "§ 254-9" not in {item.citation for item in load_pack("scarsdale").not_evaluated}
