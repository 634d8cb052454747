"""Existing and proposed impervious cover per lot, and the net change."""

from __future__ import annotations

import numpy as np
import shapely

from sitecheck.geometry.lots import split_by_lot
from sitecheck.geometry.overlay import (
    area_by_group,
)
from sitecheck.io.parcels import Parcels
from sitecheck.io.readers import POLYGONAL, LayerReader, LayerSource
from sitecheck.measure.inputs import MeasureInputs
from sitecheck.measure.split_notes import SLIVER_SQFT, note_split


def measure_impervious(
    inputs: MeasureInputs,
    parcels: Parcels,
    lot_tree: shapely.STRtree,
    reader: LayerReader,
    owns_disturbance: np.ndarray,
    lot_area_sqft: np.ndarray,
) -> tuple[dict[str, np.ndarray], np.ndarray]:
    """Existing and proposed impervious cover per lot, and the net change.

    The proposed layer is the complete post-construction cover of the project
    lots: lots a disturbance feature or a proposed feature belongs to (by its
    parcel-id field, else by where most of it lies). Other lots, including a
    neighbour that a project's disturbance only spills onto, keep their
    existing cover.

    Returns
    -------
    metrics : dict of str to ndarray
        The impervious metrics, square feet and percent of the lot.
    project_lots : ndarray of bool
        The lots whose proposed cover was read (none without a proposed layer).
    """
    n = len(parcels.geoms)
    sqft = parcels.working.sqft_per_unit2
    nulls = np.full(n, np.nan)
    existing = nulls.copy()
    if inputs.impervious_existing is not None:
        existing = _cover_by_lot(inputs.impervious_existing, parcels, lot_tree, reader)[0] * sqft
    if inputs.impervious_proposed is None:
        unknown = (
            "impervious_proposed_sqft",
            "impervious_net_change_sqft",
            "impervious_proposed_pct",
        )
        metrics = {"impervious_existing_sqft": existing} | {name: nulls.copy() for name in unknown}
        return metrics, np.zeros(n, dtype=bool)
    proposed_area, owners = _cover_by_lot(inputs.impervious_proposed, parcels, lot_tree, reader)
    project_lots = owns_disturbance.copy()
    project_lots[owners[owners >= 0]] = True
    proposed = np.where(project_lots, proposed_area * sqft, existing)
    metrics = {
        "impervious_existing_sqft": existing,
        "impervious_proposed_sqft": proposed,
        "impervious_net_change_sqft": proposed - existing,
        "impervious_proposed_pct": 100.0 * proposed / lot_area_sqft,
    }
    return metrics, project_lots


def _cover_by_lot(
    source: LayerSource, parcels: Parcels, lot_tree: shapely.STRtree, reader: LayerReader
) -> tuple[np.ndarray, np.ndarray]:
    """Area of a cover layer inside each lot (overlaps once) and each feature's lot."""
    frame = reader.read(source, POLYGONAL, target_crs=parcels.working.crs)
    n = len(parcels.geoms)
    split = split_by_lot(
        frame.geometry.to_numpy(),
        parcels.geoms,
        lot_tree,
        keep_outside=False,
        sliver_area=SLIVER_SQFT / parcels.working.sqft_per_unit2,
    )
    note_split(split, frame, parcels, source, reader, report_unassigned=False)
    return area_by_group(split.pieces.geoms, split.pieces.lot, n), split.owner
