"""Flag kinds: the places where the disturbance meets a constraint, as maps show them."""

from __future__ import annotations

from sitecheck.schema.flag import FlagKind
from sitecheck.schema.kinds import KINDS

_BUILT_IN: tuple[FlagKind, ...] = (
    FlagKind(
        "outside_parcel",
        "Outside the lot (street)",
        "#737373",
        "disturbed_outside_parcel_sqft",
        10,
        "xxxx",
    ),
    FlagKind(
        "floodplain_1pct",
        "1% (100-year) floodplain",
        "#2171b5",
        "disturbed_in_floodplain_1pct_sqft",
        7,
    ),
    FlagKind(
        "floodplain_0_2pct",
        "0.2% (500-year) floodplain",
        "#9ecae1",
        "disturbed_in_floodplain_0_2pct_sqft",
        6,
    ),
    FlagKind("floodway", "Floodway", "#08306b", "disturbed_in_floodway_sqft", 8),
    FlagKind("wetland", "Wetland", "#238b45", "disturbed_in_wetland_sqft", 4),
    FlagKind(
        "wetland_adjacent",
        "Wetland adjacent area",
        "#a1d99b",
        "disturbed_in_wetland_adjacent_sqft",
        3,
    ),
    FlagKind(
        "watercourse_buffer",
        "Watercourse buffer",
        "#41b6c4",
        "disturbed_in_watercourse_buffer_sqft",
        5,
    ),
    FlagKind(
        "adjoining_buffer",
        "Adjoining property buffer",
        "#e7298a",
        "disturbed_in_adjoining_buffer_sqft",
        9,
        "////",
    ),
    FlagKind(
        "slope_over_15pct", "Slope over 15%", "#fe9929", "disturbed_on_slope_over_15pct_sqft", 1
    ),
    FlagKind(
        "slope_over_25pct", "Slope over 25%", "#8c2d04", "disturbed_on_slope_over_25pct_sqft", 2
    ),
)
"""In the order the flags layer lists them."""

FLAG_KINDS: tuple[FlagKind, ...] = (*_BUILT_IN, *(flag for kind in KINDS for flag in kind.flags))
"""Every flag kind, a plug-in kind's after the built-in ones."""

FLAG_DRAW_ORDER: tuple[str, ...] = tuple(
    kind.key for kind in sorted(FLAG_KINDS, key=lambda kind: kind.rank)
)
"""The flag kinds as maps stack them, bottom first."""

FLAG_BY_KEY: dict[str, FlagKind] = {kind.key: kind for kind in FLAG_KINDS}
