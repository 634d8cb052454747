"""What identifies an input in the audit: a hash of its features, and where QGIS had them.

A file's hash says whether the file changed, not whether the data did: a
GeoPackage QGIS exports for the engine differs byte by byte on every run, and
its layers share one file. :func:`features_sha256` hashes the features as read
(geometry and the fields read, in FID order), the same for the same data on
every run. :func:`file_sha256` hashes a file's bytes, once while it is unchanged, and
:func:`hash_ahead` starts that in a thread while a run reads its layers.
:func:`layer_origin` reads where a layer came from, when the plugin wrote it into
the exported layer's description.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
import time
from collections.abc import Iterable
from concurrent.futures import Future, ThreadPoolExecutor
from functools import cache

import geopandas as gpd
import numpy as np
import pandas as pd
import pyogrio
import shapely

from sitecheck.io import conninfo
from sitecheck.termination import held_back

ORIGIN_KEY = "sitecheck_origin"
"""Key of the origin in an exported layer's description (a JSON object)."""


def features_sha256(frame: gpd.GeoDataFrame) -> str:
    """SHA-256 of the features read: field names, then each feature's fields and geometry.

    Features are taken in FID order (the frame's index); geometry as ISO WKB,
    little-endian; field values through pandas' fixed-key row hash, so the
    digest is the same on every run and machine for the same data.
    """
    order = np.argsort(np.asarray(frame.index, dtype=np.int64), kind="stable")
    geometry = frame.geometry.name
    table = frame.drop(columns=geometry).iloc[order]
    digest = hashlib.sha256()
    digest.update(json.dumps([str(c) for c in table.columns]).encode("utf-8"))
    if len(table.columns):
        rows = pd.util.hash_pandas_object(table, index=False).to_numpy(dtype=np.uint64)
        digest.update(rows.astype("<u8").tobytes())
    shapes = shapely.to_wkb(frame[geometry].to_numpy()[order], byte_order=1, flavor="iso")
    digest.update(b"".join(b"\0" if shape is None else shape for shape in shapes))
    return digest.hexdigest()


def layer_origin(path: str, layer: str | None) -> dict[str, object] | None:
    """Where a layer exported by the plugin came from (provider, source, filter), else None."""
    if not str(path).lower().endswith(".gpkg"):
        return None
    try:
        metadata = pyogrio.read_info(path, layer=layer).get("layer_metadata") or {}
        described = json.loads(metadata.get("DESCRIPTION") or "{}")
    except (ValueError, TypeError, pyogrio.errors.DataSourceError, pyogrio.errors.DataLayerError):
        return None
    origin = described.get(ORIGIN_KEY) if isinstance(described, dict) else None
    if not isinstance(origin, dict):
        return None
    if isinstance(origin.get("uri"), str):
        origin = {**origin, "uri": conninfo.shown_source(origin["uri"])}
    return origin


def file_sha256(path: str) -> str | None:
    """Hash a file's bytes; None for a directory source such as a FileGDB.

    A file this process has hashed is read again only once its device, inode,
    size, modification or change time differ: the panel's worker records the
    DEM at every answer, and read it whole at each edit (64 ms for the 250k
    bench village's 91 MB DEM).
    """
    before = _file_state(path)
    if before is None:
        return None
    kept = _HASHED.get(path)
    if kept is not None and kept[0] == before:
        return kept[1]
    started_ns, digest = _ahead_digest(path, before) or (time.time_ns(), _digest_of(path))
    *_, modified_ns, changed_ns = before
    settled = started_ns - max(modified_ns, changed_ns) > SETTLED_NS
    if settled and _file_state(path) == before:  # not while it changes, or did just now
        _HASHED[path] = (before, digest)
    return digest


def hash_ahead(paths: Iterable[str | os.PathLike[str] | None]) -> None:
    """Start hashing these files in a thread of their own; :func:`file_sha256` then waits
    for a digest instead of reading the file itself.

    Reading a file and hashing it let Python's lock go, so a run's reads and overlays go
    on meanwhile: the 250k bench village's GeoPackage and DEM (433 MB) took a check
    0.37 s to hash where it needed them. A path that is not a regular file, or one
    hashed already and unchanged, is passed over.
    """
    for path in dict.fromkeys(str(p) for p in paths if p is not None):
        state = _file_state(path)
        kept = _HASHED.get(path)
        if state is None or path in _AHEAD or (kept is not None and kept[0] == state):
            continue
        with held_back():  # a SIGTERM between the thread's start and its registering hangs exit
            _AHEAD[path] = (state, _hashing_thread().submit(_timed_digest, path))


def _ahead_digest(path: str, state: FileState) -> tuple[int, str] | None:
    """The digest hashed ahead of a file in the state it has now, with when its reading
    began; None where none was, or the file changed since, or the reading failed (the
    caller reads it again, to fail or not as it does)."""
    ahead = _AHEAD.pop(path, None)
    if ahead is None or ahead[0] != state:
        return None
    try:
        started_ns, digest = ahead[1].result()
    except OSError:
        return None
    return (started_ns, digest) if _file_state(path) == state else None


def _timed_digest(path: str) -> tuple[int, str]:
    started_ns = time.time_ns()
    return started_ns, _digest_of(path)


def _digest_of(path: str) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


_AHEAD: dict[str, tuple[FileState, Future[tuple[int, str]]]] = {}
"""Each file being hashed ahead (:func:`hash_ahead`), with its state when asked."""


@cache
def _hashing_thread() -> ThreadPoolExecutor:
    return ThreadPoolExecutor(max_workers=1, thread_name_prefix="sitecheck-hash")


FileState = tuple[int, int, int, int, int]
"""A file's device, inode, size, modification and change times (ns): what changes when its
bytes do, the change time even where the modification time is set back."""


_HASHED: dict[str, tuple[FileState, str]] = {}
"""Each file hashed, with the state it had then (:func:`_file_state`) and its SHA-256."""

SETTLED_NS = 1_000_000_000
"""A file changed this little before it was hashed is hashed again when next asked: file
times tick in milliseconds, so a second write within the same tick leaves its state as it
was (Git's index calls such a file racily clean)."""


def settled_state(path: str) -> FileState | None:
    """A file's state now, where its last change is old enough that a second write
    could not have left it as it was (:data:`SETTLED_NS`); None otherwise, or when the
    path is not a regular file. What a session may keep of a file, it keeps under it."""
    state = _file_state(path)
    if state is None or time.time_ns() - max(state[3], state[4]) <= SETTLED_NS:
        return None
    return state


def _file_state(path: str) -> FileState | None:
    """A file's state now; None when the path is not a regular file."""
    try:
        status = os.stat(path)
    except OSError:
        return None
    if not stat.S_ISREG(status.st_mode):
        return None
    return (status.st_dev, status.st_ino, status.st_size, status.st_mtime_ns, status.st_ctime_ns)
