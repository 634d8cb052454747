"""Flag kinds: the places where the disturbance meets a constraint, as maps show them."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class FlagKind:
    """One kind of flag.

    Attributes
    ----------
    key : str
        The ``kind`` field of the flags layer.
    label : str
        How every legend names it.
    colour : str
        How every map colours it (``#rrggbb``).
    metric : str
        The metric that measures it: a trigger naming the metric shows this flag.
    """

    key: str
    label: str
    colour: str
    metric: str


FLAG_KINDS: tuple[FlagKind, ...] = (
    FlagKind(
        "outside_parcel", "Outside the lot (street)", "#737373", "disturbed_outside_parcel_sqft"
    ),
    FlagKind(
        "floodplain_1pct",
        "1% (100-year) floodplain",
        "#2171b5",
        "disturbed_in_floodplain_1pct_sqft",
    ),
    FlagKind(
        "floodplain_0_2pct",
        "0.2% (500-year) floodplain",
        "#9ecae1",
        "disturbed_in_floodplain_0_2pct_sqft",
    ),
    FlagKind("floodway", "Floodway", "#08306b", "disturbed_in_floodway_sqft"),
    FlagKind("wetland", "Wetland", "#238b45", "disturbed_in_wetland_sqft"),
    FlagKind(
        "wetland_adjacent", "Wetland adjacent area", "#a1d99b", "disturbed_in_wetland_adjacent_sqft"
    ),
    FlagKind(
        "watercourse_buffer",
        "Watercourse buffer",
        "#41b6c4",
        "disturbed_in_watercourse_buffer_sqft",
    ),
    FlagKind(
        "adjoining_buffer",
        "Adjoining property buffer",
        "#e7298a",
        "disturbed_in_adjoining_buffer_sqft",
    ),
    FlagKind("slope_over_15pct", "Slope over 15%", "#fe9929", "disturbed_on_slope_over_15pct_sqft"),
    FlagKind("slope_over_25pct", "Slope over 25%", "#8c2d04", "disturbed_on_slope_over_25pct_sqft"),
)
"""In the order the flags layer lists them."""

FLAG_BY_KEY: dict[str, FlagKind] = {kind.key: kind for kind in FLAG_KINDS}
