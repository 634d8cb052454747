"""The panel's pause before a re-check follows how fast the worker answers (ui/pause.py)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

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


def test_a_burst_sets_the_pause_to_twice_the_median_gap_between_its_edits():
    """Five edits 40 ms apart, each while the panel waits on the one before: a pause of
    twice 40 ms is under a drag's interval, so it is 120 ms, whatever the answers took."""
    pause = AdaptivePause()
    for _ in range(5):
        pause.answered(130)
    assert pause.interval_ms == 260  # no burst yet: twice the answers
    at = 10.0
    pause.edited(at, waiting=False)  # the first edit: the idle panel checks it at once
    for _ in range(4):
        at += 0.040
        pause.edited(at, waiting=True)
    assert pause.interval_ms == 120
    slow = AdaptivePause()
    at = 10.0
    for gap_s in (0.0, 0.150, 0.170, 0.160):  # a slow drag: 150-170 ms between events
        at += gap_s
        slow.edited(at, waiting=at > 10.0)
    assert slow.interval_ms == 2 * 160 == 320


def test_edits_the_idle_panel_checks_at_once_and_one_edits_signals_are_no_burst():
    """An edit made once the last answer came (the panel waiting on nothing) starts no
    burst, however soon it follows; signals under 10 ms apart are one edit's."""
    pause = AdaptivePause()
    pause.answered(100)
    at = 5.0
    for _ in range(6):
        at += 0.150
        pause.edited(at, waiting=False)
        pause.edited(at + 0.002, waiting=True)  # its attributes set: the same edit
    assert not pause.gaps_ms
    assert pause.interval_ms == 200


def test_a_parcel_chosen_or_a_setting_changed_is_no_edit_of_a_burst():
    """A re-check no edit asked for, however soon it follows the one before, times no gap,
    and the edit after it starts a burst rather than measuring from the last edit (a minute
    before, here): the pause stays twice the answers' median."""
    pause = AdaptivePause()
    for _ in range(3):
        pause.answered(90)
    pause.edited(10.0, waiting=False)  # an edit; its answer came long ago
    assert pause.changed_otherwise() == 180  # a parcel chosen a minute later
    pause.edited(70.0, waiting=True)  # an edit while that parcel's answer is pending
    assert not pause.gaps_ms
    assert pause.interval_ms == 180
    pause.edited(70.050, waiting=True)  # the burst's second edit: its gap is timed
    assert list(pause.gaps_ms) == [pytest.approx(50.0)]
    assert pause.interval_ms == 120
