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
    groups = _polygon_groups(frame, columns, options, measured)
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
    partly = int((no_group * measured.working.sqft_per_unit2 > UNMAPPED_TOLERANCE_SQFT).sum())
    if partly:
        filler = (
            f"taken as group {options.default_hsg} (--default-hsg)"
            if options.default_hsg
            else "left out, the soil shares coming from the rest (give --default-hsg to choose)"
        )
        # No count: a run split in windows must give the same words.
        measured.log.warn(
            f"{options.soils.label()}: lots partly on map units with no hydrologic soil "
            f"group (Urban land, water, pits): not unmapped, but without a group; that "
            f"part {filler}"
        )
    if options.default_hsg:
        key = options.default_hsg.strip().upper()
        by_group[key] = by_group.get(key, np.zeros(len(rows))) + unmapped + no_group
    return by_group, unmapped


def _polygon_groups(
    frame: pd.DataFrame, columns: list[str], options: RunoffOptions, measured: MeasureResult
) -> np.ndarray:
    """Each soil polygon's group: its own field, else its map unit's in the SSURGO tables."""
    assert options.soils is not None
    candidates = [options.soil_field] if options.soil_field else list(SOIL_FIELD_CANDIDATES)
    found = find_field(columns, candidates)
    if found is not None:
        return _soil_groups(frame, found, options)
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
    return _soil_groups(joined, "_hsg", options)


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
