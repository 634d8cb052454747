"""Spread vectorised geometry work over the machine's cores.

shapely 2 releases the GIL inside GEOS calls, so threads over chunks of an
array run in parallel without copying geometries between processes. Results
are identical to the single-threaded call: each element is computed the same
way, only in another thread.

Constructive and overlay functions (intersection, buffer, union) go through
:func:`map_arrays`; predicates only through :func:`map_predicate`, which runs
them in threads only when no geometry given is prepared: a prepared geometry
builds its caches lazily on first use and is not safe to share between threads
(two threads testing ``covers`` against one prepared lot crashed GEOS in our
tests). An unprepared geometry is only read by a predicate, as by an overlay.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from itertools import pairwise
from typing import Any, TypeVar

import numpy as np
import shapely

from sitecheck.termination import held_back

T = TypeVar("T")

MIN_CHUNK = 512  # below this many elements a chunk costs more to schedule than to compute

_workers = max(1, int(os.environ.get("SITECHECK_THREADS", "0")) or (os.cpu_count() or 1))
_pool: ThreadPoolExecutor | None = None


def set_workers(count: int) -> None:
    """Use ``count`` threads (1 turns parallelism off)."""
    global _workers, _pool
    if count < 1:
        raise ValueError("thread count must be at least 1")
    if count != _workers and _pool is not None:
        _pool.shutdown(wait=True)
        _pool = None
    _workers = count


def workers() -> int:
    """Threads in use."""
    return _workers


def _executor() -> ThreadPoolExecutor:
    global _pool
    if _pool is None:
        _pool = ThreadPoolExecutor(max_workers=_workers, thread_name_prefix="sitecheck")
    return _pool


def _bounds(n: int) -> np.ndarray | None:
    chunks = min(_workers, n // MIN_CHUNK)
    if chunks <= 1:
        return None
    return np.linspace(0, n, chunks + 1, dtype=np.int64)


def map_arrays(func: Callable[..., np.ndarray], *args: Any, **kwargs: Any) -> np.ndarray:
    """``func(*args, **kwargs)`` computed in chunks over the first array's length.

    Every positional argument that is an ndarray of that length is cut into
    the same chunks; other arguments (scalars, settings) are passed whole.
    """
    n = len(args[0])
    bounds = _bounds(n)
    if bounds is None:
        return func(*args, **kwargs)

    def chunk(lo: int, hi: int) -> np.ndarray:
        sliced = (a[lo:hi] if isinstance(a, np.ndarray) and len(a) == n else a for a in args)
        return func(*sliced, **kwargs)

    futures = _submitted(chunk, pairwise(bounds.tolist()))
    return np.concatenate([future.result() for future in futures])


def map_predicate(func: Callable[..., np.ndarray], *args: Any, **kwargs: Any) -> np.ndarray:
    """A shapely predicate computed as :func:`map_arrays` computes, in threads only where
    no geometry of its arrays is prepared (else in one call, as ``func`` alone).

    At 250,010 parcels the impervious cover's split by lot tests 500,000 pieces for
    ``covers`` and their overlaps for ``relate_pattern`` (3.4 s in one thread).
    """
    for arg in args:
        if isinstance(arg, np.ndarray) and arg.dtype == object and shapely.is_prepared(arg).any():
            return func(*args, **kwargs)
    return map_arrays(func, *args, **kwargs)


def map_query(tree: shapely.STRtree, geoms: np.ndarray, predicate: str | None = None) -> np.ndarray:
    """``tree.query(geoms, predicate)`` in chunks of ``geoms`` over the threads: the same
    pairs in the same order as one call (input after input); in one call where a
    geometry of ``geoms`` is prepared (the query tests with a query geometry's own
    prepared state, see the module's docstring; the tree's geometries are only read).

    At 250,010 parcels the queries of the impervious cover's split by lot, of its
    overlaps and of the work against each constraint surface took 1.2 s in one thread.
    """
    bounds = _bounds(len(geoms))
    if bounds is None or shapely.is_prepared(geoms).any():
        return tree.query(geoms, predicate=predicate)
    # GEOS builds a tree's index at its first query: here, before any thread queries it.
    tree.query(shapely.Point(0.0, 0.0))

    def chunk(lo: int, hi: int) -> np.ndarray:
        found = tree.query(geoms[lo:hi], predicate=predicate)
        found[0] += lo
        return found

    futures = _submitted(chunk, pairwise(bounds.tolist()))
    return np.concatenate([future.result() for future in futures], axis=1)


def map_items(func: Callable[[Sequence[T]], list[Any]], items: Sequence[T]) -> list[Any]:
    """``func(items)`` for a function that maps a list to a list of the same length, in chunks."""
    bounds = _bounds(len(items))
    if bounds is None:
        return func(items)
    futures = _submitted(func, ((items[lo:hi],) for lo, hi in pairwise(bounds.tolist())))
    return [result for future in futures for result in future.result()]


def _submitted(func: Callable[..., Any], calls: Iterable[Sequence[Any]]) -> list[Future]:
    """``func(*arguments)`` for each of ``calls``, submitted to the pool with SIGTERM held back.

    A submission may start a thread, which the pool then registers; a SIGTERM raised
    between the two (:class:`~sitecheck.termination.Terminated`) left a thread that no
    one tells to stop, and the terminated run never exited, waiting for it.
    """
    with held_back():
        return [_executor().submit(func, *arguments) for arguments in calls]
