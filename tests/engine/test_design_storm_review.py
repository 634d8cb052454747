"""A parcel's design storm names the larger storm a rule under review would set.

Larchmont § 335-28A: "at a minimum, the fifty-year design storm or, if the site
disturbance is greater than one acre, from the one-hundred-year design storm".
Where the 100-year rule needs review (the area is within the tolerance band of
one acre, or no permit field says a building permit is sought), the parcel's
storm must not read a plain "50": every output says "50, or 100: review", and the
runoff screen gives the retention for both storms.
"""

from __future__ import annotations

import json

import geopandas as gpd
import pytest
from shapely.geometry import box

from sitecheck.app.cli import main
from sitecheck.rules.outcome import evaluate_pack
from sitecheck.rules.pack import load_pack

from .conftest import write_layer
from .rule_case import Case, run_case

ACRE = 43_560.0
X0, Y0 = 690_000.0, 787_000.0


@pytest.mark.parametrize(
    ("disturbed", "permit", "tolerance", "storm"),
    [
        (44_000.0, "building", 0.02, "50, or 100: review"),  # inside the 2% band of one acre
        (ACRE + 1, None, 0.0, "50, or 100: review"),  # the permit is not given
        (ACRE + 1, "building", 0.0, "100"),
        (ACRE - 1, "building", 0.0, "50"),
        # no permit: § 335-25B(1)(v) borrows § 335-28, whose 100-year step is the officer's call
        (ACRE + 1, "none", 0.0, "50, or 100: review"),
    ],
)
def test_larchmont_storm_summary_names_the_storm_under_review(
    tmp_path, disturbed, permit, tolerance, storm
):
    attributes = {} if permit is None else {"permit": permit}
    case = Case(lot_sqft=200_000.0, disturbed_sqft=disturbed, attributes=attributes)
    _, _, parcel = run_case(tmp_path, "larchmont", case, tolerance)
    assert parcel.design_storm == storm
    review = 100 if "review" in storm else None
    assert (max(parcel.design_storm_review_years, default=None)) == review


def test_a_storm_under_review_no_larger_than_the_governing_one_is_not_named():
    # Over one acre with a building permit the 100-year storm governs: nothing larger to ask.
    pack = load_pack("larchmont")
    outcome = evaluate_pack(
        pack,
        {"disturbed_area_sqft": 100_000.0, "permit": "building", "lot_area_sqft": 200_000.0},
    )
    assert outcome.design_storm_years == 100
    assert outcome.design_storm_review_years == ()
    assert outcome.design_storm == "100"


def _site(tmp_path, disturbed_sqft: float) -> list[str]:
    gpkg = tmp_path / "site.gpkg"
    lot = box(X0, Y0, X0 + 400, Y0 + 500)
    side = disturbed_sqft**0.5
    work = box(X0 + 20, Y0 + 20, X0 + 20 + side, Y0 + 20 + disturbed_sqft / side)
    house = box(X0 + 300, Y0 + 400, X0 + 340, Y0 + 425)
    new = box(X0 + 30, Y0 + 30, X0 + 130, Y0 + 80)  # 5,000 sq ft of new cover in the work
    return [
        f"--parcels={write_layer(gpkg, 'parcels', [{'parcel_id': 'L1', 'geometry': lot}])}",
        "--disturbance="
        + write_layer(gpkg, "work", [{"parcel_id": "L1", "permit": "building", "geometry": work}]),
        f"--impervious-existing={write_layer(gpkg, 'existing', [{'geometry': house}])}",
        "--impervious-proposed="
        + write_layer(gpkg, "proposed", [{"geometry": house}, {"geometry": new}]),
    ]


def test_every_output_says_50_or_100_review_and_the_retention_agrees(tmp_path, capsys):
    out, report, doc = tmp_path / "out.gpkg", tmp_path / "report.html", tmp_path / "out.json"
    args = ["check", "--ordinance", "larchmont", *_site(tmp_path, 44_000.0), "--default-hsg", "C"]
    args += [
        "--out",
        str(out),
        "--json-layout",
        "full",
        "--json",
        str(doc),
        "--report",
        str(report),
    ]
    assert main(args) == 0
    printed = capsys.readouterr().out
    row = next(line for line in printed.splitlines() if line.strip().startswith("L1"))
    assert "storm 50, or 100: review" in row

    parcel = next(p for p in json.loads(doc.read_text())["parcels"] if p["parcel_id"] == "L1")
    assert parcel["design_storm_years"] == 50
    assert parcel["design_storm_review_years"] == 100
    assert parcel["design_storm"] == "50, or 100: review"
    metrics = parcel["metrics"]
    assert metrics["retention_storm_yr"] == 50
    assert metrics["retention_review_storm_yr"] == 100
    # Each retention is its storm's runoff increase (no dual soil group here).
    for years, key in ((50, "retention_required_cuft"), (100, "retention_review_cuft")):
        increase = metrics[f"runoff_post_cuft_{years}yr"] - metrics[f"runoff_pre_cuft_{years}yr"]
        assert metrics[key] == pytest.approx(increase)
    assert metrics["retention_review_cuft"] > metrics["retention_required_cuft"] > 0
    assert f"{metrics['retention_review_cuft']:,.0f} cu ft (100-yr: review)" in row

    layer = gpd.read_file(out, layer="parcels").set_index("parcel_id")
    assert layer.loc["L1", "design_storm"] == "50, or 100: review"
    assert layer.loc["L1", "design_storm_review_years"] == 100
    assert layer.loc["L1", "retention_review_storm_yr"] == 100

    html = report.read_text()
    assert "50, or 100: review" in html
    assert "100-year storm, if the rule under review applies" in html
