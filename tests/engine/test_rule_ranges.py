"""Values measured on part of their data: a range the rules decide only where it decides.

A slope area measured on a DEM that covers 40% of the work is at least what was
found and at most that plus the uncovered 60%. A condition over such a value
is TRUE or FALSE only if it is so for every value in the range; else UNKNOWN.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sitecheck.rules import NameInfo, Quantity, Truth, check, evaluate, parse

NAMES = {
    "steep": NameInfo("area", "disturbed on slopes over 15%"),
    "other": NameInfo("area", "disturbed on slopes over 25%"),
    "disturbed": NameInfo("area", "disturbed"),
}
WHY = "the DEM covers 40% of the disturbance"


def _condition(text: str):
    expr = parse(text)
    check(expr, NAMES)
    return expr


def _range(low: float, high: float) -> Quantity:
    return Quantity(low, "area", None, high, WHY)


@pytest.mark.parametrize(
    ("condition", "low", "high", "truth", "words"),
    [
        # the least already passes the threshold: decided, worded by the least
        ("steep > 0 sqft", 100.0, 30_000.0, Truth.TRUE, "at least 100 sq ft > 0 sq ft"),
        # the most cannot reach it: decided, worded by the most
        ("steep >= 5000 sqft", 100.0, 4_000.0, Truth.FALSE, "at most 4,000 sq ft < 5,000 sq ft"),
        # the threshold lies inside the range: not known
        ("steep >= 5000 sqft", 100.0, 6_000.0, Truth.UNKNOWN, "100 to 6,000 sq ft"),
        ("steep == 0 sqft", 0.0, 50.0, Truth.UNKNOWN, "0 to 50 sq ft"),
        ("steep == 0 sqft", 10.0, 50.0, Truth.FALSE, "at least 10 sq ft > 0 sq ft"),
        ("not (steep > 0 sqft)", 10.0, 50.0, Truth.FALSE, "at least 10 sq ft"),
        # a range shifted by arithmetic: 2,000 + [100, 4,000] against 5,000
        ("steep + 2000 sqft >= 5000 sqft", 100.0, 4_000.0, Truth.UNKNOWN, "2,100 to 6,000"),
        ("steep + 500 sqft >= 5000 sqft", 100.0, 4_000.0, Truth.FALSE, "at most 4,500 sq ft"),
        ("disturbed - steep > 1000 sqft", 100.0, 4_000.0, Truth.TRUE, "at least 6,000 sq ft"),
    ],
)
def test_a_ranged_value_decides_only_what_its_whole_range_decides(
    condition, low, high, truth, words
):
    result = evaluate(
        _condition(condition), {"steep": _range(low, high), "disturbed": 10_000.0}, NAMES
    )
    assert result.truth is truth, result
    sentences = " ".join(result.reasons)
    assert words in sentences
    assert WHY in sentences


def test_an_undecided_range_is_shown_with_the_rule_missing_nothing():
    result = evaluate(_condition("steep > 0 sqft"), {"steep": _range(0.0, 600.0)}, NAMES)
    assert result.truth is Truth.UNKNOWN
    assert result.missing == []
    assert result.near == [
        f"disturbed on slopes over 15% is 0 to 600 sq ft ({WHY}), "
        "so whether it is over 0 sq ft is not known"
    ]


def test_a_range_that_may_be_zero_is_not_a_divisor():
    result = evaluate(
        _condition("disturbed / steep > 2"), {"steep": _range(0.0, 600.0), "disturbed": 1.0}, NAMES
    )
    assert result.truth is Truth.UNKNOWN
    assert "may divide by zero" in " ".join(result.reasons)


CONDITIONS = [
    "steep > 0 sqft",
    "steep >= 5000 sqft",
    "steep < 2000 sqft",
    "steep <= other",
    "steep == 0 sqft",
    "steep != other",
    "steep + other > 6000 sqft",
    "steep - other >= 0 sqft",
    "2 * steep - other < 3000 sqft",
    "abs(steep - other) > 500 sqft",
    "max(steep, other) >= 4000 sqft and min(steep, other) < 1000 sqft",
    "not (steep > 1000 sqft) or other > 2500 sqft",
]
bounds = st.tuples(st.integers(0, 10_000).map(float), st.integers(0, 4_000).map(float)).map(
    lambda pair: (pair[0], pair[0] + pair[1])
)


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from(CONDITIONS),
    bounds,
    bounds,
    st.floats(0, 1),
    st.floats(0, 1),
)
def test_a_decided_range_holds_for_every_value_in_it(condition, steep, other, at_a, at_b):
    """Soundness: where the range decides, each exact value inside it agrees."""
    expr = _condition(condition)
    ranged = evaluate(
        expr, {"steep": _range(*steep), "other": _range(*other)}, NAMES, tolerance=0.0
    )
    if ranged.truth is Truth.UNKNOWN:
        return
    points = [
        (steep[0], other[0]),
        (steep[1], other[1]),
        (steep[0] + at_a * (steep[1] - steep[0]), other[0] + at_b * (other[1] - other[0])),
    ]
    for steep_value, other_value in points:
        exact = evaluate(expr, {"steep": steep_value, "other": other_value}, NAMES, tolerance=0.0)
        assert exact.truth is ranged.truth, (condition, steep_value, other_value, ranged)
