"""Families of geometry types, named by shapely's GeometryType rather than by number."""

from __future__ import annotations

from shapely import GeometryType

POINT_TYPES: tuple[int, ...] = (int(GeometryType.POINT), int(GeometryType.MULTIPOINT))
LINE_TYPES: tuple[int, ...] = (
    int(GeometryType.LINESTRING),
    int(GeometryType.LINEARRING),
    int(GeometryType.MULTILINESTRING),
)
POLYGON_TYPES: tuple[int, ...] = (int(GeometryType.POLYGON), int(GeometryType.MULTIPOLYGON))
COLLECTION = int(GeometryType.GEOMETRYCOLLECTION)
POLYGON = int(GeometryType.POLYGON)
MULTIPOLYGON = int(GeometryType.MULTIPOLYGON)
LINESTRING = int(GeometryType.LINESTRING)
