"""Write a run's files: GeoPackages, JSON and text.

Each writer writes a new file at the path it is given: the temporary of an
:class:`~sitecheck.io.output_set.OutputSet`, which moves a run's files into
place together, so a reader never sees a half-written file or half a run.
"""

from __future__ import annotations

import csv
import json
import math
import os
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import TextIO

import geopandas as gpd
import numpy as np
import orjson
import pandas as pd
import pyogrio

from sitecheck.io.output_set import TABLE_DRIVERS

# GeoPackage 1.3 is read without warnings by the GDAL of QGIS 3.22 (GDAL 3.6).
GPKG_DATASET_OPTIONS = {"VERSION": "1.3"}


def write_geopackage(
    path: str | os.PathLike[str],
    layers: dict[str, gpd.GeoDataFrame],
    audit: dict[str, object] | None = None,
) -> None:
    """Write several layers into one new GeoPackage.

    With ``audit``, the run's audit block goes in too: as the GeoPackage's
    metadata (``SITECHECK_AUDIT``, JSON) and as a table ``sitecheck_audit``
    (one row per entry) that QGIS opens like any layer.
    """
    target = Path(path)
    for position, (name, frame) in enumerate(layers.items()):
        first = position == 0
        pyogrio.write_dataframe(
            frame,
            target,
            layer=name,
            driver="GPKG",
            promote_to_multi=True,
            use_arrow=True,
            append=not first,
            dataset_options=GPKG_DATASET_OPTIONS if first else None,
            dataset_metadata=audit_metadata(audit) if first else None,
        )
    if audit:
        pyogrio.write_dataframe(
            audit_table(audit), target, layer="sitecheck_audit", driver="GPKG", append=True
        )


def write_table(
    path: str | os.PathLike[str], frame: gpd.GeoDataFrame, audit: dict[str, object] | None
) -> None:
    """The parcel table as one FlatGeobuf or GeoParquet file (``--table``), the run's audit
    block in its layer metadata (``SITECHECK_AUDIT``, JSON)."""
    pyogrio.write_dataframe(
        frame,
        path,
        driver=TABLE_DRIVERS[Path(path).suffix.lower()],
        promote_to_multi=True,
        use_arrow=True,
        layer_metadata=audit_metadata(audit),
    )


def copy_table(
    geopackage: str | os.PathLike[str],
    path: str | os.PathLike[str],
    audit: dict[str, object] | None,
) -> None:
    """The GeoPackage's ``parcels`` layer copied to a ``--table`` file, a batch at a time
    (a distributed run's table is written whole only at its end)."""
    with pyogrio.open_arrow(geopackage, layer="parcels", use_pyarrow=True) as (meta, batches):
        pyogrio.write_arrow(
            batches,
            path,
            driver=TABLE_DRIVERS[Path(path).suffix.lower()],
            geometry_name=meta["geometry_name"] or "geometry",
            geometry_type=meta["geometry_type"],
            crs=meta["crs"],
            layer_metadata=audit_metadata(audit),
        )


def audit_metadata(audit: dict[str, object] | None) -> dict[str, str] | None:
    """The run's audit block as an output's metadata (``SITECHECK_AUDIT``, JSON)."""
    return {"SITECHECK_AUDIT": json.dumps(json_ready(audit))} if audit else None


def audit_table(audit: dict[str, object]) -> pd.DataFrame:
    """The audit block as a table, one row per entry, values as text or JSON."""
    return pd.DataFrame(
        {
            "entry": list(audit),
            "value": [
                v if isinstance(v, str) else json.dumps(json_ready(v)) for v in audit.values()
            ],
        }
    )


def json_ready(value: object) -> object:
    """Convert NumPy and pandas scalars to JSON values; NaN, infinities and NA become null.

    JSON has no NaN or Infinity: a document holding them is refused by strict readers.
    """
    kind = type(value)
    if kind is str or kind is int or kind is bool or value is None:
        return value  # most values of a document: no conversion to look for
    if kind is float:
        return value if math.isfinite(value) else None  # type: ignore[arg-type]
    if isinstance(value, dict):
        return {str(k): json_ready(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [json_ready(v) for v in value]
    if isinstance(value, np.bool_ | bool):
        return bool(value)
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, float | np.floating):
        return float(value) if math.isfinite(value) else None
    if value is pd.NA:
        return None
    return value


def _plain(value: object) -> object:
    """The JSON value of what the encoder does not know: NumPy scalars, pandas' NA."""
    if isinstance(value, np.bool_):
        return bool(value)
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, np.floating):
        return float(value)  # a NaN becomes null, as json_ready has it
    if value is pd.NA:
        return None
    raise TypeError(f"{type(value).__name__} is not JSON")


def ready_text(value: object) -> str:
    """``json_text(json_ready(value))``, written by orjson: NaN and infinities become
    null there as ``json_ready`` has them, NumPy scalars go through :func:`_plain`.

    orjson writes the same values as the ``json`` module, a few times faster; only a
    float below 1e-4 may be spelled another way (``0.00001`` for ``1e-05``, ``1e-7``
    for ``1e-07``), the same number. What orjson refuses (an integer past 64 bits,
    text that is not Unicode, nesting past 254 levels) goes to the ``json`` module.
    """
    try:
        return orjson.dumps(value, default=_plain, option=orjson.OPT_NON_STR_KEYS).decode()
    except orjson.JSONEncodeError:
        return json_text(json_ready(value))


def write_json(path: str | os.PathLike[str], document: Mapping[str, object]) -> None:
    """Write a JSON document in UTF-8, laid out as :func:`json_lines` says."""

    def dump(handle: TextIO) -> None:
        handle.writelines(json_lines(document))

    write_text(path, dump)


class Streamed:
    """An array of objects a document makes as it is written, never held whole.

    ``chunks()`` yields lists of objects; each list is written, then let go (a county's
    parcel entries took 168 MB held, at the peak of its check). Iterating it makes the
    objects again.
    """

    def __init__(self, chunks: Callable[[], Iterator[list[dict]]]) -> None:
        self.chunks = chunks

    def __iter__(self) -> Iterator[dict]:
        for chunk in self.chunks():
            yield from chunk


def json_lines(document: Mapping[str, object]) -> Iterator[str]:
    """A JSON object as text: a member a line, and a line per item of an array of objects
    (a list of them, or :class:`Streamed`).

    A run's document lists thousands of parcels; one parcel a line keeps it
    readable and diffable, and lets orjson write each line (:func:`ready_text`;
    Python's indenting encoder took most of the writing time of large runs).
    """
    yield "{\n"
    members = list(document.items())
    for position, (key, value) in enumerate(members):
        end = ",\n" if position < len(members) - 1 else "\n"
        name = json_text(str(key))
        objects = isinstance(value, list | tuple) and all(isinstance(i, dict) for i in value)
        if isinstance(value, Streamed) or (objects and value):
            yield from _object_lines(name, iter(value), end)  # type: ignore[call-overload]
        else:
            yield f"  {name}: {ready_text(value)}{end}"
    yield "}\n"


def _object_lines(name: str, items: Iterator[dict], end: str) -> Iterator[str]:
    """A member whose value is an array of objects, an object a line (``[]`` when none)."""
    first = next(items, None)
    if first is None:
        yield f"  {name}: []{end}"
        return
    yield f"  {name}: [\n    " + ready_text(first)
    for item in items:
        yield ",\n    " + ready_text(item)
    yield "\n  ]" + end


def write_json_lines(path: str | os.PathLike[str], records: Iterable[object]) -> None:
    """Write newline-delimited JSON: each record on a line of its own, as it comes."""

    def dump(handle: TextIO) -> None:
        for record in records:
            handle.write(ready_text(record) + "\n")

    write_text(path, dump)


def json_text(value: object) -> str:
    """One JSON value on one line, without spaces, non-ASCII text kept as it is."""
    return json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))


def write_text(path: str | os.PathLike[str], writer: Callable[[TextIO], object]) -> None:
    """Write a UTF-8 text file with ``writer(handle)``."""
    with open(path, "w", encoding="utf-8", newline="") as handle:
        writer(handle)


SPREADSHEET_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""A cell starting with one of these is read as a formula by Excel, LibreOffice and Sheets."""

_LEADING_SPACE = " \t\r\n\v\f\u00a0"
"""What a spreadsheet may pass over before it reads a formula's first character."""


def runs_as_formula(cell: str) -> bool:
    """Whether a spreadsheet could run a text cell as a formula: it starts with a formula
    character, or with white space or a line break followed by one."""
    return cell.startswith(SPREADSHEET_FORMULA_STARTS) or cell.lstrip(_LEADING_SPACE).startswith(
        SPREADSHEET_FORMULA_STARTS[:4]
    )


def spreadsheet_safe(table: pd.DataFrame) -> pd.DataFrame:
    """The table with every text cell a spreadsheet would run as a formula quoted.

    A leading apostrophe makes the cell text (``'=HYPERLINK(...)``), as OWASP's
    advice on CSV injection has it, also where white space or a line break comes
    before the formula; numbers are left as they are.
    """
    safe = table.copy()
    for column in safe.columns:
        if safe[column].dtype == object or pd.api.types.is_string_dtype(safe[column]):
            safe[column] = [
                f"'{cell}" if isinstance(cell, str) and runs_as_formula(cell) else cell
                for cell in safe[column]
            ]
    return safe


def write_csv(path: str | os.PathLike[str], table: pd.DataFrame) -> None:
    """Write a table as RFC 4180 CSV: records end in CRLF, and a cell holding a comma, a
    quote, a carriage return or a line feed is quoted, so no cell splits a record."""
    write_text(
        path,
        lambda handle: table.to_csv(
            handle, index=False, lineterminator="\r\n", quoting=csv.QUOTE_MINIMAL
        ),
    )
