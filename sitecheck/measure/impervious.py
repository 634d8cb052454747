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
    metrics: dict[str, np.ndarray],
    touched: np.ndarray,
    owns_disturbance: np.ndarray,
) -> None:
    """Existing and proposed impervious cover per lot, and the net change.

    The proposed layer is the complete post-construction cover of the project
    lots: lots a disturbance feature or a proposed feature belongs to (by its
    parcel-id field, else by where most of it lies). Other lots, including a
    neighbour that a project's disturbance only spills onto, keep their
    existing cover.
    """
    n = len(parcels.geoms)
    sqft = parcels.working.sqft_per_unit2
    nulls = np.full(n, np.nan)
    existing = nulls.copy()
    if inputs.impervious_existing is not None:
        existing = _cover_by_lot(inputs.impervious_existing, parcels, lot_tree, reader)[0] * sqft
    metrics["impervious_existing_sqft"] = existing
    if inputs.impervious_proposed is None:
        metrics["impervious_proposed_sqft"] = nulls.copy()
        metrics["impervious_net_change_sqft"] = nulls.copy()
        metrics["impervious_proposed_pct"] = nulls.copy()
        return
    proposed_area, owners = _cover_by_lot(inputs.impervious_proposed, parcels, lot_tree, reader)
    project_lots = owns_disturbance.copy()
    project_lots[owners[owners >= 0]] = True
    proposed = np.where(project_lots, proposed_area * sqft, existing)
    metrics["impervious_proposed_sqft"] = proposed
    metrics["impervious_net_change_sqft"] = proposed - existing
    metrics["impervious_proposed_pct"] = 100.0 * proposed / metrics["lot_area_sqft"]
    touched |= project_lots


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
