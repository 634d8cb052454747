"""How far a plan is from the threshold that changes what the law asks (issue 13, item 13).

The margins are checked against the law's own numbers: Scarsdale § 254-9 applies
to "land-disturbing activities of greater than 1,500 square feet on lands located
in SDA", § 254-8 "up to 1,500 square feet located in SDA"; Homer § 228-78A's land
development activity is 10,000 sq ft; Larchmont § 335-28A's 100-year storm
applies "if the site disturbance is greater than one acre" (43,560 sq ft).
"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from shapely.geometry import box

from sitecheck.app.cli import main
from sitecheck.rules import nearest_rows
from sitecheck.rules.margins import nearest_margins
from sitecheck.rules.nearest_rows import margin_rows, nearest_margin_rows
from sitecheck.rules.pack import load_pack

from .conftest import write_layer
from .rule_case import Case, run_case
from .test_columnar import _parcels
from .test_decide import _variants, lot_values
from .village_runs import village_inputs


def test_scarsdale_sda_1580_sq_ft_is_80_over_the_254_9_threshold(tmp_path):
    by_rule, metrics, outcome = run_case(
        tmp_path, "scarsdale", Case(disturbed_sqft=1_580.0, in_sda=True)
    )
    # Each numeric test says how far it is from its threshold.
    assert "1,580 sq ft > 1,500 sq ft (80 sq ft over)" in by_rule["scarsdale.tier.254_9"].reason
    values = {**metrics, "in_sda": True}
    margin = next(
        m for m in nearest_margins(outcome.pack, values) if m.metric == "disturbed_area_sqft"
    )
    assert margin.threshold_sqft == pytest.approx(1_500.0)
    assert margin.distance_sqft == pytest.approx(80.0, abs=0.01)
    assert margin.direction == "over"
    changed = {c.rule_id: (c.before, c.after) for c in margin.changes}
    # Under 1,500 sq ft the application is § 254-8's.
    assert changed["scarsdale.tier.254_9"] == ("triggered", "not_triggered")
    assert changed["scarsdale.tier.254_8"] == ("not_triggered", "triggered")
    assert "80 sq ft over the 1,500 sq ft of" in margin.text and "§ 254-9" in margin.text


@pytest.mark.parametrize(
    ("pack_id", "case", "threshold", "direction", "rule"),
    [
        (
            "homer",
            Case(disturbed_sqft=9_700.0, attributes={"activity": "construction"}),
            10_000.0,
            "under",
            "homer.swppp",
        ),
        (
            "larchmont",
            Case(lot_sqft=200_000.0, disturbed_sqft=44_000.0, attributes={"permit": "building"}),
            43_560.0,
            "over",
            "larchmont.storm.100yr",
        ),
    ],
)
def test_the_margin_of_the_disturbance_is_the_laws_threshold(
    tmp_path, pack_id, case, threshold, direction, rule
):
    _, metrics, outcome = run_case(tmp_path, pack_id, case)
    margins = {m.metric: m for m in nearest_margins(outcome.pack, metrics)}
    margin = margins["disturbed_area_sqft"]
    assert margin.threshold_sqft == pytest.approx(threshold)
    assert margin.direction == direction
    assert margin.distance_sqft == pytest.approx(abs(case.disturbed_sqft - threshold), abs=0.01)
    assert rule in {c.rule_id for c in margin.changes}


def test_an_area_of_zero_is_not_held_against_a_zero_threshold():
    pack = load_pack("scarsdale")
    values = {
        "lot_area_sqft": 20_000.0,
        "disturbed_area_sqft": 1_000.0,
        "disturbed_in_adjoining_buffer_sqft": 0.0,
        "zoning_district": "A-3",
        "in_sda": False,
        "activity": "construction",
    }
    margins = nearest_margins(pack, values)
    assert "disturbed_in_adjoining_buffer_sqft" not in [m.metric for m in margins]
    # Outside an SDA, 1,000 sq ft is 500 over the 500 sq ft of § 254-5's small-disturbance
    # exemption and § 254-8, and 4,000 under § 254-9's "greater than 5,000": 500 is nearest.
    nearest = margins[0]
    assert nearest.metric == "disturbed_area_sqft"
    assert nearest.threshold_sqft == pytest.approx(500.0)
    assert nearest.distance_sqft == pytest.approx(500.0)
    assert nearest.direction == "over"


def test_the_json_and_the_report_give_the_margins(tmp_path, capsys):
    gpkg = tmp_path / "site.gpkg"
    lot = box(690_000, 787_000, 690_200, 787_100)
    work = box(690_020, 787_020, 690_060, 787_059.5)  # 1,580 sq ft
    sda = box(689_990, 786_990, 690_210, 787_110)
    args = [
        "check",
        "--ordinance",
        "scarsdale",
        "--parcels",
        write_layer(gpkg, "parcels", [{"parcel_id": "L1", "geometry": lot}]),
        "--disturbance",
        write_layer(
            gpkg, "work", [{"parcel_id": "L1", "activity": "construction", "geometry": work}]
        ),
        "--sda",
        write_layer(gpkg, "sda", [{"geometry": sda}]),
    ]
    out, doc, report = tmp_path / "o.gpkg", tmp_path / "o.json", tmp_path / "r.html"
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
    margin = parcel["margin"]
    assert margin["metric"] == "disturbed_area_sqft" and margin["direction"] == "over"
    assert margin["threshold_sqft"] == 1500.0 and margin["distance_sqft"] == pytest.approx(80.0)
    assert {
        "rule_id": "scarsdale.tier.254_8",
        "citation": "§ 254-8",
        "from": "not_triggered",
        "to": "triggered",
    } in margin["changes"]
    assert parcel["margins"][0] == margin
    assert f"nearest threshold: {margin['text']}" in printed
    html = report.read_text()
    assert "Nearest thresholds" in html and "80 sq ft over the 1,500 sq ft of" in html


@pytest.mark.slow
@pytest.mark.parametrize("pack_id", ["scarsdale", "larchmont", "homer"])
def test_the_nearest_margin_found_alone_is_the_first_of_all_the_margins(shared_village, pack_id):
    """The compact JSON and the terminal look for the nearest threshold alone, for every lot
    of the run at once; it must be the one each lot's search of every area puts first."""
    from sitecheck.pipeline.run import screen
    from sitecheck.pipeline.spec import RunSpec
    from sitecheck.screening.values import parcel_value_rows

    village = shared_village(parcels=3_000)
    inputs = village_inputs(village)
    result = screen(RunSpec(inputs, ordinance=pack_id))
    rows = [int(row) for row in result.measured.touched.nonzero()[0]]
    assert len(rows) > 300
    values = parcel_value_rows(result.measured, rows, warn=False)
    nearest = result.nearest(rows)
    compared = 0
    for row, parcel_values in zip(rows, values, strict=True):
        every = nearest_margins(result.outcomes[row].pack, parcel_values)
        alone = nearest[row]
        if not every:
            assert alone is None
            continue
        assert alone == every[0], result.measured.parcels["parcel_id"].iat[row]
        compared += 1
    assert compared > 300


# --- every parcel of a pack at once (issue 30) -------------------------------------------


def _assert_nearest_rows_are_each_parcels(pack, rows) -> tuple[int, int]:
    """The margins found for all rows together, every area's and the nearest alone, are
    each row's own search of every area and its first; returns how many rows have one,
    and how many have several (their order is the search's too)."""
    together = nearest_margin_rows(pack, rows)
    with pytest.MonkeyPatch.context() as patch:  # in columns however few the rows
        patch.setattr(nearest_rows, "FEWEST_MARGINS_IN_COLUMNS", 0)
        all_together = margin_rows(pack, rows)
    for values, margin, margins in zip(rows, together, all_together, strict=True):
        every = nearest_margins(pack, values)
        assert margin == (every[0] if every else None), values
        assert margins == every, values
    several = sum(len(margins) > 1 for margins in all_together)
    return sum(margin is not None for margin in together), several


@pytest.fixture(scope="module")
def village_values(shared_village) -> list[dict[str, object]]:
    return lot_values(shared_village)


@pytest.mark.slow
@pytest.mark.parametrize("pack_id", ["scarsdale", "larchmont", "homer"])
def test_the_nearest_margins_of_a_village_at_once_are_each_parcels(village_values, pack_id):
    """Every lot with work, each area moved onto and around each threshold, emptied and of
    the types public layers hold: the search over all rows at once finds what each
    parcel's own search finds, the rules it would change included."""
    rows = _variants(pack_id, village_values)
    with_one, with_several = _assert_nearest_rows_are_each_parcels(load_pack(pack_id), rows)
    assert with_one > 300 and with_several > 100


@pytest.mark.parametrize("pack_id", ["scarsdale", "larchmont", "homer"])
def test_the_nearest_margins_of_drawn_parcels_at_once_are_each_parcels(pack_id):
    pack = load_pack(pack_id)

    @settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(_parcels(pack))
    def check(rows):
        _assert_nearest_rows_are_each_parcels(pack, rows)

    check()
