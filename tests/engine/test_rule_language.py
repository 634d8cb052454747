"""The rule language: parsing, units, static checks, three-valued evaluation and reasons."""

from __future__ import annotations

import ast
import math
import pickle
import re
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sitecheck.errors import InputError
from sitecheck.rules import (
    Evaluation,
    Expression,
    NameInfo,
    Quantity,
    RuleLanguageError,
    Truth,
    check,
    evaluate,
    names_in,
    parse,
    parse_quantity,
)
from sitecheck.rules.syntax import (
    Arithmetic,
    Boolean,
    Call,
    Comparison,
    Logic,
    Measure,
    Membership,
    Name,
    Negate,
    Not,
    NullTest,
    Number,
    Text,
)
from sitecheck.rules.truth import RANK
from sitecheck.rules.wording import format_number
from sitecheck.schema.metrics import METRICS

RULES_PACKAGE = Path(__file__).resolve().parents[2] / "sitecheck" / "rules"

NAMES: dict[str, NameInfo] = {
    metric.name: NameInfo(metric.kind, metric.label) for metric in METRICS
}
NAMES |= {
    "swppp_threshold": NameInfo("area", "SWPPP threshold", Quantity(500.0, "area")),
    "big_site": NameInfo("area", "large site", parse_quantity("5 acres")),
    "village_wide": NameInfo("boolean", "applies village-wide", True),
    "project_type": NameInfo("text", "project type"),
    "permit": NameInfo("text", "permit"),
    "lot_count": NameInfo("number", "lots", measured=False),
    "frontage_ft": NameInfo("length", "frontage"),
    "rain_depth": NameInfo("depth", "rain depth"),
    "p": NameInfo("boolean", "P"),
    "q": NameInfo("boolean", "Q"),
    "r": NameInfo("boolean", "R"),
}


def shape(expr: Expression) -> str:
    """The tree as an S-expression, to test precedence; ``[n unit]`` is a number with a unit."""
    match expr:
        case Number():
            return format_number(expr.value).replace(",", "")
        case Text():
            return repr(expr.value)
        case Boolean():
            return str(expr.value).lower()
        case Name():
            return expr.name
        case Measure():
            return f"[{shape(expr.operand)} {expr.unit.name}]"
        case Negate():
            return f"(- {shape(expr.operand)})"
        case Not():
            return f"(not {shape(expr.operand)})"
        case Arithmetic() | Comparison():
            return f"({expr.op} {shape(expr.left)} {shape(expr.right)})"
        case Logic():
            return f"({expr.op} {' '.join(shape(operand) for operand in expr.operands)})"
        case Call():
            return f"({expr.function} {' '.join(shape(arg) for arg in expr.args)})"
        case Membership():
            op = "not-in" if expr.negated else "in"
            return f"({op} {shape(expr.item)} [{' '.join(shape(c) for c in expr.choices)}])"
        case NullTest():
            return f"({'is-not-null' if expr.negated else 'is-null'} {shape(expr.operand)})"
    raise AssertionError(expr)


def error_of(text: str) -> RuleLanguageError:
    with pytest.raises(RuleLanguageError) as caught:
        check(parse(text), NAMES)
    return caught.value


def run(text: str, tolerance: float = 0.02, **values: object) -> Evaluation:
    expr = parse(text)
    check(expr, NAMES)
    return evaluate(expr, values, NAMES, tolerance)


# --- parsing and precedence ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1/2 acre", "[(/ 1 2) acre]"),
        ("3/4 acres", "[(/ 3 4) acre]"),
        ("x / 2 acre", "(/ x [2 acre])"),
        ("2 * 1/2 acre", "(* 2 [(/ 1 2) acre])"),
        ("1/2 + 1", "(+ (/ 1 2) 1)"),
        ("(1 + 1) acres", "[(+ 1 1) acre]"),
        ("5 sq ft", "[5 sqft]"),
        ("5sqft", "[5 sqft]"),
        ("12 feet", "[12 ft]"),
        ("40%", "[40 percent]"),
        ("40 pct", "[40 percent]"),
        ("2 inches", "[2 inch]"),
        ("7_500 sqft", "[7500 sqft]"),
        ("0.5 acre", "[0.5 acre]"),
        ("not a and b", "(and (not a) b)"),
        ("a or b and c", "(or a (and b c))"),
        ("a and b or c", "(or (and a b) c)"),
        ("a or b or c", "(or a b c)"),
        ("not not a", "(not (not a))"),
        ("not x > 1", "(not (> x 1))"),
        ("-x * y", "(* (- x) y)"),
        ("- 5 sqft", "(- [5 sqft])"),
        ("x - -y", "(- x (- y))"),
        ("a - b - c", "(- (- a b) c)"),
        ("a / b / c", "(/ (/ a b) c)"),
        ("a + b * c", "(+ a (* b c))"),
        ("(a + b) * c", "(* (+ a b) c)"),
        ("x > 1 + 2", "(> x (+ 1 2))"),
        ("x <= y", "(<= x y)"),
        ("x != y", "(!= x y)"),
        ("x in ['a', \"b\"]", "(in x ['a' 'b'])"),
        ("x not in ['a',]", "(not-in x ['a'])"),
        ("x is null", "(is-null x)"),
        ("x is not null", "(is-not-null x)"),
        ("max(a - 500 sqft, 0 sqft)", "(max (- a [500 sqft]) [0 sqft])"),
        ("true and not false", "(and true (not false))"),
        ("not in_sda or zoning in ['A-1']", "(or (not in_sda) (in zoning ['A-1']))"),
    ],
)
def test_parse_builds_the_tree_precedence_implies(text: str, expected: str) -> None:
    assert shape(parse(text)) == expected


def test_nodes_keep_their_source_text() -> None:
    expr = parse("max(disturbed_area_sqft - 500 sqft, 0 sqft) > 0 sqft")
    assert isinstance(expr, Comparison)
    assert expr.left.text == "max(disturbed_area_sqft - 500 sqft, 0 sqft)"
    assert expr.text == "max(disturbed_area_sqft - 500 sqft, 0 sqft) > 0 sqft"


def test_names_in_lists_names_but_not_functions_or_units() -> None:
    expr = parse("in_sda and max(disturbed_area_sqft, lot_area_sqft) > 1 acre")
    assert names_in(expr) == {"in_sda", "disturbed_area_sqft", "lot_area_sqft"}


@pytest.mark.parametrize("text", ["not " * 500 + "in_sda", "-" * 500 + "1 > 0", "1" + " + 1" * 500])
def test_very_deep_conditions_are_refused_without_exhausting_the_stack(text: str) -> None:
    with pytest.raises(RuleLanguageError, match="too deeply nested"):
        parse(text)


# --- units and conversions ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "value", "dimension"),
    [
        ("0.5 acre", 21_780.0, "area"),
        ("1/2 acre", 21_780.0, "area"),
        ("1 acre", 43_560.0, "area"),
        ("2 acres", 87_120.0, "area"),
        ("500 sqft", 500.0, "area"),
        ("500 sq ft", 500.0, "area"),
        ("7_500 sqft", 7_500.0, "area"),
        ("1 acre + 500 sqft", 44_060.0, "area"),
        ("(1 + 1) acres", 87_120.0, "area"),
        ("2 * 1/2 acre", 43_560.0, "area"),
        ("-5 sqft", -5.0, "area"),
        ("12 ft", 12.0, "length"),
        ("12 feet", 12.0, "length"),
        ("40%", 40.0, "percent"),
        ("40 pct", 40.0, "percent"),
        ("1 inch", 1.0, "depth"),
        ("1.5 inches", 1.5, "depth"),
        ("0.9", 0.9, "number"),
        ("1 acre / 1/2 acre", 2.0, "number"),
    ],
)
def test_units_convert_to_base_units(text: str, value: float, dimension: str) -> None:
    quantity = parse_quantity(text)
    assert quantity.value == pytest.approx(value)
    assert quantity.dimension == dimension


def test_half_an_acre_equals_21780_square_feet() -> None:
    assert run("1/2 acre == 21_780 sqft", tolerance=0).truth is Truth.TRUE
    assert run("0.5 acre == 21780 sqft").truth is Truth.TRUE
    assert run("1/2 acre > 1 sqft").truth is Truth.TRUE


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("lot_area_sqft", "unknown name"),
        ("true", "not a quantity"),
        ("1 sqft / 0", "divides by zero"),
    ],
)
def test_parse_quantity_refuses_what_is_not_a_constant_quantity(text: str, message: str) -> None:
    with pytest.raises(RuleLanguageError, match=message):
        parse_quantity(text)


# --- every operator -----------------------------------------------------------------------

AREAS = {"disturbed_area_sqft": 500.0, "lot_area_sqft": 8_000.0, "impervious_proposed_sqft": 250.0}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("disturbed_area_sqft < 600 sqft", True),
        ("disturbed_area_sqft < 500 sqft", False),
        ("disturbed_area_sqft <= 500 sqft", True),
        ("disturbed_area_sqft > 500 sqft", False),
        ("disturbed_area_sqft >= 500 sqft", True),
        ("disturbed_area_sqft == 500 sqft", True),
        ("disturbed_area_sqft != 500 sqft", False),
        ("disturbed_area_sqft != 400 sqft", True),
        ("lot_area_sqft - disturbed_area_sqft == 7_500 sqft", True),
        ("disturbed_area_sqft + impervious_proposed_sqft == 750 sqft", True),
        ("disturbed_area_sqft * 2 == 1000 sqft", True),
        ("2 * disturbed_area_sqft == 1000 sqft", True),
        ("disturbed_area_sqft / 2 == 250 sqft", True),
        ("disturbed_area_sqft / lot_area_sqft == 0.0625", True),
        ("-disturbed_area_sqft < 0 sqft", True),
        ("min(disturbed_area_sqft, lot_area_sqft) == 500 sqft", True),
        ("max(disturbed_area_sqft, lot_area_sqft, 1 acre) == 1 acre", True),
        ("abs(impervious_proposed_sqft - disturbed_area_sqft) == 250 sqft", True),
        ("max(disturbed_area_sqft - 500 sqft, 0 sqft) > 0 sqft", False),
        ("disturbed_area_sqft >= swppp_threshold", True),
        ("lot_area_sqft < big_site", True),
        ('project_type == "garage"', True),
        ('project_type != "garage"', False),
        ("project_type == 'shed'", False),
        ('project_type in ["subdivision", "garage"]', True),
        ('project_type in ["subdivision", "commercial"]', False),
        ('project_type not in ["subdivision", "commercial"]', True),
        ("lot_count in [1, 2, 3]", True),
        ("permit is null", True),
        ("permit is not null", False),
        ("project_type is not null", True),
        ("in_sda", True),
        ("not in_sda", False),
        ("in_sda == true", True),
        ("in_sda != false", True),
        ("in_sda and in_impaired_watershed", False),
        ("in_sda or in_impaired_watershed", True),
        ("village_wide", True),
        ("true", True),
        ("false or not true", False),
        ("frontage_ft > 50 ft", True),
        ("rain_depth >= 1 inch", True),
        ("impervious_proposed_pct < 40%", True),
        ("slope_data_coverage >= 0.9", True),
    ],
)
def test_every_operator_evaluates(text: str, expected: bool) -> None:
    values = AREAS | {
        "project_type": "garage",
        "lot_count": 2,
        "in_sda": True,
        "in_impaired_watershed": False,
        "frontage_ft": 62.25,
        "rain_depth": 1.5,
        "impervious_proposed_pct": 38.5,
        "slope_data_coverage": 0.95,
    }
    assert run(text, tolerance=0, **values).truth is Truth.of(expected)


# --- static checks and syntax errors, each pointing at the bad spot -----------------------


@pytest.mark.parametrize(
    ("text", "offset", "message"),
    [
        ("disturbed_area > 1 sqft", 0, "unknown name 'disturbed_area'; did you mean"),
        ("in_sda and nope", 11, "unknown name 'nope'"),
        ("__import__", 0, "names starting with '__' are not allowed"),
        ('__import__("os")', 0, "function __import__ is not allowed; allowed: abs, max, min"),
        ('open("x")', 0, "function open is not allowed; allowed: abs, max, min"),
        ('eval("1")', 0, "function eval is not allowed"),
        ('in_sda and exec ("1")', 11, "function exec is not allowed"),
        ("a.b", 1, "attribute access (.) is not allowed"),
        ("in_sda.__class__", 6, "attribute access (.) is not allowed"),
        ("lot_area_sqft[0] > 1 sqft", 13, "indexing"),
        ("lot_area_sqft > 5 ft", 14, "cannot compare lot_area_sqft (an area) with 5 ft (a length)"),
        ("impervious_proposed_pct >= 40", 27, "40 is a plain number"),
        ("impervious_proposed_pct >= 40", 27, "write 40%"),
        ("lot_area_sqft > 5000", 16, "write 5000 sqft"),
        ("slope_data_coverage >= 90%", 23, "write 0.9"),
        ("disturbed_area_sqft", 0, "a condition must be true or false"),
        ("lot_area_sqft + 1 sqft", 0, "a condition must be true or false"),
        ("1 < lot_area_sqft < 3", 18, "comparisons cannot be chained"),
        ("in_sda == true == true", 15, "comparisons cannot be chained"),
        ("project_type == 'abc", 16, "unterminated string"),
        ("in_sda and x @ y", 13, "unexpected character '@'"),
        ("lot_area_sqft <= 7,500 sqft", 18, "write thousands as 7500 or 7_500, not 7,500"),
        ("x == null", 5, "null can only be tested"),
        ("permit is true", 10, "expected 'null' after 'is'"),
        ("lot_area_sqft acre > 1 sqft", 14, "a unit can only follow a number"),
        ("5 acre sqft > lot_area_sqft", 7, "a number takes one unit"),
        ("(5 sqft) acre > lot_area_sqft", 9, "5 sqft already has a unit"),
        ("acre > lot_area_sqft", 0, "a unit goes right after a number"),
        ("5 sq > lot_area_sqft", 5, "expected 'ft' after 'sq'"),
        ("in_sda + 1", 7, "'+' needs numbers"),
        ("not lot_area_sqft", 0, "'not' needs true/false"),
        ("in_sda or lot_area_sqft", 7, "'or' needs true/false"),
        ("lot_area_sqft and in_sda", 14, "'and' needs true/false"),
        ('zoning_district > "A"', 16, "text can only be compared with == or !="),
        ('zoning_district in ["A", 1]', 25, "list items must be of the kind of zoning_district"),
        ("in_sda in [true]", 7, "'in' needs text or numbers"),
        ("in_sda in true", 10, "'in' needs a list in brackets"),
        ("[1] == lot_count", 0, "a list can only follow 'in'"),
        ("max(lot_area_sqft, 5 ft) > 0 sqft", 0, "max() needs values of one kind"),
        ("max(lot_area_sqft) > 0 sqft", 0, "max takes two or more values"),
        ("abs(lot_area_sqft, 1 sqft) > 0 sqft", 0, "abs takes one value"),
        ("lot_area_sqft * lot_area_sqft > 1 sqft", 14, "cannot multiply an area by an area"),
        ("1 / lot_area_sqft > 1", 2, "cannot divide a plain number by an area"),
        ("lot_area_sqft + 1 ft > 1 sqft", 14, "cannot add or subtract"),
        ("(lot_area_sqft + 1 sqft) is null", 1, "'is null' tests a name"),
        ("(in_sda", 7, "expected ')'"),
        ("in_sda)", 6, "unmatched ')'"),
        ("in_sda and", 10, "ends too early"),
        ("", 0, "the condition is empty"),
        ("   ", 0, "the condition is empty"),
        ("in_sda AND in_sda", 7, "keywords are lower case: write 'and'"),
        ("lot_count = 1", 10, "use == to test equality"),
        ("lot_count ≥ 1", 10, "write >="),
        ("in_sda && in_sda", 7, "use 'and'"),
        ("lot_count > 1.", 13, "a decimal point needs a digit after it"),
        ("lot_count > .5", 12, "a digit before its decimal point"),
        ("lot_count > 1.5.2", 15, "at most one decimal point"),
        ("lot_count > 1__0", 13, "'_' in a number goes between digits"),
        ("lot_count > 1 2", 14, "expected an operator before '2'"),
        ("in_sda not in_sda", 7, "'not' goes before a condition"),
        ("(" * 40 + "in_sda" + ")" * 40, 32, "too many nested brackets"),
    ],
)
def test_bad_conditions_say_what_and_where(text: str, offset: int, message: str) -> None:
    error = error_of(text)
    assert message in str(error)
    assert error.offset == offset
    assert isinstance(error, InputError)


def test_error_pointer_draws_a_caret_under_the_bad_spot() -> None:
    text = "in_sda and\nlot_area_sqft > 5 ft"
    error = error_of(text)
    assert error.pointer(text) == "lot_area_sqft > 5 ft\n              ^"


def test_error_survives_pickling_for_the_worker_process() -> None:
    error = pickle.loads(pickle.dumps(RuleLanguageError("bad", 3)))
    assert (str(error), error.offset) == ("bad", 3)


def test_name_info_refuses_unknown_kinds_and_mismatched_constants() -> None:
    with pytest.raises(ValueError, match="unknown kind"):
        NameInfo("volume", "x")
    with pytest.raises(ValueError, match="is not an area"):
        NameInfo("area", "x", "500 sqft")
    with pytest.raises(ValueError, match="is not an area"):
        NameInfo("area", "x", Quantity(5.0, "length"))


# --- three-valued logic -------------------------------------------------------------------

TRUTH_OF = {True: Truth.TRUE, False: Truth.FALSE, None: Truth.UNKNOWN}
THREE = [True, False, None]


@pytest.mark.parametrize("p", THREE)
@pytest.mark.parametrize("q", THREE)
def test_and_or_follow_kleene_truth_tables(p: bool | None, q: bool | None) -> None:
    conjunction = min(TRUTH_OF[p], TRUTH_OF[q], key=RANK.__getitem__)
    disjunction = max(TRUTH_OF[p], TRUTH_OF[q], key=RANK.__getitem__)
    assert run("p and q", p=p, q=q).truth is conjunction
    assert run("p or q", p=p, q=q).truth is disjunction


@pytest.mark.parametrize(
    ("p", "expected"), [(True, Truth.FALSE), (False, Truth.TRUE), (None, Truth.UNKNOWN)]
)
def test_not_swaps_true_and_false_and_keeps_unknown(p: bool | None, expected: Truth) -> None:
    assert run("not p", p=p).truth is expected


@pytest.mark.parametrize(
    ("text", "values", "expected"),
    [
        ("p and q", {"p": False, "q": None}, Truth.FALSE),
        ("p and q", {"p": None, "q": False}, Truth.FALSE),
        ("p or q", {"p": True, "q": None}, Truth.TRUE),
        ("p or q", {"p": None, "q": True}, Truth.TRUE),
        ("p and q", {"p": True, "q": None}, Truth.UNKNOWN),
        ("p or q", {"p": False, "q": None}, Truth.UNKNOWN),
    ],
)
def test_a_missing_value_only_matters_when_it_could_change_the_outcome(
    text: str, values: dict[str, bool | None], expected: Truth
) -> None:
    outcome = run(text, **values)
    assert outcome.truth is expected
    assert bool(outcome.missing) == (expected is Truth.UNKNOWN)


leaves = st.sampled_from(["p", "q", "r", "true", "false"])
trees = st.recursive(
    leaves,
    lambda children: st.one_of(
        st.tuples(st.just("not"), children),
        st.tuples(st.sampled_from(["and", "or"]), children, children),
    ),
    max_leaves=10,
)
environments = st.fixed_dictionaries({name: st.sampled_from(THREE) for name in "pqr"})


def render(tree: object) -> str:
    if isinstance(tree, str):
        return tree
    assert isinstance(tree, tuple)
    if tree[0] == "not":
        return f"not ({render(tree[1])})"
    return f"({render(tree[1])}) {tree[0]} ({render(tree[2])})"


def reference(tree: object, environment: dict[str, bool | None]) -> Truth:
    if isinstance(tree, str):
        return {"true": Truth.TRUE, "false": Truth.FALSE}.get(tree) or TRUTH_OF[environment[tree]]
    assert isinstance(tree, tuple)
    if tree[0] == "not":
        return {Truth.TRUE: Truth.FALSE, Truth.FALSE: Truth.TRUE}.get(
            reference(tree[1], environment), Truth.UNKNOWN
        )
    operands = [reference(tree[1], environment), reference(tree[2], environment)]
    pick = min if tree[0] == "and" else max
    return pick(operands, key=RANK.__getitem__)


@given(trees, environments)
def test_evaluation_follows_kleene_logic_over_the_order_false_unknown_true(
    tree: object, environment: dict[str, bool | None]
) -> None:
    outcome = run(render(tree), **environment)
    assert outcome.truth is reference(tree, environment)
    assert bool(outcome.missing) == (outcome.truth is Truth.UNKNOWN)


@given(trees, trees, environments)
def test_de_morgan_laws_hold(left: object, right: object, environment: dict) -> None:
    a, b = render(left), render(right)
    assert (
        run(f"not (({a}) and ({b}))", **environment).truth
        is run(f"not ({a}) or not ({b})", **environment).truth
    )
    assert (
        run(f"not (({a}) or ({b}))", **environment).truth
        is run(f"not ({a}) and not ({b})", **environment).truth
    )


# --- tolerance band -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("measured", "tolerance", "expected"),
    [
        (4_899.0, 0.02, Truth.FALSE),
        (4_900.0, 0.02, Truth.UNKNOWN),
        (4_950.0, 0.02, Truth.UNKNOWN),
        (5_000.0, 0.02, Truth.UNKNOWN),
        (5_100.0, 0.02, Truth.UNKNOWN),
        (5_101.0, 0.02, Truth.TRUE),
        (5_000.0, 0.0, Truth.TRUE),
        (4_999.99, 0.0, Truth.FALSE),
        (4_950.0, 0.0, Truth.FALSE),
        (4_950.0, 0.005, Truth.FALSE),
    ],
)
def test_tolerance_band_around_a_threshold_is_inclusive_and_holds_ties(
    measured: float, tolerance: float, expected: Truth
) -> None:
    outcome = run("disturbed_area_sqft >= 5000 sqft", tolerance, disturbed_area_sqft=measured)
    assert outcome.truth is expected
    assert bool(outcome.near) == (expected is Truth.UNKNOWN)


def test_near_sentence_names_the_measured_side_first() -> None:
    sentence = "disturbed 4,950 sq ft is within 2% of 5,000 sq ft"
    for text in ("disturbed_area_sqft >= 5000 sqft", "5000 sqft <= disturbed_area_sqft"):
        outcome = run(text, disturbed_area_sqft=4_950.0)
        assert outcome.near == [sentence]
        assert outcome.reasons == [sentence]
        assert outcome.missing == []


def test_exact_tie_without_tolerance_evaluates_exactly() -> None:
    assert (
        run("disturbed_area_sqft > 5000 sqft", 0, disturbed_area_sqft=5000.0).truth is Truth.FALSE
    )
    assert (
        run("disturbed_area_sqft >= 5000 sqft", 0, disturbed_area_sqft=5000.0).truth is Truth.TRUE
    )


def test_band_between_two_measured_sides_is_relative_to_the_larger() -> None:
    text = "disturbed_area_sqft > impervious_proposed_sqft"
    near = run(text, disturbed_area_sqft=1_000.0, impervious_proposed_sqft=980.0)
    assert near.truth is Truth.UNKNOWN
    assert near.near == ["disturbed 1,000 sq ft is within 2% of proposed impervious 980 sq ft"]
    clear = run(text, disturbed_area_sqft=1_000.0, impervious_proposed_sqft=979.0)
    assert clear.truth is Truth.TRUE


def test_a_zero_threshold_has_no_band() -> None:
    outcome = run(
        "disturbed_on_slope_over_15pct_sqft > 0 sqft", disturbed_on_slope_over_15pct_sqft=0.0
    )
    assert outcome.truth is Truth.FALSE
    assert outcome.reasons == ["disturbed on slopes over 15% 0 sq ft = 0 sq ft"]


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("lot_count >= 2", {"lot_count": 2}),
        ("swppp_threshold >= 500 sqft", {}),
        ("in_sda == true", {"in_sda": True}),
        ('project_type == "garage"', {"project_type": "garage"}),
    ],
)
def test_exact_values_constants_booleans_and_text_are_never_near(text: str, values: dict) -> None:
    outcome = run(text, **values)
    assert outcome.truth is Truth.TRUE
    assert outcome.near == []


@given(
    threshold=st.integers(min_value=1, max_value=10**6),
    measured=st.integers(min_value=0, max_value=2 * 10**6),
    tolerance=st.sampled_from(["0", "0.01", "0.02", "0.05", "0.1"]),
)
def test_band_matches_exact_arithmetic(threshold: int, measured: int, tolerance: str) -> None:
    outcome = run(
        f"disturbed_area_sqft >= {threshold} sqft",
        float(tolerance),
        disturbed_area_sqft=float(measured),
    )
    band = Fraction(tolerance) * threshold
    if band > 0 and abs(measured - threshold) <= band:
        assert outcome.truth is Truth.UNKNOWN
    else:
        assert outcome.truth is Truth.of(measured >= threshold)


# --- reasons ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "values", "reasons"),
    [
        (
            "disturbed_area_sqft > 5000 sqft",
            {"disturbed_area_sqft": 5310.0},
            ["disturbed 5,310 sq ft > 5,000 sq ft (310 sq ft over)"],
        ),
        (
            "disturbed_area_sqft >= swppp_threshold",
            {"disturbed_area_sqft": 312.0},
            ["disturbed 312 sq ft < 500 sq ft (188 sq ft under)"],
        ),
        (
            "lot_area_sqft <= 7500 sqft",
            {"lot_area_sqft": 7500.0},
            ["lot area 7,500 sq ft = 7,500 sq ft"],
        ),
        (
            "max_disturbed_at_one_time_sqft > 1 acre",
            {"max_disturbed_at_one_time_sqft": 50_000.0},
            [
                "disturbed at one time 50,000 sq ft (1.15 acres) > 43,560 sq ft (1 acre) (6,440 sq ft over)"
            ],
        ),
        (
            "max_disturbed_at_one_time_sqft > 5 acres",
            {"max_disturbed_at_one_time_sqft": 50_000.0},
            [
                "disturbed at one time 50,000 sq ft (1.15 acres) < 217,800 sq ft (5 acres) "
                "(167,800 sq ft under)"
            ],
        ),
        (
            "disturbed_area_sqft >= 1/2 acre",
            {"disturbed_area_sqft": 30_000.0},
            ["disturbed 30,000 sq ft > 21,780 sq ft (8,220 sq ft over)"],
        ),
        (
            "impervious_proposed_pct >= 40%",
            {"impervious_proposed_pct": 38.5},
            ["proposed impervious cover 38.5% < 40% (1.5% under)"],
        ),
        (
            "max(disturbed_area_sqft - 500 sqft, 0 sqft) > 0 sqft",
            {"disturbed_area_sqft": 5310.0},
            [
                "max(disturbed_area_sqft - 500 sqft, 0 sqft) 4,810 sq ft > 0 sq ft (4,810 sq ft over)"
            ],
        ),
        (
            "disturbed_area_sqft > 1000.5 sqft",
            {"disturbed_area_sqft": 1000.504},
            ["disturbed 1,000.504 sq ft > 1,000.5 sq ft (0.004 sq ft over)"],
        ),
        (
            "frontage_ft > 50 ft",
            {"frontage_ft": 62.25},
            ["frontage 62.25 ft > 50 ft (12.25 ft over)"],
        ),
        (
            "rain_depth >= 1 inch",
            {"rain_depth": 1.5},
            ["rain depth 1.5 inches > 1 inch (0.5 inches over)"],
        ),
        (
            "slope_data_coverage >= 0.9",
            {"slope_data_coverage": 0.85},
            ["DEM coverage of the disturbance 0.85 < 0.9"],
        ),
        ("in_sda", {"in_sda": True}, ["in a sensitive drainage area"]),
        ("in_sda", {"in_sda": False}, ["not in a sensitive drainage area"]),
        ("not in_sda", {"in_sda": True}, ["in a sensitive drainage area"]),
        (
            'project_type == "subdivision"',
            {"project_type": "subdivision"},
            ['project type is "subdivision"'],
        ),
        (
            'project_type == "subdivision"',
            {"project_type": "garage"},
            ['project type is "garage", not "subdivision"'],
        ),
        (
            'project_type in ["subdivision", "commercial"]',
            {"project_type": "subdivision"},
            ['project type is "subdivision"'],
        ),
        (
            'project_type in ["subdivision", "commercial"]',
            {"project_type": "garage"},
            ['project type "garage" is not one of subdivision, commercial'],
        ),
        ("permit is null", {}, ["permit: no value"]),
        ("permit is not null", {"permit": "P-1"}, ["permit has a value"]),
        ("disturbed_area_sqft > 100 sqft", {}, ["disturbed: no value"]),
        (
            "disturbed_area_sqft / 0 > 1 sqft",
            {"disturbed_area_sqft": 5.0},
            ["disturbed_area_sqft / 0 divides by zero"],
        ),
    ],
)
def test_reasons_state_labels_values_and_the_actual_relation(
    text: str, values: dict, reasons: list[str]
) -> None:
    assert run(text, tolerance=0, **values).reasons == reasons


@pytest.mark.parametrize(
    ("text", "values", "truth", "reasons", "missing"),
    [
        (
            "in_sda and disturbed_area_sqft > 1500 sqft",
            {"in_sda": True, "disturbed_area_sqft": 2000.0},
            Truth.TRUE,
            [
                "in a sensitive drainage area",
                "disturbed 2,000 sq ft > 1,500 sq ft (500 sq ft over)",
            ],
            [],
        ),
        (
            "in_sda and disturbed_area_sqft > 1500 sqft",
            {"in_sda": False, "disturbed_area_sqft": 2000.0},
            Truth.FALSE,
            ["not in a sensitive drainage area"],
            [],
        ),
        (
            "in_sda or disturbed_area_sqft > 1500 sqft",
            {"in_sda": False, "disturbed_area_sqft": 2000.0},
            Truth.TRUE,
            ["disturbed 2,000 sq ft > 1,500 sq ft (500 sq ft over)"],
            [],
        ),
        (
            "in_sda or disturbed_area_sqft > 1500 sqft",
            {"in_sda": False, "disturbed_area_sqft": 1000.0},
            Truth.FALSE,
            [
                "not in a sensitive drainage area",
                "disturbed 1,000 sq ft < 1,500 sq ft (500 sq ft under)",
            ],
            [],
        ),
        (
            "in_sda and disturbed_area_sqft > 1500 sqft",
            {"in_sda": None, "disturbed_area_sqft": 2000.0},
            Truth.UNKNOWN,
            ["in a sensitive drainage area: no value"],
            ["in a sensitive drainage area"],
        ),
        (
            "in_sda and disturbed_area_sqft > 1500 sqft",
            {"disturbed_area_sqft": 1000.0},
            Truth.FALSE,
            ["disturbed 1,000 sq ft < 1,500 sq ft (500 sq ft under)"],
            [],
        ),
        (
            "disturbed_area_sqft > lot_area_sqft",
            {"disturbed_area_sqft": None, "lot_area_sqft": math.nan},
            Truth.UNKNOWN,
            ["disturbed: no value", "lot area: no value"],
            ["disturbed", "lot area"],
        ),
        (
            "not (in_sda and disturbed_area_sqft > 1500 sqft)",
            {"in_sda": True, "disturbed_area_sqft": 2000.0},
            Truth.FALSE,
            [
                "in a sensitive drainage area",
                "disturbed 2,000 sq ft > 1,500 sq ft (500 sq ft over)",
            ],
            [],
        ),
    ],
)
def test_an_evaluation_keeps_the_reasons_that_decided_it(
    text: str, values: dict, truth: Truth, reasons: list[str], missing: list[str]
) -> None:
    outcome = run(text, tolerance=0, **values)
    assert (outcome.truth, outcome.reasons, outcome.missing) == (truth, reasons, missing)


def test_unknown_keeps_missing_and_near_of_the_unknown_operands_only() -> None:
    outcome = run(
        "impervious_net_change_sqft >= 100 sqft or disturbed_area_sqft >= 5000 sqft",
        impervious_net_change_sqft=None,
        disturbed_area_sqft=4_990.0,
    )
    assert outcome.truth is Truth.UNKNOWN
    assert outcome.missing == ["net impervious change"]
    assert outcome.near == ["disturbed 4,990 sq ft is within 2% of 5,000 sq ft"]
    assert outcome.reasons == ["net impervious change: no value", outcome.near[0]]


# --- runtime surprises never stop a run ---------------------------------------------------


@pytest.mark.parametrize(
    ("text", "values", "reason"),
    [
        (
            'zoning_district == "A"',
            {"zoning_district": 5},
            "zoning district has the value 5, which is not text",
        ),
        (
            "lot_area_sqft > 1 sqft",
            {"lot_area_sqft": "abc"},
            'lot area has the value "abc", which is not a number',
        ),
        (
            "in_sda",
            {"in_sda": "yes"},
            'in a sensitive drainage area has the value "yes", which is not true or false',
        ),
        (
            "lot_area_sqft / (lot_area_sqft - lot_area_sqft) > 1",
            {"lot_area_sqft": 10.0},
            "divides by zero",
        ),
    ],
)
def test_runtime_type_surprises_give_unknown_with_a_reason(
    text: str, values: dict, reason: str
) -> None:
    outcome = run(text, **values)
    assert outcome.truth is Truth.UNKNOWN
    assert any(reason in sentence for sentence in outcome.reasons)
    assert outcome.missing == []


@pytest.mark.parametrize(
    ("values", "expected"),
    [
        ({"in_sda": np.bool_(True), "lot_area_sqft": np.float64(9000.0)}, Truth.TRUE),
        ({"in_sda": 1, "lot_area_sqft": np.int64(9000)}, Truth.TRUE),
        ({"in_sda": 0, "lot_area_sqft": 9000.0}, Truth.FALSE),
    ],
)
def test_numpy_values_and_zero_one_booleans_are_accepted(values: dict, expected: Truth) -> None:
    assert run("in_sda and lot_area_sqft > 1000 sqft", **values).truth is expected


def test_evaluating_an_unchecked_non_boolean_condition_gives_unknown_not_an_exception() -> None:
    outcome = evaluate(parse("lot_area_sqft"), {"lot_area_sqft": 5.0}, NAMES)
    assert outcome.truth is Truth.UNKNOWN


# --- number wording -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (5310.0, "5,310"),
        (0.5, "0.5"),
        (1.149, "1.15"),
        (1_234_567.891, "1,234,567.89"),
        (-0.001, "0"),
        (38.50, "38.5"),
        (2.0, "2"),
    ],
)
def test_numbers_have_separators_and_at_most_two_decimals(value: float, text: str) -> None:
    assert format_number(value) == text


# --- robustness ---------------------------------------------------------------------------

TOKENS = [
    *["in_sda", "lot_area_sqft", "disturbed_area_sqft", "project_type", "permit", "p", "q"],
    *["and", "or", "not", "in", "is", "null", "true", "false", "max", "min", "abs"],
    *["(", ")", "[", "]", ",", "<", "<=", ">", ">=", "==", "!=", "+", "-", "*", "/", "%"],
    *["1", "0.5", "7_500", "2", "'a'", '"b"', "sqft", "sq", "ft", "acre", "acres", "pct"],
    *["inches", ".", "@", "=", "__import__"],
]


@settings(max_examples=300)
@given(st.lists(st.sampled_from(TOKENS), max_size=14).map(" ".join))
def test_any_token_soup_parses_checks_and_evaluates_or_fails_cleanly(text: str) -> None:
    try:
        expr = parse(text)
        check(expr, NAMES)
    except RuleLanguageError as error:
        assert 0 <= error.offset <= len(text)
        assert str(error)
        return
    assert isinstance(evaluate(expr, {}, NAMES), Evaluation)


@given(st.text(max_size=40))
def test_any_text_parses_or_fails_with_an_offset_inside_it(text: str) -> None:
    try:
        parse(text)
    except RuleLanguageError as error:
        assert 0 <= error.offset <= len(text)


AREA_LEAVES = ["lot_area_sqft", "disturbed_area_sqft", "swppp_threshold", "5 sqft", "1/2 acre"]
areas = st.recursive(
    st.sampled_from([*AREA_LEAVES, "0 sqft"]),
    lambda inner: st.one_of(
        st.tuples(inner, st.sampled_from(["+", "-"]), inner).map("({0[0]} {0[1]} {0[2]})".format),
        st.tuples(inner, st.sampled_from(["*", "/"]), st.sampled_from(["2", "0", "0.5"])).map(
            "({0[0]} {0[1]} {0[2]})".format
        ),
        st.tuples(st.sampled_from(["min", "max"]), inner, inner).map(
            "{0[0]}({0[1]}, {0[2]})".format
        ),
        inner.map("abs({})".format),
        inner.map("-{}".format),
    ),
    max_leaves=6,
)
comparisons = st.one_of(
    st.tuples(areas, st.sampled_from(["<", "<=", ">", ">=", "==", "!="]), areas).map(" ".join),
    st.sampled_from(["in_sda", "permit is null", 'project_type in ["a", "b"]', "in_sda == true"]),
)
conditions = st.recursive(
    comparisons,
    lambda inner: st.one_of(
        inner.map("not ({})".format),
        st.tuples(inner, st.sampled_from(["and", "or"]), inner).map(
            "({0[0]}) {0[1]} ({0[2]})".format
        ),
    ),
    max_leaves=5,
)
anything = st.one_of(
    st.none(),
    st.floats(),
    st.booleans(),
    st.integers(),
    st.text(max_size=3),
    st.just(Quantity(1.0, "length")),
)
parcels = st.fixed_dictionaries(
    {},
    optional={
        name: anything
        for name in ["lot_area_sqft", "disturbed_area_sqft", "in_sda", "permit", "project_type"]
    },
)


@settings(max_examples=300)
@given(conditions, parcels, st.sampled_from([0.0, 0.02, 0.5]))
def test_a_checked_condition_evaluates_for_any_parcel_values(
    text: str, values: dict, tolerance: float
) -> None:
    outcome = run(text, tolerance, **values)
    if outcome.truth is not Truth.UNKNOWN:
        assert outcome.missing == []
        assert outcome.near == []
    assert all(isinstance(reason, str) and reason for reason in outcome.reasons)


def test_rule_package_never_hands_text_to_python() -> None:
    forbidden_calls = {"eval", "exec", "compile", "__import__", "literal_eval"}
    for path in sorted(RULES_PACKAGE.glob("*.py")):
        source = path.read_text()
        assert not re.search(r"\b(eval|exec|compile)\s*\(", source), path.name
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.Call):
                called = (
                    node.func.id
                    if isinstance(node.func, ast.Name)
                    else getattr(node.func, "attr", "")
                )
                assert called not in forbidden_calls, f"{path.name}:{node.lineno} calls {called}"
            if isinstance(node, ast.Import):
                assert all(alias.name != "ast" for alias in node.names), path.name
            if isinstance(node, ast.ImportFrom):
                assert node.module != "ast", path.name
