"""Parcel ids as published: empty ids (roads, water), one lot on several rows
(multipart parcels), and ids that are not unique in a layer (village and town
extracts together)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
import pandas as pd

from sitecheck.errors import InputError
from sitecheck.io.clean import named_features
from sitecheck.io.readers import LayerSource

UNIQUE_ID_CANDIDATES: tuple[tuple[str, ...], ...] = (
    ("SWIS_SBL_ID",),  # NYS statewide tax parcels: SWIS code and SBL in one field
    ("SWIS", "PRINT_KEY"),
    ("SWIS", "SBL"),
    ("PARCEL_ID",),
    ("GIS_ID",),
)
"""Fields, alone or joined, that tell lots apart across municipalities."""

JOINED_ID_SEPARATOR = "/"
"""Between the values of an id given as ``FIELD+FIELD`` (``SWIS+PRINT_KEY``)."""


@dataclass
class IdCheck:
    """What the parcel ids allow.

    Attributes
    ----------
    keep : ndarray of bool
        Rows with an id; rows without one are not lots.
    merged : list of str
        Ids on several rows that are one lot (same owner and address).
    warnings : list of str
    """

    keep: np.ndarray
    merged: list[str]
    warnings: list[str]


def check_ids(
    ids: pd.Series,
    fids: pd.Series,
    field: str,
    source: LayerSource,
    facts: pd.DataFrame | None = None,
    all_fields: pd.DataFrame | None = None,
) -> IdCheck:
    """Decide what the ids of a parcel layer mean, or refuse them.

    Parameters
    ----------
    ids : Series of str
        One per row.
    fids : Series of int
        The rows' feature ids, for messages.
    field : str
        The id field, for messages.
    source : LayerSource
    facts : DataFrame, optional
        The owner and address of each row; rows of one id agreeing in all of
        them are one lot. Without facts every repeat is refused.
    all_fields : DataFrame, optional
        Every attribute field, to suggest a unique id field in the refusal.

    Raises
    ------
    InputError
        Every row without an id, or an id on rows of different owners or addresses.
    """
    ids = ids.reset_index(drop=True)
    fids = fids.reset_index(drop=True)
    empty = (ids.isna() | (ids.astype("string").str.strip() == "")).to_numpy()
    warnings: list[str] = []
    if empty.all():
        raise InputError(
            f"{source.label()}: id field '{field}' is empty for every feature "
            f"({named_features(fids.to_numpy())})"
        )
    if empty.any():
        warnings.append(
            f"{source.label()}: {int(empty.sum())} feature(s) have no id in field '{field}' "
            f"({named_features(fids[empty].to_numpy())}): not lots (roads, water) and left out; "
            "work on them is reported outside any lot"
        )
    kept = ids[~empty]
    repeated = kept[kept.duplicated(keep=False)]
    if repeated.empty:
        return IdCheck(~empty, [], warnings)
    conflicting = _conflicting(repeated, facts)
    if conflicting:
        why = (
            "no owner or address field tells whether the rows are one lot"
            if facts is None or facts.shape[1] == 0
            else "on rows of different owners or addresses"
        )
        raise InputError(
            f"{source.label()}: duplicate parcel ids in field '{field}' ({why}): "
            f"{_listed(conflicting, ids, fids)}. " + _suggestion(all_fields, ~empty, field)
        )
    merged = sorted(set(repeated.astype(str)))
    warnings.append(
        f"{source.label()}: {len(merged)} id(s) on several rows with the same owner and "
        f"address, each merged into one lot (a multipart parcel stored as parts): "
        f"{_listed(merged, ids, fids)}"
    )
    return IdCheck(~empty, merged, warnings)


def _conflicting(repeated: pd.Series, facts: pd.DataFrame | None) -> list[str]:
    """The repeated ids whose rows disagree on a fact (all of them without facts)."""
    if facts is None or facts.shape[1] == 0:
        return sorted(set(repeated.astype(str)))
    normal = (
        facts.loc[repeated.index]
        .astype("string")
        .apply(lambda column: column.str.upper().str.split().str.join(" "))
        .fillna("")
    )
    distinct = normal.groupby(repeated.to_numpy()).nunique()
    return sorted(str(i) for i in distinct.index[(distinct > 1).any(axis=1)])


def _listed(values: list[str], ids: pd.Series, fids: pd.Series, limit: int = 10) -> str:
    shown = []
    for value in values[:limit]:
        rows = ids.index[ids == value]
        shown.append(f"{value} ({named_features(fids[rows].to_numpy(), 4)})")
    more = f" and {len(values) - limit} more" if len(values) > limit else ""
    return ", ".join(shown) + more


def _suggestion(all_fields: pd.DataFrame | None, rows: np.ndarray, field: str) -> str:
    """Name the id fields that would be unique in this layer."""
    if all_fields is None:
        return "Give --id-field a field that is unique in the layer."
    lowered = {str(c).lower(): str(c) for c in all_fields.columns}
    unique = []
    for names in UNIQUE_ID_CANDIDATES:
        present = [lowered.get(name.lower()) for name in names]
        if None in present or present == [field]:
            continue
        values = joined_ids(all_fields[rows], [str(p) for p in present])
        if not values.duplicated().any() and not (values == "").any():
            unique.append("+".join(str(p) for p in present))
    if unique:
        return f"Unique here: --id-field {' or --id-field '.join(unique)}."
    return "No field of the layer is unique; give --id-field a field that is."


def joined_ids(frame: pd.DataFrame, fields: list[str]) -> pd.Series:
    """The values of one or more fields as text ids, joined by ``/``."""
    parts = [text_ids(frame[name]).fillna("") for name in fields]
    joined = parts[0]
    for part in parts[1:]:
        joined = joined + JOINED_ID_SEPARATOR + part
    return joined.reset_index(drop=True)


def text_ids(values: pd.Series) -> pd.Series:
    """Ids as text; whole-number floats lose their '.0' (1234.0 -> '1234')."""
    if pd.api.types.is_float_dtype(values):
        whole = values.dropna()
        if (whole == np.floor(whole)).all():
            return values.astype("Int64").astype("string")
    return values.astype("string").str.strip()


def rows_of(ids: pd.Index, wanted: Iterable[str]) -> dict[str, int]:
    """The row of each ``wanted`` id among the unique ``ids`` (-1 where absent): only
    theirs, where a dict of every id of a county (250,010) took 0.26 s to find one
    project site's lots. The index finds them by a table it makes once and keeps."""
    asked = list(dict.fromkeys(wanted))
    return dict(zip(asked, ids.get_indexer(asked).tolist(), strict=True))
