"""The truth alone (``sitecheck.rules.decide``) must be the evaluator's, for every condition.

The nearest-threshold search decides each pack dozens of times a parcel from
functions built once per node; a single disagreement with the evaluator would
put a wrong threshold in a county's report. The reference here is the
evaluator with its reasons, on the values a generated village measures and on
those values moved onto, just inside and just outside each threshold of the
packs, emptied, and given the odd types public data bring.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from sitecheck.rules.decide import decide
from sitecheck.rules.evaluate import evaluate
from sitecheck.rules.margins import pack_thresholds
from sitecheck.rules.outcome import evaluate_pack
from sitecheck.rules.pack import load_pack
from sitecheck.rules.units import Quantity

from .village_runs import VILLAGE_LAYERS, render_report, village_inputs

PACKS = ("scarsdale", "larchmont", "homer")


@pytest.fixture(scope="module")
def village_values(shared_village) -> list[dict[str, object]]:
    """The values of each lot with work on a generated village, every layer given."""
    return lot_values(shared_village)


def lot_values(shared_village) -> list[dict[str, object]]:
    """The values of each lot with work on the shared 3,000-parcel village."""
    from sitecheck.io.readers import LayerSource
    from sitecheck.measure.driver import measure
    from sitecheck.measure.inputs import MeasureInputs, MeasureSettings
    from sitecheck.screening.values import parcel_value_rows

    village = shared_village(parcels=3_000)
    gpkg = str(village["gpkg"])
    roles = tuple(layer for layer in VILLAGE_LAYERS if layer != "soils")  # soils: runoff's
    inputs = MeasureInputs(
        parcels=LayerSource("parcels", gpkg, "parcels"),
        disturbance=LayerSource("disturbance", gpkg, "disturbance"),
        dem=str(village["dem"]),
        **{role: LayerSource(role, gpkg, role) for role in roles},
    )
    measured = measure(inputs, MeasureSettings())
    rows = [int(row) for row in measured.touched.nonzero()[0]]
    return parcel_value_rows(measured, rows, warn=False)


def _variants(pack_id: str, values: list[dict[str, object]]) -> list[dict[str, object]]:
    """Each lot's values, then each area at and around each threshold of the pack, each
    number grown, and
    values emptied or of the types published layers hold (numpy numbers, 0/1 booleans,
    text where a number belongs, ranges)."""
    pack = load_pack(pack_id)
    thresholds = pack_thresholds(pack)
    variants = list(values[::4])
    for number, parcel in enumerate(values[:25]):
        for metric, points in thresholds.items():
            for point in points:
                for moved in (point, point * 0.98, point * 0.981, point * 1.02, point + 1):
                    variants.append({**parcel, metric: moved})
        for key, value in parcel.items():
            if isinstance(value, float):
                variants.append({**parcel, key: value * 1.5 + 10})
        metric = sorted(thresholds)[number % len(thresholds)]
        odd = (None, math.nan, np.float64(parcel.get(metric) or 0.0), np.int64(7_000), "big")
        variants += [{**parcel, metric: value} for value in odd]
        variants.append({**parcel, metric: Quantity(4_900.0, "area", None, 5_200.0, "partial")})
        variants.append({**parcel, "in_sda": number % 2, "in_impaired_watershed": None})
        variants.append({**parcel, "zoning_district": None, "permit": np.str_("building")})
        variants.append({key: None for key in parcel})
    return variants


@pytest.mark.slow
@pytest.mark.parametrize("pack_id", PACKS)
def test_the_truth_alone_is_the_evaluators_for_every_condition(village_values, pack_id):
    pack = load_pack(pack_id)
    variants = _variants(pack_id, village_values)
    conditions = [rule.when for rule in pack.rules]
    conditions += [review.when for rule in pack.rules for review in rule.reviews]
    seen = set()
    for values in variants:
        for tolerance in (0.02, 0.0):
            for condition in conditions:
                expected = evaluate(condition, values, pack.names, tolerance).truth
                assert decide(condition, values, pack.names, tolerance, {}) is expected, (
                    condition.text,
                    values,
                )
                seen.add(expected)
    assert len(village_values) > 100 and len(variants) > 700
    assert len(seen) == 3  # every truth came up: the comparison was not of one kind


@pytest.mark.slow
@pytest.mark.parametrize("pack_id", PACKS)
def test_a_packs_outcomes_alone_are_those_with_reasons(village_values, pack_id):
    """The search for the nearest threshold reads these outcomes, exemptions applied."""
    pack = load_pack(pack_id)
    outcomes = set()
    for values in _variants(pack_id, village_values)[::3]:
        worded = [t.outcome for t in evaluate_pack(pack, values, 0.02).triggers]
        alone = [t.outcome for t in evaluate_pack(pack, values, 0.02, words=False).triggers]
        assert alone == worded, values
        outcomes.update(worded)
    assert outcomes == {"triggered", "not_triggered", "needs_review"}


def test_a_run_wording_only_the_listed_rules_writes_what_one_wording_every_rule_does(tmp_path):
    """A county's run words the reasons of the listed rules only (the compact JSON shows no
    others) and the report's detailed sections word the rest for their parcels: the
    compact JSON and the report must be those of a run wording every rule."""
    from datetime import datetime, timezone

    from sitecheck.pipeline.run import screen
    from sitecheck.pipeline.spec import RunSpec
    from sitecheck.reports.compact import COMPACT
    from sitecheck.reports.document import check_document
    from sitecheck.reports.html import ReportLimits
    from sitecheck.sample.village import generate_village

    village = generate_village(tmp_path, parcels=400)
    inputs = village_inputs(village)
    moment = datetime(2026, 12, 2, tzinfo=timezone.utc)
    written = []
    for every_rule in (True, False):
        result = screen(RunSpec(inputs, ordinance="scarsdale", unlisted_reasons=every_rule))
        bare = [
            t
            for outcome in result.outcomes
            if outcome is not None
            for t in outcome.of("not_triggered")
            if not t.reason
        ]
        assert bool(bare) is not every_rule  # the run words them, or leaves them out
        document = check_document(result, layout=COMPACT)
        report = render_report(result, limits=ReportLimits(details=5, maps=0), generated=moment)
        for varies in ("run_id", "timings_s", "generated"):  # each run's own
            report = report.replace(str(document.pop(varies)), "")
        written.append((document, report))
    assert written[0][0] == written[1][0]
    assert written[0][1] == written[1][1]
    assert "not triggered" in written[0][1].lower()
