"""The files a run keeps beside its destinations, and the sweep of those a dead run left.

While a run writes ``NAME`` it holds ``.NAME.sitecheck-lock`` (an advisory
``flock``) and writes ``.NAME.sitecheck-PID-XXXX.tmp.EXT``; while it puts a new
output in place it keeps the previous one as ``.NAME.sitecheck-PID-XXXX.previous``.
A run that ends, well or not, removes them all. A run killed outright (``kill
-9``, a power cut) cannot; the next run writing into the same folder finds
what it left, takes each dead run's lock as its own and removes its files,
putting back a previous output the dead run had moved aside. A lock held by a
live run is never touched.
"""

from __future__ import annotations

import errno
import fcntl
import os
from contextlib import suppress
from pathlib import Path

from sitecheck.errors import InputError

TEMPORARY_MARK = ".sitecheck-"
"""Between a destination's name and the run's own part, in temporaries and lock files."""
LOCK_SUFFIX = "lock"
PREVIOUS_SUFFIX = ".previous"
"""The end of the name a previous output is kept under while the new one is put in place."""


class OutputError(InputError):
    """An output cannot be written where the user asked; the message names the option."""


Lock = tuple[Path, int]
"""A held lock: its file and the open descriptor holding it."""


def lock_file(target: Path) -> Path:
    """The lock file of a destination, beside it."""
    return target.with_name(f".{target.name}{TEMPORARY_MARK}{LOCK_SUFFIX}")


def try_lock(target: Path, option: str) -> Lock | None:
    """Hold the lock of a destination; None when a live run holds it.

    Raises
    ------
    OutputError
        When the lock cannot be made (its name is taken by a folder), naming the option.
    """
    lock_path = lock_file(target)
    while True:
        try:
            handle = os.open(lock_path, os.O_CREAT | os.O_RDWR, 0o644)
        except IsADirectoryError:
            raise OutputError(
                f"{option}: {lock_path} is a folder, where SiteCheck keeps the lock of "
                f"{target.name}; remove or rename that folder and retry"
            ) from None
        except OSError as error:
            words = "the file system is read-only" if error.errno == errno.EROFS else error.strerror
            raise OutputError(f"{option}: cannot make the lock {lock_path}: {words}") from None
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(handle)
            return None
        try:
            still_there = os.stat(lock_path).st_ino == os.fstat(handle).st_ino
        except FileNotFoundError:
            still_there = False
        if still_there:
            return lock_path, handle
        os.close(handle)  # the run before removed it as it ended: lock the new one


def release(lock: Lock) -> None:
    """Remove a held lock's file, then let the lock go."""
    lock_path, handle = lock
    with suppress(FileNotFoundError):
        os.unlink(lock_path)
    os.close(handle)


def remove_stale_temporaries(target: Path) -> list[Path]:
    """Remove what a dead run left beside ``target``; call only holding its lock.

    A previous output the dead run had moved aside goes back in place when
    nothing took its place.
    """
    prefix = f".{target.name}{TEMPORARY_MARK}"
    lock = lock_file(target).name
    removed = []
    for leftover in sorted(target.parent.glob(f"{glob_escape(prefix)}*")):
        if leftover.name == lock or not leftover.is_file():
            continue
        if leftover.name.endswith(PREVIOUS_SUFFIX) and not os.path.lexists(target):
            os.replace(leftover, target)
            continue
        leftover.unlink()
        removed.append(leftover)
    return removed


def sweep_folder(folder: Path, own: set[str]) -> list[Path]:
    """Remove the files dead runs left in a folder, for destinations no live run writes.

    ``own`` names the destinations (file names) the calling run holds locks
    for; their leftovers are its own business.
    """
    removed: list[Path] = []
    try:
        leftovers = [p for p in folder.glob(f".*{glob_escape(TEMPORARY_MARK)}*") if p.is_file()]
    except OSError:
        return removed
    names = {p.name[1 : p.name.rfind(TEMPORARY_MARK)] for p in leftovers}
    for name in sorted(names - own):
        if not name:
            continue
        target = folder / name
        try:
            lock = try_lock(target, name)
        except OutputError:
            continue  # not ours to mend: the run writing that file will say why
        if lock is None:
            continue  # a live run writes it
        try:
            removed += remove_stale_temporaries(target)
        finally:
            release(lock)
    return removed


def remove_with_sidecars(path: Path) -> None:
    """Remove a file and the journal files SQLite may have left beside it."""
    for leftover in (path, *(Path(f"{path}{end}") for end in ("-journal", "-wal", "-shm"))):
        if leftover.exists():
            leftover.unlink()


def glob_escape(text: str) -> str:
    """Text matched literally by a glob pattern."""
    return "".join(f"[{char}]" if char in "*?[" else char for char in text)
