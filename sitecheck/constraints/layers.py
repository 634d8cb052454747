"""Turn constraint layers into surfaces the disturbance is measured against.

Floodplain polygons are classed from their FEMA NFHL attributes; wetlands gain
their regulated adjacent area; watercourses their buffer. Each class becomes a
:class:`~sitecheck.geometry.overlay.Surface` of disjoint pieces.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from importlib import resources

import geopandas as gpd
import numpy as np
import pandas as pd
import shapely
import tomllib

from sitecheck.errors import InputError
from sitecheck.geometry.overlay import Surface, intersect_pairs
from sitecheck.geometry.parallel import map_arrays
from sitecheck.io.readers import LayerSource

# FEMA NFHL FLD_ZONE values of the Special Flood Hazard Area (1%-annual-chance
# floodplain), used when SFHA_TF is absent: zones A and V with their suffixes
# (AE, AH, AO, A99, AR and the old numbered A1-A30, V1-V30 zones).
_SFHA_ZONE = re.compile(r"^(A|AE|AH|AO|A99|AR|AR/.*|A\d{1,2}|V|VE|V\d{1,2})$")
_ZERO_TWO_PCT = "0.2 PCT ANNUAL CHANCE"
# Zones of older FIRMs for the 0.2% band (B) and of some exports (X500).
_ZERO_TWO_ZONES = ("B", "X500")
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
    """Which floodplain polygons belong to each class."""

    one_pct: np.ndarray
    zero_two_pct: np.ndarray
    floodway: np.ndarray


def _text_column(frame: pd.DataFrame, name: str) -> pd.Series:
    """A field as upper-case stripped text ('' for null), found case-insensitively."""
    for column in frame.columns:
        if column.lower() == name.lower():
            return frame[column].astype("string").fillna("").str.strip().str.upper()
    return pd.Series([""] * len(frame), index=frame.index, dtype="string")


def has_field(frame: pd.DataFrame, name: str) -> bool:
    return any(column.lower() == name.lower() for column in frame.columns)


def subtype_classes(
    subtype: pd.Series, source: LayerSource, warn: Callable[[str], None]
) -> pd.Series:
    """The class of each polygon's ZONE_SUBTY ('' when empty), codes decoded, unknowns named."""
    domain = zone_subtypes()
    text = subtype.str.replace(r"\s+", " ", regex=True).str.replace("PERCENT", "PCT")
    coded = text.str.fullmatch(_CODE.pattern).fillna(False)
    unknown_codes = sorted(set(text[coded]) - set(domain.text_of_code))
    if unknown_codes:
        raise InputError(
            f"{source.label()}: field ZONE_SUBTY holds code(s) {', '.join(unknown_codes[:10])} "
            "that FEMA's D_Zone_Subtype domain does not define; give the layer with the "
            "subtypes as text (the NFHL's own form)"
        )
    text = text.where(~coded, text.map(domain.text_of_code))
    classes = text.map(domain.class_of).fillna("")
    unknown = text[(text != "") & (classes == "")]
    for value, count in unknown.value_counts().sort_index().items():
        warn(
            f"{source.label()}: ZONE_SUBTY '{value}' ({count} polygon(s)) is not in FEMA's "
            "D_Zone_Subtype domain; those polygons are read by FLD_ZONE and SFHA_TF alone"
        )
    undetermined = int((classes == "undetermined").sum())
    if undetermined:
        warn(
            f"{source.label()}: {undetermined} polygon(s) of undetermined flood hazard "
            "(non-accredited levee): their flood risk is not measured; review the work there"
        )
    return classes


def classify_flood_zones(
    frame: gpd.GeoDataFrame, source: LayerSource, warn: Callable[[str], None] | None = None
) -> FloodClasses:
    """Class NFHL flood-hazard polygons as 1%, 0.2% and floodway.

    The 1% (100-year) floodplain is ``SFHA_TF = 'T'``, or the A and V zones
    where SFHA_TF is missing, and every floodway; the 0.2% (500-year) band is
    every shaded Zone X subtype of FEMA's D_Zone_Subtype domain (0.2% annual
    chance, 1% with depth under 1 ft or drainage under 1 sq mi, future
    conditions, areas behind levees), older FIRMs' zone B, and FLD_ZONE values
    that themselves say '0.2 PCT ANNUAL CHANCE'; the floodway is every floodway
    and encroachment-area subtype. Subtypes given as the domain's codes are
    decoded; an unknown subtype is a warning naming it.

    Raises
    ------
    InputError
        When the layer has no ``FLD_ZONE`` field, or ZONE_SUBTY holds codes
        the domain does not define.
    """
    if not has_field(frame, "FLD_ZONE"):
        raise InputError(
            f"{source.label()}: needs the FEMA NFHL field FLD_ZONE "
            "(and ideally ZONE_SUBTY, SFHA_TF)"
        )
    zone = _text_column(frame, "FLD_ZONE")
    classes = subtype_classes(_text_column(frame, "ZONE_SUBTY"), source, warn or (lambda _: None))
    sfha = _text_column(frame, "SFHA_TF")
    by_zone = zone.str.fullmatch(_SFHA_ZONE.pattern).fillna(False)
    one_pct = np.where(sfha.isin(["T", "F"]), sfha == "T", by_zone).astype(bool)
    zero_two = (
        (classes == "shaded_x") | zone.isin(_ZERO_TWO_ZONES) | zone.str.startswith(_ZERO_TWO_PCT)
    )
    floodway = (classes == "floodway").to_numpy(bool)
    return FloodClasses(
        one_pct=one_pct | floodway,
        zero_two_pct=zero_two.to_numpy(bool),
        floodway=floodway,
    )


@dataclass
class FloodSurfaces:
    one_pct: Surface
    zero_two_pct: Surface
    floodway: Surface


def flood_surfaces(
    frame: gpd.GeoDataFrame,
    source: LayerSource,
    tile_size: float,
    warn: Callable[[str], None] | None = None,
) -> FloodSurfaces:
    """The 1% floodplain, the whole 0.2% floodplain (which contains the 1%) and the floodway."""
    classes = classify_flood_zones(frame, source, warn)
    geoms = frame.geometry.to_numpy()
    return FloodSurfaces(
        one_pct=Surface.from_polygons(geoms[classes.one_pct], tile_size),
        zero_two_pct=Surface.from_polygons(
            geoms[classes.one_pct | classes.zero_two_pct], tile_size
        ),
        floodway=Surface.from_polygons(geoms[classes.floodway], tile_size),
    )


def buffered(geoms: np.ndarray, distance: float) -> np.ndarray:
    """Buffer lines or polygons by a distance in CRS units (round ends, 8 segments a quarter)."""
    return map_arrays(shapely.buffer, geoms, distance, quad_segs=8)


def overlaps_surface(lots: np.ndarray, surface: Surface, min_area: float) -> np.ndarray:
    """True where a lot overlaps the surface by at least ``min_area`` (CRS units squared)."""
    areas, _ = surface.overlap(lots, want_geometry=False)
    return areas >= min_area


def district_by_lot(
    lots: np.ndarray, zoning: gpd.GeoDataFrame, field: str, tree_lots: shapely.STRtree
) -> np.ndarray:
    """Zoning district holding the largest part of each lot (None where none)."""
    districts = zoning[field].astype("string").to_numpy(dtype=object, na_value=None)
    zones = zoning.geometry.to_numpy()
    shapely.prepare(zones)
    zone_idx, lot_idx = tree_lots.query(zones, predicate="intersects")
    out = np.full(len(lots), None, dtype=object)
    if len(zone_idx) == 0:
        return out
    overlap = shapely.area(intersect_pairs(lots[lot_idx], zones[zone_idx]))
    order = np.lexsort((overlap, lot_idx))  # largest overlap last per lot
    out[lot_idx[order]] = districts[zone_idx[order]]
    return out
