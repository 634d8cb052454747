"""The drawn work that can change one parcel's answer, for the panel's worker.

The panel sends the work drawn within 300 ft of the parcel, and the worker answered
for one parcel after measuring and checking every lot that work fell on (issue 30:
beside a neighbour with work of its own, three lots' overlays, slopes and rules at
every edit). A lot's answer rests on its own work alone: the features on it, those
naming it in their parcel-id field, and the other features of its projects, which are
checked on their site. Those are kept, with the features on no lot (the run names
them as unassigned); the lots they fall on are the focus. The neighbours' lot lines
and the constraint layers are read as before, around the kept work.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import geopandas as gpd
import numpy as np
import pandas as pd
import shapely

from sitecheck.io.parcels import named_parcels
from sitecheck.schema.roles import DRAWN_ROLES
from sitecheck.screening.project_sites import project_names

WORK_ROLE = "disturbance"
"""The drawn role whose features say which lots a parcel's answer spans."""

FOCUSED_ROLES: tuple[str, ...] = tuple(role for role in DRAWN_ROLES if role != WORK_ROLE)
"""The other drawn roles (impervious cover): read on the lots the answer spans alone."""


@dataclass(frozen=True)
class Focus:
    """What one parcel's answer reads of the drawn work.

    Attributes
    ----------
    rows : ndarray of int
        The lots the kept work falls on or names, the parcel asked about first.
    work : GeoDataFrame or None
        The drawn disturbance that can change the answer (None: none was drawn).
    names_projects : bool or None
        Whether the disturbance as drawn names a project (None: none was drawn).
    """

    rows: np.ndarray
    work: gpd.GeoDataFrame | None
    names_projects: bool | None


def focus_on(
    drawn: Mapping[str, gpd.GeoDataFrame],
    row: int,
    lot_tree: shapely.STRtree,
    lot_rows: Mapping[str, int],
    id_field: str,
) -> Focus:
    """What of the drawn work can change the answer of the lot at ``row``
    (:func:`focused_work`)."""
    if WORK_ROLE not in drawn:
        return Focus(np.array([row]), None, None)
    work = drawn[WORK_ROLE]
    projects = project_names(work)
    kept, rows = focused_work(work, row, lot_tree, lot_rows, id_field, projects)
    return Focus(rows, kept, projects is not None and bool(projects.notna().any()))


def focused_work(
    work: gpd.GeoDataFrame,
    row: int,
    lot_tree: shapely.STRtree,
    lot_rows: Mapping[str, int],
    id_field: str,
    projects: pd.Series | None = None,
) -> tuple[gpd.GeoDataFrame, np.ndarray]:
    """The features of ``work`` that can change the answer of the lot at ``row``, and the
    rows of the lots they fall on or name (``row`` first).

    Kept are the features on the lot or naming it, those on no lot, and every feature
    of a project they belong to; then, until nothing is added, the features of any
    other project on a lot of those projects (two projects sharing a lot count its
    work once, on one of their sites, so each site's answer rests on the other).

    Parameters
    ----------
    work : GeoDataFrame
        The drawn disturbance, in the lots' CRS.
    row : int
        The lot asked about, its row in the lot tree's geometries.
    lot_tree : STRtree
        Every lot of the session.
    lot_rows : mapping of str to int
        Each lot's row by its parcel id.
    id_field : str
        The parcels' id field (``FID`` when the layer's feature ids are the ids).
    projects : Series, optional
        Each feature's project (:func:`project_names`), where the caller has read it.
    """
    feature, lot = lot_tree.query(work.geometry.to_numpy(), predicate="intersects")
    named = _named_rows(work, lot_rows, id_field)
    # Each (feature, lot) it falls on or names, once.
    pairs = np.unique(np.concatenate([
        np.stack([feature, lot]), np.stack([np.flatnonzero(named >= 0), named[named >= 0]])
    ], axis=1), axis=1)  # fmt: skip
    keep = np.zeros(len(work), dtype=bool)
    keep[pairs[0, pairs[1] == row]] = True
    keep[np.setdiff1d(np.arange(len(work)), pairs[0])] = True  # on no lot: named as unassigned
    if projects is None:
        projects = project_names(work)
    if projects is not None:
        has_project = projects.notna().to_numpy(dtype=bool)
        while True:
            of_kept = projects.isin(set(projects[keep].dropna())).to_numpy(dtype=bool)
            site_lots = np.unique(pairs[1, of_kept[pairs[0]]])
            sharing = np.zeros(len(work), dtype=bool)
            sharing[pairs[0, np.isin(pairs[1], site_lots)]] = True
            grown = keep | of_kept | (sharing & has_project)
            if np.array_equal(grown, keep):
                break
            keep = grown
    rows = np.concatenate([[row], pairs[1, keep[pairs[0]]]])
    return work.iloc[np.flatnonzero(keep)], np.asarray(list(dict.fromkeys(rows.tolist())))


def near_rows(frame: gpd.GeoDataFrame, lots: np.ndarray) -> np.ndarray:
    """The rows of a work layer (impervious cover) whose features meet any of ``lots``."""
    if len(frame) == 0:
        return np.empty(0, dtype=np.intp)
    _, found = frame.sindex.query(lots, predicate="intersects")
    return np.unique(found)


def _named_rows(work: gpd.GeoDataFrame, lot_rows: Mapping[str, int], id_field: str) -> np.ndarray:
    """The lot row each feature names in its parcel-id field, -1 where it names none."""
    values = named_parcels(work, id_field)
    if values is None:
        return np.full(len(work), -1)
    # Each feature looked up in the mapping: ``Series.map`` made a Series of all of it, every
    # lot of the session, at every answer (137 ms of a 250,010-lot session's answer).
    return np.array(
        [-1 if pd.isna(value) else lot_rows.get(value, -1) for value in values], dtype=np.int64
    )
