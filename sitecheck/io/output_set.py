"""A run's outputs as one set: checked before the work, written aside, moved into place together.

Before any work, every destination is checked: its folder exists and is
writable, it is not a folder itself, it is not one of the run's inputs (the
same file by any path: a link, a ``path:layer`` form) and no two outputs name
the same file. Each destination is then locked, so a second run writing the
same file fails at once instead of interleaving its files with this run's.

Outputs are written to hidden temporaries beside their destinations
(``.NAME.sitecheck-PID-XXXX.tmp``); only when every output is written are they
renamed over their destinations, one after the other. A failed or interrupted
run removes its temporaries; a run killed outright leaves them, and the next
run on the same destination removes them, since it holds that destination's
lock and no live run can own them.
"""

from __future__ import annotations

import errno
import fcntl
import os
import secrets
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path

import pyogrio

from sitecheck.errors import InputError

TEMPORARY_MARK = ".sitecheck-"
"""Between a destination's name and the run's own part, in temporaries and lock files."""
_LOCK_SUFFIX = "lock"
_READABLE_ERRORS = {
    errno.ENOSPC: "the disk is full",
    errno.EDQUOT: "the disk quota is used up",
    errno.EFBIG: "the file size limit was reached",
    errno.EACCES: "permission denied",
    errno.EPERM: "permission denied",
    errno.EROFS: "the file system is read-only",
}


class OutputError(InputError):
    """An output cannot be written where the user asked; the message names the option."""


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
            raise OutputError(f"{output.option}: cannot write in {folder} (permission denied)")
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


def error_words(error: BaseException) -> str:
    """A write failure in a few words: 'the disk is full', else the error's own first line."""
    number = getattr(error, "errno", None)
    if number in _READABLE_ERRORS:
        return _READABLE_ERRORS[number]
    text = str(error).strip().splitlines()
    for words, reason in (
        ("No space left", "the disk is full"),
        ("disk is full", "the disk is full"),
        ("disk I/O error", "the disk refused the write (full, or a file size limit reached)"),
        ("File too large", "the file size limit was reached"),
        ("Permission denied", "permission denied"),
        ("Read-only file system", "the file system is read-only"),
    ):
        if any(words in line for line in text):
            return reason
    return text[0] if text else type(error).__name__


class OutputSet:
    """The files one run writes, made visible together when the run ends well.

    Use as a context manager around the whole run: entering checks and locks
    every destination; :meth:`writing` yields the temporary to write an output
    to; :meth:`commit` moves them all into place; leaving without a commit
    removes the temporaries and leaves the destinations as they were.

    Parameters
    ----------
    outputs : sequence of Named or None
        The destinations; None entries (options not given) are skipped.
    inputs : sequence of Named or None
        Every file the run reads.
    geopackages : sequence of str
        The options whose outputs are GeoPackages, which must be named so.
    tables : sequence of str
        The options whose outputs are one-table files (FlatGeobuf, GeoParquet), which
        must be named so, in a format the GDAL in use writes.
    """

    def __init__(
        self,
        outputs: Sequence[Named | None],
        inputs: Sequence[Named | None],
        geopackages: Sequence[str] = (),
        tables: Sequence[str] = (),
    ) -> None:
        self.outputs = [output for output in outputs if output is not None]
        self.inputs = [source for source in inputs if source is not None]
        self.geopackages = tuple(geopackages)
        self.tables = tuple(tables)
        self._temporaries: dict[str, Path] = {}
        self._locks: list[tuple[Path, int]] = []
        self._committed = False

    def __enter__(self) -> OutputSet:
        check_destinations(self.outputs, self.inputs)
        for option in self.geopackages:
            if self.has(option):
                require_gpkg(option, self.path(option))
        for option in self.tables:
            if self.has(option):
                require_table(option, self.path(option))
        try:
            for output in self.outputs:
                self._lock(output)
                remove_stale_temporaries(output.path)
        except BaseException:
            self._release()
            raise
        return self

    def __exit__(self, *exc_info: object) -> None:
        try:
            if not self._committed:
                for temporary in self._temporaries.values():
                    remove_with_sidecars(temporary)
        finally:
            self._release()

    def path(self, option: str) -> Path:
        """The destination an option names."""
        return self._output(option).path

    def has(self, option: str) -> bool:
        """Whether the run writes the output of that option."""
        return any(output.option == option for output in self.outputs)

    def temporary(self, option: str) -> Path:
        """The temporary an output is written to (not yet created)."""
        if option not in self._temporaries:
            target = self._output(option).path
            own = f"{os.getpid()}-{secrets.token_hex(4)}.tmp{target.suffix}"
            self._temporaries[option] = target.with_name(f".{target.name}{TEMPORARY_MARK}{own}")
        return self._temporaries[option]

    @contextmanager
    def writing(self, option: str) -> Iterator[Path]:
        """Yield the temporary of an output; a failure to write becomes one line naming the option."""
        try:
            yield self.temporary(option)
        except Exception as error:
            if isinstance(error, InputError) or not _is_write_error(error):
                raise
            raise OutputError(
                f"{option}: could not write {self.path(option)}: {error_words(error)}"
            ) from error

    def commit(self) -> None:
        """Move every written output over its destination."""
        missing = [
            output.option for output in self.outputs if not self.temporary(output.option).exists()
        ]
        if missing:
            raise RuntimeError(f"outputs not written: {', '.join(missing)}")
        for output in self.outputs:
            os.replace(self.temporary(output.option), output.path)
        self._committed = True

    def _output(self, option: str) -> Named:
        for output in self.outputs:
            if output.option == option:
                return output
        raise KeyError(option)

    def _lock(self, output: Named) -> None:
        lock_path = lock_file(output.path)
        while True:
            handle = os.open(lock_path, os.O_CREAT | os.O_RDWR, 0o644)
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(handle)
                raise OutputError(
                    f"{output.option}: another SiteCheck run is writing {output.path}; "
                    "wait for it to end or choose another file"
                ) from None
            try:
                still_there = os.stat(lock_path).st_ino == os.fstat(handle).st_ino
            except FileNotFoundError:
                still_there = False
            if still_there:
                self._locks.append((lock_path, handle))
                return
            os.close(handle)  # the run before removed it as it ended: lock the new one

    def _release(self) -> None:
        for lock_path, handle in reversed(self._locks):
            with suppress(FileNotFoundError):
                os.unlink(lock_path)
            os.close(handle)
        self._locks.clear()


def lock_file(target: Path) -> Path:
    """The lock file of a destination, beside it."""
    return target.with_name(f".{target.name}{TEMPORARY_MARK}{_LOCK_SUFFIX}")


def remove_stale_temporaries(target: Path) -> list[Path]:
    """Remove temporaries a dead run left beside ``target``; call only holding its lock."""
    prefix = f".{target.name}{TEMPORARY_MARK}"
    lock = lock_file(target).name
    removed = []
    for leftover in target.parent.glob(f"{glob_escape(prefix)}*"):
        if leftover.name != lock and leftover.is_file():
            leftover.unlink()
            removed.append(leftover)
    return removed


def remove_with_sidecars(path: Path) -> None:
    """Remove a file and the journal files SQLite may have left beside it."""
    for leftover in (path, *(Path(f"{path}{end}") for end in ("-journal", "-wal", "-shm"))):
        if leftover.exists():
            leftover.unlink()


def glob_escape(text: str) -> str:
    """Text matched literally by a glob pattern."""
    return "".join(f"[{char}]" if char in "*?[" else char for char in text)


def _is_write_error(error: Exception) -> bool:
    """A failure of the file system, or of GDAL, rasterio or SQLite writing a file."""
    if isinstance(error, OSError):
        return True
    module = type(error).__module__
    return module.startswith(("pyogrio", "rasterio", "sqlite3"))
