"""A run's outputs as one set: checked before the work, written aside, moved into place together.

Before any work, every destination is checked: its folder exists and is
writable, it is not a folder itself, it is not one of the run's inputs (the
same file by any path: a link, a ``path:layer`` form) and no two outputs name
the same file. Each destination is then locked, so a second run writing the
same file fails at once instead of interleaving its files with this run's.

Outputs are written to hidden temporaries beside their destinations
(``.NAME.sitecheck-PID-XXXX.tmp``); only when every output is written are the
destinations checked again and the temporaries renamed over them, each previous
file kept aside until all are in place, so a rename that fails puts every
previous output back. A failed, interrupted or terminated run removes its
temporaries; a run killed outright leaves them, and the next run writing into
the same folder removes them (:mod:`sitecheck.io.output_locks`).
"""

from __future__ import annotations

import errno
import os
import secrets
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from sitecheck.errors import InputError
from sitecheck.io.output_checks import (
    TABLE_DRIVERS,
    Named,
    check_destinations,
    named,
    require_gpkg,
    require_table,
    same_file,
)
from sitecheck.io.output_locks import (
    PREVIOUS_SUFFIX,
    TEMPORARY_MARK,
    Lock,
    OutputError,
    glob_escape,
    lock_file,
    release,
    remove_stale_temporaries,
    remove_with_sidecars,
    sweep_folder,
    try_lock,
)
from sitecheck.termination import held_back, stop_if_requested

__all__ = [
    "TABLE_DRIVERS",
    "TEMPORARY_MARK",
    "Named",
    "OutputError",
    "OutputSet",
    "glob_escape",
    "lock_file",
    "named",
    "remove_stale_temporaries",
    "remove_with_sidecars",
    "same_file",
]
_READABLE_ERRORS = {
    errno.ENOSPC: "the disk is full",
    errno.EDQUOT: "the disk quota is used up",
    errno.EFBIG: "the file size limit was reached",
    errno.EACCES: "permission denied",
    errno.EPERM: "permission denied",
    errno.EROFS: "the file system is read-only",
}


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
        self._locks: list[Lock] = []
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
            folders: dict[Path, set[str]] = {}
            for output in self.outputs:
                folders.setdefault(output.path.parent, set()).add(output.path.name)
            for folder, own in folders.items():
                sweep_folder(folder, own)
        except BaseException:
            self._release()
            raise
        return self

    def __exit__(self, *exc_info: object) -> None:
        with held_back():  # a second SIGTERM must not leave half the clean-up undone
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
        """Move every written output over its destination, or none of them.

        The destinations are checked again first (one may have become a folder
        while the run worked). Each previous file is kept aside until every new
        one is in place; a rename that fails puts the previous files back and
        raises OutputError naming the option.
        """
        missing = [
            output.option for output in self.outputs if not self.temporary(output.option).exists()
        ]
        if missing:
            raise RuntimeError(f"outputs not written: {', '.join(missing)}")
        check_destinations(self.outputs, self.inputs)
        with held_back():
            stop_if_requested()  # one a finalizer or a library swallowed: nothing moves
            placed: list[tuple[Named, Path | None]] = []
            for output in self.outputs:
                try:
                    aside = self._aside(output) if os.path.lexists(output.path) else None
                    if aside is not None:
                        os.replace(output.path, aside)
                    placed.append((output, aside))
                    os.replace(self.temporary(output.option), output.path)
                except OSError as error:
                    self._undo(placed)
                    raise OutputError(
                        f"{output.option}: could not put {output.path} in place: "
                        f"{error_words(error)}; every previous output is as it was"
                    ) from None
            self._committed = True
            for _, aside in placed:
                if aside is not None:
                    remove_with_sidecars(aside)

    def _aside(self, output: Named) -> Path:
        """Where the previous file of a destination waits while the new one goes in place."""
        own = f"{os.getpid()}-{secrets.token_hex(4)}{PREVIOUS_SUFFIX}"
        return output.path.with_name(f".{output.path.name}{TEMPORARY_MARK}{own}")

    def _undo(self, placed: list[tuple[Named, Path | None]]) -> None:
        """Put back the previous files of the destinations a failed commit had reached."""
        for output, aside in reversed(placed):
            temporary = self.temporary(output.option)
            if not temporary.exists() and os.path.lexists(output.path):
                os.replace(output.path, temporary)  # the new file goes back to be removed
            if aside is not None:
                os.replace(aside, output.path)

    def _output(self, option: str) -> Named:
        for output in self.outputs:
            if output.option == option:
                return output
        raise KeyError(option)

    def _lock(self, output: Named) -> None:
        lock = try_lock(output.path, output.option)
        if lock is None:
            raise OutputError(
                f"{output.option}: another SiteCheck run is writing {output.path}; "
                "wait for it to end or choose another file"
            )
        self._locks.append(lock)

    def _release(self) -> None:
        for lock in reversed(self._locks):
            release(lock)
        self._locks.clear()


def _is_write_error(error: Exception) -> bool:
    """A failure of the file system, or of GDAL, rasterio or SQLite writing a file."""
    if isinstance(error, OSError):
        return True
    module = type(error).__module__
    return module.startswith(("pyogrio", "rasterio", "sqlite3"))
