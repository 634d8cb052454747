"""The project facts of each lot (activity, permit, project type) from its disturbance features.

A lot reads the facts of the features it owns. Where those features say
different things (home gardening on one, construction on another), no one
value is the project's: an exemption covers the work it describes, not the
rest. The lot then holds a mix (:func:`sitecheck.schema.mixed_values.mixed_text`)
that no rule reads as a value, so the rules that need the fact need review and
say which work is which.
"""

from __future__ import annotations

import geopandas as gpd
import numpy as np
import pandas as pd
import shapely

from sitecheck.geometry.lots import LotPieces
from sitecheck.io.frames import text_array
from sitecheck.io.parcels import attribute_columns, find_field
from sitecheck.schema.fields import PROJECT_FIELDS
from sitecheck.schema.mixed_values import code_key, mixed_text

UNMIXED_FIELDS = frozenset({"project"})
"""Fields that name the work rather than describe it: the largest feature's is kept."""


def _chosen(owner: np.ndarray, pieces: LotPieces, feature_area: np.ndarray, n: int) -> np.ndarray:
    """Per lot, the feature whose name fields it reads (-1 where none).

    The largest feature the lot owns; a lot the work only spills onto (307 sq ft
    of a neighbour's project over the line) reads the feature with the largest
    piece on it, so the project's fields go with its work.
    """
    chosen = np.full(n, -1, dtype=np.int64)
    order = np.lexsort((feature_area, owner))  # largest feature last per lot
    valid = owner[order] >= 0
    chosen[owner[order][valid]] = order[valid]
    on_spill = (pieces.lot >= 0) & (chosen[np.maximum(pieces.lot, 0)] < 0)
    if on_spill.any():
        lots, features = pieces.lot[on_spill], pieces.feature[on_spill]
        by_size = np.lexsort((shapely.area(pieces.geoms[on_spill]), lots))
        chosen[lots[by_size]] = features[by_size]  # the largest piece written last wins
    return chosen


def lot_attributes(
    frame: gpd.GeoDataFrame,
    owner: np.ndarray,
    pieces: LotPieces,
    feature_sqft: np.ndarray,
    n: int,
) -> dict[str, np.ndarray]:
    """Project fields of each lot: its features' value, a mix where they differ, None where
    no feature gives one (a parcel field then fills in).

    Parameters
    ----------
    frame : GeoDataFrame
        The disturbance features.
    owner : ndarray of int
        Per feature, the lot that owns it (-1 where none).
    pieces : LotPieces
        The features split by lot.
    feature_sqft : ndarray of float
        Per feature, its area in square feet.
    n : int
        The number of lots.

    Returns
    -------
    dict of str to ndarray
        Per project field, each lot's text (object arrays): the result table's columns,
        not a table of their own (0.3 ms of each of a panel's two tables).
    """
    chosen = _chosen(owner, pieces, feature_sqft, n)
    columns = attribute_columns(frame)
    out: dict[str, np.ndarray] = {}
    has = chosen >= 0
    for name in PROJECT_FIELDS:
        field_name = find_field(columns, [name])
        column = np.full(n, None, dtype=object)
        if field_name is not None:
            # Through Arrow: half the time of pandas' astype, the same text (io.frames).
            text = text_array(frame[field_name].to_numpy(dtype=object))
            values = text.to_numpy(dtype=object, na_value=None)
            column[has] = values[chosen[has]]
            if name not in UNMIXED_FIELDS:
                _write_mixes(column, values, owner, feature_sqft)
        out[name] = column
    return out


def _write_mixes(
    column: np.ndarray, values: np.ndarray, owner: np.ndarray, feature_sqft: np.ndarray
) -> None:
    """Where the features a lot owns differ in a field, the lot's value is their mix."""
    owned = owner >= 0
    # Only a lot owning several features can mix: most own one, and a county's features
    # are not each read again.
    features_of = np.bincount(owner[owned], minlength=len(column))
    several = owned & (features_of[np.maximum(owner, 0)] > 1)
    if not several.any():
        return
    meaning = [_meaning(value) for value in values[several]]
    table = pd.DataFrame({"lot": owner[several], "value": meaning, "sqft": feature_sqft[several]})
    kinds = table.groupby("lot")["value"].nunique(dropna=False)
    mixed = table[table["lot"].isin(kinds.index[kinds.to_numpy() > 1])]
    areas = mixed.groupby(["lot", "value"], dropna=False, sort=False)["sqft"].sum()
    parts_of: dict[int, list[tuple[str | None, float]]] = {}
    for (lot, value), sqft in areas.items():
        parts_of.setdefault(int(lot), []).append((None if pd.isna(value) else str(value), sqft))
    for lot, parts in parts_of.items():
        column[lot] = mixed_text(sorted(parts, key=lambda part: -part[1]))


def _meaning(value: object) -> str | None:
    """A value as the rules compare it, whatever its case and spacing ('Construction ' and
    'construction' are one value); None where not given."""
    text = "" if value is None else str(value).strip()
    return code_key(text) if text else None
