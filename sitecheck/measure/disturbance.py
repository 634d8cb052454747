"""The limits of disturbance per lot: split by lot line, street parts, phases, project fields."""

from __future__ import annotations

from dataclasses import dataclass

import geopandas as gpd
import numpy as np
import pandas as pd
import shapely

from sitecheck.errors import InputError
from sitecheck.geometry.lots import LotMeetings, split_by_lot
from sitecheck.geometry.overlay import (
    union_by_group,
)
from sitecheck.io.crs import WorkingCRS
from sitecheck.io.parcel_ids import rows_of
from sitecheck.io.parcels import Parcels, attribute_columns, find_field, named_parcels
from sitecheck.io.readers import POLYGONAL, LayerReader, LayerSource
from sitecheck.measure.project_facts import lot_attributes
from sitecheck.measure.split_notes import SLIVER_SQFT, note_split


@dataclass
class Disturbance:
    geoms: np.ndarray  # per lot, in-lot and street parts together
    outside: np.ndarray  # per lot, street parts only
    max_at_one_time: np.ndarray  # per lot, square feet
    attributes: dict[str, np.ndarray]  # per lot, project fields of its features (project_facts)
    owns_feature: (
        np.ndarray
    )  # per lot: a disturbance feature belongs to it (not only spills onto it)
    frame: gpd.GeoDataFrame  # the layer as read: each feature with its fields
    meeting: LotMeetings  # each feature's area on each lot it meets


def measure_disturbance(
    source: LayerSource,
    parcels: Parcels,
    lot_tree: shapely.STRtree,
    reader: LayerReader,
    working: WorkingCRS,
) -> Disturbance:
    frame = reader.read(source, POLYGONAL, target_crs=working.crs)
    n = len(parcels.geoms)
    features = frame.geometry.to_numpy()
    hints = _lot_hints(frame, parcels, source, reader)
    sqft = working.sqft_per_unit2
    split = split_by_lot(
        features, parcels.geoms, lot_tree, hints, keep_outside=True, sliver_area=SLIVER_SQFT / sqft
    )
    note_split(split, frame, parcels, source, reader)
    pieces, owner = split.pieces, split.owner
    geoms = union_by_group(pieces.geoms, pieces.lot, n)
    outside = union_by_group(pieces.geoms[pieces.outside], pieces.lot[pieces.outside], n)
    phases = _phases(frame, source)
    if phases is None:
        max_at_one_time = shapely.area(geoms) * sqft
    else:
        max_at_one_time = _largest_phase(pieces.geoms, pieces.lot, phases[pieces.feature], n) * sqft
    owns_feature = np.zeros(n, dtype=bool)
    owns_feature[owner[owner >= 0]] = True
    feature_sqft = shapely.area(features) * sqft
    attributes = lot_attributes(frame, owner, pieces, feature_sqft, n)
    return Disturbance(
        geoms, outside, max_at_one_time, attributes, owns_feature, frame, split.meeting
    )


def _lot_hints(
    frame: gpd.GeoDataFrame, parcels: Parcels, source: LayerSource, reader: LayerReader
) -> np.ndarray | None:
    """Lot index each feature names in its parcel-id field, -1 where none."""
    values = named_parcels(frame, parcels.id_field)
    if values is None:
        return None
    names = values.to_numpy(dtype=object, na_value=None)
    # The ids are unique (repeats are merged or refused as the parcels are read).
    row_of = rows_of(pd.Index(parcels.ids.astype(str)), names)
    hints = np.array([row_of[name] for name in names], dtype=np.int64)
    unknown = np.array([name not in (None, "") for name in names], dtype=bool) & (hints < 0)
    if unknown.any():
        shown = ", ".join(sorted({str(name) for name in names[unknown]})[:10])
        reader.warn(
            f"{source.label()}: {int(unknown.sum())} feature(s) name parcels "
            "not in the parcel layer "
            f"({shown}); each goes to the lot holding most of it, or is unassigned "
            "work if it touches no lot"
        )
    return hints


MAX_PHASE = 10_000
"""Phases are counted; a larger number is a typo or a code, not a phase of one project."""


def _phases(frame: gpd.GeoDataFrame, source: LayerSource) -> np.ndarray | None:
    """The integer phase of each feature, -1 where empty; None without a phase field."""
    field_name = find_field(attribute_columns(frame), ["phase"])
    if field_name is None:
        return None
    raw = frame[field_name]
    # As arrays from here: a few features' phases took a dozen table operations (1.5 ms of
    # a panel's answer on a site).
    numbers = pd.to_numeric(raw, errors="coerce").to_numpy(dtype=float, na_value=np.nan)
    text = raw.astype("string").str.strip().to_numpy(dtype=object, na_value=None)
    given = np.array([value not in (None, "") for value in text], dtype=bool)
    with np.errstate(invalid="ignore"):
        whole = np.isfinite(numbers) & (numbers == np.floor(numbers))
        bad = given & ~(whole & (numbers >= 0) & (numbers <= MAX_PHASE))
    if bad.any():
        first = int(np.flatnonzero(bad)[0])
        raise InputError(
            f"{source.label()}: field '{field_name}' holds {raw.iloc[first]!r} "
            f"(FID {frame['_fid'].iloc[first]}); a phase is a whole number from 0 to "
            f"{MAX_PHASE:,}, or empty for work throughout"
        )
    if np.isnan(numbers).all():
        return None
    return np.where(np.isnan(numbers), -1, numbers).astype(np.int64)


def _largest_phase(geoms: np.ndarray, lots: np.ndarray, phases: np.ndarray, n: int) -> np.ndarray:
    """Per lot, the largest area disturbed in one phase (square CRS units).

    A feature without a phase is disturbed throughout, so it counts in every
    phase of its lot.
    """
    best = np.zeros(n)
    for phase in np.unique(phases[phases >= 0]):
        current = (phases == phase) | (phases < 0)
        area = shapely.area(union_by_group(geoms[current], lots[current], n))
        best = np.maximum(best, area)
    unphased_only = np.zeros(n, dtype=bool)
    unphased_only[np.unique(lots)] = True
    unphased_only[np.unique(lots[phases >= 0])] = False
    if unphased_only.any():
        mask = np.isin(lots, np.flatnonzero(unphased_only))
        area = shapely.area(union_by_group(geoms[mask], lots[mask], n))
        best = np.maximum(best, area)
    return best
