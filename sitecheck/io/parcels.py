"""Read the parcel layer: ids, the fields passed through, the working CRS."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import geopandas as gpd
import numpy as np
import pandas as pd
import pyproj

from sitecheck.errors import InputError
from sitecheck.io.crs import WorkingCRS, working_crs
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

    @property
    def geoms(self) -> np.ndarray:
        return self.frame.geometry.to_numpy()

    @property
    def ids(self) -> np.ndarray:
        return self.frame["parcel_id"].to_numpy(dtype=object)


def find_field(columns: Sequence[str], candidates: Sequence[str]) -> str | None:
    """The first candidate present among the columns, compared case-insensitively."""
    lowered = {column.lower(): column for column in columns}
    for candidate in candidates:
        if candidate.lower() in lowered:
            return lowered[candidate.lower()]
    return None


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
    columns = [c for c in frame.columns if c not in (frame.geometry.name, "_fid")]
    chosen_id = choose_id_field(columns, id_field, source)
    if chosen_id == "FID":
        ids = frame["_fid"].astype("int64").astype(str)
    else:
        ids = text_ids(frame[chosen_id])
        check_ids(ids, frame["_fid"], chosen_id, source)
    passthrough = {
        name: field
        for name, candidates in PASSTHROUGH_CANDIDATES.items()
        if (field := find_field(columns, candidates)) is not None
    }
    kept = {name: frame[field] for name, field in passthrough.items()}
    for name in extra_fields:
        field = find_field(columns, [name])
        if field is not None and field not in passthrough.values():
            kept[field] = frame[field]
    data = pd.DataFrame({"parcel_id": ids.to_numpy(dtype=object), **kept})
    out = gpd.GeoDataFrame(data, geometry=frame.geometry.to_numpy(), crs=frame.crs)
    working = working_crs(pyproj.CRS(frame.crs), _lonlat_centre(out), crs_override)
    if not working.crs.equals(out.crs):
        out = out.to_crs(working.crs)
    return Parcels(out.reset_index(drop=True), chosen_id, working, passthrough)


def choose_id_field(columns: list[str], requested: str | None, source: LayerSource) -> str:
    """The parcel id field: the one requested, else the first of the id candidates, else FID."""
    if requested:
        field = find_field(columns, [requested])
        if field is None:
            raise InputError(
                f"{source.label()}: no id field '{requested}'; "
                f"fields are: {', '.join(columns) or 'none'}"
            )
        return field
    return find_field(columns, ID_FIELD_CANDIDATES) or "FID"


def text_ids(values: pd.Series) -> pd.Series:
    """Ids as text; whole-number floats lose their '.0' (1234.0 -> '1234')."""
    if pd.api.types.is_float_dtype(values):
        whole = values.dropna()
        if (whole == np.floor(whole)).all():
            return values.astype("Int64").astype("string")
    return values.astype("string").str.strip()


def check_ids(ids: pd.Series, fids: pd.Series, field: str, source: LayerSource) -> None:
    """Refuse empty or duplicate parcel ids, naming the field and the features."""
    empty = ids.isna() | (ids == "")
    if empty.any():
        listed = ", ".join(str(f) for f in fids[empty].head(10))
        raise InputError(
            f"{source.label()}: id field '{field}' is empty for {int(empty.sum())} "
            f"feature(s) (FID {listed})"
        )
    duplicated = ids[ids.duplicated(keep=False)]
    if len(duplicated):
        unique = sorted(set(duplicated))
        shown = ", ".join(unique[:20]) + (
            f" and {len(unique) - 20} more" if len(unique) > 20 else ""
        )
        raise InputError(f"{source.label()}: duplicate parcel ids in field '{field}': {shown}")


def _lonlat_centre(frame: gpd.GeoDataFrame) -> tuple[float, float] | None:
    """Longitude and latitude of the centre of the layer's extent."""
    minx, miny, maxx, maxy = frame.total_bounds
    if not np.all(np.isfinite([minx, miny, maxx, maxy])):
        return None
    to_lonlat = pyproj.Transformer.from_crs(frame.crs, "EPSG:4326", always_xy=True)
    lon, lat = to_lonlat.transform((minx + maxx) / 2, (miny + maxy) / 2)
    return float(lon), float(lat)
