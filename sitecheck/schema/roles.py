"""Layer roles: what each input layer of a run is for, and how it is given."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Geometry = Literal["polygon", "line_or_polygon", "raster"]


@dataclass(frozen=True)
class MapSymbol:
    """How maps draw a role's layer (the QGIS styles, the sample project, the atlas).

    Attributes
    ----------
    rank : int
        Stacking order on a map, the lowest drawn first (at the bottom).
    fill : str
        Fill colour as ``r,g,b,alpha`` (0-255 each), QGIS's colour string.
    outline : str
        Outline colour, ``#rrggbb``.
    outline_mm : float
        Outline width in millimetres.
    dashed : bool
        A dashed outline (for boundaries that are not the subject of a page).
    line : str
        Colour of a line layer's stroke (watercourses given as lines).
    line_mm : float
        Width of that stroke in millimetres.
    legend : bool
        A compliance map's legend lists it (not the lots, nor the backdrop
        boundaries drawn dashed or unfilled).
    """

    rank: int
    fill: str
    outline: str
    outline_mm: float
    dashed: bool = False
    line: str = ""
    line_mm: float = 0.0
    legend: bool = True

    def to_json(self) -> dict[str, object]:
        return {
            "rank": self.rank,
            "fill": self.fill,
            "outline": self.outline,
            "outline_mm": self.outline_mm,
            "dashed": self.dashed,
            "line": self.line,
            "line_mm": self.line_mm,
            "legend": self.legend,
        }


@dataclass(frozen=True)
class Role:
    """One input of a run.

    Attributes
    ----------
    key : str
        The role's name (``MeasureInputs`` field, worker request key, audit name).
    flag : str
        The command-line option that gives it.
    label : str
        How the panel and dialogs name it.
    help : str
        What the layer must hold.
    geometry : str
        ``polygon``, ``line_or_polygon`` or ``raster``.
    required : bool
        A run cannot start without it.
    drawn : bool
        The panel sends its features with every request (edits count before saving).
    processing : str or None
        The key of check_site's Processing parameter for it.
    panel : bool
        The dock panel asks for it.
    measured : bool
        An input of the measurement itself (``MeasureInputs``); else of the
        runoff screen or the pack choice.
    missing : str
        Why the metrics this layer gives are unknown when it is not given, as
        reasons and review groups word it.
    symbol : MapSymbol or None
        How maps draw it; None for a layer maps do not show.
    """

    key: str
    flag: str
    label: str
    help: str
    geometry: Geometry = "polygon"
    required: bool = False
    drawn: bool = False
    processing: str | None = None
    panel: bool = True
    measured: bool = True
    missing: str = ""
    symbol: MapSymbol | None = None

    def to_json(self) -> dict[str, object]:
        return {
            "key": self.key,
            "flag": self.flag,
            "label": self.label,
            "help": self.help,
            "geometry": self.geometry,
            "required": self.required,
            "drawn": self.drawn,
            "processing": self.processing,
            "panel": self.panel,
            "measured": self.measured,
            "missing": self.missing,
            "symbol": None if self.symbol is None else self.symbol.to_json(),
        }


ROLES: tuple[Role, ...] = (
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
