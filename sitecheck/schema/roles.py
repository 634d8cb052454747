"""Layer roles: what each input layer of a run is for, and how it is given."""

from __future__ import annotations

from sitecheck.schema.kinds import KINDS
from sitecheck.schema.role import MapSymbol, Role

_BUILT_IN: tuple[Role, ...] = (
    Role(
        "parcels",
        "--parcels",
        "Parcels",
        "Tax parcels (lots). 'Selected features only' screens just those.",
        required=True,
        processing="PARCELS",
        symbol=MapSymbol(7, "255,255,255,0", "#636363", 0.25, legend=False),
    ),
    Role(
        "disturbance",
        "--disturbance",
        "Limits of disturbance",
        "The land the work disturbs. Optional fields: phase (whole number), parcel_id, "
        "project_type, activity, permit, larger_common_plan.",
        required=True,
        drawn=True,
        processing="DISTURBANCE",
        symbol=MapSymbol(10, "254,153,41,120", "#cc4c02", 0.6),
    ),
    Role(
        "impervious_existing",
        "--impervious-existing",
        "Impervious, existing",
        "Existing impervious cover (buildings, driveways, patios).",
        drawn=True,
        processing="IMPERVIOUS_EXISTING",
        missing="no existing impervious layer was given",
        symbol=MapSymbol(8, "150,150,150,180", "#525252", 0.1),
    ),
    Role(
        "impervious_proposed",
        "--impervious-proposed",
        "Impervious, proposed",
        "The complete post-construction impervious cover of each project lot, "
        "not only what is new.",
        drawn=True,
        processing="IMPERVIOUS_PROPOSED",
        missing="no proposed impervious layer was given",
        symbol=MapSymbol(9, "0,0,0,0", "#d95f0e", 0.4, dashed=True),
    ),
    Role(
        "floodplain",
        "--floodplain",
        "Floodplain (FEMA)",
        "FEMA flood hazard areas (NFHL S_FLD_HAZ_AR) with FLD_ZONE, ZONE_SUBTY and SFHA_TF.",
        processing="FLOODPLAIN",
        missing="no floodplain layer was given",
        symbol=MapSymbol(4, "107,174,214,110", "#3182bd", 0.2),
    ),
    Role(
        "wetlands",
        "--wetlands",
        "Wetlands",
        "Regulated wetlands.",
        processing="WETLANDS",
        missing="no wetlands layer was given",
        symbol=MapSymbol(5, "116,196,118,140", "#238b45", 0.3),
    ),
    Role(
        "watercourses",
        "--watercourses",
        "Watercourses",
        "Streams and other watercourses (lines or polygons).",
        "line_or_polygon",
        processing="WATERCOURSES",
        missing="no watercourse layer was given",
        symbol=MapSymbol(6, "158,202,225,160", "#2b8cbe", 0.3, line="#2b8cbe", line_mm=0.8),
    ),
    Role(
        "sda",
        "--sda",
        "Sensitive drainage areas (SDA)",
        "Sensitive drainage areas (Scarsdale).",
        processing="SDA",
        missing="no SDA layer or parcel field was given",
        symbol=MapSymbol(2, "255,237,160,70", "#fec44f", 0.4),
    ),
    Role(
        "zoning",
        "--zoning",
        "Zoning districts",
        "Zoning districts with a district code field.",
        processing="ZONING",
        missing="no zoning layer or district field was given",
        symbol=MapSymbol(1, "255,255,255,0", "#9e9ac8", 0.5, dashed=True, legend=False),
    ),
    Role(
        "impaired_watersheds",
        "--impaired-watersheds",
        "Impaired watersheds",
        "Watersheds of 303(d)-listed or TMDL waters; or a watershed layer with a listed "
        "flag field (--impaired-flag); or the listed waterbodies (DEC 303(d) streams and "
        "lakes) with --watersheds.",
        geometry="line_or_polygon",
        processing="IMPAIRED_WATERSHEDS",
        missing="no impaired-waters watershed layer was given",
        symbol=MapSymbol(3, "0,0,0,0", "#8856a7", 0.7, legend=False),
    ),
    Role(
        "watersheds",
        "--watersheds",
        "Watersheds of the listed waters",
        "Basins (e.g. WBD HUC-12) of the listed waterbodies given as --impaired-watersheds: "
        "a basin holding a listed water is an impaired watershed.",
        processing="WATERSHEDS",
    ),
    Role(
        "adjoining_buffer",
        "--adjoining-buffer",
        "Adjoining property buffer",
        "A drawn adjoining property buffer, instead of deriving it from the parcels.",
        panel=False,
    ),
    Role(
        "soils",
        "--soils",
        "Soils (hydrologic group)",
        "Soil survey polygons with a hydrologic soil group field (e.g. SSURGO map units "
        "with hydgrp).",
        processing="SOILS",
        measured=False,
    ),
    Role(
        "jurisdictions",
        "--jurisdictions",
        "Jurisdictions",
        "Polygons naming each area's pack (county-wide runs).",
        panel=False,
        measured=False,
    ),
    Role(
        "dem",
        "--dem",
        "Elevation (DEM)",
        "Elevation raster for slopes over 15% and 25%. Without it, slope rules need review.",
        "raster",
        processing="DEM",
        missing="no DEM was given, or it has no elevations under the disturbance",
    ),
)

_FIRST_NOT_MEASURED = next(i for i, role in enumerate(_BUILT_IN) if not role.measured)
ROLES: tuple[Role, ...] = (
    *_BUILT_IN[:_FIRST_NOT_MEASURED],
    *(kind.role for kind in KINDS),
    *_BUILT_IN[_FIRST_NOT_MEASURED:],
)
"""Every role; a plug-in kind's layer after the built-in constraint layers."""

ROLE_BY_KEY: dict[str, Role] = {role.key: role for role in ROLES}
VECTOR_ROLES: tuple[str, ...] = tuple(
    role.key for role in ROLES if role.measured and role.geometry != "raster"
)
"""The vector layers a measurement takes, in this order."""
DRAWN_ROLES: tuple[str, ...] = tuple(role.key for role in ROLES if role.drawn)
MAP_ROLES: tuple[str, ...] = tuple(
    role.key
    for role in sorted(
        (role for role in ROLES if role.symbol is not None),
        key=lambda role: role.symbol.rank if role.symbol else 0,
    )
)
"""The layers maps draw, bottom first."""
