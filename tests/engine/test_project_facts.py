"""A project whose work is not one activity, permit or project type (issue 28, item 2.1).

Larchmont § 335-23E: "The following activities shall be exempt from review under
this article: ... (10) Activities of an individual engaging in home gardening". The
exemption covers the gardening, not the construction beside it; § 335-24 makes
construction of "equal to or greater than 500 square feet" a land development
activity, which needs a SWPPP (§ 335-25A). Home gardening of 3,000 sq ft on one lot
and construction of 600 sq ft on the other, one project, is not exempt as a whole.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from shapely.geometry import box

from sitecheck.io.readers import LayerSource
from sitecheck.measure.inputs import MeasureInputs, MeasureSettings
from sitecheck.pipeline.run import screen
from sitecheck.pipeline.spec import RunSpec

from .conftest import write_layer

X0, Y0 = 1_000_000.0, 1_000_000.0
CRS = "EPSG:2263"  # NY State Plane Long Island, US feet (Westchester)
LOT_A = box(X0, Y0, X0 + 200, Y0 + 300)
LOT_B = box(X0 + 200, Y0, X0 + 400, Y0 + 300)
GARDEN_ON_A = box(X0 + 20, Y0 + 20, X0 + 80, Y0 + 70)  # 60 x 50 = 3,000 sq ft
HOUSE_ON_B = box(X0 + 250, Y0 + 20, X0 + 280, Y0 + 40)  # 30 x 20 = 600 sq ft
SECOND_ON_A = box(X0 + 120, Y0 + 150, X0 + 150, Y0 + 170)  # 600 sq ft, on lot A


def _screen(tmp_path: Path, work: list[dict], ordinance: str = "larchmont"):
    gpkg = tmp_path / "site.gpkg"
    lots = [{"parcel_id": "A", "geometry": LOT_A}, {"parcel_id": "B", "geometry": LOT_B}]
    layers = {
        "parcels": write_layer(gpkg, "parcels", lots, crs=CRS),
        "disturbance": write_layer(gpkg, "work", work, crs=CRS),
    }
    sources = {role: LayerSource.parse(role, spec) for role, spec in layers.items()}
    return screen(RunSpec(MeasureInputs(**sources), MeasureSettings(), ordinance, 0.0))


def _trigger(outcome, rule_id: str):
    return next(t for t in outcome.triggers if t.rule.id == rule_id)


def test_gardening_beside_construction_leaves_the_project_not_exempt(tmp_path):
    work = [
        {"project": "P", "activity": "home_gardening", "geometry": GARDEN_ON_A},
        {"project": "P", "activity": "construction", "geometry": HOUSE_ON_B},
    ]
    result = _screen(tmp_path, work)
    lots = result.measured.parcels.set_index("parcel_id")
    assert lots.loc["B", "disturbed_area_sqft"] == pytest.approx(600.0)
    # The construction lot on its own: 600 >= 500 sq ft, not gardening: a SWPPP.
    assert _trigger(result.outcomes[1], "larchmont.swppp").outcome == "triggered"
    assert _trigger(result.outcomes[0], "larchmont.exempt.home_gardening").outcome == "triggered"
    site = result.projects.site_result
    assert site.measured.parcels["disturbed_area_sqft"].iat[0] == pytest.approx(3_600.0)
    # The exemption covers the gardening only: the project is not exempt, and the
    # exemption's reading says which work is which.
    exempt = _trigger(site.outcomes[0], "larchmont.exempt.home_gardening")
    assert exempt.outcome == "needs_review"
    assert "home_gardening on 3,000 sq ft; construction on 600 sq ft" in exempt.reason
    assert _trigger(site.outcomes[0], "larchmont.swppp").outcome == "triggered"
    assert any(
        "activity of the work on 1 lot(s) or project site(s) differs" in w
        for w in result.measured.log.warnings
    )


def test_one_lot_with_two_activities_is_not_exempt_either(tmp_path):
    # No project field: the lot is the project, and its work is 3,000 sq ft of gardening
    # and 600 sq ft of construction.
    work = [
        {"activity": "home_gardening", "geometry": GARDEN_ON_A},
        {"activity": "construction", "geometry": SECOND_ON_A},
    ]
    lot_a = _screen(tmp_path, work).outcomes[0]
    exempt = _trigger(lot_a, "larchmont.exempt.home_gardening")
    assert exempt.outcome == "needs_review"
    assert "home_gardening on 3,000 sq ft; construction on 600 sq ft" in exempt.reason
    assert _trigger(lot_a, "larchmont.swppp").outcome == "triggered"


def test_permits_that_differ_leave_the_peak_runoff_offset_to_review(tmp_path):
    # § 335-28A: "any applicant for any demolition or building permit shall be required to
    # offset ... from, at a minimum, the fifty-year design storm"; a project whose work is
    # partly under a building permit and partly under none is neither wholly in nor out.
    work = [
        {"project": "P", "activity": "construction", "permit": "none", "geometry": GARDEN_ON_A},
        {"project": "P", "activity": "construction", "permit": "building", "geometry": HOUSE_ON_B},
    ]
    site = _screen(tmp_path, work).projects.site_result
    values = site.measured.parcels["permit"].iat[0]
    assert values == "none on 3,000 sq ft; building on 600 sq ft"
    storm = _trigger(site.outcomes[0], "larchmont.storm.50yr")
    assert storm.outcome == "needs_review"
    assert (
        "permit sought differs across the work: none on 3,000 sq ft; building on 600 sq ft"
        in storm.reason
    )


def test_features_that_agree_in_other_words_are_one_activity(tmp_path):
    work = [
        {"project": "P", "activity": "Construction", "geometry": GARDEN_ON_A},
        {"project": "P", "activity": "construction ", "geometry": HOUSE_ON_B},
    ]
    site = _screen(tmp_path, work).projects.site_result
    assert _trigger(site.outcomes[0], "larchmont.swppp").outcome == "triggered"


def test_project_types_that_differ_put_homer_post_construction_under_review(tmp_path):
    # Homer § 228-78B(2)(b) lists the project types that need post-construction controls;
    # a single-family home beside a commercial building is not one type.
    work = [
        {
            "project": "P",
            "activity": "construction",
            "project_type": "single_family_home",
            "geometry": box(X0 + 10, Y0 + 10, X0 + 110, Y0 + 110),
        },
        {
            "project": "P",
            "activity": "construction",
            "project_type": "commercial",
            "geometry": box(X0 + 210, Y0 + 10, X0 + 310, Y0 + 110),
        },
    ]
    site = _screen(tmp_path, work, "homer").projects.site_result
    mix = site.measured.parcels["project_type"].iat[0]
    assert mix == "single_family_home on 10,000 sq ft; commercial on 10,000 sq ft"
    reasons = " ".join(t.reason for t in site.outcomes[0].triggers)
    assert "project type differs across the work" in reasons


def test_a_parcel_field_of_a_project_facts_name_fills_in_where_the_work_is_silent(tmp_path):
    # The parcel layer records each lot's permit (a permit register joined to the lots);
    # the work on lot A names its own permit, that on lot B none. A's reads the work's,
    # B's the lot's: the work's word comes first, the lot's where the work gives none.
    gpkg = tmp_path / "site.gpkg"
    lots = [
        {"parcel_id": "A", "permit": "demolition", "geometry": LOT_A},
        {"parcel_id": "B", "permit": "building", "geometry": LOT_B},
    ]
    work = [
        {"permit": "grading", "activity": "construction", "geometry": SECOND_ON_A},
        {"permit": None, "activity": "construction", "geometry": HOUSE_ON_B},
    ]
    layers = {
        "parcels": write_layer(gpkg, "parcels", lots, crs=CRS),
        "disturbance": write_layer(gpkg, "work", work, crs=CRS),
    }
    sources = {role: LayerSource.parse(role, spec) for role, spec in layers.items()}
    result = screen(RunSpec(MeasureInputs(**sources), MeasureSettings(), "larchmont", 0.0))
    table = result.measured.parcels.set_index("parcel_id")
    assert table.loc["A", "permit"] == "grading"
    assert table.loc["B", "permit"] == "building"
    assert table["permit"].dtype == "string"
