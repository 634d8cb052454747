"""Where a command's large arrays live: pages of their own, handed back when freed.

glibc's ``malloc`` serves a block of at least its mmap threshold from pages mapped
for that block alone, which go back to the system when it is freed; smaller blocks
come from the heap, where a freed block between live ones stays with the process.
The threshold starts at 128 KiB and, each time such a block is freed, rises to its
size, up to 32 MiB (``mallopt(3)``, ``M_MMAP_THRESHOLD``). A county run's columns
(2 MB for 250,010 float64 values), once one is freed, all come from the heap, and
the process keeps what the temporaries of one stage left between the tables it
holds. A command therefore fixes the threshold at :data:`LARGE_BLOCK`: the check of
the 250k bench village (in one process, one run each, alternated) peaked at 2,078 MB
and took 45.7 s; with the threshold at 1 MiB, 1,824 MB and 45.5 s (at 128 KiB, 1,818
MB); the 30k check moved by less than its run-to-run spread, about 0.4 s.

Only the C library's allocation strategy changes: no value a run computes. Where the
C library is not glibc (Windows, macOS) nothing is set.
"""

from __future__ import annotations

import ctypes
import platform
import sys

M_MMAP_THRESHOLD = -3
"""glibc's ``mallopt`` parameter for the threshold (``<malloc.h>``)."""

LARGE_BLOCK = 1 << 20
"""Blocks of at least 1 MiB are mapped on their own: a column of 131,072 float64
values and more; a run of a few thousand parcels keeps glibc's default behaviour."""


def map_large_blocks() -> bool:
    """Fix glibc's mmap threshold at :data:`LARGE_BLOCK` for this process.

    Returns
    -------
    bool
        Whether it was set: False where the C library is not glibc.
    """
    return _glibc_call("mallopt", M_MMAP_THRESHOLD, LARGE_BLOCK)


def hand_back_free_pages() -> bool:
    """Give the system the pages of the heap that hold no live block (``malloc_trim(3)``).

    Python makes its objects in arenas of their own, mapped apart from the heap, so
    what a stage frees in the heap (GEOS's geometries and their overlays) is
    not where the next stage's outcomes and documents go: handed back, it no longer
    adds to the run's peak.

    Returns
    -------
    bool
        Whether any memory went back: False where the C library is not glibc.
    """
    return _glibc_call("malloc_trim", 0)


def _glibc_call(name: str, *args: int) -> bool:
    """Call a glibc function of the process by name; False where the C library is not
    glibc (Windows, macOS, musl) or the call returns 0."""
    if not sys.platform.startswith("linux") or platform.libc_ver()[0] != "glibc":
        return False
    try:
        function = getattr(ctypes.CDLL(None), name)  # the process's own symbols, glibc's
        return bool(function(*args))
    except (OSError, AttributeError):
        return False
