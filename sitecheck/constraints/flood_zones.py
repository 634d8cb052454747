"""FEMA flood hazard polygons (NFHL ``S_FLD_HAZ_AR``) classed as 1%, 0.2% and floodway.

A polygon whose flood hazard SiteCheck cannot read (Zone D, an area the FIRM does
not map, a levee that is not accredited, a zone value outside FEMA's domain) is
*unmapped*: the flood rules of the lots whose work touches it need review, never
read as "no hazard".

Zones are those of FEMA's D_Zone domain (FIRM Database Technical Reference):
the Special Flood Hazard Area is zones A, AE, AH, AO, A99, AR (and AR/…), A1–A30,
V, VE and V1–V30; X is outside it; older FIRMs' B is the 0.2% band and C minimal;
D is "possible but undetermined flood hazard". Municipal copies word them
otherwise ("Zone AE (Floodway)", "X Shaded", "X500"); those forms are read as
FEMA means them.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from importlib import resources

import geopandas as gpd
import numpy as np
import pandas as pd
import tomllib

from sitecheck.errors import InputError
from sitecheck.geometry.overlay import Surface
from sitecheck.io.readers import LayerSource

_SFHA_ZONE = re.compile(r"^(A|AE|AH|AO|A99|AR|AR/.*|A\d{1,2}|V|VE|V\d{1,2})$")
_ZERO_TWO_ZONES = ("B", "X500", "X SHADED", "SHADED X")
_ZERO_TWO_PCT = ("0.2 PCT ANNUAL CHANCE", "0.2 PERCENT ANNUAL CHANCE")
_MINIMAL_ZONES = ("X", "C", "X UNSHADED", "UNSHADED X")
_UNMAPPED_ZONES = {
    "D": "Zone D, possible but undetermined flood hazard",
    "AREA NOT INCLUDED": "an area the FIRM does not include",
    "OPEN WATER": "open water, where the FIRM maps no zone",
}
_CODE = re.compile(r"^\d{4}$")


@dataclass(frozen=True)
class ZoneSubtypes:
    """FEMA's D_Zone_Subtype domain (``sitecheck/data/nfhl_zone_subtypes.toml``)."""

    class_of: dict[str, str]  # subtype text -> floodway, shaded_x, zone, minimal, undetermined
    text_of_code: dict[str, str]  # four-digit code -> subtype text


@cache
def zone_subtypes() -> ZoneSubtypes:
    path = resources.files("sitecheck") / "data" / "nfhl_zone_subtypes.toml"
    entries = tomllib.loads(path.read_text(encoding="utf-8"))["subtype"]
    return ZoneSubtypes(
        class_of={entry["text"]: entry["class"] for entry in entries},
        text_of_code={entry["code"]: entry["text"] for entry in entries if "code" in entry},
    )


@dataclass
class FloodClasses:
    """Which floodplain polygons belong to each class; ``unmapped``: hazard not readable."""

    one_pct: np.ndarray
    zero_two_pct: np.ndarray
    floodway: np.ndarray
    unmapped: np.ndarray


def zone_reading(value: str) -> tuple[str, bool]:
    """What a FLD_ZONE value means: its class and whether it names a floodway.

    The class is ``one_pct``, ``zero_two``, ``minimal``, ``unmapped`` (a zone of
    undetermined hazard), ``""`` (empty) or ``unknown``. ``value`` is upper case.
    """
    words = re.sub(r"[()]", " ", value)
    words = re.sub(r"\s+", " ", words).strip()
    words = re.sub(r"^ZONE ", "", words)
    floodway = words == "FLOODWAY" or words.endswith(" FLOODWAY")
    if floodway:
        words = words.removesuffix("FLOODWAY").strip()
    if words == "":
        return ("one_pct" if floodway else ""), floodway
    if _SFHA_ZONE.fullmatch(words):
        return "one_pct", floodway
    if words in _ZERO_TWO_ZONES or words.startswith(_ZERO_TWO_PCT):
        return "zero_two", floodway
    if words in _MINIMAL_ZONES:
        return "minimal", floodway
    if words in _UNMAPPED_ZONES:
        return "unmapped", floodway
    return "unknown", floodway


def _unmapped_reason(value: str) -> str:
    words = re.sub(r"^ZONE ", "", re.sub(r"\s+", " ", value).strip())
    return _UNMAPPED_ZONES.get(words, words)


def text_column(frame: pd.DataFrame, name: str) -> np.ndarray:
    """A field as upper-case stripped text ('' for null), found case-insensitively.

    Read value by value in Python: a flood layer holds a few distinct codes, and the
    panel classes a handful of polygons at every edit, where pandas' string methods
    cost milliseconds (issue 30)."""
    for column in frame.columns:
        if column.lower() == name.lower():
            return np.array([_text(value) for value in frame[column].tolist()], dtype=object)
    return np.full(len(frame), "", dtype=object)


def _text(value: object) -> str:
    return "" if value is None or value is pd.NA or value != value else str(value).strip().upper()


def has_field(frame: pd.DataFrame, name: str) -> bool:
    return any(column.lower() == name.lower() for column in frame.columns)


def subtype_classes(
    subtype: np.ndarray, source: LayerSource, warn: Callable[[str], None]
) -> np.ndarray:
    """The class of each polygon's ZONE_SUBTY ('' when empty), codes decoded, unknowns named."""
    domain = zone_subtypes()
    counts = Counter(subtype.tolist())
    text = {raw: re.sub(r"\s+", " ", raw).replace("PERCENT", "PCT") for raw in counts}
    unknown_codes = sorted(
        {t for t in text.values() if _CODE.fullmatch(t) and t not in domain.text_of_code}
    )
    if unknown_codes:
        raise InputError(
            f"{source.label()}: field ZONE_SUBTY holds code(s) {', '.join(unknown_codes[:10])} "
            "that FEMA's D_Zone_Subtype domain does not define; give the layer with the "
            "subtypes as text (the NFHL's own form)"
        )
    text = {
        raw: domain.text_of_code.get(t, t) if _CODE.fullmatch(t) else t for raw, t in text.items()
    }
    class_of = {raw: domain.class_of.get(t, "") for raw, t in text.items()}
    unknown: Counter[str] = Counter()
    for raw, count in counts.items():
        if text[raw] != "" and class_of[raw] == "":
            unknown[text[raw]] += count
    for value, count in sorted(unknown.items()):
        warn(
            f"{source.label()}: ZONE_SUBTY '{value}' ({count} polygon(s)) is not in FEMA's "
            "D_Zone_Subtype domain; those polygons are read by FLD_ZONE and SFHA_TF alone"
        )
    undetermined = sum(count for raw, count in counts.items() if class_of[raw] == "undetermined")
    if undetermined:
        warn(
            f"{source.label()}: {undetermined} polygon(s) of undetermined flood hazard "
            "(non-accredited levee): the flood rules of the lots whose work touches them "
            "need review"
        )
    return np.array([class_of[raw] for raw in subtype.tolist()], dtype=object)


def _zone_classes(
    zone: np.ndarray, source: LayerSource, warn: Callable[[str], None]
) -> tuple[np.ndarray, np.ndarray]:
    """Each polygon's zone class and floodway mark; unknown and unmapped values named."""
    counts = Counter(zone.tolist())
    readings = {value: zone_reading(value) for value in counts}
    for value, count in sorted(counts.items()):
        if readings[value][0] == "unknown":
            warn(
                f"{source.label()}: FLD_ZONE '{value}' ({count} polygon(s)) is not a FEMA "
                "flood zone SiteCheck reads; the flood rules of the lots whose work touches "
                "them need review"
            )
        elif readings[value][0] == "unmapped":
            warn(
                f"{source.label()}: {count} polygon(s) of {_unmapped_reason(str(value))} "
                f"(FLD_ZONE '{value}'): the flood rules of the lots whose work touches them "
                "need review"
            )
    classes = np.array([readings[value][0] for value in zone.tolist()], dtype=object)
    floodway = np.array([readings[value][1] for value in zone.tolist()], dtype=bool)
    return classes, floodway


def classify_flood_zones(
    frame: gpd.GeoDataFrame, source: LayerSource, warn: Callable[[str], None] | None = None
) -> FloodClasses:
    """Class NFHL flood-hazard polygons as 1%, 0.2%, floodway, and unmapped.

    The 1% (100-year) floodplain is ``SFHA_TF = 'T'``, or the A and V zones
    where SFHA_TF is missing, and every floodway; the 0.2% (500-year) band is
    every shaded Zone X subtype of FEMA's D_Zone_Subtype domain, older FIRMs'
    zone B and the zone values that say so ("X Shaded", "X500", "0.2 PCT
    ANNUAL CHANCE…"); the floodway is every floodway and encroachment-area
    subtype and every zone value naming a floodway ("AE Floodway"). Unmapped:
    Zone D, areas not included, open water, undetermined subtypes and zone
    values outside FEMA's domain, each named in a warning with its count.

    Raises
    ------
    InputError
        When the layer has no ``FLD_ZONE`` field (the line lists the fields it
        has), or ZONE_SUBTY holds codes the domain does not define.
    """
    if not has_field(frame, "FLD_ZONE"):
        internal = (frame.geometry.name, "_fid")  # the geometry and the reader's feature ids
        fields = [str(column) for column in frame.columns if column not in internal]
        raise InputError(
            f"{source.label()}: needs the FEMA NFHL field FLD_ZONE (and ideally ZONE_SUBTY, "
            f"SFHA_TF); the layer has {', '.join(fields) if fields else 'no fields'}"
        )
    say = warn or (lambda _: None)
    zone_class, zone_floodway = _zone_classes(text_column(frame, "FLD_ZONE"), source, say)
    subtype = subtype_classes(text_column(frame, "ZONE_SUBTY"), source, say)
    sfha = text_column(frame, "SFHA_TF")
    by_zone = zone_class == "one_pct"
    floodway = (subtype == "floodway") | zone_floodway
    one_pct = np.where((sfha == "T") | (sfha == "F"), sfha == "T", by_zone).astype(bool)
    zero_two = (subtype == "shaded_x") | (zone_class == "zero_two")
    unmapped = (zone_class == "unknown") | (zone_class == "unmapped") | (subtype == "undetermined")
    return FloodClasses(
        one_pct=one_pct | floodway,
        zero_two_pct=zero_two,
        floodway=floodway,
        unmapped=unmapped,
    )


@dataclass
class FloodSurfaces:
    one_pct: Surface
    zero_two_pct: Surface
    floodway: Surface
    unmapped: Surface


def flood_surfaces(
    frame: gpd.GeoDataFrame,
    source: LayerSource,
    dissolve: Callable[[np.ndarray], Surface],
    warn: Callable[[str], None] | None = None,
) -> FloodSurfaces:
    """The 1% floodplain, the whole 0.2% floodplain (which contains the 1%), the floodway,
    and the polygons whose hazard is not readable, each dissolved by ``dissolve``
    (:meth:`Surface.from_polygons` in the run's tiles)."""
    classes = classify_flood_zones(frame, source, warn)
    geoms = frame.geometry.to_numpy()
    return FloodSurfaces(
        one_pct=dissolve(geoms[classes.one_pct]),
        zero_two_pct=dissolve(geoms[classes.one_pct | classes.zero_two_pct]),
        floodway=dissolve(geoms[classes.floodway]),
        unmapped=dissolve(geoms[classes.unmapped]),
    )
