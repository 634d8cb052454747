"""How often a batch run (a command, a Dask task) looks for reference cycles.

CPython frees most objects by reference counting; its cyclic collector exists
for objects that refer to each other in a loop. It runs after every 700 net new
container objects (lists, dicts, tuples and the like) and, now and then, scans
every container the process holds (a full collection). A batch run (``check``,
``measure``) builds its tables, value rows and outcomes once and holds them to
the end: on the 250,010-parcel bench village the 38 full collections of a
``check`` took 5.9 s of its 55 s (all collections 6.8 s) while the cycles they
found came to 41 objects (2,899 over the whole run). So a
batch run collects after every :data:`BATCH_THRESHOLD` new containers instead:
cycles are still freed, a batch at a time, and the same check made 2 full
collections, 1.5 s in all collections, at the same peak memory.

A Dask task (:func:`sitecheck.distributed.window.screen_partition`) is a batch
run of its window and collects the same way while it runs, the worker's own
setting put back after it: the 30k bench village checked on one local worker
took 12.9 and 13.2 s against 14.1 and 14.2 s (runs alternated).

The panel's worker (``serve``) keeps CPython's default: over 42 answers on the
250,010-lot village it made one full collection (111 ms), none on the
3,004-lot one.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

BATCH_THRESHOLD = 50_000
"""New container objects between two collections of the youngest generation in a
batch run (CPython's default is 700): the cycles made between two collections wait at
most that long to be freed."""


@contextmanager
def batch_collection() -> Iterator[None]:
    """Collect cycles after every :data:`BATCH_THRESHOLD` new containers while the block
    runs; the thresholds before it are put back after, so a caller embedding the command
    line keeps its own."""
    before = gc.get_threshold()
    gc.set_threshold(BATCH_THRESHOLD, *before[1:])
    try:
        yield
    finally:
        gc.set_threshold(*before)
