"""24-hour design-storm depths: the pack defaults per village and the --rainfall override.

``sitecheck/data/rainfall.toml`` holds, per village, the depths (inches) for
the 1-, 2-, 10-, 25-, 50- and 100-year 24-hour storms, the source they are to
be read from, and two flags: ``default`` (always true: a pack default, never a
site value) and ``confirmed`` (false while the depths are placeholders not yet
copied from that source). Reports must show both.
"""

from __future__ import annotations

import itertools
import math
from functools import cache
from importlib import resources

import tomllib

from sitecheck.errors import InputError
from sitecheck.schema.storms import DesignRainfall

RAINFALL_OPTION = "--rainfall"


@cache
def _rainfall_data() -> dict[str, dict]:
    path = resources.files("sitecheck") / "data" / "rainfall.toml"
    return tomllib.loads(path.read_text(encoding="utf-8"))


def village_rainfall(village: str) -> DesignRainfall:
    """The bundled default design-storm depths of a village (``larchmont``, ``scarsdale``, ``homer``)."""
    data = _rainfall_data()
    key = village.strip().lower()
    if key not in data:
        raise InputError(f"rainfall: no default depths for '{village}' (known: {', '.join(data)})")
    entry = data[key]
    return DesignRainfall(
        place=key,
        depths_in={int(years): float(depth) for years, depth in entry["depths_in"].items()},
        source=entry["source"],
        default=bool(entry["default"]),
        confirmed=bool(entry["confirmed"]),
        note=entry.get("reason", ""),
    )


def user_rainfall(text: str) -> DesignRainfall:
    """Design-storm depths given by the user with --rainfall: site values, not defaults."""
    return DesignRainfall(
        place="user",
        depths_in=parse_rainfall(text),
        source=f"user ({RAINFALL_OPTION})",
        default=False,
        confirmed=True,
    )


def parse_rainfall(text: str) -> dict[int, float]:
    """Parse ``"2=3.5,10=5.1,25=6.2"``: return period (years) = 24-hour depth (inches).

    Raises
    ------
    InputError
        Naming ``--rainfall``, on an empty text, an item not ``YEARS=INCHES``, a
        return period that is not a positive whole number, a depth that is not a
        positive number, a repeated return period, or depths that fall as the
        return period grows.
    """
    items = [item.strip() for item in str(text).split(",")]
    if not any(items):
        raise InputError(f"{RAINFALL_OPTION}: no storms given (e.g. 2=3.5,10=5.1,100=8.0)")
    depths: dict[int, float] = {}
    for item in items:
        years_text, sep, depth_text = item.partition("=")
        if not sep:
            raise InputError(f"{RAINFALL_OPTION}: '{item}' is not YEARS=INCHES (e.g. 10=5.1)")
        years = _return_period(years_text.strip(), item)
        depth = _depth(depth_text.strip(), item)
        if years in depths:
            raise InputError(f"{RAINFALL_OPTION}: the {years}-year storm is given twice")
        depths[years] = depth
    return rising_depths(depths, RAINFALL_OPTION)


def rising_depths(depths: dict[int, float], where: str) -> dict[int, float]:
    """Depths by return period, shortest first; InputError naming ``where`` when a longer
    return period has a smaller depth (no depth-frequency table falls)."""
    ordered = dict(sorted(depths.items()))
    for (short_years, short_depth), (long_years, long_depth) in itertools.pairwise(ordered.items()):
        if long_depth < short_depth:
            raise InputError(
                f"{where}: the {long_years}-year depth {long_depth:g} in is less than "
                f"the {short_years}-year depth {short_depth:g} in"
            )
    return ordered


def _return_period(text: str, item: str) -> int:
    if not (text.isascii() and text.isdigit()) or int(text) <= 0:
        raise InputError(
            f"{RAINFALL_OPTION}: '{item}': return period '{text}' is not a whole number of years"
        )
    return int(text)


def _depth(text: str, item: str) -> float:
    try:
        depth = float(text)
    except ValueError:
        raise InputError(
            f"{RAINFALL_OPTION}: '{item}': depth '{text}' is not a number of inches"
        ) from None
    if not math.isfinite(depth) or depth <= 0:
        raise InputError(f"{RAINFALL_OPTION}: '{item}': depth must be a positive number of inches")
    return depth
