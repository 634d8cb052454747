"""Project facts a rule may name, beyond the measurements.

The laws key on facts no map shows: what kind of project it is, whether the
work is lawn stripping and sod, whether a building or demolition permit is
sought. They come from fields of the lot's disturbance features (a mix where
they differ, ``schema.mixed_values``) or of the parcel, under these names. A rule
that needs one that is missing, or mixed, says ``needs_review``.
"""

from __future__ import annotations

from dataclasses import dataclass

from sitecheck.schema.mixed_values import code_key, is_mixed


@dataclass(frozen=True)
class Attribute:
    """A project fact: its field name, type, label and documented codes."""

    name: str
    kind: str  # "text" or "boolean"
    label: str
    codes: tuple[str, ...] = ()
    help: str = ""


ATTRIBUTES: tuple[Attribute, ...] = (
    Attribute(
        "project_type",
        "text",
        "project type",
        (
            "single_family_home",
            "single_family_subdivision",
            "multifamily_residential",
            "commercial",
            "office",
            "industrial",
            "institutional",
            "municipal",
            "church",
            "cemetery",
            "campground",
            "amusement_park",
            "golf_course",
            "sports_complex",
            "racetrack",
            "road",
            "parking_lot",
            "athletic_field_natural_grass",
            "athletic_field_artificial_turf",
            "agricultural_building",
            "utility_access_road",
            "agricultural",
            "silvicultural",
            "other",
        ),
        "What is being built: Homer § 228-78B(2)(b)[1]-[22] lists the types that need "
        "post-construction controls.",
    ),
    Attribute(
        "activity",
        "text",
        "activity",
        (
            "construction",
            "demolition",
            "lawn_stripping_and_sod",
            "landscaping",
            "lawn_maintenance",
            "home_gardening",
            "interior_alteration",
            "exterior_alteration",
            "routine_maintenance",
            "stormwater_facility_repair",
            "emergency",
            "fence_sign_or_poles",
            "cemetery_graves",
            "burial_plots",
            "agricultural",
            "silvicultural",
            "road_or_utility_maintenance",
        ),
        "What the work on the ground is; several exemptions depend on it.",
    ),
    Attribute(
        "permit",
        "text",
        "permit sought",
        ("building", "demolition", "none"),
        "The municipal permit the work comes with (Larchmont § 335-28A applies to "
        "building and demolition permits).",
    ),
    Attribute(
        "larger_common_plan",
        "boolean",
        "part of a larger common plan",
        (),
        "True when the work is part of a larger common plan of development or sale "
        "(Larchmont § 335-24, Homer § 228-78A).",
    ),
    Attribute(
        "existing_cultivated",
        "boolean",
        "landscaping of an existing cultivated area",
        (),
        "True when landscaping work is of an existing cultivated area (lawn, garden): "
        "Scarsdale § 254-5(1) exempts only that.",
    ),
    Attribute(
        "dec_one_acre_authorization",
        "boolean",
        "DEC authorization to disturb one acre or more at one time",
        (),
        "True when the applicant has received the DEC's authorization to disturb one acre "
        "or more at any one time (Homer § 228-78D(2)(d): twice-weekly inspections).",
    ),
    Attribute("project", "text", "project name", (), "A name for the project, shown in reports."),
    Attribute("land_use", "text", "land use", (), "The parcel's land-use or property class code."),
)

ATTRIBUTES_BY_NAME: dict[str, Attribute] = {attribute.name: attribute for attribute in ATTRIBUTES}

_TRUE_TEXT = {"1", "T", "TRUE", "Y", "YES"}
_FALSE_TEXT = {"0", "F", "FALSE", "N", "NO"}


def _given(raw: object) -> bool:
    if raw is None or (isinstance(raw, float) and raw != raw):
        return False
    return type(raw).__name__ != "NAType" and str(raw).strip() != ""


def attribute_value(attribute: Attribute, raw: object) -> object:
    """A field value as the rule language expects it: a known code, other text, or a boolean.

    A value that is given but means nothing the rules know (a code outside the
    attribute's codes, a yes/no field holding "maybe") is None, as if not given,
    so the rules that need it say needs review; :func:`unreadable` names it.
    """
    if not _given(raw):
        return None
    if attribute.kind == "boolean":
        if isinstance(raw, bool):
            return raw
        text = str(raw).strip().upper()
        if text in _TRUE_TEXT:
            return True
        if text in _FALSE_TEXT:
            return False
        return None
    text = str(raw).strip()
    if not attribute.codes:
        return text
    key = code_key(text)
    return key if key in attribute.codes else None


def unreadable(attribute: Attribute, raw: object) -> bool:
    """Whether a given value means nothing the rules know (see :func:`attribute_value`)."""
    return _given(raw) and attribute_value(attribute, raw) is None


UNREADABLE = "<unreadable>"
"""Key, in a parcel's values, of the given field values the rules cannot read: label -> text.

Not a name the rule language can write, so no rule reads it; the reasons of
the rules left unknown say what the field held instead of "not given".
"""


def unreadable_words(attribute: Attribute, text: str) -> str:
    """Why a given value is unknown: ``permit: 'maybe' is not a yes/no value (field 'permit')``."""
    if is_mixed(text):
        return (
            f"{attribute.label} differs across the work: {text} (field '{attribute.name}'); "
            "a finding on one part, an exemption above all, covers only the work it "
            "describes: check the other work on its own"
        )
    kind = (
        "a yes/no value"
        if attribute.kind == "boolean"
        else f"one of the codes {', '.join(attribute.codes)}"
    )
    return f"{attribute.label}: '{text}' is not {kind} (field '{attribute.name}')"
