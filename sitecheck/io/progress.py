"""Progress on stderr for long runs.

Lines have the form ``[ 42%] stage`` so the QGIS plugin can read them from the
engine's stderr; on a terminal the line is redrawn in place.
"""

from __future__ import annotations

import sys
import time
from typing import TextIO

from sitecheck.errors import one_line


class Progress:
    """Report the share of work done, by named stages.

    Parameters
    ----------
    quiet : bool
        Print nothing.
    stream : file-like, optional
        Where to write (stderr by default).
    """

    def __init__(self, quiet: bool = False, stream: TextIO | None = None) -> None:
        self.quiet = quiet
        self.stream = stream if stream is not None else sys.stderr
        self.interactive = bool(getattr(self.stream, "isatty", lambda: False)())
        self._last = -1
        self.timings: dict[str, float] = {}
        self._stage: str | None = None
        self._stage_start = time.perf_counter()

    def update(self, percent: float, stage: str) -> None:
        """Say that ``percent`` of the run is done and what runs now."""
        self._time_stage(stage)
        if self.quiet:
            return
        whole = max(0, min(100, int(percent)))
        if whole == self._last and self.interactive:
            return
        self._last = whole
        if self.interactive:
            self.stream.write(f"\r[{whole:3d}%] {stage:<60.60}")
            if whole == 100:
                self.stream.write("\n")
        else:
            self.stream.write(f"[{whole:3d}%] {stage}\n")
        self.stream.flush()

    def _time_stage(self, stage: str) -> None:
        """Record the seconds spent in the stage that just ended (``timings``)."""
        now = time.perf_counter()
        if self._stage is not None and stage != self._stage:
            self.timings[self._stage] = self.timings.get(self._stage, 0.0) + now - self._stage_start
        if stage != self._stage:
            self._stage, self._stage_start = stage, now

    def warn(self, message: str) -> None:
        """Print a warning on its own line, even when quiet."""
        if self.interactive and self._last >= 0:
            self.stream.write("\n")
        self.stream.write(f"warning: {one_line(message)}\n")
        self.stream.flush()
