"""Numbers and quantities as reason sentences show them.

Numbers get thousands separators and at most two decimals, without trailing
zeros: ``5,310``, ``0.5``, ``38.5%``. Areas are in square feet, with acres
added when a threshold was written in acres and is at least one acre.
"""

from __future__ import annotations

from sitecheck.rules.units import Quantity
from sitecheck.schema.metrics import SQFT_PER_ACRE

DEFAULT_DECIMALS = 2
MOST_DECIMALS = 6


def format_number(value: float, decimals: int = DEFAULT_DECIMALS) -> str:
    """``5310.0`` -> ``5,310``; ``1.149`` -> ``1.15``; ``-0.001`` -> ``0``."""
    text = f"{value:,.{decimals}f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def format_quantity(
    quantity: Quantity, decimals: int = DEFAULT_DECIMALS, acres: bool = False
) -> str:
    """A quantity in its base unit: ``5,000 sq ft``, ``38.5%``, ``12 ft``; a range
    as ``0 to 1,200 sq ft``."""
    number = format_number(quantity.value, decimals)
    if quantity.ranged:
        number = f"{number} to {format_number(quantity.top, decimals)}"
    if quantity.dimension == "area":
        words = f"{number} sq ft"
        return f"{words} ({format_acres(quantity.value)})" if acres else words
    if quantity.dimension == "length":
        return f"{number} ft"
    if quantity.dimension == "percent":
        return f"{number}%"
    if quantity.dimension == "depth":
        return f"{number} {'inch' if number == '1' else 'inches'}"
    return number


def format_acres(square_feet: float) -> str:
    """``50000`` -> ``1.15 acres``; ``43560`` -> ``1 acre``."""
    number = format_number(square_feet / SQFT_PER_ACRE)
    return f"{number} {'acre' if number == '1' else 'acres'}"


def format_pair(
    left: Quantity, right: Quantity, equal: bool, acres: bool = False
) -> tuple[str, str]:
    """Word two compared quantities, with more decimals if two would hide a difference."""
    decimals = DEFAULT_DECIMALS
    # Values at least two hundredths apart always differ at two decimals.
    if not equal and abs(left.value - right.value) < 0.02:
        while decimals < MOST_DECIMALS and format_number(left.value, decimals) == format_number(
            right.value, decimals
        ):
            decimals += 1
    return format_quantity(left, decimals, acres), format_quantity(right, decimals, acres)


def format_share(fraction: float) -> str:
    """A tolerance as a percent: ``0.02`` -> ``2%``."""
    return f"{format_number(fraction * 100)}%"


def quote(text: str) -> str:
    """Text in double quotes, as reasons show text values."""
    return f'"{text}"'


def margin_words(
    measured: tuple[bool, bool], constant: tuple[bool, bool], left: Quantity, right: Quantity
) -> str:
    """How far a measured value is from the constant it is compared with: " (80 sq ft over)".

    Only for a measurement against a threshold with a unit; nothing when they are equal.
    """
    if measured[0] == measured[1] or not (constant[0] or constant[1]):
        return ""
    value, threshold = (left, right) if measured[0] else (right, left)
    difference = value.value - threshold.value
    if difference == 0 or value.dimension == "number":
        return ""
    decimals = DEFAULT_DECIMALS
    while decimals < MOST_DECIMALS and abs(difference) < 0.5 * 10.0**-decimals:
        decimals += 1  # a difference too small for two decimals still shows
    gap = format_quantity(Quantity(abs(difference), value.dimension), decimals)
    return f" ({gap} {'over' if difference > 0 else 'under'})"


def plain_value(value: object) -> str:
    """A value as a list shows it: text unquoted."""
    if isinstance(value, Quantity):
        return format_quantity(value)
    if isinstance(value, bool):
        return str(value).lower()
    return str(value)


def side_words(label: str | None, bound: str, number: str) -> str:
    """A comparison side as its reason shows it: "disturbed 5,310 sq ft" (a measure's
    label, the bound of its range, the number), "5,000 sq ft" (a constant, no label)."""
    return f"{bound}{number}" if label is None else f"{label} {bound}{number}"
