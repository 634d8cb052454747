"""Open vector data sources: files through OGR (pyogrio), PostGIS through psycopg.

The one place the engine reads a vector layer's metadata, features or bounds,
so every reader (the single engine, the Dask planner and its windows, the
audit) reads a PostGIS table as it reads a GeoPackage layer.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyogrio
import shapely

from sitecheck.io import postgis


def list_layers(path: str) -> list[tuple[str, str | None]]:
    """``(name, geometry type)`` of each layer of a source."""
    if postgis.is_postgis(path):
        return postgis.list_layers(path)
    return [(str(name), kind) for name, kind in pyogrio.list_layers(path)]


def read_info(path: str, layer: str | None, count: bool = False) -> dict[str, Any]:
    """A layer's ``crs``, ``features`` (exact when ``count``) and ``fields``."""
    if postgis.is_postgis(path):
        return postgis.read_info(path, layer)
    return dict(pyogrio.read_info(path, layer=layer, force_feature_count=count))


def read_dataframe(
    path: str,
    layer: str | None,
    columns: Sequence[str] | None = None,
    bbox: tuple[float, float, float, float] | None = None,
    mask: shapely.Geometry | None = None,
    read_geometry: bool = True,
) -> pd.DataFrame:
    """A layer's features indexed by FID (a GeoDataFrame unless ``read_geometry`` is False).

    Files are read with Arrow when the data allow it, else feature by feature:
    Arrow is several times faster but refuses curved geometries, which the
    feature path linearises. ``bbox`` (in the layer's CRS) and ``mask`` keep the
    features meeting them, through the source's spatial index.
    """
    if postgis.is_postgis(path):
        return postgis.read_dataframe(path, layer, columns, bbox, mask, read_geometry)
    kwargs: dict[str, object] = {"layer": layer, "fid_as_index": True}
    if columns is not None:
        kwargs["columns"] = list(columns)
    if bbox is not None:
        kwargs["bbox"] = bbox
    if mask is not None:
        kwargs["mask"] = mask
    if not read_geometry:
        kwargs["read_geometry"] = False
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        try:
            frame = pyogrio.read_dataframe(path, use_arrow=True, **kwargs)
        except Exception as error:
            if "not currently supported" not in str(error) and "Arrow" not in str(error):
                raise
            return pyogrio.read_dataframe(path, use_arrow=False, **kwargs)
    # The Arrow table the frame was made from is freed, but pyarrow's pool keeps its memory
    # for the next: 90 MB after the 250k bench village's impervious cover, through the
    # split of every lot that made the run's peak (1,214 -> 1,125 MB given back).
    pa.default_memory_pool().release_unused()
    return frame


def read_bounds(
    path: str, layer: str | None, bbox: tuple[float, float, float, float] | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """FIDs and bounds (a 4 x n array of ``minx, miny, maxx, maxy``) of a layer's features."""
    if postgis.is_postgis(path):
        return postgis.read_bounds(path, layer, bbox)
    fids, bounds = pyogrio.read_bounds(path, layer=layer, bbox=bbox)
    return np.asarray(fids, dtype=np.int64), np.asarray(bounds, dtype=float).reshape(4, -1)
