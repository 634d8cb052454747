"""Units a number can carry, and quantities in base units.

Every dimension has one base unit, and values are held in it: square feet,
feet, percent points, inches. ``number`` is dimensionless (shares, counts).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from sitecheck.schema.metrics import SQFT_PER_ACRE

Dimension = Literal["area", "length", "percent", "depth", "number"]
DIMENSIONS: tuple[Dimension, ...] = ("area", "length", "percent", "depth", "number")


@dataclass(frozen=True)
class Unit:
    """A unit word and how it converts to its dimension's base unit.

    Attributes
    ----------
    name : str
        Canonical name: ``sqft``, ``acre``, ``ft``, ``percent`` or ``inch``.
    dimension : str
        What the unit measures.
    factor : float
        Base units per one of this unit.
    """

    name: str
    dimension: Dimension
    factor: float


SQFT = Unit("sqft", "area", 1.0)
ACRE = Unit("acre", "area", SQFT_PER_ACRE)
FOOT = Unit("ft", "length", 1.0)
PERCENT = Unit("percent", "percent", 1.0)
INCH = Unit("inch", "depth", 1.0)

# "sq ft" is two words; the parser joins them into "sqft".
UNIT_WORDS: dict[str, Unit] = {
    "sqft": SQFT,
    "acre": ACRE,
    "acres": ACRE,
    "ft": FOOT,
    "feet": FOOT,
    "%": PERCENT,
    "pct": PERCENT,
    "inch": INCH,
    "inches": INCH,
}

# How to write a plain number as a quantity of each dimension, for hints.
SUFFIXES: dict[Dimension, str] = {
    "area": " sqft",
    "length": " ft",
    "percent": "%",
    "depth": " inches",
    "number": "",
}


@dataclass(frozen=True)
class Quantity:
    """A number with a dimension, held in the dimension's base unit.

    Attributes
    ----------
    value : float
        In square feet, feet, percent points, inches, or a plain number.
    dimension : str
        ``area``, ``length``, ``percent``, ``depth`` or ``number``.
    unit : str or None
        The unit it was written in when wording should show it (``acre``).
    high : float or None
        For a value measured on part of its data only, the most it can be:
        ``value`` is then the least (what was measured) and the truth lies
        between. None for a value known exactly.
    why : str or None
        Why a ranged value is not known exactly ("the DEM covers 40% of the
        disturbance"), for the reasons that cite it.
    """

    value: float
    dimension: Dimension = "number"
    unit: str | None = None
    high: float | None = None
    why: str | None = None

    @property
    def ranged(self) -> bool:
        """Whether the value is only known to lie between ``value`` and ``high``."""
        return self.high is not None and self.high != self.value

    @property
    def top(self) -> float:
        """The most the value can be: ``high`` for a ranged value, else ``value``."""
        return self.value if self.high is None else self.high

    def __post_init__(self) -> None:
        if self.dimension not in DIMENSIONS:
            known = ", ".join(DIMENSIONS)
            raise ValueError(f"unknown dimension {self.dimension!r}; known: {known}")


def arithmetic_dimension(op: str, left: Dimension, right: Dimension) -> Dimension | None:
    """The dimension of ``left op right``, or None when the dimensions do not combine.

    ``+`` and ``-`` need equal dimensions; ``*`` needs a plain number on one
    side; ``/`` gives a plain number for equal dimensions and keeps the
    dimension when dividing by a plain number.
    """
    if op in ("+", "-"):
        return left if left == right else None
    if op == "*":
        if left == "number":
            return right
        return left if right == "number" else None
    if left == right:
        return "number"
    return left if right == "number" else None
