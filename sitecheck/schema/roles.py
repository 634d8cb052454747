"""Layer roles: what each input layer of a run is for, and how it is given."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Geometry = Literal["polygon", "line_or_polygon", "raster"]


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
        }


ROLES: tuple[Role, ...] = (
    Role(
        "parcels",
        "--parcels",
        "Parcels",
        "Tax parcels (lots). 'Selected features only' screens just those.",
        required=True,
        processing="PARCELS",
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
    ),
    Role(
        "impervious_existing",
        "--impervious-existing",
        "Impervious, existing",
        "Existing impervious cover (buildings, driveways, patios).",
        drawn=True,
        processing="IMPERVIOUS_EXISTING",
    ),
    Role(
        "impervious_proposed",
        "--impervious-proposed",
        "Impervious, proposed",
        "The complete post-construction impervious cover of each project lot, "
        "not only what is new.",
        drawn=True,
        processing="IMPERVIOUS_PROPOSED",
    ),
    Role(
        "floodplain",
        "--floodplain",
        "Floodplain (FEMA)",
        "FEMA flood hazard areas (NFHL S_FLD_HAZ_AR) with FLD_ZONE, ZONE_SUBTY and SFHA_TF.",
        processing="FLOODPLAIN",
    ),
    Role("wetlands", "--wetlands", "Wetlands", "Regulated wetlands.", processing="WETLANDS"),
    Role(
        "watercourses",
        "--watercourses",
        "Watercourses",
        "Streams and other watercourses (lines or polygons).",
        "line_or_polygon",
        processing="WATERCOURSES",
    ),
    Role(
        "sda",
        "--sda",
        "Sensitive drainage areas (SDA)",
        "Sensitive drainage areas (Scarsdale).",
        processing="SDA",
    ),
    Role(
        "zoning",
        "--zoning",
        "Zoning districts",
        "Zoning districts with a district code field.",
        processing="ZONING",
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
    ),
)

ROLE_BY_KEY: dict[str, Role] = {role.key: role for role in ROLES}
VECTOR_ROLES: tuple[str, ...] = tuple(
    role.key for role in ROLES if role.measured and role.geometry != "raster"
)
"""The vector layers a measurement takes, in this order."""
DRAWN_ROLES: tuple[str, ...] = tuple(role.key for role in ROLES if role.drawn)
