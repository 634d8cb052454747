"""Read the parcel layer: ids, the fields passed through, the working CRS."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

import geopandas as gpd
import numpy as np
import pandas as pd
import pyproj
import shapely

from sitecheck.errors import InputError
from sitecheck.io.clean import listed
from sitecheck.io.crs import (
    OUTLIER_MARGIN_DEG,
    WorkingCRS,
    bulk_lonlat,
    lonlat_centres,
    outside_area_of_use,
    working_crs,
)
from sitecheck.io.kept import kept_value
from sitecheck.io.parcel_ids import IdCheck, check_ids, joined_ids
from sitecheck.io.readers import POLYGONAL, LayerReader, LayerSource
from sitecheck.schema.fields import ID_FIELD_CANDIDATES, PASSTHROUGH_CANDIDATES


@dataclass
class Parcels:
    """The parcel layer in the working CRS.

    Attributes
    ----------
    frame : geopandas.GeoDataFrame
        Parcels with the column ``parcel_id`` (text) and the pass-through fields.
    id_field : str
        The source field the ids come from (``FID`` for feature ids).
    working : WorkingCRS
    passthrough : dict of str to str
        Standard name -> source field of each field passed through.
    """

    frame: gpd.GeoDataFrame
    id_field: str
    working: WorkingCRS
    passthrough: dict[str, str]

    @cached_property
    def geoms(self) -> np.ndarray:
        """The lots' shapes (read once: a run asks for them at every stage)."""
        return self.frame.geometry.to_numpy()

    @property
    def ids(self) -> np.ndarray:
        return self.frame["parcel_id"].to_numpy(dtype=object)


def attribute_columns(frame: gpd.GeoDataFrame) -> list[str]:
    """A layer's own fields: its columns but the shapes and the reader's feature ids
    (``_fid``).

    ``active_geometry_name`` is read once: ``frame.geometry.name`` builds a series at each
    call, once a column when written in a comprehension (a panel's answer asked it about
    1,500 times).
    """
    left_out = (frame.active_geometry_name, "_fid")
    return [c for c in frame.columns if c not in left_out]


def find_field(columns: Sequence[str], candidates: Sequence[str]) -> str | None:
    """The first candidate present among the columns, compared case-insensitively."""
    lowered = {column.lower(): column for column in columns}
    for candidate in candidates:
        if candidate.lower() in lowered:
            return lowered[candidate.lower()]
    return None


def named_parcels(frame: gpd.GeoDataFrame, id_field: str) -> pd.Series | None:
    """The parcel id each feature of a drawn layer names (stripped text), None without a
    parcel-id field: the parcels' own id field, else ``parcel_id`` (only ``parcel_id``
    when the ids are the parcel layer's feature ids, ``FID``)."""
    columns = attribute_columns(frame)
    candidates = ["parcel_id"] if id_field == "FID" else [id_field, "parcel_id"]
    field_name = find_field(columns, candidates)
    if field_name is None:
        return None
    return frame[field_name].astype("string").str.strip()


def read_parcels(
    source: LayerSource,
    log: LayerReader,
    id_field: str | None = None,
    crs_override: str | None = None,
    extra_fields: Sequence[str] = (),
) -> Parcels:
    """Read parcels, choose the CRS to measure in and check the ids.

    Parameters
    ----------
    source : LayerSource
    log : LayerReader
    id_field : str, optional
        Field holding parcel ids; default the first present of ``parcel_id``,
        ``SBL``, ``PRINT_KEY``, else the feature id.
    crs_override : str, optional
        Projected CRS to measure in instead of the parcel layer's.
    extra_fields : sequence of str
        More parcel fields to keep (e.g. a zoning district field).

    Raises
    ------
    InputError
        Empty layer, an id field that does not exist, empty or duplicate ids.
    """
    frame = log.read(source, POLYGONAL, allow_empty=False)
    # A session serves the same lots, the same objects, at answer after answer: their ids
    # checked and their table made once (5 of the panel's 60 ms, issue 30). A partial
    # view warns nothing here that a kept value would leave out.
    keeps = log.partial_view and source.role not in log.dropped
    return kept_value(
        log.kept if keeps else None,
        frame.geometry.to_numpy(),
        ("parcels", source, id_field, crs_override, tuple(extra_fields)),
        lambda: _parcels_of(frame, source, log, id_field, crs_override, extra_fields),
    )


def _parcels_of(
    frame: gpd.GeoDataFrame,
    source: LayerSource,
    log: LayerReader,
    id_field: str | None,
    crs_override: str | None,
    extra_fields: Sequence[str],
) -> Parcels:
    """:func:`read_parcels` of the features read."""
    columns = attribute_columns(frame)
    chosen_id = choose_id_field(columns, id_field, source)
    passthrough = {
        name: field
        for name, candidates in PASSTHROUGH_CANDIDATES.items()
        if (field := find_field(columns, candidates)) is not None
    }
    if chosen_id == "FID":
        ids = frame["_fid"].astype("int64").astype(str).reset_index(drop=True)
    else:
        ids = joined_ids(frame, chosen_id.split("+"))
        facts = frame[[passthrough[k] for k in ("owner", "address") if k in passthrough]]
        check = check_ids(ids, frame["_fid"], chosen_id, source, facts, frame[columns])
        if not log.partial_view:  # a window's driver warns for the whole layer
            for message in check.warnings:
                log.warn(message)
        frame, ids = _merge_repeated(frame, ids, check)
    _warn_dropped_lots(log, source, chosen_id)
    kept = {name: frame[field] for name, field in passthrough.items()}
    for name in extra_fields:
        field = find_field(columns, [name])
        if field is not None and field not in passthrough.values():
            kept[field] = frame[field]
    data = pd.DataFrame({"parcel_id": ids.to_numpy(dtype=object), **kept})
    out = gpd.GeoDataFrame(data, geometry=frame.geometry.to_numpy(), crs=frame.crs)
    working, apart = measuring_crs(
        shapely.bounds(out.geometry.to_numpy()), pyproj.CRS(out.crs), out["parcel_id"], crs_override
    )
    if apart and not log.partial_view:  # a window's driver warns for the whole layer
        log.warn(f"{source.label()}: {apart}")
    if not working.crs.equals(out.crs):
        out = out.to_crs(working.crs)
    return Parcels(out.reset_index(drop=True), chosen_id, working, passthrough)


def choose_id_field(columns: list[str], requested: str | None, source: LayerSource) -> str:
    """The parcel id field: the one requested, else the first of the id candidates, else FID.

    A request may join fields with ``+`` (``SWIS+PRINT_KEY``), for ids unique
    only together; their values are joined by ``/``.
    """
    if requested:
        found = []
        for name in requested.split("+"):
            field = find_field(columns, [name.strip()])
            if field is None:
                raise InputError(
                    f"{source.label()}: no id field '{name.strip()}'; "
                    f"fields are: {', '.join(columns) or 'none'}"
                )
            found.append(field)
        return "+".join(found)
    return find_field(columns, ID_FIELD_CANDIDATES) or "FID"


def _merge_repeated(
    frame: gpd.GeoDataFrame, ids: pd.Series, check: IdCheck
) -> tuple[gpd.GeoDataFrame, pd.Series]:
    """Rows with an id, the rows of one lot merged into its first (their parts united)."""
    frame = frame[check.keep].reset_index(drop=True)
    ids = ids[check.keep].reset_index(drop=True)
    if not check.merged:
        return frame, ids
    first = ~ids.duplicated(keep="first")
    repeated = ids.isin(check.merged).to_numpy()
    positions = np.flatnonzero(repeated)
    geoms = frame.geometry.to_numpy().copy()
    # Rows of each merged id, grouped once (not one scan of the layer per id).
    for members in ids[repeated].groupby(ids[repeated].to_numpy()).indices.values():
        rows = positions[members]
        geoms[rows[0]] = shapely.union_all(geoms[rows])
    frame = frame.set_geometry(gpd.GeoSeries(geoms, crs=frame.crs, index=frame.index))
    keep = first.to_numpy() | ~repeated
    return frame[keep].reset_index(drop=True), ids[keep].reset_index(drop=True)


def _warn_dropped_lots(log: LayerReader, source: LayerSource, id_field: str) -> None:
    """Name the lots left out for having no area, by id when they have one."""
    dropped = log.dropped.get(source.role)
    if dropped is None or dropped.empty:
        return
    if id_field == "FID":
        names = [f"FID {int(f)}" for f in dropped["_fid"]]
    else:
        names = list(joined_ids(dropped, id_field.split("+")).astype(str))
    log.warn(
        f"{source.label()}: lot(s) {listed(names)} have no area (empty, null or collapsed "
        "geometry) and are left out; work drawn on them is reported as unassigned"
    )


def measuring_crs(
    bounds: np.ndarray, layer_crs: pyproj.CRS, ids: pd.Series, crs_override: str | None
) -> tuple[WorkingCRS, str | None]:
    """The CRS to measure the lots in, chosen where most of them lie, and the lots
    lying apart from it, worded for a warning (None when there are none).

    Parameters
    ----------
    bounds : ndarray
        Each lot's bounds, rows of ``minx, miny, maxx, maxy`` in ``layer_crs``.
    ids : Series
        The lots' ids, for naming those lying apart.
    """
    if not layer_crs.is_geographic or crs_override:
        # The layer's own projected CRS, or the one asked for: where the lots lie
        # does not choose it (read_layer has already refused impossible coordinates).
        return working_crs(layer_crs, None, crs_override), None
    lon, lat = lonlat_centres(bounds, layer_crs)
    working = working_crs(layer_crs, bulk_lonlat(lon, lat), crs_override)
    apart = outside_area_of_use(working.crs, lon, lat, OUTLIER_MARGIN_DEG)
    if not apart.any():
        return working, None
    rows = zip(ids[apart], lon[apart], lat[apart], strict=True)
    places = list(dict.fromkeys(f"{i} at ({x:.4g}, {y:.4g})" for i, x, y in rows))
    return working, (
        f"lot(s) {listed(places)} lie far from the rest, outside the area of "
        f"{working.crs.name} (EPSG:{working.crs.to_epsg()}) chosen where most lots lie: "
        "their areas measured there are distorted; check their coordinates"
    )
