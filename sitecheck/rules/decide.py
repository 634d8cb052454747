"""The truth of a condition alone, without its reasons, from a function built once per node.

Finding a parcel's nearest threshold evaluates its pack dozens of times at
trial values and reads only the outcomes; a county run does that for tens of
thousands of parcels. Walking the syntax tree for each of those evaluations
costs more than the comparisons themselves, so each node of a condition is
turned, once per pack and tolerance, into a small Python function of the
parcel's values. Only the common shapes get their own function: ``and``,
``or``, ``not``, a comparison of a numeric name with a constant or another
numeric name, a true/false name, and a name ``in`` a list of constants.
Any other node, and any value these functions do not expect (a range measured
on part of its data, a wrong type), is decided by the evaluator itself, so the
truth is always the evaluator's: ``tests/engine/test_decide.py`` compares the
two over every rule of the packs.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import cast

from sitecheck.rules import syntax as node
from sitecheck.rules.errors import RuleLanguageError
from sitecheck.rules.evaluate import constant_value, evaluate
from sitecheck.rules.names import NameInfo, as_dimension, is_null, is_quantity, is_real
from sitecheck.rules.ranges import HOLDS, SAME, relation, same_value
from sitecheck.rules.truth import Truth
from sitecheck.rules.units import Quantity

Values = Mapping[str, object]
Decider = Callable[[Values, dict], Truth]
_NEGATED = {Truth.TRUE: Truth.FALSE, Truth.FALSE: Truth.TRUE, Truth.UNKNOWN: Truth.UNKNOWN}


def decide(
    expr: node.Expression,
    values: Values,
    names: Mapping[str, NameInfo],
    tolerance: float,
    memo: dict,
) -> Truth:
    """The truth :func:`sitecheck.rules.evaluate.evaluate` gives ``expr``, without reasons.

    Parameters
    ----------
    expr : Expression
        A checked condition.
    values : mapping
        The parcel's values, as ``evaluate`` takes them.
    names : mapping of str to NameInfo
        The pack's names.
    tolerance : float
        Relative half-width of the band around a threshold that gives UNKNOWN.
    memo : dict
        Shared by one parcel's conditions: a subtree used by many rules is decided once.
    """
    return _compiled(expr, names, tolerance)(values, memo)


def _compiled(expr: node.Expression, names: Mapping[str, NameInfo], tolerance: float) -> Decider:
    """The node's function for these names and tolerance, built on first use and kept on
    the node (a pack's conditions are parsed once and live as long as the pack)."""
    cached = expr.__dict__.get("_decider")
    if cached is None or cached[0] is not names:
        cached = (names, {})
        object.__setattr__(expr, "_decider", cached)
    built = cast(dict[float, Decider], cached[1])
    if tolerance not in built:
        built[tolerance] = _build(expr, names, tolerance)
    return built[tolerance]


def _build(expr: node.Expression, names: Mapping[str, NameInfo], tolerance: float) -> Decider:
    if isinstance(expr, node.Logic):
        return _logic(expr, names, tolerance)
    if isinstance(expr, node.Not):
        operand = _compiled(expr.operand, names, tolerance)
        return lambda values, memo: _NEGATED[operand(values, memo)]
    built: Decider | None = None
    if isinstance(expr, node.Comparison):
        built = _comparison(expr, names, tolerance)
    elif isinstance(expr, node.Name):
        built = _boolean_name(expr, names, tolerance)
    elif isinstance(expr, node.Membership):
        built = _membership(expr, names, tolerance)
    return built or _by_evaluator(expr, names, tolerance)


def _by_evaluator(
    expr: node.Expression, names: Mapping[str, NameInfo], tolerance: float
) -> Decider:
    def by_evaluator(values: Values, memo: dict) -> Truth:
        return evaluate(expr, values, names, tolerance, words=False, memo=memo).truth

    return by_evaluator


def _logic(expr: node.Logic, names: Mapping[str, NameInfo], tolerance: float) -> Decider:
    operands = [_compiled(operand, names, tolerance) for operand in expr.operands]
    # Kleene logic: one FALSE decides an 'and', one TRUE an 'or'; else UNKNOWN if any is.
    deciding = Truth.FALSE if expr.op == "and" else Truth.TRUE
    otherwise = Truth.TRUE if expr.op == "and" else Truth.FALSE
    key = ("decided", id(expr), tolerance)

    def logic(values: Values, memo: dict) -> Truth:
        found = memo.get(key)
        if found is not None:
            return cast(Truth, found[1])
        truth = otherwise
        for operand in operands:
            outcome = operand(values, memo)
            if outcome is deciding:
                truth = deciding
                break
            if outcome is Truth.UNKNOWN:
                truth = Truth.UNKNOWN
        memo[key] = (expr, truth)  # the node kept with it, so its id stays unique
        return truth

    return logic


_UNREAD = object()  # a value these functions leave to the evaluator


def _reader(
    expr: node.Expression, names: Mapping[str, NameInfo]
) -> tuple[Callable[[Values], object], bool, str] | None:
    """How to read a comparison side: a function giving a float (a number in the name's
    base unit), a str or bool, None for no value, or ``_UNREAD``; whether the side is
    measured; its dimension or type. None when the side is not a name or a constant."""
    if isinstance(expr, node.Name) and expr.name in names and not names[expr.name].is_constant:
        info = names[expr.name]
        name, kind = expr.name, info.type
        if is_quantity(kind):
            dimension = as_dimension(kind)

            def number(values: Values) -> object:
                raw = values.get(name)
                if raw is None:
                    return None
                if type(raw) is float or type(raw) is int:
                    return None if raw != raw else float(raw)
                if is_real(raw):  # numpy's numbers
                    return None if is_null(raw) else float(raw)
                return None if is_null(raw) else _UNREAD

            return number, info.measured, dimension

        def plain(values: Values) -> object:
            raw = values.get(name)
            if raw is None:
                return None
            if kind == "text" and type(raw) is str:
                return raw
            if kind == "boolean" and type(raw) is bool:
                return raw
            return None if is_null(raw) else _UNREAD

        return plain, False, kind
    value = exact_constant(expr, names)
    if value is None:
        return None
    if isinstance(value, Quantity):
        constant = float(value.value)
        return (lambda values: constant), False, value.dimension
    kind = "text" if isinstance(value, str) else "boolean"
    return (lambda values: value), False, kind


def exact_constant(expr: node.Expression, names: Mapping[str, NameInfo]) -> object | None:
    """The value of an expression naming only the pack's constants: an exact quantity, a
    text or true/false; None for one naming a parcel's value, a range, or a value that
    cannot be had (``1 / 0``)."""
    if not node.names_of(expr) <= {n for n, i in names.items() if i.is_constant}:
        return None
    try:
        value = constant_value(expr, names)
    except RuleLanguageError:
        return None
    if isinstance(value, Quantity) and value.ranged:
        return None
    return value


def _comparison(
    expr: node.Comparison, names: Mapping[str, NameInfo], tolerance: float
) -> Decider | None:
    left_side, right_side = _reader(expr.left, names), _reader(expr.right, names)
    if left_side is None or right_side is None or left_side[2] != right_side[2]:
        return None
    (left_of, left_measured, kind), (right_of, right_measured, _) = left_side, right_side
    if kind in ("text", "boolean"):
        return None  # equality of words: rare, left to the evaluator
    holds = HOLDS[expr.op]
    fallback = _by_evaluator(expr, names, tolerance)

    def band(left: float, right: float) -> float:
        if left_measured and right_measured:
            return tolerance * max(abs(left), abs(right))
        if left_measured:
            return tolerance * abs(right)
        if right_measured:
            return tolerance * abs(left)
        return 0.0

    def comparison(values: Values, memo: dict) -> Truth:
        left, right = left_of(values), right_of(values)
        if left is _UNREAD or right is _UNREAD:
            return fallback(values, memo)
        if left is None or right is None:
            return Truth.UNKNOWN
        assert isinstance(left, float) and isinstance(right, float)
        width = band(left, right)
        if width > 0 and abs(left - right) <= width * (1 + SAME):
            return Truth.UNKNOWN
        return Truth.TRUE if relation(left, right) in holds else Truth.FALSE

    return comparison


def _boolean_name(
    expr: node.Name, names: Mapping[str, NameInfo], tolerance: float
) -> Decider | None:
    read = _reader(expr, names)
    if read is None or read[2] != "boolean":
        return None
    value_of, fallback = read[0], _by_evaluator(expr, names, tolerance)

    def boolean_name(values: Values, memo: dict) -> Truth:
        value = value_of(values)
        if value is _UNREAD:
            return fallback(values, memo)
        if value is None:
            return Truth.UNKNOWN
        return Truth.TRUE if value else Truth.FALSE

    return boolean_name


def _membership(
    expr: node.Membership, names: Mapping[str, NameInfo], tolerance: float
) -> Decider | None:
    item = _reader(expr.item, names)
    if item is None or item[2] != "text":
        return None
    choices = []
    for choice in expr.choices:
        read = _reader(choice, names)
        if read is None or read[2] != "text" or read[0]({}) is _UNREAD:
            return None
        choices.append(read[0]({}))
    if any(not isinstance(choice, str) for choice in choices):
        return None
    value_of, fallback, negated = item[0], _by_evaluator(expr, names, tolerance), expr.negated

    def membership(values: Values, memo: dict) -> Truth:
        value = value_of(values)
        if value is _UNREAD:
            return fallback(values, memo)
        if value is None:
            return Truth.UNKNOWN
        found = any(same_value(value, choice) for choice in choices)
        return Truth.TRUE if found != negated else Truth.FALSE

    return membership
