"""Where a run's outputs may go: checked against each other and the run's inputs before any work.

Every destination must be a file in a folder that takes new files, must not be
one of the run's inputs (by any path: a link, ``path:layer``, a shapefile's
sidecar) nor inside one (a File Geodatabase is a folder), and no two outputs may
name the same file; GeoPackage and table outputs must be named for their format.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import pyogrio

from sitecheck.io.output_locks import OutputError


@dataclass(frozen=True)
class Named:
    """A file a run reads or writes, with the option that named it.

    Attributes
    ----------
    option : str
        The flag or parameter (``--out``, ``--parcels``, ``JSON_REPORT``).
    path : Path
        The file; a ``path:layer`` form names its file.
    """

    option: str
    path: Path


def named(option: str, text: str | os.PathLike[str] | None) -> Named | None:
    """A file named by an option, or None when the option was not given (or is not a file)."""
    if text is None or str(text) == "":
        return None
    spec = str(text)
    if spec.upper().startswith("PG:") or spec.lower().startswith("postgresql://"):
        return None
    if not os.path.exists(spec):
        head, sep, _ = spec.rpartition(":")
        if sep and head and os.path.exists(head):
            spec = head
    return Named(option, Path(spec))


def require_gpkg(option: str, path: Path) -> None:
    """Refuse an output named for another format: SiteCheck writes GeoPackages.

    ``--out o.shp`` would otherwise be a GeoPackage under a shapefile's name.
    """
    if Path(path).suffix.lower() != ".gpkg":
        raise OutputError(
            f"{option}: SiteCheck writes a GeoPackage; give a file ending in .gpkg "
            f"(got {Path(path).name})"
        )


TABLE_DRIVERS = {".fgb": "FlatGeobuf", ".parquet": "Parquet"}
"""The formats a table output is written in, by the file's ending."""


def require_table(option: str, path: Path) -> str:
    """The GDAL driver a table output is written with, by its ending; refuse an ending that
    names no table format, or a format the GDAL in use cannot write."""
    driver = TABLE_DRIVERS.get(Path(path).suffix.lower())
    if driver is None:
        endings = ", ".join(f"{end} ({name})" for end, name in TABLE_DRIVERS.items())
        raise OutputError(f"{option}: give a file ending in {endings} (got {Path(path).name})")
    if "w" not in pyogrio.list_drivers().get(driver, ""):
        raise OutputError(
            f"{option}: the GDAL in use ({pyogrio.__gdal_version_string__}) has no {driver} "
            "driver that writes; give a .fgb file, or read the GeoPackage (--out)"
        )
    return driver


SHAPEFILE_PARTS = (".shp", ".shx", ".dbf", ".prj", ".cpg", ".qix", ".sbn", ".sbx", ".qmd")
"""The files of one shapefile: an output over any of them breaks the input."""


def input_parts(path: Path) -> list[Path]:
    """The files an input is made of: a shapefile's sidecars and SQLite's journals too."""
    suffix = path.suffix.lower()
    if suffix in SHAPEFILE_PARTS:
        stem = path.with_suffix("")
        return [Path(f"{stem}{end}") for part in SHAPEFILE_PARTS for end in (part, part.upper())]
    if suffix in (".gpkg", ".sqlite", ".db"):
        return [path, *(Path(f"{path}{end}") for end in ("-wal", "-shm", "-journal"))]
    return [path]


def is_inside(path: Path, folder: Path) -> bool:
    """Whether ``path`` lies in ``folder`` (a File Geodatabase is a folder)."""
    return Path(os.path.realpath(folder)) in Path(os.path.realpath(path)).parents


def same_file(first: Path, second: Path) -> bool:
    """Whether two paths name one file: the same resolved path, or the same inode (a hard link)."""
    if os.path.realpath(first) == os.path.realpath(second):
        return True
    try:
        return os.path.samefile(first, second)
    except OSError:
        return False


def check_destinations(outputs: Sequence[Named], inputs: Sequence[Named]) -> None:
    """Refuse, before any work, outputs that cannot be written or would replace a file in use.

    Raises
    ------
    OutputError
        Naming the option, and the other option when two name the same file.
    """
    for position, output in enumerate(outputs):
        where = output.path
        if where.is_dir():
            raise OutputError(f"{output.option}: {where} is a folder; give a file name in it")
        if where.exists() and not where.is_file():
            # A device or a pipe: renaming a finished output over it would replace the node.
            raise OutputError(f"{output.option}: {where} is not a regular file; give a file name")
        folder = where.parent
        if not folder.is_dir():
            raise OutputError(f"{output.option}: output folder does not exist: {folder}")
        if not os.access(folder, os.W_OK | os.X_OK):
            raise OutputError(
                f"{output.option}: cannot write in {folder} ({_why_unwritable(folder)})"
            )
        for source in inputs:
            if any(same_file(where, part) for part in input_parts(source.path)):
                raise OutputError(
                    f"{output.option} {where} is the input of {source.option}; writing it "
                    "would replace that input: choose another file"
                )
            if source.path.is_dir() and is_inside(where, source.path):
                raise OutputError(
                    f"{output.option} {where} is inside the input of {source.option} "
                    f"({source.path}); choose a file outside it"
                )
        for other in outputs[:position]:
            if same_file(where, other.path):
                raise OutputError(
                    f"{other.option} and {output.option} both name {where}; give each its own file"
                )


def _why_unwritable(folder: Path) -> str:
    """Why a folder takes no new file: its file system is mounted read-only (which no
    permission change mends), else permission denied."""
    try:
        if os.statvfs(folder).f_flag & os.ST_RDONLY:
            return "the file system is read-only"
    except OSError:
        pass
    return "permission denied"
