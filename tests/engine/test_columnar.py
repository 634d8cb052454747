"""Deciding a pack for every parcel at once (``sitecheck.rules.columnar``) must give the
worded evaluator's truth and outcomes, parcel by parcel (issue 30: columnar rules).

The reference is the evaluator with its reasons (``evaluate``, ``evaluate_pack``),
which reads one parcel at a time. Both read the same values: a generated village's
lots with work, each moved onto and around every threshold of the packs, emptied
and given the odd types public layers hold (``test_decide._variants``), and
parcels drawn by hypothesis from every name a pack uses: its own thresholds and a
hair either side, ranges measured on part of their data, missing values, numpy
numbers, 0/1 booleans, unknown codes and text where a number belongs.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sitecheck.rules.columnar import FALSE, TRUE, UNKNOWN, ValueTable, decide_rows
from sitecheck.rules.errors import RuleLanguageError
from sitecheck.rules.evaluate import constant_value, evaluate
from sitecheck.rules.leaf_plans import distinct_rows
from sitecheck.rules.outcome import evaluate_pack
from sitecheck.rules.pack import load_pack
from sitecheck.rules.pack_rows import (
    FEWEST_IN_COLUMNS,
    OUTCOMES,
    DecidedPack,
    ParcelsAlone,
    decided_pack,
    exempted_codes,
)
from sitecheck.rules.syntax import Comparison, Membership, Name, Text, names_in, walk
from sitecheck.rules.truth import Truth
from sitecheck.rules.units import Quantity

from .test_decide import PACKS, _variants, lot_values


@pytest.fixture(scope="module")
def village_values(shared_village) -> list[dict[str, object]]:
    return lot_values(shared_village)


CODES = {Truth.TRUE: TRUE, Truth.FALSE: FALSE, Truth.UNKNOWN: UNKNOWN}


def _conditions(pack):
    """Every condition a run decides in columns: each rule's, its reviews' and the
    runoff screen's unimproved-before (Scarsdale's SDA)."""
    before = [pack.runoff.unimproved_before_when] if pack.runoff.unimproved_before_when else []
    return (
        [rule.when for rule in pack.rules]
        + [review.when for rule in pack.rules for review in rule.reviews]
        + before
    )


def _assert_same_truth(pack, rows, tolerances=(0.02, 0.0)) -> set[int]:
    table = ValueTable(rows)
    seen: set[int] = set()
    for tolerance in tolerances:
        for condition in _conditions(pack):
            codes = decide_rows(condition, table, pack.names, tolerance)
            for row, values in enumerate(rows):
                expected = CODES[evaluate(condition, values, pack.names, tolerance).truth]
                assert codes[row] == expected, (condition.text, tolerance, values)
            seen.update(int(code) for code in codes)
    return seen


def _assert_same_outcomes(pack, rows, tolerance=0.02) -> set[str]:
    decided = DecidedPack(pack, rows, tolerance)
    # The outcomes alone, decided in columns, as a site's two readings of its lot area take them.
    coded = exempted_codes(pack.rules, decided.codes)
    seen: set[str] = set()
    for position, values in enumerate(rows):
        for every_reason in (True, False):
            expected = evaluate_pack(pack, values, tolerance, unlisted_reasons=every_reason)
            got = decided.outcome(position, unlisted_reasons=every_reason)
            assert [t.to_json() for t in got.triggers] == [
                t.to_json() for t in expected.triggers
            ], values
            assert [t.causes for t in got.triggers] == [t.causes for t in expected.triggers]
            seen.update(t.outcome for t in expected.triggers)
        # The outcomes are the same however many reasons are worded: those of the last.
        outcomes = {t.rule.id: t.outcome for t in expected.triggers}
        assert {rule: OUTCOMES[codes[position]] for rule, codes in coded.items()} == outcomes
    return seen


@pytest.mark.slow
@pytest.mark.parametrize("pack_id", PACKS)
def test_every_condition_decided_over_the_village_is_the_evaluators(village_values, pack_id):
    pack = load_pack(pack_id)
    rows = _variants(pack_id, village_values)
    assert len(rows) > 700
    assert _assert_same_truth(pack, rows) == {int(FALSE), int(TRUE), int(UNKNOWN)}


@pytest.mark.slow
@pytest.mark.parametrize("pack_id", PACKS)
def test_every_outcome_and_reason_over_the_village_is_evaluate_packs(village_values, pack_id):
    pack = load_pack(pack_id)
    seen = _assert_same_outcomes(pack, _variants(pack_id, village_values)[::2])
    assert seen == {"triggered", "not_triggered", "needs_review"}


@pytest.mark.parametrize("pack_id", PACKS)
def test_a_parcel_decided_among_few_reads_as_among_many(village_values, pack_id):
    """The panel decides one to three parcels, each alone with the evaluator; a run
    decides hundreds in columns. A parcel's outcomes, reasons and causes are the same
    whichever way its run was decided, every rule worded or the listed ones alone (a
    site's two readings of its lot area, the outcomes alone, likewise)."""
    pack = load_pack(pack_id)
    rows = _variants(pack_id, village_values)[:120]
    many = decided_pack(pack, rows, 0.02)
    assert isinstance(many, DecidedPack)
    outcomes = many.unworded()
    size = FEWEST_IN_COLUMNS - 1
    for start in range(0, len(rows), size):
        few = decided_pack(pack, rows[start : start + size], 0.02)
        assert isinstance(few, ParcelsAlone)
        assert few.unworded() == outcomes[start : start + size]
        for position in range(len(few.rows)):
            for every_reason in (True, False):
                alone = few.outcome(position, unlisted_reasons=every_reason).triggers
                among = many.outcome(start + position, unlisted_reasons=every_reason).triggers
                assert [(t.to_json(), t.causes) for t in alone] == [
                    (t.to_json(), t.causes) for t in among
                ]


@pytest.mark.parametrize("pack_id", PACKS)
def test_equal_values_of_other_types_are_each_worded_as_their_own(village_values, pack_id):
    """A leaf's words are shared by the rows reading the same values; 0, 0.0, -0.0,
    False, a numpy zero and the text "0" compare equal or look alike (and a list cannot
    be a key at all), and each must still read as the evaluator reads it (a number, a
    gap, text where a number belongs) in every row of one table."""
    pack = load_pack(pack_id)
    base = village_values[0]
    odd = [0, 0.0, -0.0, False, True, 1, 1.0, np.float64(0.0), np.int64(1), "0", None, [0]]
    rows = []
    for name, info in pack.names.items():
        if info.is_constant or info.type == "text":
            continue
        rows += [{**base, name: value} for value in odd]
    assert len(rows) > 100
    seen = _assert_same_outcomes(pack, rows)
    assert "needs_review" in seen


# --- parcels drawn from what a pack names ----------------------------------------------


def _constants(pack) -> dict[str, list[object]]:
    """Per name a pack's conditions compare, the constants it is compared with."""
    found: dict[str, set[object]] = {}
    constant_names = {name for name, info in pack.names.items() if info.is_constant}
    for condition in _conditions(pack):
        for node in walk(condition):
            if isinstance(node, Membership) and isinstance(node.item, Name):
                found.setdefault(node.item.name, set()).update(
                    choice.value for choice in node.choices if isinstance(choice, Text)
                )
            if not isinstance(node, Comparison):
                continue
            for side, other in ((node.left, node.right), (node.right, node.left)):
                if not isinstance(side, Name) or names_in(other) - constant_names:
                    continue
                try:
                    value = constant_value(other, pack.names)
                except RuleLanguageError:
                    continue
                if isinstance(value, Quantity):
                    found.setdefault(side.name, set()).add(float(value.value))
                elif isinstance(value, str):
                    found.setdefault(side.name, set()).add(value)
    return {name: sorted(values, key=str) for name, values in found.items()}


def _value(info, constants: list[object]) -> st.SearchStrategy:
    odd = st.sampled_from([None, math.nan, "big", np.str_("A-1")])
    if info.type == "boolean":
        return st.one_of(st.booleans(), st.sampled_from([None, 0, 1, np.bool_(True), 2]), odd)
    if info.type == "text":
        codes = [c for c in constants if isinstance(c, str)] or ["x"]
        return st.one_of(st.sampled_from(codes), st.text(max_size=3), odd)
    numbers = [c for c in constants if isinstance(c, float)] or [0.0, 100.0]
    near = st.builds(
        lambda point, move: point * move,
        st.sampled_from(numbers),
        st.sampled_from([0.97, 0.98, 0.9800001, 0.999, 1.0, 1.001, 1.02, 1.03]),
    )
    plain = st.one_of(near, st.floats(0, 2e5), st.integers(0, 90_000), st.just(0.0))
    ranged = st.builds(
        lambda low, extra: Quantity(low, info.type, None, low + extra, "partial"),
        near,
        st.sampled_from([0.0, 1.0, 50.0, 400.0, 5_000.0]),
    )
    with_numpy = st.builds(np.float64, near)
    return st.one_of(plain, ranged if info.type != "number" else plain, with_numpy, odd)


def _parcels(pack) -> st.SearchStrategy:
    constants = _constants(pack)
    measured = {
        name: _value(info, constants.get(name, []))
        for name, info in pack.names.items()
        if not info.is_constant
    }
    return st.lists(st.fixed_dictionaries(measured), min_size=1, max_size=40)


@pytest.mark.parametrize("pack_id", PACKS)
def test_parcels_drawn_from_a_packs_names_decide_as_the_evaluator_does(pack_id):
    pack = load_pack(pack_id)

    @settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(_parcels(pack))
    def check(rows):
        _assert_same_truth(pack, rows)
        _assert_same_outcomes(pack, rows[:8])

    check()


@settings(max_examples=60, deadline=None)
@given(
    st.integers(min_value=0, max_value=30).flatmap(
        lambda width: st.lists(
            st.lists(st.booleans(), min_size=width + 1, max_size=width + 1), max_size=60
        ).map(lambda rows, width=width: np.array(rows, dtype=bool).reshape(-1, width + 1))
    )
)
def test_rows_that_read_the_same_leaves_share_one_pattern(flags):
    """Each row maps to a pattern equal to it, and the patterns are the distinct rows
    numpy finds by sorting row by row (widths past one byte included)."""
    patterns, index = distinct_rows(flags)
    assert index.shape == (len(flags),)
    assert np.array_equal(patterns[index], flags)
    expected = {tuple(row) for row in np.unique(flags, axis=0).tolist()}
    assert {tuple(row) for row in patterns.tolist()} == expected
    assert len(patterns) == len(expected)


@pytest.mark.parametrize("pack_id", PACKS)
def test_a_parcel_decided_without_words_has_the_evaluators_bare_outcomes(village_values, pack_id):
    """A parcel whose outcome is read and not shown (the panel's other lots and sites) is
    decided without reasons: each rule's outcome, and the note of an exemption that
    switches it off, as ``evaluate_pack(..., words=False)`` gives them, in columns or alone."""
    pack = load_pack(pack_id)
    rows = _variants(pack_id, village_values)[:120]
    many = decided_pack(pack, rows, 0.02)
    assert isinstance(many, DecidedPack)
    seen = set()
    for start in range(0, len(rows), FEWEST_IN_COLUMNS - 1):
        few = decided_pack(pack, rows[start : start + FEWEST_IN_COLUMNS - 1], 0.02)
        assert isinstance(few, ParcelsAlone)
        for position, values in enumerate(few.rows):
            expected = [t.to_json() | {"note": t.note} for t in evaluate_pack(
                pack, values, 0.02, words=False
            ).triggers]  # fmt: skip
            for decided, at in ((few, position), (many, start + position)):
                got = decided.outcome(at, words=False).triggers
                assert [t.to_json() | {"note": t.note} for t in got] == expected, values
                assert not any(t.facts or t.causes for t in got)
            seen.update(t["outcome"] for t in expected)
    assert seen == {"triggered", "not_triggered", "needs_review"}
