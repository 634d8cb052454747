"""The per-parcel measurements the engine reports: names, units and labels.

The names are a public interface (JSON keys, GeoPackage fields, rule-pack
names); never rename one. ``label`` is how a reason sentence names the value
("disturbed 5,310 sq ft > 5,000 sq ft").
"""

from __future__ import annotations

from dataclasses import dataclass

from sitecheck.schema.kinds import KINDS
from sitecheck.schema.metric import Metric

_BUILT_IN: tuple[Metric, ...] = (
    Metric("lot_area_sqft", "area", "lot area", None, "Lot area", "sqft", True),
    Metric("disturbed_area_sqft", "area", "disturbed", None, "Disturbed", "sqft_acres", True),
    Metric(
        "disturbed_outside_parcel_sqft",
        "area",
        "disturbed outside the lot",
        None,
        "Disturbed outside the lot",
    ),
    Metric(
        "max_disturbed_at_one_time_sqft",
        "area",
        "disturbed at one time",
        None,
        "Disturbed at one time",
        "sqft",
        True,
    ),
    Metric(
        "impervious_existing_sqft",
        "area",
        "existing impervious",
        "impervious_existing",
        "Impervious, existing",
    ),
    Metric(
        "impervious_proposed_sqft",
        "area",
        "proposed impervious",
        "impervious_proposed",
        "Impervious, proposed",
    ),
    Metric(
        "impervious_net_change_sqft",
        "area",
        "net impervious change",
        "impervious_existing+impervious_proposed",
        "Net impervious change",
        "signed_sqft",
        True,
    ),
    Metric(
        "impervious_proposed_pct",
        "percent",
        "proposed impervious cover",
        "impervious_proposed",
        "Proposed impervious cover",
        "pct",
        True,
    ),
    Metric(
        "disturbed_in_floodplain_1pct_sqft",
        "area",
        "disturbed in the 1% floodplain",
        "floodplain",
        "In 1% floodplain",
        "sqft",
        True,
    ),
    Metric(
        "disturbed_in_floodplain_0_2pct_sqft",
        "area",
        "disturbed in the 0.2% floodplain",
        "floodplain",
        "In 0.2% floodplain",
    ),
    Metric(
        "disturbed_in_floodway_sqft",
        "area",
        "disturbed in the floodway",
        "floodplain",
        "In floodway",
        "sqft",
        True,
    ),
    Metric(
        "disturbed_in_wetland_sqft",
        "area",
        "disturbed in wetlands",
        "wetlands",
        "In wetlands",
        "sqft",
        True,
    ),
    Metric(
        "disturbed_in_wetland_adjacent_sqft",
        "area",
        "disturbed in the wetland adjacent area",
        "wetlands",
        "In wetland adjacent area",
        "sqft",
        True,
    ),
    Metric(
        "disturbed_in_watercourse_buffer_sqft",
        "area",
        "disturbed in the watercourse buffer",
        "watercourses",
        "In watercourse buffer",
        "sqft",
        True,
    ),
    Metric(
        "watercourse_on_lot",
        "boolean",
        "a watercourse passes through the lot",
        "watercourses",
        "Watercourse through the lot",
        "bool",
    ),
    Metric(
        "disturbed_in_adjoining_buffer_sqft",
        "area",
        "disturbed in the adjoining property buffer",
        None,
        "In adjoining property buffer",
        "sqft",
        True,
    ),
    Metric(
        "disturbed_on_slope_over_15pct_sqft",
        "area",
        "disturbed on slopes over 15%",
        "dem",
        "On slopes over 15%",
        "sqft",
        True,
    ),
    Metric(
        "disturbed_on_slope_over_25pct_sqft",
        "area",
        "disturbed on slopes over 25%",
        "dem",
        "On slopes over 25%",
        "sqft",
        True,
    ),
    Metric(
        "slope_data_coverage",
        "share",
        "DEM coverage of the disturbance",
        "dem",
        "DEM coverage of the disturbance",
        "share",
    ),
    Metric(
        "in_sda",
        "boolean",
        "in a sensitive drainage area",
        "sda",
        "In a sensitive drainage area",
        "bool",
        True,
    ),
    Metric(
        "in_impaired_watershed",
        "boolean",
        "in an impaired-waters watershed",
        "impaired_watersheds",
        "In an impaired watershed",
        "bool",
        True,
    ),
    Metric("zoning_district", "text", "zoning district", "zoning", "Zoning district", "text", True),
)

METRICS: tuple[Metric, ...] = (*_BUILT_IN, *(m for kind in KINDS for m in kind.metrics))
"""The measurement's metrics, a plug-in kind's after the built-in ones."""

RUNOFF_METRICS: tuple[Metric, ...] = (
    Metric("cn_pre", "number", "curve number before", "soils", "Curve number before", "cn", True),
    Metric("cn_post", "number", "curve number after", "soils", "Curve number after", "cn", True),
    Metric(
        "retention_required_cuft",
        "volume",
        "retention to offset the increase",
        "soils",
        "Retention to offset the increase",
        "cuft",
        True,
    ),
    Metric(
        "retention_dual_drained",
        "boolean",
        "retention reads dual soil groups as drained",
        "soils",
        "Retention reads dual soil groups as drained",
        "bool",
    ),
    Metric(
        "retention_storm_yr",
        "years",
        "retention design storm",
        "soils",
        "Retention design storm",
        "storm",
        True,
    ),
    Metric(
        "retention_review_storm_yr",
        "years",
        "larger storm a rule under review would set",
        "soils",
        "Retention storm if a review raises it",
        "storm",
        True,
    ),
    Metric(
        "retention_review_cuft",
        "volume",
        "retention for the storm under review",
        "soils",
        "Retention for the storm under review",
        "cuft",
        True,
    ),
    Metric(
        "wqv_cuft",
        "volume",
        "water-quality volume",
        "soils",
        "Water-quality volume (WQv)",
        "cuft",
        True,
    ),
    Metric(
        "runoff_note",
        "text",
        "why the runoff figures are missing or what they leave out",
        "soils",
        "Runoff note",
        "text",
    ),
)
"""The runoff screen's figures per lot (with ``runoff_*`` and ``peak_*`` per storm besides)."""

SQFT_PER_ACRE = 43_560.0


@dataclass(frozen=True)
class PartlyMeasured:
    """A metric measured only where its data reach, so on partial data a least value.

    Attributes
    ----------
    metric : str
        The area measured where the data reach.
    coverage : str
        The share (0 to 1) of ``whole`` the data reach.
    whole : str
        The area metric ``metric`` is a part of; its unmeasured share is the
        most ``metric`` can lack.
    data : str
        The data, as a reason names it ("the DEM").
    """

    metric: str
    coverage: str
    whole: str
    data: str


PARTLY_MEASURED: tuple[PartlyMeasured, ...] = tuple(
    PartlyMeasured(name, "slope_data_coverage", "disturbed_area_sqft", "the DEM")
    for name in ("disturbed_on_slope_over_15pct_sqft", "disturbed_on_slope_over_25pct_sqft")
)

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
