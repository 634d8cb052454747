"""Which polygons of a wetlands layer are wetlands.

The National Wetlands Inventory (NWI, US Fish and Wildlife Service) maps
wetlands *and deepwater habitats* (Cowardin et al. 1979): lakes, rivers, ponds
and estuarine open water are in the same layer as marshes and swamps. Each NWI
polygon carries its Cowardin code in ``ATTRIBUTE`` (``PFO1E``, ``L1UBH``,
``R2UBH``...) and, in the downloads since 2016, its type in ``WETLAND_TYPE``.
Only the classes chosen count as wetlands (default: the vegetated ones); the
others are surface waters, without a wetland's adjacent area.

The DEC's "checkzone" layer is the area around regulated freshwater wetlands
where DEC asks to be consulted, not the wetlands: given as wetlands it made
every lot near one "in wetland", so it is refused.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Sequence

import geopandas as gpd
import pandas as pd

from sitecheck.errors import InputError, OptionError
from sitecheck.io.readers import LayerSource
from sitecheck.schema.wetlands import DEFAULT_NWI_CLASSES, NWI_CLASSES

_TYPE_KEY = {label.upper(): key for key, label in NWI_CLASSES.items()}
_CHECKZONE = re.compile(r"CHE?CK[ _-]?ZONE|CHKZ", re.IGNORECASE)


def nwi_classes(value: object) -> tuple[str, ...]:
    """The NWI classes named in ``value`` (comma-separated keys, or ``all``)."""
    text = str(value or "").strip()
    if not text:
        return DEFAULT_NWI_CLASSES
    if text.lower() == "all":
        return tuple(NWI_CLASSES)
    keys = tuple(dict.fromkeys(part.strip().lower() for part in text.split(",") if part.strip()))
    unknown = [key for key in keys if key not in NWI_CLASSES]
    if unknown or not keys:
        raise OptionError(
            "nwi_classes",
            f"{', '.join(unknown) or repr(text)} is not an NWI class; "
            f"give some of {', '.join(NWI_CLASSES)}, or all",
        )
    return keys


def class_of_cowardin(code: str) -> str:
    """NWI's wetland type of a Cowardin code, as the NWI derives ``WETLAND_TYPE``.

    Marine and estuarine subtidal (``M1``, ``E1``) are deepwater, intertidal
    (``M2``, ``E2``) wetland; lacustrine is a lake and riverine a river;
    palustrine emergent (``PEM``), forested and scrub-shrub (``PFO``, ``PSS``)
    are vegetated wetlands, unconsolidated bottom and aquatic bed (``PUB``,
    ``PAB``) a pond; other palustrine codes (farmed ``Pf``, shore ``PUS``) other.
    """
    code = code.strip()
    upper = code.upper()
    if upper[:2] in ("M1", "E1"):
        return "estuarine_marine_deepwater"
    if upper[:2] in ("M2", "E2"):
        return "estuarine_marine_wetland"
    if upper.startswith("L"):
        return "lake"
    if upper.startswith("R"):
        return "riverine"
    if upper.startswith("P") and not code.startswith("Pf"):
        kind = upper[1:3]
        if kind == "EM":
            return "freshwater_emergent"
        if kind in ("FO", "SS"):
            return "freshwater_forested_shrub"
        if kind in ("UB", "AB"):
            return "freshwater_pond"
    return "other"


def counted_wetlands(
    frame: gpd.GeoDataFrame,
    source: LayerSource,
    classes: Sequence[str],
    warn: Callable[[str], None],
) -> gpd.GeoDataFrame:
    """The polygons of a wetlands layer that count as wetlands.

    A layer without NWI's fields (DEC regulatory wetlands, a village's own map)
    counts whole. An NWI layer counts the ``classes`` chosen and says, once,
    what it left out and that NWI is not the DEC's regulatory map.

    Raises
    ------
    InputError
        For a DEC checkzone layer, or NWI codes that name no class.
    """
    _refuse_checkzone(frame, source)
    kinds = _nwi_kinds(frame, source, warn)
    if kinds is None:
        return frame
    counted = kinds.isin(list(classes)).to_numpy()
    # The same words whatever part of the layer was read, so a run split in
    # windows warns once.
    left_out = [key for key in NWI_CLASSES if key not in classes]
    warn(
        f"{source.label()}: the National Wetlands Inventory, a federal inventory of wetlands "
        "and deepwater habitats, not the DEC's regulatory map (a delineation decides): "
        f"counted as wetlands: {', '.join(classes)}; not counted (open water, with no "
        f"adjacent area): {', '.join(left_out) or 'none'} (choose with --nwi-classes)"
    )
    return frame[counted]


def _nwi_kinds(
    frame: gpd.GeoDataFrame, source: LayerSource, warn: Callable[[str], None]
) -> pd.Series | None:
    """NWI class of each polygon, from WETLAND_TYPE else ATTRIBUTE; None if not NWI."""
    lowered = {str(c).lower(): c for c in frame.columns}
    # WETLAND_TY: the field's name in a shapefile (ten characters).
    type_field = lowered.get("wetland_type", lowered.get("wetland_ty"))
    code_field = lowered.get("attribute")
    if type_field is None and code_field is None:
        return None
    kinds = pd.Series(None, index=frame.index, dtype="object")
    if type_field is not None:
        text = frame[type_field].astype("string").fillna("").str.strip().str.upper()
        kinds = text.map(_TYPE_KEY).astype("object")
        unknown = sorted(set(text[kinds.isna() & (text != "")]))
        if unknown:
            warn(
                f"{source.label()}: WETLAND_TYPE values not in the NWI's list, read from "
                f"ATTRIBUTE or counted as wetlands: {', '.join(unknown[:10])}"
            )
    if code_field is not None:
        codes = frame[code_field].astype("string").fillna("")
        from_codes = codes.map(lambda c: class_of_cowardin(c) if c.strip() else None)
        kinds = kinds.where(kinds.notna(), from_codes)
    # A polygon with neither a type nor a code is counted: never a silent "no wetland".
    return kinds.fillna(DEFAULT_NWI_CLASSES[0])


def _refuse_checkzone(frame: gpd.GeoDataFrame, source: LayerSource) -> None:
    names = [os.path.basename(source.path), source.layer or "", *map(str, frame.columns)]
    values: list[str] = []
    for column in frame.columns:
        if column != frame.geometry.name and frame[column].dtype == object:
            values.extend(str(v) for v in frame[column].dropna().unique()[:50])
    if any(_CHECKZONE.search(text) for text in [*names, *values]):
        raise InputError(
            f"{source.label()}: is a DEC wetland checkzone, the area around regulated "
            "freshwater wetlands where DEC asks to be consulted, not the wetlands; give the "
            "wetlands themselves (DEC regulatory freshwater wetlands or NWI) as --wetlands, "
            "and their adjacent area is measured from them"
        )
