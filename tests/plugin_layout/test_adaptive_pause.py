"""The panel's pause before a re-check follows how fast the worker answers (ui/pause.py)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("sitecheck_ui_pause", REPO / "ui" / "pause.py")
assert spec is not None and spec.loader is not None
pause_module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(pause_module)
AdaptivePause = pause_module.AdaptivePause


def test_before_any_answer_the_pause_is_the_longest():
    assert AdaptivePause().interval_ms == 350


def test_fast_answers_shorten_the_pause_to_twice_their_median():
    pause = AdaptivePause()
    for milliseconds in (60, 70, 65, 400, 62):  # one slow answer does not move the median
        interval = pause.answered(milliseconds)
    assert interval == 2 * 65


def test_the_pause_never_falls_under_a_drags_event_interval_nor_rises_over_350_ms():
    fast, slow = AdaptivePause(), AdaptivePause()
    for _ in range(5):
        fast.answered(10)
        slow.answered(900)
    assert fast.interval_ms == 120
    assert slow.interval_ms == 350


def test_the_pause_follows_the_last_answers_only():
    pause = AdaptivePause()
    for _ in range(9):
        pause.answered(500)
    for _ in range(9):
        pause.answered(80)
    assert pause.interval_ms == 160
