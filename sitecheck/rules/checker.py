"""Static check of a parsed condition: known names and matching types.

Runs once per rule when a pack loads, before any parcel is evaluated, so a
pack with ``lot_area_sqft > 5 ft`` fails at load time with the offset of the
bad spot rather than on some parcel.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping

from sitecheck.rules import syntax as node
from sitecheck.rules.errors import RuleLanguageError
from sitecheck.rules.names import NOUNS, NameInfo, Type, as_dimension, is_quantity
from sitecheck.rules.parser import FUNCTIONS
from sitecheck.rules.syntax import Expression
from sitecheck.rules.units import SUFFIXES, UNIT_WORDS, arithmetic_dimension
from sitecheck.rules.wording import format_number


def check(expr: Expression, names: Mapping[str, NameInfo]) -> None:
    """Check that a ``when`` condition uses known names, fits its types and is true/false.

    Raises
    ------
    RuleLanguageError
        With the offset of the bad name or operator.
    """
    kind = type_of(expr, names)
    if kind != "boolean":
        raise RuleLanguageError(
            f"a condition must be true or false, but {expr.text} is {NOUNS[kind]}", expr.start
        )


def type_of(expr: Expression, names: Mapping[str, NameInfo]) -> Type:
    """The type of an expression; raises RuleLanguageError where types do not fit."""
    match expr:
        case node.Number():
            return "number"
        case node.Text():
            return "text"
        case node.Boolean():
            return "boolean"
        case node.Name():
            return _name_type(expr, names)
        case node.Measure():
            return _measure_type(expr, names)
        case node.Negate():
            return _quantity_operand(expr.operand, names, "'-'", expr.start)
        case node.Arithmetic():
            return _arithmetic_type(expr, names)
        case node.Call():
            return _call_type(expr, names)
        case node.Comparison():
            return _comparison_type(expr, names)
        case node.Membership():
            return _membership_type(expr, names)
        case node.NullTest():
            return _null_test_type(expr, names)
        case node.Not():
            _boolean_operand(expr.operand, names, "'not'", expr.start)
            return "boolean"
        case node.Logic():
            for index, operand in enumerate(expr.operands):
                _boolean_operand(operand, names, f"'{expr.op}'", expr.op_starts[max(index - 1, 0)])
            return "boolean"
    raise TypeError(f"not a rule expression: {expr!r}")


def _name_type(expr: node.Name, names: Mapping[str, NameInfo]) -> Type:
    info = names.get(expr.name)
    if info is not None:
        return info.type
    message = f"unknown name {expr.name!r}"
    if expr.name.startswith("__"):
        message += "; names starting with '__' are not allowed"
    elif expr.name in UNIT_WORDS or expr.name == "sq":
        message += f"; a unit goes right after a number, as in 5 {expr.name}"
    else:
        close = difflib.get_close_matches(expr.name, list(names), n=1)
        if close:
            message += f"; did you mean {close[0]}?"
    raise RuleLanguageError(message, expr.start)


def _measure_type(expr: node.Measure, names: Mapping[str, NameInfo]) -> Type:
    kind = type_of(expr.operand, names)
    if kind == "number":
        return expr.unit.dimension
    if is_quantity(kind):
        message = f"{expr.operand.text} already has a unit"
    else:
        message = f"a unit needs a number, but {expr.operand.text} is {NOUNS[kind]}"
    raise RuleLanguageError(message, expr.unit_start)


def _quantity_operand(
    operand: Expression, names: Mapping[str, NameInfo], what: str, offset: int
) -> Type:
    kind = type_of(operand, names)
    if not is_quantity(kind):
        raise RuleLanguageError(
            f"{what} needs numbers, but {operand.text} is {NOUNS[kind]}", offset
        )
    return kind


def _boolean_operand(
    operand: Expression, names: Mapping[str, NameInfo], what: str, offset: int
) -> None:
    kind = type_of(operand, names)
    if kind != "boolean":
        raise RuleLanguageError(
            f"{what} needs true/false, but {operand.text} is {NOUNS[kind]}", offset
        )


def _arithmetic_type(expr: node.Arithmetic, names: Mapping[str, NameInfo]) -> Type:
    what = f"'{expr.op}'"
    left = as_dimension(_quantity_operand(expr.left, names, what, expr.op_start))
    right = as_dimension(_quantity_operand(expr.right, names, what, expr.op_start))
    result = arithmetic_dimension(expr.op, left, right)
    if result is not None:
        return result
    if expr.op in ("+", "-"):
        _mismatch(
            "cannot add or subtract {} and {}", expr.left, left, expr.right, right, expr.op_start
        )
    if expr.op == "*":
        message = (
            f"cannot multiply {NOUNS[left]} by {NOUNS[right]}; one side must be a plain number"
        )
    else:
        message = f"cannot divide {NOUNS[left]} by {NOUNS[right]}"
    raise RuleLanguageError(message, expr.op_start)


def _mismatch(
    template: str,
    left: Expression,
    left_type: Type,
    right: Expression,
    right_type: Type,
    offset: int,
) -> None:
    """Raise for two sides of different types, suggesting the fix for a bare number."""
    for bare, bare_type, other, other_type in (
        (left, left_type, right, right_type),
        (right, right_type, left, left_type),
    ):
        if _is_bare_number(bare) and bare_type == "number" and is_quantity(other_type):
            suggestion = f"{bare.text}{SUFFIXES[as_dimension(other_type)]}"
            raise RuleLanguageError(
                f"{bare.text} is a plain number but {other.text} is {NOUNS[other_type]}: "
                f"write {suggestion}",
                bare.start,
            )
        percent = _percent_literal(bare)
        if percent is not None and other_type == "number":
            share = format_number(percent / 100, 6)
            raise RuleLanguageError(
                f"{bare.text} is a percent but {other.text} is a plain number "
                f"(a share from 0 to 1?): write {share}",
                bare.start,
            )
    sides = ((left, left_type), (right, right_type))
    described = [f"{side.text} ({NOUNS[kind]})" for side, kind in sides]
    raise RuleLanguageError(template.format(*described), offset)


def _percent_literal(expr: Expression) -> float | None:
    """The number of a literal such as ``90%``, else None."""
    if not isinstance(expr, node.Measure) or expr.unit.dimension != "percent":
        return None
    return expr.operand.value if isinstance(expr.operand, node.Number) else None


def _is_bare_number(expr: Expression) -> bool:
    if isinstance(expr, node.Negate):
        return _is_bare_number(expr.operand)
    return isinstance(expr, node.Number)


def _call_type(expr: node.Call, names: Mapping[str, NameInfo]) -> Type:
    if expr.function not in FUNCTIONS:
        raise RuleLanguageError(
            f"function {expr.function} is not allowed; allowed: {', '.join(FUNCTIONS)}", expr.start
        )
    if expr.function == "abs" and len(expr.args) != 1:
        raise RuleLanguageError("abs takes one value", expr.start)
    if expr.function != "abs" and len(expr.args) < 2:
        raise RuleLanguageError(f"{expr.function} takes two or more values", expr.start)
    what = f"{expr.function}()"
    kinds = [_quantity_operand(arg, names, what, expr.start) for arg in expr.args]
    for arg, kind in zip(expr.args[1:], kinds[1:], strict=True):
        if kind != kinds[0]:
            template = f"{what} needs values of one kind, not {{}} and {{}}"
            _mismatch(template, expr.args[0], kinds[0], arg, kind, expr.start)
    return kinds[0]


def _comparison_type(expr: node.Comparison, names: Mapping[str, NameInfo]) -> Type:
    left = type_of(expr.left, names)
    right = type_of(expr.right, names)
    if left != right:
        _mismatch("cannot compare {} with {}", expr.left, left, expr.right, right, expr.op_start)
    if not is_quantity(left) and expr.op not in ("==", "!="):
        raise RuleLanguageError(
            f"{NOUNS[left]} can only be compared with == or != (or with in [...])", expr.op_start
        )
    return "boolean"


def _membership_type(expr: node.Membership, names: Mapping[str, NameInfo]) -> Type:
    if expr.list_name is not None and not expr.choices:
        raise RuleLanguageError(
            f"unknown list {expr.list_name!r}: a list is a pack parameter whose value is a list",
            expr.end - len(expr.list_name),
        )
    item = type_of(expr.item, names)
    if item == "boolean":
        raise RuleLanguageError("'in' needs text or numbers, not true/false", expr.op_start)
    for choice in expr.choices:
        kind = type_of(choice, names)
        if kind != item:
            template = "list items must be of the kind of {}, not {}"
            _mismatch(template, expr.item, item, choice, kind, choice.start)
    return "boolean"


def _null_test_type(expr: node.NullTest, names: Mapping[str, NameInfo]) -> Type:
    if not isinstance(expr.operand, node.Name):
        raise RuleLanguageError(
            "'is null' tests a name, as in 'permit is null'", expr.operand.start
        )
    type_of(expr.operand, names)
    return "boolean"
