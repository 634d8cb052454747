"""Reviews grouped by their cause and ordered by consequence (issue 13, item 12).

A 600 sq ft Larchmont job drawn with parcels and disturbance only has 18 rules
under review. Asked rule by rule, a missing ``activity`` field gives eight rows
(one per § 335-23E exemption) and the question that changes what must be built
(is a building or demolition permit sought? § 335-28A: "any applicant for any
demolition or building permit shall be required to offset by on-site retention")
comes last. Grouped, each cause is asked once, naming the rules it decides, and
the permit question comes first.
"""

from __future__ import annotations

import json

import pytest
from shapely.geometry import box

from sitecheck.app.cli import main
from sitecheck.rules.review_groups import review_groups

from .conftest import write_layer
from .rule_case import Case, run_case

BARE = {"existing_sqft": None, "proposed_sqft": None, "zoning": None}


def test_one_missing_field_is_one_question_naming_the_eight_exemptions(tmp_path):
    _, _, outcome = run_case(tmp_path, "larchmont", Case(disturbed_sqft=600.0, **BARE))
    groups = review_groups(outcome)
    under_review = outcome.of("needs_review")
    # 19: the site map's slopes are asked on every SWPPP, so no DEM leaves none in doubt;
    # without a watercourse layer § 335-12's upkeep is open, and without a project type
    # § 335-11's commercial or industrial establishment.
    assert len(under_review) == 19 and len(groups) < len(under_review)
    activity = next(g for g in groups if g.cause.startswith("activity not given"))
    # § 335-23E(1)-(4) and (7)-(10); (5) and (6) turn on approval dates (not evaluated).
    assert activity.citations == [f"§ 335-23E({n})" for n in (1, 2, 3, 4, 7, 8, 9, 10)]
    assert "decides 8 rules" in activity.question
    wetlands = next(g for g in groups if g.cause == "no wetlands layer was given")
    assert {"§ 335-25B(1)(b)", "§ 335-25D"} <= set(wetlands.citations)
    # Every rule under review is asked by some question.
    asked = {t.rule.id for g in groups for t in g.triggers}
    assert asked == {t.rule.id for t in under_review}


def test_the_question_that_changes_what_must_be_built_comes_first(tmp_path):
    _, _, outcome = run_case(tmp_path, "larchmont", Case(disturbed_sqft=600.0, **BARE))
    first = review_groups(outcome)[0]
    assert first.cause.startswith("permit sought not given")
    assert first.citations == ["§ 335-28A"]
    assert "storm_requirement" in first.could_raise


def test_a_question_that_could_raise_the_design_storm_outranks_the_others(tmp_path):
    # Over one acre without a permit field: § 335-28A's 100-year storm is under review.
    case = Case(lot_sqft=200_000.0, disturbed_sqft=43_561.0, **BARE)
    _, _, outcome = run_case(tmp_path, "larchmont", case)
    groups = review_groups(outcome)
    assert groups[0].could_raise[0] == "design_storm"
    # both § 335-28A's own rule and § 335-25B(1)(v)'s borrowing of it could set 100 years
    raising = [g for g in groups if g.could_raise and g.could_raise[0] == "design_storm"]
    assert groups[: len(raising)] == raising
    storm_rules = {t.rule.id for g in raising for t in g.triggers}
    assert {"larchmont.storm.100yr", "larchmont.swppp.no_net_increase_100yr"} <= storm_rules
    assert outcome.design_storm == "50, or 100: review"


def test_homer_asks_for_the_project_type_once(tmp_path):
    _, _, outcome = run_case(tmp_path, "homer", Case(disturbed_sqft=12_000.0, **BARE))
    groups = review_groups(outcome)
    project_type = [g for g in groups if g.cause.startswith("project type not given")]
    assert len(project_type) == 1
    ids = [t.rule.id for t in outcome.of("needs_review") if "project type" in t.reason]
    assert [t.rule.id for t in project_type[0].triggers] == ids


def test_the_json_the_terminal_and_the_report_ask_in_the_same_order(tmp_path, capsys):
    gpkg = tmp_path / "site.gpkg"
    lot = box(690_000, 787_000, 690_200, 787_100)
    work = box(690_020, 787_020, 690_050, 787_040)  # 600 sq ft
    parcels = write_layer(gpkg, "parcels", [{"parcel_id": "L1", "geometry": lot}])
    drawn = write_layer(gpkg, "work", [{"parcel_id": "L1", "geometry": work}])
    out, doc, report = tmp_path / "o.gpkg", tmp_path / "o.json", tmp_path / "r.html"
    args = ["check", "--ordinance", "larchmont", "--parcels", parcels, "--disturbance", drawn]
    assert (
        main(
            [
                *args,
                "--out",
                str(out),
                "--json-layout",
                "full",
                "--json",
                str(doc),
                "--report",
                str(report),
            ]
        )
        == 0
    )
    printed = capsys.readouterr().out
    parcel = json.loads(doc.read_text())["parcels"][0]
    reviews = parcel["reviews"]
    assert reviews[0]["citations"] == ["§ 335-28A"]
    assert reviews[0]["rule_ids"] == ["larchmont.storm.50yr"]
    asked = [line.split("review: ", 1)[1] for line in printed.splitlines() if "review: " in line]
    assert asked == [r["question"] for r in reviews[: len(asked)]] and len(asked) == 3
    html = report.read_text()
    positions = [html.index(f"</span> {_escaped(r['cause'])}</p>") for r in reviews]
    assert positions == sorted(positions)


def _escaped(text: str) -> str:
    return text.replace("&", "&amp;").replace("'", "&#x27;").replace('"', "&quot;")


@pytest.mark.parametrize("pack_id", ["larchmont", "homer", "scarsdale"])
def test_every_review_is_in_some_group_for_every_pack(tmp_path, pack_id):
    _, _, outcome = run_case(tmp_path, pack_id, Case(disturbed_sqft=6_000.0, **BARE))
    asked = {t.rule.id for g in review_groups(outcome) for t in g.triggers}
    assert asked == {t.rule.id for t in outcome.of("needs_review")}
