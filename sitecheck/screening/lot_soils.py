"""Each screened lot's area on each hydrologic soil group, from a soils layer.

The group comes from a field on the polygons, else from the map unit's MUKEY
joined to the SSURGO tables (``sitecheck.io.soil_groups``). Map units the survey
gives no group (in some surveys Urban land, Dumps or Pits) are not unmapped
ground: they take ``--default-hsg`` when given, else the lot's soil shares come
from the rest; each lot on one names it, by its name and MUKEY.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
import shapely

from sitecheck.errors import InputError
from sitecheck.geometry.overlay import intersect_pairs
from sitecheck.geometry.parallel import map_query
from sitecheck.io.extent import Extent
from sitecheck.io.parcels import attribute_columns, find_field
from sitecheck.io.readers import POLYGONAL
from sitecheck.io.soil_groups import group_table, mukey_field
from sitecheck.measure.inputs import MeasureResult
from sitecheck.runoff.soils import hsg_from_value
from sitecheck.schema.fields import SOIL_FIELD_CANDIDATES
from sitecheck.screening.runoff_result import UNMAPPED_TOLERANCE_SQFT, RunoffOptions


@dataclass
class LotSoils:
    """The soils under each screened lot.

    Attributes
    ----------
    by_group : dict of str to ndarray
        Per soil group value, each lot's area on it (square CRS units), the
        ``--default-hsg`` filling the rest where given.
    unmapped : ndarray
        Each lot's area the soils layer does not map.
    no_group : ndarray
        Each lot's area on map units without a group.
    no_group_units : list of str
        Per lot, the map units under it without a group ("Dumps (MUKEY 289517)").
    """

    by_group: dict[str, np.ndarray]
    unmapped: np.ndarray
    no_group: np.ndarray
    no_group_units: list[str]


def soil_areas_by_group(
    measured: MeasureResult, rows: np.ndarray, options: RunoffOptions
) -> LotSoils:
    """Each screened lot's area in each soil group value, and its unmapped area."""
    nothing = np.zeros(len(rows))
    if options.soils is None:
        return LotSoils({}, nothing, nothing, [""] * len(rows))
    lots = measured.parcels.geometry.to_numpy()[rows]
    # Soils under the screened lots only: a county's map units are not read whole.
    within = Extent.around(lots, 0.0, measured.working.crs)
    frame = measured.log.read(
        options.soils, POLYGONAL, target_crs=measured.working.crs, within=within
    )
    columns = attribute_columns(frame)
    groups, units = _polygon_groups(frame, columns, options, measured)
    soil_geoms = frame.geometry.to_numpy()
    lot_index, soil_index = map_query(shapely.STRtree(soil_geoms), lots, "intersects")
    areas = shapely.area(intersect_pairs(lots[lot_index], soil_geoms[soil_index]))
    by_group: dict[str, np.ndarray] = {}
    for group in sorted(set(groups[soil_index])):
        chosen = groups[soil_index] == group
        by_group[group] = np.bincount(lot_index[chosen], weights=areas[chosen], minlength=len(rows))
    no_group = by_group.pop("", np.zeros(len(rows)))
    without = groups[soil_index] == ""
    named: list[list[str]] = [[] for _ in range(len(rows))]
    pairs = zip(lot_index[without].tolist(), units[soil_index][without].tolist(), strict=True)
    for lot, unit in sorted(set(pairs)):
        named[lot].append(str(unit))
    mapped = sum(by_group.values()) if by_group else np.zeros(len(rows))
    unmapped = np.maximum(shapely.area(lots) - mapped - no_group, 0.0)
    partly = int((no_group * measured.working.sqft_per_unit2 > UNMAPPED_TOLERANCE_SQFT).sum())
    if partly:
        filler = (
            f"taken as group {options.default_hsg} (--default-hsg)"
            if options.default_hsg
            else "left out, the soil shares coming from the rest (give --default-hsg to choose)"
        )
        # No count: a run split in windows must give the same words.
        measured.log.warn(
            f"{options.soils.label()}: lots on map units the survey gives no hydrologic soil "
            f"group (each lot's runoff_note names them): not unmapped, but without a group; "
            f"that part {filler}"
        )
    if options.default_hsg:
        key = options.default_hsg.strip().upper()
        by_group[key] = by_group.get(key, np.zeros(len(rows))) + unmapped + no_group
    return LotSoils(by_group, unmapped, no_group, [", ".join(units) for units in named])


def _polygon_groups(
    frame: pd.DataFrame, columns: list[str], options: RunoffOptions, measured: MeasureResult
) -> tuple[np.ndarray, np.ndarray]:
    """Each soil polygon's group (its own field, else its map unit's in the SSURGO tables)
    and the words naming its map unit."""
    assert options.soils is not None
    candidates = [options.soil_field] if options.soil_field else list(SOIL_FIELD_CANDIDATES)
    found = find_field(columns, candidates)
    mukey = mukey_field(columns)
    if found is not None:
        groups = _soil_groups(frame, found, options)
        return groups, _unit_words(frame, columns, mukey, {}, groups == "")
    mukey = None if options.soil_field else mukey
    if mukey is None:
        raise InputError(
            f"{options.soils.label()}: no soil group field "
            f"({', '.join(candidates)}); fields are: {', '.join(columns) or 'none'}"
            + ("" if options.soil_field else "; name it with --soil-field")
        )
    table = group_table(options.soils, options.soil_table)
    keys = frame[mukey].astype("string").str.strip().str.replace(r"\.0$", "", regex=True)
    looked_up = keys.map(table.group_of)
    missing = sorted(set(keys[looked_up.isna()].dropna()))
    if missing:
        measured.log.warn(
            f"{options.soils.label()}: {len(missing)} MUKEY value(s) not in "
            f"{table.origin} ({', '.join(missing[:5])}): read as no hydrologic group"
        )
    measured.log.warn(
        f"{options.soils.label()}: hydrologic soil groups from {table.origin}, joined on {mukey}"
    )
    joined = frame.assign(_hsg=looked_up.fillna("").to_numpy())
    groups = _soil_groups(joined, "_hsg", options)
    return groups, _unit_words(frame, columns, mukey, table.name_of, groups == "")


def _unit_words(
    frame: pd.DataFrame,
    columns: list[str],
    mukey: str | None,
    name_of: dict[str, str],
    wanted: np.ndarray,
) -> np.ndarray:
    """How a report names the map unit of each ``wanted`` polygon (those without a group;
    '' for the rest): "Dumps (MUKEY 289517)", by the map unit name of the polygon or the
    tables and its key, else its symbol; never a feature number, which differs between a
    whole run and its windows."""
    words = np.full(len(frame), "", dtype=object)
    if not wanted.any():
        return words
    picked = frame[wanted]
    keys = (
        picked[mukey].astype("string").str.strip().str.replace(r"\.0$", "", regex=True)
        if mukey
        else pd.Series(pd.NA, index=picked.index, dtype="string")
    )
    name_field = find_field(columns, ["muname"])
    names = (
        picked[name_field].astype("string").str.strip()
        if name_field
        else keys.map(name_of).astype("string")
    )
    symbol_field = find_field(columns, ["musym"])
    symbols = (
        picked[symbol_field].astype("string").str.strip().tolist()
        if symbol_field
        else [None] * len(picked)
    )
    rows = zip(keys.tolist(), names.tolist(), symbols, strict=True)
    words[wanted] = [_one_unit(key, name, symbol) for key, name, symbol in rows]
    return words


def _one_unit(key: object, name: object, symbol: object) -> str:
    key = None if pd.isna(key) or key == "" else key
    name = None if pd.isna(name) or name == "" else name
    if name and key:
        return f"{name} (MUKEY {key})"
    if name or key:
        return str(name or f"MUKEY {key}")
    return f"map unit {symbol}" if symbol and not pd.isna(symbol) else "an unnamed map unit"


def _soil_groups(frame: pd.DataFrame, field_name: str, options: RunoffOptions) -> np.ndarray:
    """The normalised group of each soil polygon; '' where the survey gives none."""
    raw = frame[field_name].astype("string").fillna("").str.strip().str.upper()
    for value in sorted(set(raw) - {""}):
        try:
            hsg_from_value(value, options.settings.dual_hsg)
        except InputError:
            ids = frame["_fid"] if "_fid" in frame.columns else frame.index.to_series()
            feature = ids[(raw == value).to_numpy()].iloc[0]
            raise InputError(
                f"{options.soils.label() if options.soils else 'soils'}: field '{field_name}' "
                f"has '{value}' (feature {feature}), not a hydrologic soil group "
                "(A, B, C, D, A/D, B/D or C/D)"
            ) from None
    return raw.to_numpy(dtype=object)
