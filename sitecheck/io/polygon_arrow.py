"""A polygon layer as the Arrow table its GeoPackage layer is written from.

What ``pyogrio.write_dataframe(..., promote_to_multi=True, use_arrow=True)`` hands
GDAL, made here so that another process can write it (:mod:`sitecheck.io.geopackage_aside`):
the attributes as pyarrow converts them, and the shapes as well-known binary with every
polygon made a one-part multipolygon. A polygon's WKB becomes that by a fixed prefix
(byte order, type 6, one part; OGC 06-103r4, 8.2.7), as pyogrio's promotion writes it,
an empty polygon a multipolygon of one empty part included.
"""

from __future__ import annotations

from dataclasses import dataclass

import geopandas as gpd
import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import shapely

_POLYGON, _MULTIPOLYGON = 3, 6  # shapely.get_type_id
_LITTLE_ENDIAN = 1
_ONE_PART_PREFIX = b"\x01" + (6).to_bytes(4, "little") + (1).to_bytes(4, "little")
_PLAIN_OBJECTS = ("string", "empty")  # object columns pyarrow takes as they are


@dataclass(frozen=True)
class ArrowLayer:
    """A layer ready for ``pyogrio.write_arrow``.

    Attributes
    ----------
    table : pyarrow.Table
        The attributes, then the shapes in WKB under the geometry column's name.
    geometry_name : str
    geometry_type : str
        ``MultiPolygon``; ``Unknown`` for a layer without a shape, as pyogrio types it.
    crs : str or None
        As pyogrio gives it to GDAL: ``EPSG:code`` where the CRS has one, else WKT1.
    """

    table: pa.Table
    geometry_name: str
    geometry_type: str
    crs: str | None


def flat_polygons(frame: gpd.GeoDataFrame) -> bool:
    """Whether :func:`multipolygon_layer` takes the frame: its shapes are 2D polygons or
    multipolygons (or none) and its columns text, numbers or booleans; pyogrio converts
    other layers its own way."""
    types = shapely.get_type_id(np.asarray(frame.geometry.array, dtype=object))
    present = types >= 0
    if not np.isin(types[present], (_POLYGON, _MULTIPOLYGON)).all():
        return False
    if shapely.has_z(np.asarray(frame.geometry.array, dtype=object)[present]).any():
        return False
    return not any(
        pd.api.types.is_object_dtype(frame[name].dtype)
        and pd.api.types.infer_dtype(frame[name]) not in _PLAIN_OBJECTS
        for name in frame.columns
        if name != frame.geometry.name
    )


def multipolygon_layer(frame: gpd.GeoDataFrame) -> ArrowLayer:
    """The frame (one :func:`flat_polygons` takes) as an Arrow layer of multipolygons."""
    shapes = np.asarray(frame.geometry.array, dtype=object)
    types = shapely.get_type_id(shapes)
    present = types >= 0
    names = [name for name in frame.columns if name != frame.active_geometry_name]
    # A column at a time (dropping the geometry copied the frame); NaN as null, as
    # Table.from_pandas takes it.
    columns = [pa.Array.from_pandas(frame[name]) for name in names]
    wkb = pa.array(shapely.to_wkb(shapes, byte_order=_LITTLE_ENDIAN), type=pa.binary())
    polygons = types == _POLYGON
    if polygons.any():
        promoted = pc.binary_join_element_wise(pa.scalar(_ONE_PART_PREFIX), wkb, pa.scalar(b""))
        wkb = promoted if polygons[present].all() else pc.if_else(pa.array(polygons), promoted, wkb)
    return ArrowLayer(
        pa.Table.from_arrays([*columns, wkb], names=[*names, frame.geometry.name]),
        frame.geometry.name,
        "MultiPolygon" if present.any() else "Unknown",
        _crs_text(frame),
    )


def _crs_text(frame: gpd.GeoDataFrame) -> str | None:
    crs = frame.crs
    if crs is None:
        return None
    code = crs.to_epsg()
    return f"EPSG:{code}" if code else crs.to_wkt("WKT1_GDAL")
