"""Comparisons of values known only as ranges: which ends decide them, if any.

A value measured on part of its data lies between what was measured and that
plus the unmeasured rest. A comparison is decided for the whole range only
when it comes out the same at the ends that are worst for it.
"""

from __future__ import annotations

import math
from typing import Literal

from sitecheck.rules.units import Quantity

# Values this close count as equal, as in the evaluator.
SAME = 1e-9
HOLDS: dict[str, frozenset[str]] = {
    "<": frozenset("<"),
    "<=": frozenset("<="),
    ">": frozenset(">"),
    ">=": frozenset(">="),
    "==": frozenset("="),
    "!=": frozenset("<>"),
}
OPERATOR_WORDS = {
    "<": "under",
    "<=": "at most",
    ">": "over",
    ">=": "at least",
    "==": "equal to",
    "!=": "other than",
}


def relation(left: float, right: float) -> str:
    """``=``, ``<`` or ``>`` between two numbers, equal within :data:`SAME`."""
    if math.isclose(left, right, rel_tol=SAME, abs_tol=SAME):
        return "="
    return "<" if left < right else ">"


def _holds(op: str, left: float, right: float) -> bool:
    return relation(left, right) in HOLDS[op]


End = Literal["least", "most"]


def deciding_ends(op: str, left: Quantity, right: Quantity) -> tuple[End, End] | None:
    """Which ends of two ranges decide ``left op right`` for the whole ranges; None if
    the comparison holds for some values in them and fails for others."""
    if op in (">", ">="):
        if _holds(op, left.value, right.top):
            return "least", "most"
        return ("most", "least") if not _holds(op, left.top, right.value) else None
    if op in ("<", "<="):
        if _holds(op, left.top, right.value):
            return "most", "least"
        return ("least", "most") if not _holds(op, left.value, right.top) else None
    # == and != are decided only when the ranges do not meet.
    if relation(left.top, right.value) == "<":
        return "most", "least"
    if relation(right.top, left.value) == "<":
        return "least", "most"
    return None


def at_end(quantity: Quantity, end: End) -> tuple[Quantity, str]:
    """One end of a range as an exact quantity, and the words that say which end."""
    if not quantity.ranged:
        return Quantity(quantity.value, quantity.dimension, quantity.unit), ""
    value = quantity.value if end == "least" else quantity.top
    return Quantity(value, quantity.dimension, quantity.unit), f"at {end} "


def same_value(left: object, right: object) -> bool:
    """Whether two values are the same: quantities of one dimension equal, or equal others."""
    if isinstance(left, Quantity) and isinstance(right, Quantity):
        return left.dimension == right.dimension and relation(left.value, right.value) == "="
    return type(left) is type(right) and left == right
