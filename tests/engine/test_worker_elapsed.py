"""The time an answer reports (``elapsed_ms``, shown in the panel's status line) is the
worker's whole answer: from the request read to the reply made, the reply included."""

from __future__ import annotations

import sitecheck.app.worker as worker

from .test_worker import DRAWN, _a_project_lot, _layer_payload, _open_request, _run, village  # noqa: F401

REPLY_SECONDS = 3.0
"""What making the reply takes, on the test's clock."""


class _Clock:
    """``time`` for the worker module: a clock that moves only when the test moves it."""

    def __init__(self) -> None:
        self.now = 100.0

    def perf_counter(self) -> float:
        return self.now


def test_the_answers_time_includes_making_the_reply(village, monkeypatch):  # noqa: F811
    """Making the reply is part of the answer the panel waits for (6 ms of a two-lot answer
    on the bench's growing edit): on a clock that moves only while the reply is made, the
    answer reports that time, and nothing where the reply takes none."""
    paths, _ = village
    evaluate = {
        "op": "evaluate",
        "parcel_id": _a_project_lot(paths),
        "layers": {role: _layer_payload(paths["gpkg"], role) for role in DRAWN},
    }
    clock = _Clock()
    monkeypatch.setattr(worker, "time", clock)
    still = _run([_open_request(paths), evaluate])[1]
    assert still["ok"], still
    assert still["elapsed_ms"] == 0.0

    made = worker.parcel_reply

    def slow_reply(*args, **kwargs):
        clock.now += REPLY_SECONDS
        return made(*args, **kwargs)

    monkeypatch.setattr(worker, "parcel_reply", slow_reply)
    slow = _run([_open_request(paths), evaluate])[1]
    assert slow["ok"], slow
    assert slow["elapsed_ms"] == 1000 * REPLY_SECONDS
