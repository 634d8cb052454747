"""Values of arithmetic expressions for one parcel, or why they are not known.

A value is a :class:`Quantity`, a str or a bool. Where it cannot be had (a
null input, a division by zero, a text attribute holding a number) the result
is a :class:`Gap` that says why, and gaps pass through arithmetic.

A quantity measured on part of its data is a range (``value`` the least it
can be, ``high`` the most); arithmetic carries ranges through as interval
arithmetic, so a condition is decided only where the whole range decides it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from sitecheck.rules.names import NameInfo, as_dimension, is_real
from sitecheck.rules.units import Dimension, Quantity, Unit, arithmetic_dimension
from sitecheck.rules.wording import format_quantity, quote

EXPECTED = {"text": "text", "boolean": "true or false"}


@dataclass(frozen=True)
class Gap:
    """Why a value is not known: null inputs (``missing`` labels) or problems (``reasons``)."""

    missing: tuple[str, ...] = ()
    reasons: tuple[str, ...] = ()


Value = Quantity | str | bool
Result = Value | Gap


def problem(sentence: str) -> Gap:
    return Gap(reasons=(sentence,))


def known(results: Sequence[Result]) -> list[Value] | Gap:
    """The values when all are known, else every gap among them joined into one."""
    gaps = [result for result in results if isinstance(result, Gap)]
    if gaps:
        return Gap(
            tuple(label for gap in gaps for label in gap.missing),
            tuple(reason for gap in gaps for reason in gap.reasons),
        )
    return [result for result in results if not isinstance(result, Gap)]


def shown(value: object) -> str:
    """A value as a sentence shows it: text quoted, quantities with their unit."""
    if isinstance(value, str):
        return quote(value)
    if isinstance(value, Quantity):
        return format_quantity(value)
    return str(value).lower() if isinstance(value, bool) else str(value)


def coerce(raw: object, info: NameInfo) -> Result:
    """A parcel value as its name's kind says it should be, or a gap naming the surprise.

    Booleans may arrive as 0 and 1 (shapefiles have no boolean fields).
    """
    kind = info.type
    if kind == "boolean":
        if isinstance(raw, (bool, np.bool_)) or (is_real(raw) and raw in (0, 1)):
            return bool(raw)
    elif kind == "text":
        if isinstance(raw, str):
            return str(raw)
    elif isinstance(raw, Quantity):
        if raw.dimension == kind:
            return raw
    elif is_real(raw):
        return Quantity(float(raw), as_dimension(kind))
    expected = EXPECTED.get(kind, "a number")
    return problem(f"{info.label} has the value {shown(raw)}, which is not {expected}")


def with_unit(operand: Result, unit: Unit, text: str) -> Result:
    if isinstance(operand, Gap):
        return operand
    if not isinstance(operand, Quantity) or operand.dimension != "number":
        return problem(f"{text}: a unit needs a plain number")
    high = None if operand.high is None else operand.high * unit.factor
    return Quantity(operand.value * unit.factor, unit.dimension, unit.name, high, operand.why)


def negative(operand: Result, text: str) -> Result:
    if isinstance(operand, Gap):
        return operand
    if not isinstance(operand, Quantity):
        return problem(f"{text}: '-' needs a number")
    if operand.ranged:
        return ranged(-operand.top, -operand.value, operand.dimension, [operand])
    return Quantity(-operand.value, operand.dimension, operand.unit)


def ranged(low: float, high: float, dimension: Dimension, sources: Sequence[Quantity]) -> Quantity:
    """A range between ``low`` and ``high``, citing why its ranged sources are not exact."""
    reasons = list(dict.fromkeys(q.why for q in sources if q.ranged and q.why))
    return Quantity(low, dimension, None, high, "; ".join(reasons) or None)


def arithmetic(op: str, operands: Sequence[Result], text: str) -> Result:
    """``left op right`` for ``+ - * /``; a gap for a division by zero."""
    values = known(operands)
    if isinstance(values, Gap):
        return values
    left, right = values
    if not (isinstance(left, Quantity) and isinstance(right, Quantity)):
        return problem(f"{text}: '{op}' needs numbers")
    dimension = arithmetic_dimension(op, left.dimension, right.dimension)
    if dimension is None:
        return problem(f"{text}: {left.dimension} and {right.dimension} do not mix")
    if left.ranged or right.ranged:
        return _range_arithmetic(op, left, right, dimension, text)
    if op == "/" and right.value == 0:
        return problem(f"{text} divides by zero")
    value = _apply(op, left.value, right.value)
    if math.isnan(value):
        return problem(f"{text} is not a number ({shown(left)} {op} {shown(right)})")
    return Quantity(value, dimension)


def _range_arithmetic(
    op: str, left: Quantity, right: Quantity, dimension: Dimension, text: str
) -> Result:
    """Interval arithmetic: the least and the most ``left op right`` can be."""
    if op == "/" and right.value <= 0 <= right.top:
        return problem(f"{text} may divide by zero ({shown(right)})")
    corners = [_apply(op, a, b) for a in (left.value, left.top) for b in (right.value, right.top)]
    if any(math.isnan(corner) for corner in corners):
        return problem(f"{text} is not a number")
    return ranged(min(corners), max(corners), dimension, [left, right])


def _apply(op: str, left: float, right: float) -> float:
    if op == "+":
        return left + right
    if op == "-":
        return left - right
    if op == "*":
        return left * right
    return left / right


def call(function: str, args: Sequence[Result], text: str) -> Result:
    """``abs``, ``min`` or ``max`` of quantities of one dimension."""
    values = known(args)
    if isinstance(values, Gap):
        return values
    quantities = [arg for arg in args if isinstance(arg, Quantity)]
    dimensions = {quantity.dimension for quantity in quantities}
    if not quantities or len(quantities) != len(values) or len(dimensions) != 1:
        return problem(f"{text}: needs numbers of one kind")
    dimension = quantities[0].dimension
    if any(quantity.ranged for quantity in quantities):
        return _range_call(function, quantities, dimension)
    if function == "abs":
        return Quantity(abs(quantities[0].value), dimension)
    pick = min if function == "min" else max
    return pick(quantities, key=lambda quantity: quantity.value)


def _range_call(function: str, quantities: list[Quantity], dimension: Dimension) -> Quantity:
    """``abs``, ``min`` or ``max`` over ranges: the least and the most the result can be."""
    if function == "abs":
        low, high = quantities[0].value, quantities[0].top
        least = 0.0 if low <= 0 <= high else min(abs(low), abs(high))
        return ranged(least, max(abs(low), abs(high)), dimension, quantities)
    pick = min if function == "min" else max
    return ranged(
        pick(q.value for q in quantities), pick(q.top for q in quantities), dimension, quantities
    )
