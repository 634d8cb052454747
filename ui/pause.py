"""How long the panel waits after an edit before it re-checks: adapted to the worker's speed.

A pause merges a burst of edits (a vertex dragged, a few keystrokes) into one
evaluation. A fixed 350 ms made every edit wait 350 ms even when the worker answers
in 60; a pause of a couple of answers' time merges bursts just as well and shows the
list sooner. The pause follows the median of the last few answers: twice that,
never under 120 ms (a drag's events come about every 100 ms) nor over 350 ms.
"""

from __future__ import annotations

import statistics
from collections import deque

MIN_PAUSE_MS = 120
MAX_PAUSE_MS = 350
ANSWERS_KEPT = 9


class AdaptivePause:
    """The pause before a re-check, from how fast the last answers came."""

    def __init__(self) -> None:
        self.answers_ms: deque[float] = deque(maxlen=ANSWERS_KEPT)

    @property
    def interval_ms(self) -> int:
        """The pause now: the longest until an answer has been timed."""
        if not self.answers_ms:
            return MAX_PAUSE_MS
        wanted = 2.0 * statistics.median(self.answers_ms)
        return int(min(MAX_PAUSE_MS, max(MIN_PAUSE_MS, wanted)))

    def answered(self, milliseconds: float) -> int:
        """Record an answer's time (request sent to reply read); the pause that follows."""
        self.answers_ms.append(milliseconds)
        return self.interval_ms
