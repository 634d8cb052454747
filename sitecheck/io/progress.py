"""Progress on stderr for long runs.

Lines have the form ``[ 42%] stage`` so the QGIS plugin can read them from the
engine's stderr; on a terminal the line is redrawn in place.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from typing import TextIO

from sitecheck.errors import one_line
from sitecheck.termination import stop_if_requested


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
        """Say that ``percent`` of the run is done and what runs now.

        A run stops here if it was terminated where the signal was swallowed.
        """
        stop_if_requested()
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

    def within(self, low: float, high: float) -> Progress:
        """This progress for one part of a run: the part's 0 to 100 are ``low`` to ``high``.

        Measuring reports 0 to 100 of itself; within a check it is the first
        part, so the bar keeps moving while the packs are evaluated and the
        outputs written, instead of sitting at the end of measuring.
        """
        return _Part(self, low, high)

    def counted(self, stage: str, total: int, steps: int = 20) -> Iterator[int]:
        """The positions 0 to ``total`` - 1, moving the bar about ``steps`` times on the way
        (a long stage over many parcels keeps the bar moving)."""
        every = max(1, total // steps)
        for position in range(total):
            if position % every == 0:
                self.update(100.0 * position / total, stage)
            yield position

    def warn(self, message: str) -> None:
        """Print a warning on its own line, even when quiet."""
        if self.interactive and self._last >= 0:
            self.stream.write("\n")
        self.stream.write(f"warning: {one_line(message)}\n")
        self.stream.flush()


class _Part(Progress):
    """A part of a run's progress (see :meth:`Progress.within`)."""

    def __init__(self, whole: Progress, low: float, high: float) -> None:
        self.whole, self.low, self.high = whole, low, high
        self.quiet = whole.quiet
        self.timings = whole.timings  # the same dict: stages are timed once, by the whole

    def update(self, percent: float, stage: str) -> None:
        share = max(0.0, min(100.0, percent)) / 100.0
        self.whole.update(self.low + (self.high - self.low) * share, stage)

    def warn(self, message: str) -> None:
        self.whole.warn(message)
