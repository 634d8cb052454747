"""A command hands the pages of a freed column back to the system, and a large run the
heap's free pages once it has measured (glibc only)."""

from __future__ import annotations

import platform
import subprocess
import sys

import pytest

pytestmark = pytest.mark.skipif(
    platform.libc_ver()[0] != "glibc", reason="the mmap threshold is glibc's"
)

# What a scenario process holds in memory, in MiB.
RESIDENT_MB = """
def resident_mb():
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
"""

# Sixty 2 MiB columns, each followed by a small block held to the end (as a run's
# tables and temporaries interleave), then the columns freed: what the process's
# resident memory gives back, in MiB. A first column freed before raises glibc's
# default threshold past 2 MiB.
FREED_COLUMNS = (
    RESIDENT_MB
    + """
import numpy as np

np.ones(262_144).sum()
columns, kept = [], []
for _ in range(60):
    columns.append(np.ones(262_144))
    kept.append(np.ones(1_000))
before = resident_mb()
del columns
print(round(before - resident_mb(), 1))
"""
)

SETUPS = {
    "set": "from sitecheck.allocator import map_large_blocks\nassert map_large_blocks()\n",
    # the command as the plugin starts it, run first in the same process
    "command": (
        "import runpy, sys\nsys.argv = ['sitecheck', '--version']\n"
        "try:\n    runpy.run_module('sitecheck', run_name='__main__')\n"
        "except SystemExit:\n    pass\n"
    ),
    "default": "",
}


def _given_back(setup: str) -> float:
    code = SETUPS[setup] + FREED_COLUMNS
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return float(done.stdout.split()[-1])


@pytest.mark.parametrize("setup", ["set", "command"])
def test_a_freed_column_goes_back_to_the_system(setup):
    # 60 columns of 2 MiB: 120 MiB written, then freed. glibc's default keeps them with
    # the process (the scenario tells one from the other).
    assert _given_back("default") < 20
    assert _given_back(setup) > 100


# 2,000 blocks of 32 KiB, below any mmap threshold so in the heap, each followed by a
# small block held to the end; then the blocks freed: the heap's pages between the held
# blocks stay with the process until they are handed back (62.5 MiB in all).
FREED_BETWEEN_HELD = (
    RESIDENT_MB
    + """
import numpy as np
from sitecheck.allocator import hand_back_free_pages

blocks, kept = [], []
for _ in range(2_000):
    blocks.append(np.ones(4_096))
    kept.append(np.ones(100))
before = resident_mb()
del blocks
freed = before - resident_mb()
assert hand_back_free_pages()
print(round(freed, 1), round(before - resident_mb(), 1))
"""
)


def test_the_heaps_free_pages_go_back_when_handed_back():
    done = subprocess.run(
        [sys.executable, "-c", FREED_BETWEEN_HELD], capture_output=True, text=True, check=True
    )
    freed, handed_back = map(float, done.stdout.split())
    assert freed < 10  # freed between held blocks: kept by the process
    assert handed_back > 50  # of the 62.5 MiB freed
