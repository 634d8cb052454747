"""The notification list of Scarsdale § 254-10.1: owners near the lot or the activity.

"all owners of property, any part of which is within 200 feet of any point on
the boundary of the lot, or lots, involved in the application. As an
exception, for properties larger than 15 acres in area, notice shall be sent
to all owners of property within 200 feet of the activity."
"""

from __future__ import annotations

from dataclasses import dataclass

import geopandas as gpd
import numpy as np
import pandas as pd
import shapely

from sitecheck.errors import InputError
from sitecheck.geometry.lots import split_by_lot
from sitecheck.io.parcels import Parcels
from sitecheck.io.readers import POLYGONAL, LayerReader, LayerSource
from sitecheck.rules.pack import load_pack
from sitecheck.rules.units import Quantity
from sitecheck.schema.fields import PASSTHROUGH_CANDIDATES

NOTICE_DISTANCE_FT = 200.0


def scarsdale_large_property_sqft() -> float:
    """The lot area over which § 254-10.1's notice is measured from the activity, from
    Scarsdale's pack (its ``large_property_notice``, 15 acres), sq ft."""
    threshold = load_pack("scarsdale").parameters["large_property_notice"]
    assert isinstance(threshold, Quantity) and threshold.dimension == "area"
    return float(threshold.value)


@dataclass
class NotificationList:
    """Parcels to notify, and what they were measured from."""

    parcels: gpd.GeoDataFrame  # parcel_id, owner, address, distance_ft, geometry
    measured_from: str  # "lot boundary" or "activity"
    lots: list[str]


def notification_list(
    parcels: Parcels,
    lot_ids: list[str],
    log: LayerReader,
    disturbance: LayerSource | None = None,
    distance_ft: float = NOTICE_DISTANCE_FT,
    measure_from: str = "auto",
) -> NotificationList:
    """Parcels within ``distance_ft`` of the lots' boundaries, or of the activity.

    Parameters
    ----------
    parcels : Parcels
    lot_ids : list of str
        The lot or lots involved in the application.
    log : LayerReader
    disturbance : LayerSource, optional
        The activity; needed to measure from it.
    distance_ft : float
        200 ft in § 254-10.1.
    measure_from : str
        ``lot`` (the boundary), ``activity``, or ``auto``: the activity when the
        lots together exceed Scarsdale's pack's ``large_property_notice`` (15 acres,
        § 254-10.1) and a disturbance layer is given.

    Raises
    ------
    InputError
        Unknown lot ids, or measuring from an activity that was not given.
    """
    if measure_from not in ("auto", "lot", "activity"):
        raise InputError(f"--from: give lot, activity or auto (got {measure_from})")
    ids = parcels.ids.astype(str)
    unknown = sorted(set(lot_ids) - set(ids))
    if unknown:
        raise InputError(f"--lot: the parcels layer has no parcel with id {', '.join(unknown)}")
    chosen = np.flatnonzero(np.isin(ids, lot_ids))
    lots = parcels.geoms
    working = parcels.working
    origin, label = _notice_origin(parcels, chosen, log, disturbance, measure_from)
    reach = distance_ft / working.feet_per_unit
    tree = shapely.STRtree(lots)
    near = tree.query(origin, predicate="dwithin", distance=reach)
    near = np.setdiff1d(near, chosen)
    distances = shapely.distance(lots[near], origin) * working.feet_per_unit
    order = np.lexsort((ids[near], distances))
    near, distances = near[order], distances[order]
    frame = parcels.frame.iloc[near]
    table = pd.DataFrame(
        {
            "parcel_id": frame["parcel_id"].to_numpy(),
            "owner": frame["owner"].to_numpy() if "owner" in frame else None,
            "address": frame["address"].to_numpy() if "address" in frame else None,
            "distance_ft": np.round(distances, 1),
        }
    )
    out = gpd.GeoDataFrame(table, geometry=frame.geometry.to_numpy(), crs=parcels.frame.crs)
    _warn_missing_contacts(table, log)
    return NotificationList(out, label, [str(i) for i in ids[chosen]])


def _notice_origin(
    parcels: Parcels,
    chosen: np.ndarray,
    log: LayerReader,
    disturbance: LayerSource | None,
    measure_from: str,
) -> tuple[shapely.Geometry, str]:
    """What the notice distance is measured from, and its name: the lots' boundary, or
    the activity (asked for, or ``auto`` on lots over the large-property limit)."""
    lots = parcels.geoms
    large_property_sqft = scarsdale_large_property_sqft()
    area_sqft = float(shapely.area(lots[chosen]).sum()) * parcels.working.sqft_per_unit2
    use_activity = measure_from == "activity" or (
        measure_from == "auto" and area_sqft > large_property_sqft and disturbance is not None
    )
    if not use_activity:
        return shapely.union_all(shapely.boundary(lots[chosen])), "lot boundary"
    if disturbance is None:
        raise InputError("--from activity needs --disturbance")
    return _activity(parcels, chosen, disturbance, log), "activity"


def _warn_missing_contacts(table: pd.DataFrame, log: LayerReader) -> None:
    """Name the parcels of the list with no owner or no address, which notice needs."""
    for column in ("owner", "address"):
        missing = int(pd.Series(table[column], dtype="string").fillna("").str.strip().eq("").sum())
        if missing:
            fields = ", ".join(PASSTHROUGH_CANDIDATES[column])
            log.warn(
                f"notification list: {missing} of {len(table)} parcel(s) have no {column} "
                f"(parcel fields looked for: {fields}); complete them before serving notice"
            )


def _activity(
    parcels: Parcels, chosen: np.ndarray, source: LayerSource, log: LayerReader
) -> shapely.Geometry:
    """The disturbance belonging to the chosen lots (in them, or in the street for them)."""
    frame = log.read(source, POLYGONAL, target_crs=parcels.working.crs)
    lots = parcels.geoms
    pieces = split_by_lot(frame.geometry.to_numpy(), lots, shapely.STRtree(lots)).pieces
    mine = np.isin(pieces.lot, chosen)
    if not mine.any():
        raise InputError(f"{source.label()}: no disturbance on the lot(s) to measure from")
    return shapely.union_all(pieces.geoms[mine])
