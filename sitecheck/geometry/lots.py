"""Split drawn features (disturbance, impervious cover) by the lots they fall in.

A feature crossing a lot line is cut into one piece per lot. The part of a
feature outside every lot (a curb cut in the street) belongs to one lot: the one
the feature names in its parcel-id field, else the lot holding most of it, else
the nearest lot.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import shapely

from sitecheck.geometry.overlay import intersect_pairs, polygonal


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
        True for a part outside every lot, reported on the feature's own lot.
    """

    geoms: np.ndarray
    lot: np.ndarray
    feature: np.ndarray
    outside: np.ndarray

    def subset(self, mask: np.ndarray) -> LotPieces:
        return LotPieces(self.geoms[mask], self.lot[mask], self.feature[mask], self.outside[mask])


def split_by_lot(
    features: np.ndarray,
    lots: np.ndarray,
    lot_tree: shapely.STRtree,
    hinted_lot: np.ndarray | None = None,
    keep_outside: bool = True,
) -> tuple[LotPieces, np.ndarray]:
    """Cut features by lot lines.

    Parameters
    ----------
    features : ndarray of shapely polygons
    lots : ndarray of shapely polygons, prepared
    lot_tree : shapely.STRtree
        Index over ``lots``.
    hinted_lot : ndarray of int, optional
        Lot each feature names itself (its parcel-id field), -1 where it names
        none or an unknown lot.
    keep_outside : bool
        Also return the parts outside every lot (disturbance does; impervious
        cover in the street is the public's, not the lot's).

    Returns
    -------
    pieces : LotPieces
    owner : ndarray of int
        The lot each feature belongs to (-1 for a feature far from every lot,
        which cannot happen while any lot exists).
    """
    n_features = len(features)
    feature_idx, lot_idx = lot_tree.query(features, predicate="intersects")
    inside = intersect_pairs(features[feature_idx], lots[lot_idx])
    inside_area = shapely.area(inside)
    keep = inside_area > 0
    feature_idx, lot_idx, inside, inside_area = (
        feature_idx[keep],
        lot_idx[keep],
        inside[keep],
        inside_area[keep],
    )

    owner = _owner_lots(
        n_features, feature_idx, lot_idx, inside_area, hinted_lot, features, lot_tree
    )

    geoms = [inside]
    lot_of = [lot_idx]
    feature_of = [feature_idx]
    outside_of = [np.zeros(len(inside), dtype=bool)]
    if keep_outside:
        outside_geoms, outside_features = _outside_parts(
            features, lots, feature_idx, lot_idx, inside_area
        )
        geoms.append(outside_geoms)
        lot_of.append(owner[outside_features])
        feature_of.append(outside_features)
        outside_of.append(np.ones(len(outside_geoms), dtype=bool))
    pieces = LotPieces(
        np.concatenate(geoms) if geoms else np.empty(0, dtype=object),
        np.concatenate(lot_of).astype(np.int64),
        np.concatenate(feature_of).astype(np.int64),
        np.concatenate(outside_of),
    )
    return pieces, owner


def _owner_lots(
    n_features: int,
    feature_idx: np.ndarray,
    lot_idx: np.ndarray,
    inside_area: np.ndarray,
    hinted_lot: np.ndarray | None,
    features: np.ndarray,
    lot_tree: shapely.STRtree,
) -> np.ndarray:
    """Lot of each feature: its hint, else the lot holding most of it, else the nearest."""
    owner = np.full(n_features, -1, dtype=np.int64)
    if len(feature_idx):
        # Largest piece last, so assignment keeps it.
        order = np.lexsort((inside_area, feature_idx))
        owner[feature_idx[order]] = lot_idx[order]
    if hinted_lot is not None:
        owner = np.where(hinted_lot >= 0, hinted_lot, owner)
    orphans = np.flatnonzero(owner < 0)
    if len(orphans) and len(lot_tree.geometries):
        nearest = lot_tree.query_nearest(
            features[orphans], return_distance=False, all_matches=False
        )
        owner[orphans[nearest[0]]] = nearest[1]
    return owner


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
