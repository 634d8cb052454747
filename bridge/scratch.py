"""The panel's scratch folder, and those a crashed QGIS left behind.

The folder's name holds the QGIS process id (``sitecheck-dock-PID-XXXX``): a
folder whose process no longer runs belongs to a QGIS that crashed, and the
next panel removes it.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path

PREFIX = "sitecheck-dock-"


def scratch_folder() -> Path:
    """A new scratch folder for this QGIS, after removing those of QGIS processes now gone."""
    remove_stale_folders()
    return Path(tempfile.mkdtemp(prefix=f"{PREFIX}{os.getpid()}-"))


def remove_stale_folders(parent: Path | None = None) -> list[Path]:
    """Remove the scratch folders whose QGIS process has ended; returns them."""
    removed = []
    for folder in Path(parent or tempfile.gettempdir()).glob(f"{PREFIX}*-*"):
        pid_text = folder.name[len(PREFIX) :].split("-", 1)[0]
        if folder.is_dir() and pid_text.isdigit() and not _running(int(pid_text)):
            shutil.rmtree(folder, ignore_errors=True)
            removed.append(folder)
    return removed


def _running(pid: int) -> bool:
    if sys.platform == "win32":
        return True  # os.kill(pid, 0) would end the process there: never guess
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # another user's process: alive, and not ours to clean
    return True
