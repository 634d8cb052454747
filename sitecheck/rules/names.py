"""What a condition may name: metrics, pack parameters and attributes."""

from __future__ import annotations

import math
from dataclasses import dataclass
from numbers import Real
from typing import Literal, TypeGuard, cast

from sitecheck.rules.units import Dimension, Quantity

Type = Literal["area", "length", "percent", "depth", "number", "text", "boolean"]

KIND_TYPES: dict[str, Type] = {
    "area": "area",
    "length": "length",
    "percent": "percent",
    "depth": "depth",
    "share": "number",
    "number": "number",
    "text": "text",
    "boolean": "boolean",
}

NOUNS: dict[Type, str] = {
    "area": "an area",
    "length": "a length",
    "percent": "a percent",
    "depth": "a depth",
    "number": "a plain number",
    "text": "text",
    "boolean": "true/false",
}


def is_quantity(kind: Type) -> bool:
    return kind not in ("text", "boolean")


@dataclass(frozen=True)
class NameInfo:
    """One name a condition may use.

    Attributes
    ----------
    kind : str
        ``area``, ``length``, ``percent``, ``share`` (0 to 1), ``number``,
        ``depth``, ``boolean`` or ``text``.
    label : str
        Short words naming the value in reasons ("disturbed", "lot area").
    constant : Quantity, str, bool or None
        A pack parameter's value; None for a value that comes with each
        parcel. A plain number is taken in the kind's base unit.
    measured : bool
        Whether the value is a measurement, so comparisons near a threshold
        get the tolerance band. Set False for exact values such as counts
        typed into an attribute table. Ignored for constants.
    """

    kind: str
    label: str
    constant: Quantity | str | bool | float | None = None
    measured: bool = True

    def __post_init__(self) -> None:
        if self.kind not in KIND_TYPES:
            raise ValueError(f"unknown kind {self.kind!r}; known: {', '.join(KIND_TYPES)}")
        if self.constant is not None and not _fits(self.constant, self.type):
            raise ValueError(f"{self.label}: constant {self.constant!r} is not {NOUNS[self.type]}")

    @property
    def type(self) -> Type:
        """The kind as the checker sees it: a share is a plain number."""
        return KIND_TYPES[self.kind]

    @property
    def is_constant(self) -> bool:
        return self.constant is not None


def _fits(constant: object, kind: Type) -> bool:
    if kind == "text":
        return isinstance(constant, str)
    if kind == "boolean":
        return isinstance(constant, bool)
    if isinstance(constant, Quantity):
        return constant.dimension == kind
    return is_real(constant)


def is_real(value: object) -> TypeGuard[Real]:
    """A real number that is not a boolean (bool is an int in Python)."""
    # A float first: the ABC check costs a run's rules a few times as much, per value.
    return type(value) is float or (isinstance(value, Real) and not isinstance(value, bool))


def is_null(value: object) -> bool:
    """None, NaN, or a pandas missing-value marker, without importing pandas."""
    if value is None:
        return True
    if type(value) is float:  # most values: measured metrics
        return value != value
    if isinstance(value, Real) and not isinstance(value, bool):
        return math.isnan(value)
    return type(value).__name__ in ("NAType", "NaTType")


def as_dimension(kind: Type) -> Dimension:
    """The dimension of a quantity type."""
    if not is_quantity(kind):
        raise ValueError(f"{kind} is not a quantity")
    return cast(Dimension, kind)
