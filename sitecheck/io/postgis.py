"""Layers in PostgreSQL + PostGIS, where county and village GIS keep parcels.

A layer is given as ``PG:<connection>`` naming its table with ``tables=`` (the
open option GDAL's PostgreSQL driver takes) or after a last colon, as a file's
layer is: ``PG:dbname=county host=gis tables=public.parcels`` or
``PG:dbname=county host=gis:public.parcels``. The connection is a libpq
connection string or URI; passwords come from it, ``PGPASSWORD`` or
``~/.pgpass``, and are never written to an output. Reads go through the
table's spatial index (``&&`` on its bounding boxes) when an extent is given.

The PyPI GDAL inside pyogrio has no PostgreSQL driver, so the engine reads
PostGIS itself with psycopg: geometries as WKB, flattened to 2D and with arcs
linearised by PostGIS.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

import geopandas as gpd
import numpy as np
import pandas as pd
import pyproj
import shapely

from sitecheck.errors import InputError
from sitecheck.io import conninfo

PREFIX = "PG:"
_TABLE = r"[A-Za-z_][\w$]*(?:\.[A-Za-z_][\w$]*)?(?:\([A-Za-z_][\w$]*\))?"
_TABLES_OPTION = re.compile(rf"\s*\btables?\s*=\s*'?({_TABLE})'?\s*")
_TRAILING_TABLE = re.compile(rf":({_TABLE})$")
URI_SCHEMES = ("postgresql://", "postgres://")
"""How a libpq URI starts: a source given so is read as ``PG:`` followed by it."""


def is_postgis(path: str) -> bool:
    """Whether a source names a PostGIS database (``PG:...``)."""
    return path.startswith(PREFIX)


def is_uri(path: str) -> bool:
    """Whether a source is a bare libpq URI (``postgresql://...``), without ``PG:``."""
    return path.lower().startswith(URI_SCHEMES)


def split_spec(spec: str) -> tuple[str, str | None]:
    """``PG:<connection>`` and the table it names (``schema.table`` or None)."""
    text = spec[len(PREFIX) :]
    option = _TABLES_OPTION.search(text)
    if option:
        return PREFIX + (text[: option.start()] + " " + text[option.end() :]).strip(), option[1]
    trailing = _TRAILING_TABLE.search(text)
    if (trailing and "=" in text[: trailing.start()]) or (trailing and "://" in text):
        return PREFIX + text[: trailing.start()], trailing[1]
    return PREFIX + text, None


def shown(path: str) -> str:
    """A source as messages and the audit show it: a connection without its secrets.

    The connection is parsed by libpq's rules (:mod:`sitecheck.io.conninfo`) and
    rebuilt with ``password=***``; a table it names follows as ``tables=``. Any
    other source is returned as it is.
    """
    if is_uri(path):
        path = PREFIX + path
    if not is_postgis(path):
        return path
    connection, table = split_spec(path)
    text = PREFIX + conninfo.shown(connection[len(PREFIX) :])
    return text if table is None else f"{text} tables={table}"


@dataclass(frozen=True)
class Table:
    """A PostGIS table with geometry, as ``geometry_columns`` lists it."""

    schema: str
    name: str
    column: str
    srid: int
    kind: str

    @property
    def label(self) -> str:
        return self.name if self.schema == "public" else f"{self.schema}.{self.name}"


@contextmanager
def _connection(path: str) -> Iterator[Any]:
    import psycopg

    text = path[len(PREFIX) :]
    try:
        conninfo.parse(text)  # refused in words that quote none of it, before libpq sees it
    except conninfo.ConnectionStringError as error:
        raise InputError(f"PostGIS {shown(path)}: {error}") from None
    try:
        connection = psycopg.connect(text, connect_timeout=20)
    except psycopg.Error as error:
        first = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        raise InputError(
            f"PostGIS {shown(path)}: cannot connect: {conninfo.redacted(first)}"
        ) from None
    try:
        with connection:
            connection.read_only = True
            yield connection
    finally:
        connection.close()


def list_layers(path: str) -> list[tuple[str, str | None]]:
    """The database's tables with geometry, as ``(schema.table, geometry type)``."""
    with _connection(path) as connection:
        return [(table.label, table.kind) for table in _tables(connection)]


@dataclass(frozen=True)
class _Opened:
    """A layer's table on an open connection, its FID column (None: row positions) and
    the order its rows are numbered in when it has none."""

    connection: Any
    table: Table
    key: str | None
    row_order: str = "ctid"


@contextmanager
def _opened(path: str, layer: str | None) -> Iterator[_Opened]:
    """One connection for everything a read asks of the table."""
    with _connection(path) as connection:
        table = _table(connection, path, layer)
        key = _key(connection, table)
        yield _Opened(connection, table, key, "ctid" if key else _row_order(connection, table))


def _tables(connection: Any) -> list[Table]:
    rows = connection.execute(
        "SELECT f_table_schema, f_table_name, f_geometry_column, srid, type "
        "FROM geometry_columns ORDER BY f_table_schema, f_table_name, f_geometry_column"
    ).fetchall()
    return [Table(str(r[0]), str(r[1]), str(r[2]), int(r[3]), str(r[4])) for r in rows]


def _table(connection: Any, path: str, layer: str | None) -> Table:
    """The table a layer names: ``table``, ``schema.table`` or ``schema.table(column)``."""
    if layer is None:
        raise InputError(f"PostGIS {shown(path)}: name the table, as PG:...:schema.table")
    match = re.fullmatch(r"(?:([^.()]+)\.)?([^.()]+)(?:\(([^()]+)\))?", layer)
    if match is None:
        raise InputError(f"PostGIS {shown(path)}: '{layer}' is not schema.table")
    schema, name, column = match.groups()
    tables = _tables(connection)
    found = [
        t
        for t in tables
        if t.name == name
        and ((schema is None and t.schema == "public") or t.schema == schema)
        and (column is None or t.column == column)
    ]
    if not found and schema is None:
        found = [t for t in tables if t.name == name and (column is None or t.column == column)]
    if len(found) != 1:
        known = ", ".join(f"{t.label}({t.column})" for t in tables) or "none"
        why = (
            "names several geometry columns or tables" if found else "is not a table with geometry"
        )
        raise InputError(f"PostGIS {shown(path)}: '{layer}' {why}; tables with geometry: {known}")
    return found[0]


def _crs(connection: Any, srid: int) -> pyproj.CRS | None:
    if srid <= 0:
        return None
    row = connection.execute(
        "SELECT auth_name, auth_srid, srtext FROM spatial_ref_sys WHERE srid = %s", (srid,)
    ).fetchone()
    if row is None:
        return None
    auth, code, wkt = row
    if auth and code:
        try:
            return pyproj.CRS.from_user_input(f"{auth}:{code}")
        except pyproj.exceptions.CRSError:
            pass
    return pyproj.CRS.from_wkt(wkt) if wkt else None


def _columns(connection: Any, table: Table, key: str | None) -> list[str]:
    """The table's attribute fields: neither its geometry nor its integer key (the FID).

    Read from the catalogue, not ``information_schema``, which leaves out
    materialized views.
    """
    rows = connection.execute(
        "SELECT attname FROM pg_attribute WHERE attrelid = %s::regclass "
        "AND attnum > 0 AND NOT attisdropped ORDER BY attnum",
        (_qualified(table),),
    ).fetchall()
    return [str(r[0]) for r in rows if r[0] not in (table.column, key)]


def _key(connection: Any, table: Table) -> str | None:
    """The table's primary key when it is one integer column: its values are the FIDs."""
    rows = connection.execute(
        "SELECT a.attname, format_type(a.atttypid, a.atttypmod) FROM pg_index i "
        "JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey) "
        "WHERE i.indrelid = %s::regclass AND i.indisprimary",
        (_qualified(table),),
    ).fetchall()
    if len(rows) == 1 and rows[0][1] in ("integer", "bigint", "smallint"):
        return str(rows[0][0])
    return None


def _row_order(connection: Any, table: Table) -> str:
    """What numbers the rows of a relation without an integer key, the same on every read.

    A table or materialized view has its rows' physical places (``ctid``); a
    partitioned table's places repeat across partitions, so the partition comes
    first; a view or foreign table has neither, so its rows are ordered by
    their whole text (equal rows are interchangeable).
    """
    row = connection.execute(
        "SELECT relkind FROM pg_class WHERE oid = %s::regclass", (_qualified(table),)
    ).fetchone()
    kind = str(row[0]) if row else ""
    if kind in ("r", "m"):
        return "ctid"
    if kind == "p":
        return "tableoid, ctid"
    return "source::text"


def _qualified(table: Table) -> str:
    return '"{}"."{}"'.format(table.schema.replace('"', '""'), table.name.replace('"', '""'))


def _identifier(name: str) -> str:
    return '"{}"'.format(name.replace('"', '""'))


def read_info(path: str, layer: str | None) -> dict[str, Any]:
    """The layer's CRS, feature count and fields, as pyogrio's ``read_info`` gives them."""
    with _opened(path, layer) as opened:
        table, connection = opened.table, opened.connection
        count = connection.execute(f"SELECT count(*) FROM {_qualified(table)}").fetchone()[0]
        return {
            "crs": _crs(connection, table.srid),
            "features": int(count),
            "fields": np.array(_columns(connection, table, opened.key), dtype=object),
            "geometry_type": table.kind,
        }


def _where(
    table: Table,
    bbox: tuple[float, float, float, float] | None,
    mask: shapely.Geometry | None,
) -> tuple[str, list[object]]:
    """A filter on the spatial index: the rows whose bounding box meets the box or mask."""
    geometry = _identifier(table.column)
    if bbox is not None:
        return f" WHERE {geometry} && ST_MakeEnvelope(%s, %s, %s, %s, %s)", [*bbox, table.srid]
    if mask is not None:
        return (
            f" WHERE {geometry} && ST_GeomFromWKB(%s, %s)"
            f" AND ST_Intersects({geometry}, ST_GeomFromWKB(%s, %s))",
            [shapely.to_wkb(mask), table.srid, shapely.to_wkb(mask), table.srid],
        )
    return "", []


def _rows(
    opened: _Opened,
    columns: Sequence[str],
    bbox: tuple[float, float, float, float] | None,
    mask: shapely.Geometry | None,
) -> list[tuple[object, ...]]:
    """``FID, *columns`` of the rows meeting the box or mask, in FID order.

    The FID is the integer primary key, else the row's position in the table
    (from 0), as GDAL numbers a table without one.
    """
    table, key = opened.table, opened.key
    where, arguments = _where(table, bbox, mask)
    listing = ", ".join(columns)
    if key:
        query = f"SELECT {_identifier(key)}, {listing} FROM {_qualified(table)}{where}"
    else:
        numbered = (
            f"SELECT source.*, row_number() OVER (ORDER BY {opened.row_order}) - 1 "
            "AS _sitecheck_position"
        )
        query = (
            f"SELECT _sitecheck_position, {listing} "
            f"FROM ({numbered} FROM {_qualified(table)} AS source) AS numbered{where}"
        )
    return list(opened.connection.execute(query + " ORDER BY 1", arguments).fetchall())


def read_dataframe(
    path: str,
    layer: str | None,
    columns: Sequence[str] | None = None,
    bbox: tuple[float, float, float, float] | None = None,
    mask: shapely.Geometry | None = None,
    read_geometry: bool = True,
) -> pd.DataFrame:
    """The table's rows (those meeting ``bbox`` or ``mask`` when given), indexed by FID."""
    with _opened(path, layer) as opened:
        table, connection = opened.table, opened.connection
        fields = _columns(connection, table, opened.key)
        wanted = fields if columns is None else [c for c in fields if c in set(columns)]
        selected = [_identifier(c) for c in wanted]
        if read_geometry:
            geometry = _identifier(table.column)
            selected.append(f"ST_AsBinary(ST_Force2D(ST_CurveToLine({geometry})))")
        rows = _rows(opened, selected or ["NULL"], bbox, mask)
        crs = _crs(connection, table.srid)
    names = ["_sitecheck_fid", *wanted, *(["_wkb"] if read_geometry else [])]
    records = [row[: len(names)] for row in rows]
    frame = pd.DataFrame.from_records(records, columns=names).set_index("_sitecheck_fid")
    frame.index = frame.index.astype(np.int64).rename(None)
    for name in wanted:
        if frame[name].map(lambda v: isinstance(v, Decimal)).any():
            frame[name] = pd.to_numeric(frame[name], errors="coerce")
    if not read_geometry:
        return frame
    wkb = [None if w is None else bytes(w) for w in frame.pop("_wkb")]
    return gpd.GeoDataFrame(frame, geometry=shapely.from_wkb(wkb), crs=crs)


def read_bounds(
    path: str, layer: str | None, bbox: tuple[float, float, float, float] | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """FIDs and bounds (``minx, miny, maxx, maxy`` rows of a 4 x n array), as pyogrio
    gives them; features without a geometry are left out."""
    with _opened(path, layer) as opened:
        box = f"Box2D({_identifier(opened.table.column)})"
        corners = [f"ST_XMin({box})", f"ST_YMin({box})", f"ST_XMax({box})", f"ST_YMax({box})"]
        rows = _rows(opened, corners, bbox, None)
    values = np.array([row[1:] for row in rows if row[1] is not None], dtype=float)
    fids = np.array([row[0] for row in rows if row[1] is not None], dtype=np.int64)
    return fids, values.reshape(-1, 4).T
