"""How long the panel waits after an edit before it re-checks: adapted to the user's edits.

A pause merges a burst of edits (a vertex dragged, a few keystrokes) into one
evaluation after its last edit, and every millisecond of it is waited after that
edit too. So the pause follows the edits themselves: an edit that comes while the
panel still waits on the previous one (its answer pending, or the pause running) is
part of a burst (a parcel chosen or a setting changed is no edit), and the pause
is twice the median gap between such edits, never under 120 ms (a drag's events
come about every 100 ms) nor over 350 ms. Until a burst has been seen it is twice
the median of the worker's last answers, in the same bounds: a pause of a couple
of answers' time merges a burst without knowing its pace.
"""

from __future__ import annotations

import statistics
from collections import deque

MIN_PAUSE_MS = 120
MAX_PAUSE_MS = 350
ANSWERS_KEPT = 9
GAPS_KEPT = 9
SAME_EDIT_MS = 10
"""Signals closer than this are one edit's (a feature added and its attributes set)."""


class AdaptivePause:
    """The pause before a re-check, from the pace of the last bursts of edits or, before
    any, from how fast the last answers came."""

    def __init__(self) -> None:
        self.answers_ms: deque[float] = deque(maxlen=ANSWERS_KEPT)
        self.gaps_ms: deque[float] = deque(maxlen=GAPS_KEPT)
        self._last_edit_s: float | None = None

    @property
    def interval_ms(self) -> int:
        """The pause now: the longest until an answer or a burst has been timed."""
        timed = self.gaps_ms or self.answers_ms
        if not timed:
            return MAX_PAUSE_MS
        wanted = 2.0 * statistics.median(timed)
        return int(min(MAX_PAUSE_MS, max(MIN_PAUSE_MS, wanted)))

    def answered(self, milliseconds: float) -> int:
        """Record an answer's time (request sent to reply read); the pause that follows."""
        self.answers_ms.append(milliseconds)
        return self.interval_ms

    def changed_otherwise(self) -> int:
        """Record a re-check that no edit asked for (a parcel chosen, a setting changed): the
        next edit starts a burst, not a gap from an edit before it. The pause that follows."""
        self._last_edit_s = None
        return self.interval_ms

    def edited(self, at_s: float, waiting: bool) -> int:
        """Record an edit at ``at_s`` (a monotonic clock's seconds); ``waiting``: whether the
        panel still waited on the edit before (then the gap is a burst's). The pause that
        follows."""
        if waiting and self._last_edit_s is not None:
            gap = 1000.0 * (at_s - self._last_edit_s)
            if gap >= SAME_EDIT_MS:
                self.gaps_ms.append(gap)
        self._last_edit_s = at_s
        return self.interval_ms
