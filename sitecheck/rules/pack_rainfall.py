"""A pack's own design-storm depths: the ``rainfall`` of its ``[runoff]`` table."""

from __future__ import annotations

import math

from sitecheck.rules.pack_model import PackError, refuse_unknown_keys
from sitecheck.schema.storms import DesignRainfall

RAINFALL_KEYS = {"source", "depths_in", "confirmed", "note"}


def pack_rainfall(table: object, pack_id: str, context: str) -> DesignRainfall | None:
    """``rainfall = { source = "...", depths_in = { 25 = 6.2 }, confirmed = false }``."""
    if table is None:
        return None
    if not isinstance(table, dict):
        raise PackError(f"{context}: 'rainfall' is a table")
    refuse_unknown_keys(table, RAINFALL_KEYS, f"{context} rainfall")
    source = table.get("source")
    if not isinstance(source, str) or not source.strip():
        raise PackError(f"{context}: rainfall needs a 'source' saying where the depths come from")
    depths = table.get("depths_in")
    if not isinstance(depths, dict) or not depths:
        raise PackError(f"{context}: rainfall needs 'depths_in', e.g. {{ 25 = 6.2, 100 = 8.0 }}")
    parsed: dict[int, float] = {}
    for years, depth in depths.items():
        if not str(years).isdigit() or int(years) <= 0:
            raise PackError(f"{context}: rainfall: '{years}' is not a return period in years")
        number = isinstance(depth, int | float) and not isinstance(depth, bool)
        if not number or not math.isfinite(depth) or depth <= 0:
            raise PackError(
                f"{context}: rainfall: the {years}-year depth must be a positive number of inches, "
                f"not {depth!r}"
            )
        parsed[int(years)] = float(depth)
    confirmed = table.get("confirmed", False)
    if not isinstance(confirmed, bool):
        raise PackError(f"{context}: rainfall 'confirmed' is true or false")
    return DesignRainfall(
        place=pack_id,
        depths_in=dict(sorted(parsed.items())),
        source=source.strip(),
        default=True,
        confirmed=confirmed,
        note=str(table.get("note", "")),
    )
