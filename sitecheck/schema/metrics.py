"""The per-parcel measurements the engine reports: names, units and labels.

The names are a public interface (JSON keys, GeoPackage fields, rule-pack
names); never rename one. ``label`` is how a reason sentence names the value
("disturbed 5,310 sq ft > 5,000 sq ft").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Kind = Literal["area", "share", "percent", "boolean", "text", "length"]


@dataclass(frozen=True)
class Metric:
    """One reported measurement.

    Attributes
    ----------
    name : str
        Field and JSON key.
    kind : str
        ``area`` (square feet), ``share`` (0 to 1), ``percent``, ``boolean`` or ``text``.
    label : str
        Short words for reasons and tables.
    needs : str or None
        The input layer the value depends on; the value is null without it.
    """

    name: str
    kind: Kind
    label: str
    needs: str | None = None


METRICS: tuple[Metric, ...] = (
    Metric("lot_area_sqft", "area", "lot area"),
    Metric("disturbed_area_sqft", "area", "disturbed"),
    Metric("disturbed_outside_parcel_sqft", "area", "disturbed outside the lot"),
    Metric("max_disturbed_at_one_time_sqft", "area", "disturbed at one time"),
    Metric("impervious_existing_sqft", "area", "existing impervious", "impervious_existing"),
    Metric("impervious_proposed_sqft", "area", "proposed impervious", "impervious_proposed"),
    Metric(
        "impervious_net_change_sqft",
        "area",
        "net impervious change",
        "impervious_existing+impervious_proposed",
    ),
    Metric(
        "impervious_proposed_pct", "percent", "proposed impervious cover", "impervious_proposed"
    ),
    Metric(
        "disturbed_in_floodplain_1pct_sqft", "area", "disturbed in the 1% floodplain", "floodplain"
    ),
    Metric(
        "disturbed_in_floodplain_0_2pct_sqft",
        "area",
        "disturbed in the 0.2% floodplain",
        "floodplain",
    ),
    Metric("disturbed_in_floodway_sqft", "area", "disturbed in the floodway", "floodplain"),
    Metric("disturbed_in_wetland_sqft", "area", "disturbed in wetlands", "wetlands"),
    Metric(
        "disturbed_in_wetland_adjacent_sqft",
        "area",
        "disturbed in the wetland adjacent area",
        "wetlands",
    ),
    Metric(
        "disturbed_in_watercourse_buffer_sqft",
        "area",
        "disturbed in the watercourse buffer",
        "watercourses",
    ),
    Metric(
        "disturbed_in_adjoining_buffer_sqft", "area", "disturbed in the adjoining property buffer"
    ),
    Metric("disturbed_on_slope_over_15pct_sqft", "area", "disturbed on slopes over 15%", "dem"),
    Metric("disturbed_on_slope_over_25pct_sqft", "area", "disturbed on slopes over 25%", "dem"),
    Metric("slope_data_coverage", "share", "DEM coverage of the disturbance", "dem"),
    Metric("in_sda", "boolean", "in a sensitive drainage area", "sda"),
    Metric(
        "in_impaired_watershed", "boolean", "in an impaired-waters watershed", "impaired_watersheds"
    ),
    Metric("zoning_district", "text", "zoning district", "zoning"),
)

METRICS_BY_NAME: dict[str, Metric] = {metric.name: metric for metric in METRICS}

SQFT_PER_ACRE = 43_560.0

# Area metrics also reported in acres, as ``<name without _sqft>_acres``.
ACRE_METRICS: tuple[str, ...] = (
    "lot_area_sqft",
    "disturbed_area_sqft",
    "max_disturbed_at_one_time_sqft",
    "impervious_net_change_sqft",
)


def acres_name(sqft_name: str) -> str:
    """``disturbed_area_sqft`` -> ``disturbed_area_acres``."""
    return sqft_name.removesuffix("_sqft") + "_acres"
