"""Field names the engine looks for, in order, when the user names none (case-insensitive)."""

from __future__ import annotations

ID_FIELD_CANDIDATES: tuple[str, ...] = ("parcel_id", "SBL", "PRINT_KEY")
ZONING_FIELD_CANDIDATES: tuple[str, ...] = ("district", "ZONE", "ZONING")
SDA_FIELD_CANDIDATES: tuple[str, ...] = ("in_sda", "sda")
"""A yes/no parcel field that stands in for an SDA layer."""
SOIL_FIELD_CANDIDATES: tuple[str, ...] = (
    "hydgrp",
    "hydgrpdcd",
    "muaggatt_hydgrpdcd",  # SSURGO's muaggatt joined in QGIS (its default field prefix)
    "HSG",
    "hsg_code",
)
PHASE_FIELD_CANDIDATES: tuple[str, ...] = ("phase",)

PASSTHROUGH_CANDIDATES: dict[str, tuple[str, ...]] = {
    "address": (
        "address",
        "PARCEL_ADDR",  # NYS statewide tax parcels
        "PARCEL_ADD",  # the same, in a shapefile (10-character names)
        "LOC_ADDRESS",
        "SITE_ADDR",
        "ADDR",
    ),
    "owner": (
        "owner",
        "OWNER_NAME",
        "PRIMARY_OWNER",  # NYS statewide tax parcels
        "PRIMARY_OW",  # the same, in a shapefile
        "OWNERNAME",
    ),
    "land_use": ("land_use", "PROP_CLASS", "LANDUSE", "USE_CODE"),
    "project_type": ("project_type",),
    "activity": ("activity",),
    "permit": ("permit",),
    "larger_common_plan": ("larger_common_plan",),
}
"""Parcel fields passed through to the outputs under a standard name: the first present."""

PROJECT_FIELDS: tuple[str, ...] = (
    "project",
    "project_type",
    "activity",
    "permit",
    "larger_common_plan",
    "existing_cultivated",
    "dec_one_acre_authorization",
)
"""Project facts read from a lot's disturbance features (a parcel field fills in)."""
