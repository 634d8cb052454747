"""Each screened lot's area on each hydrologic soil group, from a soils layer.

The group comes from a field on the polygons, else from the map unit's MUKEY
joined to the SSURGO tables (``sitecheck.io.soil_groups``). Map units the survey
gives no group (Urban land, water, pits) are not unmapped ground: they take
``--default-hsg`` when given, else the lot's soil shares come from the rest.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import shapely

from sitecheck.errors import InputError
from sitecheck.geometry.overlay import intersect_pairs
from sitecheck.io.extent import Extent
from sitecheck.io.parcels import find_field
from sitecheck.io.readers import POLYGONAL
from sitecheck.io.soil_groups import group_table, mukey_field
from sitecheck.measure.inputs import MeasureResult
from sitecheck.runoff.soils import hsg_from_value
from sitecheck.schema.fields import SOIL_FIELD_CANDIDATES
from sitecheck.screening.runoff_result import UNMAPPED_TOLERANCE_SQFT, RunoffOptions


def soil_areas_by_group(
    measured: MeasureResult, rows: np.ndarray, options: RunoffOptions
) -> tuple[dict[str, np.ndarray], np.ndarray]:
    """Each screened lot's area (sq ft) in each soil group value, and its unmapped area."""
    if options.soils is None:
        return {}, np.zeros(len(rows))
    lots = measured.parcels.geometry.to_numpy()[rows]
    # Soils under the screened lots only: a county's map units are not read whole.
    within = Extent.around(lots, 0.0, measured.working.crs)
    frame = measured.log.read(
        options.soils, POLYGONAL, target_crs=measured.working.crs, within=within
    )
    columns = [c for c in frame.columns if c not in (frame.geometry.name, "_fid")]
    groups, unit_names = _polygon_groups(frame, columns, options, measured)
    soil_geoms = frame.geometry.to_numpy()
    lot_index, soil_index = shapely.STRtree(soil_geoms).query(lots, predicate="intersects")
    areas = shapely.area(intersect_pairs(lots[lot_index], soil_geoms[soil_index]))
    by_group: dict[str, np.ndarray] = {}
    for group in sorted(set(groups[soil_index])):
        chosen = groups[soil_index] == group
        by_group[group] = np.bincount(lot_index[chosen], weights=areas[chosen], minlength=len(rows))
    no_group = by_group.pop("", np.zeros(len(rows)))
    mapped = sum(by_group.values()) if by_group else np.zeros(len(rows))
    unmapped = np.maximum(shapely.area(lots) - mapped - no_group, 0.0)
    _say_where_no_group_is(
        measured,
        options,
        rows,
        no_group,
        np.asarray(mapped),
        lot_index,
        areas,
        unit_names[soil_index],
    )
    if options.default_hsg:
        key = options.default_hsg.strip().upper()
        by_group[key] = by_group.get(key, np.zeros(len(rows))) + unmapped + no_group
    return by_group, unmapped


def _say_where_no_group_is(
    measured: MeasureResult,
    options: RunoffOptions,
    rows: np.ndarray,
    no_group: np.ndarray,
    mapped: np.ndarray,
    lot_index: np.ndarray,
    areas: np.ndarray,
    unit_of_piece: np.ndarray,
) -> None:
    """Name each map unit without a group under the lots, and each lot left with no group
    at all (no curve number). One line a unit and a lot, so a run split in windows gives
    the same lines as a whole one."""
    assert options.soils is not None
    label = options.soils.label()
    to_sqft = measured.working.sqft_per_unit2
    filler = (
        f"taken as group {options.default_hsg} (--default-hsg)"
        if options.default_hsg
        else "left out, the lot's soil shares coming from the rest (give --default-hsg to choose)"
    )
    on_no_group = (unit_of_piece != "") & (areas * to_sqft > UNMAPPED_TOLERANCE_SQFT)
    for unit in sorted(set(unit_of_piece[on_no_group])):
        measured.log.warn(
            f"{label}: map unit {unit} has no hydrologic soil group in the survey: the lots "
            f"on it are not unmapped there; that part {filler}"
        )
    if options.default_hsg:
        return
    ids = measured.parcels[measured.id_field].to_numpy()[rows]
    bare = (no_group * to_sqft > UNMAPPED_TOLERANCE_SQFT) & (mapped * to_sqft <= 0.0)
    for position in np.flatnonzero(bare):
        units = sorted(set(unit_of_piece[(lot_index == position) & on_no_group]))
        measured.log.warn(
            f"{label}: lot {ids[position]} lies only on map units without a hydrologic soil "
            f"group ({', '.join(units)}): no curve number; give --default-hsg to screen it"
        )


def _unit_names(frame: pd.DataFrame, columns: list[str], names: dict[str, str]) -> list[str]:
    """How a warning names each polygon's map unit: 'Dumps' (MUKEY 289700), else its MUKEY,
    else its feature id."""
    mukey, name_field = mukey_field(columns), find_field(columns, ["muname"])
    fids = frame["_fid"] if "_fid" in frame.columns else frame.index.to_series()

    def text(value: object) -> str:
        return "" if value is None or pd.isna(value) else str(value).strip()

    keys = [text(v).removesuffix(".0") for v in frame[mukey]] if mukey else [""] * len(frame)
    own = [text(v) for v in frame[name_field]] if name_field else [""] * len(frame)
    out = []
    for key, own_name, fid in zip(keys, own, fids, strict=True):
        where = f"MUKEY {key}" if key else f"feature {fid}"
        name = names.get(key, "") or own_name
        out.append(f"'{name}' ({where})" if name else where)
    return out


def _polygon_groups(
    frame: pd.DataFrame, columns: list[str], options: RunoffOptions, measured: MeasureResult
) -> tuple[np.ndarray, np.ndarray]:
    """Each soil polygon's group (its own field, else its map unit's in the SSURGO tables)
    and, where it has none, how a warning names its map unit ('' where it has one)."""
    groups, names = _groups_and_table_names(frame, columns, options, measured)
    units = np.array(_unit_names(frame, columns, names), dtype=object)
    return groups, np.where(groups == "", units, "").astype(object)


def _groups_and_table_names(
    frame: pd.DataFrame, columns: list[str], options: RunoffOptions, measured: MeasureResult
) -> tuple[np.ndarray, dict[str, str]]:
    assert options.soils is not None
    candidates = [options.soil_field] if options.soil_field else list(SOIL_FIELD_CANDIDATES)
    found = find_field(columns, candidates)
    if found is not None:
        return _soil_groups(frame, found, options), {}
    mukey = None if options.soil_field else mukey_field(columns)
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
    return _soil_groups(joined, "_hsg", options), table.name_of


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
