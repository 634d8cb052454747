"""How the packs read displaced and silent passages of the law (issue 13, items 6 to 8).

Each test quotes the law from the texts in ``tests/engine/laws`` and checks that
the pack gives the law's answer where the text is displaced (Scarsdale's headings
stand above the end of the section before them), silent (Homer names no design
storm) or incomplete (Scarsdale's § 254-5 lacks the line saying what its
exemptions reach).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from sitecheck.rules.pack import load_pack

from .rule_case import Case, run_case

LAWS = Path(__file__).resolve().parent / "laws"
SCARSDALE = " ".join((LAWS / "scarsdale-ch254-stormwater.txt").read_text("utf-8").split())

RETROFIT = (
    "Applications that involve retrofitting shall submit plans that accommodate storm "
    "intensities of 25 years, 10 years and two years."
)
SECTION_254_9_OPENS = (
    "In addition to the requirements specified under § 254-7, each application shall be "
    "accompanied with plans"
)


def test_the_retrofit_storms_stand_between_the_254_9_heading_and_its_first_line():
    # The displacement the pack reads: the sentence is printed under § 254-9's heading
    # but before § 254-9's own opening words, so it closes § 254-8.
    heading = SCARSDALE.index("§ 254-9 Application for land-disturbing activities")
    assert heading < SCARSDALE.index(RETROFIT) < SCARSDALE.index(SECTION_254_9_OPENS)
    rule = next(r for r in load_pack("scarsdale").rules if r.id == "scarsdale.storm_set.retrofit")
    assert rule.citation == "§ 254-8"
    assert rule.quote == RETROFIT
    assert rule.design_storms == (25, 10, 2)


@pytest.mark.parametrize(
    ("disturbed", "in_sda", "retrofit"),
    [
        (1_000.0, True, "triggered"),  # a § 254-8 application in an SDA retrofits (§ 254-7E)
        (1_000.0, False, "not_triggered"),
        (1_600.0, True, "not_triggered"),  # over 1,500 sq ft in an SDA: § 254-9's storm set
    ],
)
def test_a_254_8_application_in_an_sda_keeps_the_10_and_2_year_storms(
    tmp_path, disturbed, in_sda, retrofit
):
    by_rule, _, outcome = run_case(
        tmp_path, "scarsdale", Case(disturbed_sqft=disturbed, in_sda=in_sda)
    )
    assert by_rule["scarsdale.storm_set.retrofit"].outcome == retrofit
    tier = "scarsdale.tier.254_8" if disturbed <= 1_500 or not in_sda else "scarsdale.tier.254_9"
    assert by_rule[tier].outcome == "triggered"
    if disturbed > 1_500:
        # § 254-9: "For all properties less than two acres, the design shall be for a
        # twenty-five-year, ten-year and two-year storm."
        assert by_rule["scarsdale.storm_set.small"].outcome == "triggered"
        assert by_rule["scarsdale.storm_set.small"].rule.design_storms == (25, 10, 2)
    assert outcome.design_storm == "25"


def test_the_scarsdale_pack_says_how_the_displaced_text_was_read():
    notes = " ".join(load_pack("scarsdale").notes.split())
    assert "How the text was read" in notes
    # Each displaced passage the notes place is in the text, after the heading it is
    # printed under.
    for heading, words in (
        ("§ 254-9 Application", RETROFIT),
        ("§ 254-10 Review of", "at five-year intervals, certifying"),
        (
            "§ 254-10.1 Site plan",
            "Activities that involve the disturbance of one acre or more shall comply",
        ),
    ):
        assert SCARSDALE.index(heading) < SCARSDALE.index(words)
    assert "§ 254-10's" in notes and "§ 254-8's last items" in notes
    # The five-year certification is stated on every § 254-9 application, not left out.
    pack = load_pack("scarsdale")
    assert not [i for i in pack.not_evaluated if "five-year" in i.requirement]
    tier = next(rule for rule in pack.rules if rule.id == "scarsdale.tier.254_9")
    assert tier.citation == "§ 254-9"
    assert any("every five years" in line for line in tier.requirements)


@pytest.mark.parametrize("pack_id", ["larchmont", "homer", "scarsdale"])
def test_every_pack_has_a_how_the_text_was_read_note(pack_id):
    assert "How the text was read" in load_pack(pack_id).notes


# --- Scarsdale § 254-5 and the adjoining property buffer (item 8) -------------------


@pytest.mark.parametrize(
    ("disturbed", "activity", "exemption"),
    [
        # § 254-5: "Any land-disturbing activity that involves less than 500 square feet
        # on lots greater than 7,500 square feet".
        (300.0, None, "scarsdale.exempt.small_disturbance"),
        # § 254-5(10): "The installation of fence, sign, telephone, and electric poles".
        (600.0, "fence_sign_or_poles", "scarsdale.exempt.listed_activity"),
    ],
)
def test_exempt_work_in_the_buffer_asks_whether_the_site_plan_is_needed(
    tmp_path, disturbed, activity, exemption
):
    attributes = {"activity": activity} if activity else {}
    case = Case(disturbed_sqft=disturbed, neighbour=True, zoning="A-3", attributes=attributes)
    by_rule, metrics, outcome = run_case(tmp_path, "scarsdale", case)
    assert metrics["disturbed_in_adjoining_buffer_sqft"] > 0
    assert by_rule[exemption].outcome == "triggered"
    site_plan = by_rule["scarsdale.adjoining_buffer.site_plan"]
    # Not two contradicting findings: the site plan is a question naming why.
    assert site_plan.outcome == "needs_review"
    assert "lacks § 254-5's opening line" in site_plan.reason
    assert by_rule["scarsdale.adjoining_buffer.notice_lot"].outcome == "needs_review"
    assert outcome.highest_severity == "exempt"


def test_work_the_law_does_not_exempt_in_the_buffer_needs_the_board(tmp_path):
    # § 254-10.1: "Whenever any land-disturbing activity within the adjoining property
    # buffer area ... is proposed, a site plan shall be submitted to the Planning Board".
    case = Case(
        disturbed_sqft=600.0, neighbour=True, zoning="A-3", attributes={"activity": "construction"}
    )
    by_rule, _, outcome = run_case(tmp_path, "scarsdale", case)
    assert by_rule["scarsdale.adjoining_buffer.site_plan"].outcome == "triggered"
    assert outcome.highest_severity == "board_approval_required"


# --- Homer § 228-78B(2)(c) names no storm (item 7) -----------------------------------

HOMER = " ".join((LAWS / "homer-ch228-art12-stormwater.txt").read_text("utf-8").split())


def test_homer_presents_no_storm_the_article_does_not_name(tmp_path):
    # The article names no storm: its modeling is "for the required storm events" of
    # the Design Manual, and its only "100-year" is the floodplain.
    assert not re.search(r"\d+-year (design )?storm", HOMER)
    assert "for the required storm events" in HOMER
    pack = load_pack("homer")
    assert pack.design_storms == ()
    case = Case(
        lot_sqft=100_000.0,
        disturbed_sqft=20_000.0,
        proposed_sqft=5_000.0,
        attributes={"project_type": "commercial", "activity": "construction"},
    )
    by_rule, _, outcome = run_case(tmp_path, "homer", case)
    rule = by_rule["homer.post_construction.swppp_contents"]
    assert rule.outcome == "triggered"
    assert rule.rule.design_storms == () and rule.rule.design_storm_years is None
    assert outcome.design_storm == "none"
