"""Split drawn features (disturbance, impervious cover) by the lots they fall in.

A feature crossing a lot line is cut into one piece per lot. The part of a
feature outside every lot (a curb cut in the street) belongs to one lot: the one
the feature names in its parcel-id field, else the lot holding most of it. A
feature that touches no lot and names none belongs to no lot: it is reported as
unassigned, never charged to the nearest lot.

Two pitfalls of real parcel layers are handled here, and reported so the caller
can name them: lots whose footprints overlap (stacked condominium records, a
village and a town extract of one lot) would each count the work in the
overlap, so the overlap is counted once, on the lot the feature names or else
the first in the layer; and a sliver of a feature over a lot line (from
reprojection or a drawn edge) smaller than ``sliver_area`` is counted on the
feature's own lot instead of listing the neighbour with no work to speak of.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import shapely

from sitecheck.geometry.overlay import intersect_pairs, polygonal
from sitecheck.geometry.parallel import map_query


@dataclass
class LotPieces:
    """Pieces of features, each inside one lot or outside every lot.

    Attributes
    ----------
    geoms : ndarray of shapely geometries
    lot : ndarray of int
        The lot each piece is reported on.
    feature : ndarray of int
        Row of the source feature.
    outside : ndarray of bool
        True for a part outside every lot (in the street), reported on the
        feature's own lot.
    """

    geoms: np.ndarray
    lot: np.ndarray
    feature: np.ndarray
    outside: np.ndarray

    def subset(self, mask: np.ndarray) -> LotPieces:
        return LotPieces(self.geoms[mask], self.lot[mask], self.feature[mask], self.outside[mask])


@dataclass
class LotSplit:
    """Features split by lot, and what the split had to decide.

    Attributes
    ----------
    pieces : LotPieces
    owner : ndarray of int
        The lot each feature belongs to; -1 for a feature that touches no lot
        and names none.
    unassigned : ndarray of int
        Rows of the features that belong to no lot.
    meeting : LotMeetings
        Each feature's area on each lot it meets, before overlaps and slivers are
        counted once.
    shared : list of tuple
        ``(lot kept, lot overlapping it, area)`` for each pair of overlapping
        lots a feature's work falls in; the area (square CRS units) is counted
        on the first lot only.
    slivers : list of tuple
        ``(feature, lot, area)`` for each sliver moved to the feature's own lot.
    """

    pieces: LotPieces
    owner: np.ndarray
    unassigned: np.ndarray
    meeting: LotMeetings
    shared: list[tuple[int, int, float]] = field(default_factory=list)
    slivers: list[tuple[int, int, float]] = field(default_factory=list)


@dataclass(frozen=True)
class LotMeetings:
    """Each feature's ground on each lot it meets (pairs with area only), aligned arrays.

    Attributes
    ----------
    feature : ndarray of int
        The feature's row.
    lot : ndarray of int
        The lot's row.
    area : ndarray of float
        The area of the feature inside the lot, in square CRS units.
    """

    feature: np.ndarray
    lot: np.ndarray
    area: np.ndarray


def _has_room(
    inside: np.ndarray,
    lot_idx: np.ndarray,
    owner_of_piece: np.ndarray,
    moved: np.ndarray,
    lots: np.ndarray,
) -> np.ndarray:
    """Which slivers their feature's lot can take without its work exceeding its area.

    A lot the work already covers whole (a drawing overrunning every line of it)
    has no room: its slivers stay counted on the lots they lie in.
    """
    room = np.ones(len(inside), dtype=bool)
    for lot in np.unique(owner_of_piece[moved]):
        taking = np.flatnonzero(moved & (owner_of_piece == lot))
        own = np.flatnonzero((lot_idx == lot) & ~moved)
        total = shapely.area(shapely.union_all(inside[np.concatenate([own, taking])]))
        if total > shapely.area(lots[lot]) * (1 + 1e-9):
            room[taking] = False
    return room


def _leave_covered_ground(
    inside: np.ndarray,
    feature_idx: np.ndarray,
    lot_idx: np.ndarray,
    moved: np.ndarray,
    destination: np.ndarray,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Move only the ground of a sliver that no other lot already counts.

    Where other work stays on the lot a sliver lies in, that ground is counted
    there: the covered part stays, as a piece of its own feature, on that lot.
    Where an earlier sliver took the same ground to another lot, it is counted
    there and not again. Slivers going to the same lot dissolve there.
    """
    if not moved.any():
        return inside, feature_idx, lot_idx, moved
    inside = inside.copy()
    extra_geoms, extra_features, extra_lots = [], [], []
    for lot in np.unique(lot_idx[moved]):
        staying = shapely.union_all(inside[(lot_idx == lot) & ~moved])
        taken: dict[int, object] = {}  # ground moved off this lot, by the lot it went to
        for piece in np.flatnonzero(moved & (lot_idx == lot)):
            sliver, going_to = inside[piece], int(destination[piece])
            covered = polygonal(np.array([shapely.intersection(sliver, staying)]))[0]
            elsewhere = shapely.union_all([g for d, g in taken.items() if d != going_to])
            rest = shapely.difference(shapely.difference(sliver, staying), elsewhere)
            inside[piece] = polygonal(np.array([rest]))[0]
            if shapely.area(covered) > 0:
                extra_geoms.append(covered)
                extra_features.append(feature_idx[piece])
                extra_lots.append(lot)
            taken[going_to] = shapely.union(taken.get(going_to, shapely.Polygon()), sliver)
    if not extra_geoms:
        return inside, feature_idx, lot_idx, moved
    count = len(extra_geoms)
    return (
        np.concatenate([inside, np.array(extra_geoms, dtype=object)]),
        np.concatenate([feature_idx, np.array(extra_features, dtype=feature_idx.dtype)]),
        np.concatenate([lot_idx, np.array(extra_lots, dtype=lot_idx.dtype)]),
        np.concatenate([moved, np.zeros(count, dtype=bool)]),
    )


def split_by_lot(
    features: np.ndarray,
    lots: np.ndarray,
    lot_tree: shapely.STRtree,
    hinted_lot: np.ndarray | None = None,
    keep_outside: bool = True,
    sliver_area: float = 0.0,
) -> LotSplit:
    """Cut features by lot lines.

    Parameters
    ----------
    features : ndarray of shapely polygons
    lots : ndarray of shapely polygons
    lot_tree : shapely.STRtree
        Index over ``lots``.
    hinted_lot : ndarray of int, optional
        Lot each feature names itself (its parcel-id field), -1 where it names
        none or an unknown lot.
    keep_outside : bool
        Also return the parts outside every lot (disturbance does; impervious
        cover in the street is the public's, not the lot's).
    sliver_area : float
        Pieces smaller than this (square CRS units) of a feature that lies
        mostly in another lot are counted on that lot, where it has room.

    Returns
    -------
    LotSplit
    """
    n_features = len(features)
    feature_idx, lot_idx = map_query(lot_tree, features, "intersects")
    inside = intersect_pairs(features[feature_idx], lots[lot_idx])
    inside, inside_area, feature_idx, lot_idx = _with_area(inside, feature_idx, lot_idx)
    meeting = LotMeetings(feature_idx, lot_idx, inside_area)

    owner = _owner_lots(n_features, feature_idx, lot_idx, inside_area, hinted_lot)
    inside, shared = _count_overlaps_once(inside, feature_idx, lot_idx, owner, lots)
    inside, inside_area, feature_idx, lot_idx = _with_area(inside, feature_idx, lot_idx)

    moved = (
        (inside_area < sliver_area) & (owner[feature_idx] >= 0) & (owner[feature_idx] != lot_idx)
    )
    moved &= _has_room(inside, lot_idx, owner[feature_idx], moved, lots)
    inside, feature_idx, lot_idx, moved = _leave_covered_ground(
        inside, feature_idx, lot_idx, moved, owner[feature_idx]
    )
    # a sliver whose ground all stays counted where it lies is left empty: dropped here
    inside, inside_area, feature_idx, lot_idx, moved = _with_area(
        inside, feature_idx, lot_idx, moved
    )
    reported_lot = lot_idx.copy()
    slivers = [
        (int(f), int(lot), float(a))
        for f, lot, a in zip(feature_idx[moved], lot_idx[moved], inside_area[moved], strict=True)
    ]
    reported_lot[moved] = owner[feature_idx[moved]]

    geoms = [inside]
    lot_of = [reported_lot]
    feature_of = [feature_idx]
    # A moved sliver is an artefact of the lot line: inside the lot it is counted on.
    outside_of = [np.zeros(len(inside), dtype=bool)]
    if keep_outside:
        outside_geoms, outside_features = _outside_parts(
            features, lots, feature_idx, lot_idx, inside_area
        )
        owned = owner[outside_features] >= 0
        geoms.append(outside_geoms[owned])
        lot_of.append(owner[outside_features[owned]])
        feature_of.append(outside_features[owned])
        outside_of.append(np.ones(int(owned.sum()), dtype=bool))
    pieces = LotPieces(
        np.concatenate(geoms),
        np.concatenate(lot_of).astype(np.int64),
        np.concatenate(feature_of).astype(np.int64),
        np.concatenate(outside_of).astype(bool),
    )
    unassigned = np.flatnonzero(owner < 0)
    return LotSplit(pieces, owner, unassigned, meeting, shared, slivers)


def _with_area(pieces: np.ndarray, *aligned: np.ndarray) -> tuple[np.ndarray, ...]:
    """The pieces that have area, their areas, and the arrays aligned with them, kept alike."""
    areas = shapely.area(pieces)
    keep = areas > 0
    return (pieces[keep], areas[keep], *(array[keep] for array in aligned))


def _owner_lots(
    n_features: int,
    feature_idx: np.ndarray,
    lot_idx: np.ndarray,
    inside_area: np.ndarray,
    hinted_lot: np.ndarray | None,
) -> np.ndarray:
    """Lot of each feature: its hint, else the lot holding most of it, else -1."""
    owner = np.full(n_features, -1, dtype=np.int64)
    if len(feature_idx):
        # Largest piece last, and of equal pieces the first lot in the layer,
        # so assignment keeps it.
        order = np.lexsort((-lot_idx, inside_area, feature_idx))
        owner[feature_idx[order]] = lot_idx[order]
    if hinted_lot is not None:
        owner = np.where(hinted_lot >= 0, hinted_lot, owner)
    return owner


def _count_overlaps_once(
    inside: np.ndarray,
    feature_idx: np.ndarray,
    lot_idx: np.ndarray,
    owner: np.ndarray,
    lots: np.ndarray,
) -> tuple[np.ndarray, list[tuple[int, int, float]]]:
    """Remove from each piece the part already counted on an overlapping lot.

    Pieces of one feature in lots whose interiors meet overlap. The feature's
    own lot keeps the overlap, else the lot first in the layer.
    """
    shared: list[tuple[int, int, float]] = []
    if len(feature_idx) < 2:
        return inside, shared
    by_feature = np.argsort(feature_idx, kind="stable")
    sorted_features = feature_idx[by_feature]
    starts = np.flatnonzero(np.r_[True, sorted_features[1:] != sorted_features[:-1]])
    ends = np.r_[starts[1:], len(sorted_features)]
    several = np.flatnonzero(ends - starts > 1)
    if len(several) == 0:
        return inside, shared
    inside = inside.copy()
    for start, end in zip(starts[several], ends[several], strict=True):
        rows = by_feature[start:end]
        own = owner[feature_idx[rows[0]]]
        # The owner first, then the lots in layer order.
        rows = rows[np.lexsort((lot_idx[rows], lot_idx[rows] != own))]
        for k in range(1, len(rows)):
            row = rows[k]
            earlier = rows[:k]
            meets = shapely.relate_pattern(lots[lot_idx[earlier]], lots[lot_idx[row]], "2********")
            if not meets.any():
                continue
            counted = shapely.union_all(inside[earlier[meets]])
            overlap = shapely.area(shapely.intersection(inside[row], counted))
            if overlap <= 0:
                continue
            inside[row] = polygonal(np.array([shapely.difference(inside[row], counted)]))[0]
            kept_lot = int(lot_idx[earlier[meets][0]])
            shared.append((kept_lot, int(lot_idx[row]), float(overlap)))
    return inside, shared


def _outside_parts(
    features: np.ndarray,
    lots: np.ndarray,
    feature_idx: np.ndarray,
    lot_idx: np.ndarray,
    inside_area: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """The part of each feature outside every lot, for features not wholly inside lots."""
    n_features = len(features)
    covered = np.bincount(feature_idx, weights=inside_area, minlength=n_features)
    total = shapely.area(features)
    # Relative tolerance: pieces' areas sum to the feature's up to rounding.
    partly_outside = np.flatnonzero(covered < total * (1 - 1e-9) - 1e-9)
    if len(partly_outside) == 0:
        return np.empty(0, dtype=object), np.empty(0, dtype=np.int64)
    order = np.argsort(feature_idx, kind="stable")
    sorted_features = feature_idx[order]
    starts = np.searchsorted(sorted_features, partly_outside, side="left")
    ends = np.searchsorted(sorted_features, partly_outside, side="right")
    outside = np.empty(len(partly_outside), dtype=object)
    for k, (i, start, end) in enumerate(zip(partly_outside, starts, ends, strict=True)):
        touching = lots[lot_idx[order[start:end]]]
        if len(touching) == 0:
            outside[k] = features[i]
        else:
            outside[k] = shapely.difference(features[i], shapely.union_all(touching))
    outside = polygonal(outside)
    keep = shapely.area(outside) > 0
    return outside[keep], partly_outside[keep]
