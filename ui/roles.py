"""The layers the dock panel asks for, and how results map back to the map."""

from __future__ import annotations

from dataclasses import dataclass

ORDINANCES = (
    ("larchmont", "Larchmont, Ch. 335"),
    ("homer", "Homer, Ch. 228 Art. XII"),
    ("scarsdale", "Scarsdale, Ch. 254"),
)
BY_JURISDICTION = "by_jurisdiction"


@dataclass(frozen=True)
class Role:
    """A layer the panel needs: its key, label, and what geometry it takes."""

    key: str
    label: str
    geometry: str  # "polygon", "line_or_polygon" or "raster"
    required: bool = False
    drawn: bool = False  # sent with every request (edits count before saving)


ROLES: tuple[Role, ...] = (
    Role("parcels", "Parcels", "polygon", required=True),
    Role("disturbance", "Limits of disturbance", "polygon", required=True, drawn=True),
    Role("impervious_existing", "Impervious, existing", "polygon", drawn=True),
    Role("impervious_proposed", "Impervious, proposed", "polygon", drawn=True),
    Role("floodplain", "Floodplain (FEMA)", "polygon"),
    Role("wetlands", "Wetlands", "polygon"),
    Role("watercourses", "Watercourses", "line_or_polygon"),
    Role("sda", "Sensitive drainage areas", "polygon"),
    Role("zoning", "Zoning districts", "polygon"),
    Role("impaired_watersheds", "Impaired watersheds", "polygon"),
    Role("soils", "Soils (hydrologic group)", "polygon"),
    Role("dem", "Elevation (DEM)", "raster"),
)

# Which flag shows where a metric was measured: clicking a trigger that names
# the metric flashes that flag.
FLAG_OF_METRIC = {
    "disturbed_in_floodplain_1pct_sqft": "floodplain_1pct",
    "disturbed_in_floodplain_0_2pct_sqft": "floodplain_0_2pct",
    "disturbed_in_floodway_sqft": "floodway",
    "disturbed_in_wetland_sqft": "wetland",
    "disturbed_in_wetland_adjacent_sqft": "wetland_adjacent",
    "disturbed_in_watercourse_buffer_sqft": "watercourse_buffer",
    "disturbed_in_adjoining_buffer_sqft": "adjoining_buffer",
    "disturbed_on_slope_over_15pct_sqft": "slope_over_15pct",
    "disturbed_on_slope_over_25pct_sqft": "slope_over_25pct",
    "disturbed_outside_parcel_sqft": "outside_parcel",
}

SEVERITY_ORDER = (
    "state_permit_required",
    "board_approval_required",
    "permit_required",
    "submittal_required",
    "informational",
    "exempt",
)
SEVERITY_LABELS = {
    "state_permit_required": "State permit required",
    "board_approval_required": "Board approval required",
    "permit_required": "Permit required",
    "submittal_required": "Submittal required",
    "informational": "Informational",
    "exempt": "Exempt",
}

KEY_METRICS = (
    ("lot_area_sqft", "Lot area", "sqft"),
    ("disturbed_area_sqft", "Disturbed", "sqft_acres"),
    ("max_disturbed_at_one_time_sqft", "Disturbed at one time", "sqft"),
    ("impervious_net_change_sqft", "Net impervious change", "signed_sqft"),
    ("impervious_proposed_pct", "Proposed impervious cover", "pct"),
    ("disturbed_in_floodplain_1pct_sqft", "In 1% floodplain", "sqft"),
    ("disturbed_in_floodway_sqft", "In floodway", "sqft"),
    ("disturbed_in_wetland_sqft", "In wetlands", "sqft"),
    ("disturbed_in_wetland_adjacent_sqft", "In wetland adjacent area", "sqft"),
    ("disturbed_in_watercourse_buffer_sqft", "In watercourse buffer", "sqft"),
    ("disturbed_in_adjoining_buffer_sqft", "In adjoining property buffer", "sqft"),
    ("disturbed_on_slope_over_15pct_sqft", "On slopes over 15%", "sqft"),
    ("disturbed_on_slope_over_25pct_sqft", "On slopes over 25%", "sqft"),
    ("in_sda", "In a sensitive drainage area", "bool"),
    ("in_impaired_watershed", "In an impaired watershed", "bool"),
    ("zoning_district", "Zoning district", "text"),
    ("cn_pre", "Curve number before", "cn"),
    ("cn_post", "Curve number after", "cn"),
    ("retention_required_cuft", "Retention to offset the increase", "cuft"),
    ("retention_storm_yr", "Retention design storm", "storm"),
    ("wqv_cuft", "Water-quality volume (WQv)", "cuft"),
)

SOIL_GROUPS = ("A", "B", "C", "D", "A/D", "B/D", "C/D")


def format_metric(value: object, kind: str) -> str:
    """A metric as the panel shows it; 'not measured' for a missing input."""
    if value is None:
        return "not measured"
    if kind == "bool":
        return "yes" if value else "no"
    if kind == "text":
        return str(value)
    if kind == "storm":
        return f"{float(value):.0f}-year, 24-hour"  # type: ignore[arg-type]
    number = float(value)  # type: ignore[arg-type]
    if kind == "pct":
        return f"{number:.1f}%"
    if kind == "signed_sqft":
        return f"{number:+,.0f} sq ft"
    if kind == "cuft":
        return f"{number:,.0f} cu ft"
    if kind == "cn":
        return f"{number:.1f}"
    if kind == "sqft_acres":
        return f"{number:,.0f} sq ft ({number / 43_560:.2f} acres)"
    return f"{number:,.0f} sq ft"
