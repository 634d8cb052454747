"""Cut a parcel layer into compact partitions along a Hilbert curve.

Only the parcels' ids and extents are read (no geometry), so planning a
million parcels takes a few hundred megabytes at most. Each parcel becomes
the centre point of its extent; dask-geopandas gives each point its distance
along a Hilbert curve, and the points in that order are cut into partitions
of equal size, which keeps each partition's lots close together and its
reading window small.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import dask_geopandas
import geopandas as gpd
import numpy as np
import pandas as pd
import pyproj

from sitecheck.errors import InputError
from sitecheck.io import vector_source
from sitecheck.io.crs import WorkingCRS
from sitecheck.io.layer_source import LayerSource, layer_crs_of, layer_fields
from sitecheck.io.parcel_ids import check_ids, joined_ids
from sitecheck.io.parcels import choose_id_field, find_field, measuring_crs
from sitecheck.io.readers import refuse_outliers
from sitecheck.schema.fields import PASSTHROUGH_CANDIDATES

PLANNING_PARTITIONS = 8
"""Partitions of the point layer while it is being ordered (planning is light)."""


@dataclass(frozen=True)
class Partition:
    """One task's parcels: their ids and the extent of their lots.

    Attributes
    ----------
    index : int
    parcel_ids : tuple of str
        The parcels the task reports (its core); neighbours it reads for
        context are reported by their own partitions.
    bounds : tuple of float
        Extent of the core lots, in the parcel layer's CRS.
    """

    index: int
    parcel_ids: tuple[str, ...]
    bounds: tuple[float, float, float, float]


@dataclass(frozen=True)
class ParcelPlan:
    """The partitions of a run and what was learnt planning them."""

    partitions: list[Partition]
    parcel_count: int
    id_field: str
    layer_crs: pyproj.CRS
    working: WorkingCRS
    warnings: list[str] = field(default_factory=list)


def plan_partitions(
    source: LayerSource,
    partition_size: int,
    id_field: str | None = None,
    crs_override: str | None = None,
) -> ParcelPlan:
    """Read parcel ids and extents and cut them into Hilbert-ordered partitions.

    Parameters
    ----------
    source : LayerSource
        The parcel layer.
    partition_size : int
        About how many parcels each partition holds.
    id_field : str, optional
        As ``--id-field``; the same defaults as a single-process run.
    crs_override : str, optional
        As ``--crs``.

    Raises
    ------
    InputError
        On an empty layer, a missing id field, empty or duplicate ids (the
        messages of a single-process run).
    """
    if partition_size < 1:
        raise InputError("--partition-size: give a whole number of parcels, at least 1")
    fids, bounds = _read_bounds(source)
    usable = np.all(np.isfinite(bounds), axis=0)
    fids, bounds = fids[usable], bounds[:, usable]
    if not len(fids):
        raise InputError(f"{source.label()}: has no usable geometries")
    chosen, ids, keep, warnings = _parcel_ids(source, fids, id_field)
    fids, bounds, ids = fids[keep], bounds[:, keep], ids[keep].reset_index(drop=True)
    layer_crs = layer_crs_of(source)
    refuse_outliers(source, bounds.T, fids, layer_crs)
    working, apart = measuring_crs(bounds.T, layer_crs, ids, crs_override)
    if apart:
        warnings = [*warnings, f"{source.label()}: {apart}"]
    points = gpd.GeoDataFrame(
        {
            "parcel_id": ids.to_numpy(dtype=object),
            "minx": bounds[0],
            "miny": bounds[1],
            "maxx": bounds[2],
            "maxy": bounds[3],
        },
        geometry=gpd.points_from_xy((bounds[0] + bounds[2]) / 2, (bounds[1] + bounds[3]) / 2),
        crs=layer_crs,
    )
    points = _one_point_per_lot(points)
    count = max(1, math.ceil(len(points) / partition_size))
    # The distances are computed by partition in the driver's threads; the
    # order and the cut are plain NumPy, so no shuffle is needed at all.
    distance = (
        dask_geopandas.from_geopandas(points, npartitions=min(PLANNING_PARTITIONS, len(points)))
        .hilbert_distance(total_bounds=points.total_bounds)
        .compute(scheduler="threads")
        .to_numpy()
    )
    order = np.argsort(distance, kind="stable")
    partitions: list[Partition] = []
    for rows in np.array_split(order, count):
        part = points.iloc[rows]
        partitions.append(
            Partition(
                index=len(partitions),
                parcel_ids=tuple(str(i) for i in part["parcel_id"]),
                bounds=(
                    float(part["minx"].min()),
                    float(part["miny"].min()),
                    float(part["maxx"].max()),
                    float(part["maxy"].max()),
                ),
            )
        )
    return ParcelPlan(partitions, len(points), chosen, layer_crs, working, warnings)


def _one_point_per_lot(points: gpd.GeoDataFrame) -> gpd.GeoDataFrame:
    """Rows of one lot (a multipart parcel stored as parts) as one extent and point."""
    if not points["parcel_id"].duplicated().any():
        return points
    grouped = points.groupby("parcel_id", sort=False).agg(
        minx=("minx", "min"), miny=("miny", "min"), maxx=("maxx", "max"), maxy=("maxy", "max")
    )
    return gpd.GeoDataFrame(
        grouped.reset_index(),
        geometry=gpd.points_from_xy(
            (grouped["minx"] + grouped["maxx"]) / 2, (grouped["miny"] + grouped["maxy"]) / 2
        ),
        crs=points.crs,
    )


def _read_bounds(source: LayerSource) -> tuple[np.ndarray, np.ndarray]:
    try:
        return vector_source.read_bounds(source.path, source.layer)
    except InputError:
        raise
    except Exception as error:
        raise InputError(f"{source.label()}: cannot read: {error}") from error


def _parcel_ids(
    source: LayerSource, fids: np.ndarray, requested: str | None
) -> tuple[str, pd.Series, np.ndarray, list[str]]:
    """The id of each row, which rows are lots, and the warnings a single run gives."""
    fields = layer_fields(source)
    chosen = choose_id_field(fields, requested, source)
    if chosen == "FID":
        return chosen, pd.Series(fids.astype(str)), np.ones(len(fids), dtype=bool), []
    facts = [
        field
        for name in ("owner", "address")
        if (field := find_field(fields, PASSTHROUGH_CANDIDATES[name])) is not None
    ]
    table = _attributes(source, [*chosen.split("+"), *facts]).reindex(fids)
    ids = joined_ids(table, chosen.split("+"))
    fid_series = pd.Series(fids)
    try:
        check = check_ids(ids, fid_series, chosen, source, table[facts].reset_index(drop=True))
    except InputError:
        every = _attributes(source, None).reindex(fids).reset_index(drop=True)
        check_ids(ids, fid_series, chosen, source, every[facts], every)
        raise
    return chosen, ids, check.keep, check.warnings


def _attributes(source: LayerSource, columns: list[str] | None) -> pd.DataFrame:
    return vector_source.read_dataframe(source.path, source.layer, columns, read_geometry=False)
