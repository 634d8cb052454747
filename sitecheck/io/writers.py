"""Write results atomically: a reader never sees a half-written file.

Each writer writes to a temporary file beside the target and renames it over
the target only when the write succeeded.
"""

from __future__ import annotations

import json
import math
import os
import tempfile
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import TextIO

import geopandas as gpd
import numpy as np
import pandas as pd
import pyogrio

# GeoPackage 1.3 is read without warnings by the GDAL of QGIS 3.22 (GDAL 3.6).
GPKG_DATASET_OPTIONS = {"VERSION": "1.3"}


@contextmanager
def atomic_path(target: str | os.PathLike[str]) -> Iterator[Path]:
    """Yield a temporary path beside ``target``; move it over ``target`` on success.

    On any error the temporary file is removed and ``target`` is left as it was.
    """
    target = Path(target)
    directory = target.parent if str(target.parent) else Path(".")
    if not directory.is_dir():
        raise FileNotFoundError(f"output folder does not exist: {directory}")
    handle, temporary = tempfile.mkstemp(
        prefix=f".{target.name}.", suffix=target.suffix or ".tmp", dir=directory
    )
    os.close(handle)
    os.unlink(temporary)  # writers create the file themselves (GDAL refuses an existing empty one)
    temporary_path = Path(temporary)
    try:
        yield temporary_path
        os.replace(temporary_path, target)
    finally:
        for leftover in (
            temporary_path,
            Path(f"{temporary_path}-journal"),
            Path(f"{temporary_path}-wal"),
            Path(f"{temporary_path}-shm"),
        ):
            if leftover.exists():
                leftover.unlink()


def write_geopackage(
    path: str | os.PathLike[str],
    layers: dict[str, gpd.GeoDataFrame],
    audit: dict[str, object] | None = None,
) -> None:
    """Write several layers into one new GeoPackage, atomically.

    With ``audit``, the run's audit block goes in too: as the GeoPackage's
    metadata (``SITECHECK_AUDIT``, JSON) and as a table ``sitecheck_audit``
    (one row per entry) that QGIS opens like any layer.
    """
    with atomic_path(path) as temporary:
        for name, frame in layers.items():
            first = not temporary.exists()
            pyogrio.write_dataframe(
                frame,
                temporary,
                layer=name,
                driver="GPKG",
                promote_to_multi=True,
                use_arrow=True,
                append=not first,
                dataset_options=GPKG_DATASET_OPTIONS if first else None,
                dataset_metadata={"SITECHECK_AUDIT": json.dumps(json_ready(audit))}
                if first and audit
                else None,
            )
        if audit:
            pyogrio.write_dataframe(
                audit_table(audit), temporary, layer="sitecheck_audit", driver="GPKG", append=True
            )


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
    """Convert NumPy and pandas scalars to JSON values; NaN and NA become null."""
    if value is None:
        return None
    if isinstance(value, dict):
        return {str(k): json_ready(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [json_ready(v) for v in value]
    if isinstance(value, np.bool_ | bool):
        return bool(value)
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, float | np.floating):
        return None if math.isnan(value) else float(value)
    if value is pd.NA:
        return None
    return value


def write_json(path: str | os.PathLike[str], document: Mapping[str, object]) -> None:
    """Write a JSON document atomically, in UTF-8, laid out as :func:`json_lines` says."""

    def dump(handle: TextIO) -> None:
        handle.writelines(json_lines(json_ready(document)))  # type: ignore[arg-type]

    write_text(path, dump)


def json_lines(document: Mapping[str, object]) -> Iterator[str]:
    """A JSON object as text: a member a line, and a line per item of an array of objects.

    A run's document lists thousands of parcels; one parcel a line keeps it
    readable and diffable, and lets the C encoder do the work (Python's
    indenting encoder took most of the writing time of large runs).
    """
    yield "{\n"
    members = list(document.items())
    for position, (key, value) in enumerate(members):
        end = ",\n" if position < len(members) - 1 else "\n"
        if isinstance(value, list) and value and all(isinstance(item, dict) for item in value):
            yield f"  {json_text(key)}: [\n"
            for number, item in enumerate(value):
                yield ("    " if number == 0 else ",\n    ") + json_text(item)
            yield "\n  ]" + end
        else:
            yield f"  {json_text(key)}: {json_text(value)}{end}"
    yield "}\n"


def json_text(value: object) -> str:
    """One JSON value on one line, non-ASCII text kept as it is."""
    return json.dumps(value, ensure_ascii=False)


def write_text(path: str | os.PathLike[str], writer: Callable[[TextIO], object]) -> None:
    """Write a UTF-8 text file atomically with ``writer(handle)``."""
    with (
        atomic_path(path) as temporary,
        open(temporary, "w", encoding="utf-8", newline="") as handle,
    ):
        writer(handle)
