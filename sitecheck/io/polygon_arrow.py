"""A polygon layer as the Arrow table its GeoPackage layer is written from.

What ``pyogrio.write_dataframe(..., promote_to_multi=True, use_arrow=True)`` hands
GDAL, made here a slice of rows at a time so that another process can write it
(:mod:`sitecheck.io.geopackage_aside`): the attributes as pyarrow converts them, and the
shapes as well-known binary with every polygon made a one-part multipolygon. A polygon's
WKB becomes that by a fixed prefix (byte order, type 6, one part; OGC 06-103r4, 8.2.7),
as pyogrio's promotion writes it, an empty polygon a multipolygon of one empty part
included.
"""

from __future__ import annotations

from collections.abc import Iterator
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


def multipolygon_slices(frame: gpd.GeoDataFrame, rows: int) -> Iterator[ArrowLayer]:
    """The frame (one :func:`flat_polygons` takes) as Arrow layers of multipolygons of at
    most ``rows`` rows each, in order, every one typed as the whole frame would be: a slice
    whose text column holds only nulls is still text, and the layer's kind is the frame's.
    Made a slice at a time, so only one slice's table is held at once (the 250k bench
    village's parcels took 220 MB as one table)."""
    shapes = np.asarray(frame.geometry.array, dtype=object)
    types = shapely.get_type_id(shapes)
    kind = "MultiPolygon" if (types >= 0).any() else "Unknown"
    names = [name for name in frame.columns if name != frame.active_geometry_name]
    schema = pa.schema(
        [
            *(pa.field(name, _arrow_type(frame[name])) for name in names),
            (frame.geometry.name, pa.binary()),
        ]
    )
    crs = _crs_text(frame)
    for start in range(0, max(len(frame), 1), rows):
        part = slice(start, start + rows)
        # A column at a time (dropping the geometry copied the frame); NaN as null, as
        # Table.from_pandas takes it.
        columns = [
            pa.Array.from_pandas(frame[name].iloc[part], type=schema.field(name).type)
            for name in names
        ]
        table = pa.Table.from_arrays(
            [*columns, _multipolygon_wkb(shapes[part], types[part])], schema=schema
        )
        yield ArrowLayer(table, frame.geometry.name, kind, crs)


def _arrow_type(column: pd.Series) -> pa.DataType:
    """The Arrow type of the column's GeoPackage field: text for a column of text objects,
    however many of them are null (pyogrio writes one of nulls alone as a text field too;
    typed null, GDAL refused it)."""
    if pd.api.types.is_object_dtype(column.dtype):
        return pa.string()  # flat_polygons took only text and nulls
    return pa.Array.from_pandas(column.iloc[:0]).type


def _multipolygon_wkb(shapes: np.ndarray, types: np.ndarray) -> pa.Array:
    """The shapes' WKB, polygons made one-part multipolygons (missing shapes null)."""
    wkb = pa.array(shapely.to_wkb(shapes, byte_order=_LITTLE_ENDIAN), type=pa.binary())
    present = types >= 0
    polygons = types == _POLYGON
    if not polygons.any():
        return wkb
    promoted = pc.binary_join_element_wise(pa.scalar(_ONE_PART_PREFIX), wkb, pa.scalar(b""))
    return promoted if polygons[present].all() else pc.if_else(pa.array(polygons), promoted, wkb)


def _crs_text(frame: gpd.GeoDataFrame) -> str | None:
    crs = frame.crs
    if crs is None:
        return None
    code = crs.to_epsg()
    return f"EPSG:{code}" if code else crs.to_wkt("WKT1_GDAL")
