"""The panel's worker, a real ``sitecheck serve`` process, answers every line and lives on.

The process reads and writes UTF-8 as the panel's does, so a reply the worker
cannot encode, or a line it cannot decode, is tried as the panel meets it. Each
line must get one reply on one line, never "internal error", and a ``ping``
after it must still be answered. Hypothesis builds the requests of every op
from hostile parts: lone surrogates, whole numbers of thousands of digits, NUL
bytes, deep nesting, wrong types and long arrays.
"""

from __future__ import annotations

import json
import queue
import re
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
import shapely
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sitecheck.sample.village import generate_village

REPLY_WAIT_S = 120  # only for a worker that has died or hangs: the test then fails


class Worker:
    """A ``sitecheck serve`` process written to and read line by line."""

    def __init__(self, folder: Path) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "sitecheck", "serve"],
            cwd=folder,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        self.replies: queue.Queue[bytes] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.replies.put(line)
        self.replies.put(b"")

    def ask(self, line: bytes) -> dict:
        """The one reply to one line; fails if the worker has stopped answering."""
        assert self.process.stdin is not None
        self.process.stdin.write(line.rstrip(b"\n") + b"\n")
        self.process.stdin.flush()
        reply = self.replies.get(timeout=REPLY_WAIT_S)
        assert reply, f"the worker ended (exit {self.process.poll()}) on {line[:200]!r}"
        assert reply.endswith(b"\n") and reply.count(b"\n") == 1
        return json.loads(reply)

    def close(self) -> None:
        self.process.kill()
        self.process.wait()


@pytest.fixture(scope="module")
def village(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return generate_village(tmp_path_factory.mktemp("fuzz-village"), parcels=12)["gpkg"]


@pytest.fixture(scope="module")
def worker(village: Path) -> Iterator[Worker]:
    running = Worker(village.parent)
    opened = running.ask(_line(_open(village)))
    assert opened["ok"], opened
    yield running
    running.close()


def _open(village: Path) -> dict:
    return {"op": "open", "inputs": {"parcels": f"{village}:parcels"}, "ordinance": "scarsdale"}


class HugeWholeNumber:
    """A whole number too long for Python to write or show: its digits are put in the
    line as text."""

    def __init__(self, digits: int) -> None:
        self.digits = digits

    def __repr__(self) -> str:
        return f"HugeWholeNumber({self.digits})"


def _line(request: object) -> bytes:
    # ensure_ascii writes a lone surrogate as \ud800, as a client's JSON library would
    def placeholder(value: object) -> str:
        assert isinstance(value, HugeWholeNumber)
        return f"@@huge:{value.digits}@@"

    text = json.dumps(request, default=placeholder)
    return re.sub(r'"@@huge:(\d+)@@"', lambda m: "9" * int(m.group(1)), text).encode()


def _ping_is_answered(worker: Worker) -> None:
    assert worker.ask(b'{"op": "ping", "id": "after"}') == {"ok": True, "op": "ping", "id": "after"}


def _assert_one_clear_line(reply: dict) -> None:
    assert isinstance(reply.get("ok"), bool), reply
    if not reply["ok"]:
        assert "\n" not in reply["error"], reply
        assert "internal error" not in reply["error"], reply
        assert "Traceback" not in reply["error"], reply


# --- hostile parts ------------------------------------------------------------

HUGE_WHOLE_NUMBER = st.integers(min_value=101, max_value=6000).map(HugeWholeNumber)
LONE_SURROGATE = st.sampled_from(["\ud800", "a\udfffb", "\udc80"])
NUL_TEXT = st.text(max_size=8).map(lambda text: f"{text}\x00{text}")
scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    HUGE_WHOLE_NUMBER,
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=20),
    LONE_SURROGATE,
    NUL_TEXT,
)
values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=5), st.dictionaries(st.text(max_size=10), inner, max_size=5)
    ),
    max_leaves=12,
)
ROLES = ["parcels", "disturbance", "impervious_existing", "impervious_proposed", "floodplain"]


def _wkb(draw: st.DrawFn) -> object:
    good = shapely.to_wkb(shapely.box(0, 0, 10, 10), hex=True)
    return draw(st.one_of(st.just(good), values))


@st.composite
def evaluate_requests(draw: st.DrawFn, op: str) -> dict:
    feature = {"wkb": _wkb(draw), "properties": draw(values)}
    layer = {"crs": draw(st.one_of(st.just("EPSG:2260"), values)), "features": [feature]}
    if draw(st.booleans()):
        layer["features"] = draw(st.lists(values, max_size=5)) or [feature]
    request: dict = {
        "op": op,
        "id": draw(values),
        "parcel_id": draw(st.one_of(st.just("1.1-2-6"), values)),
        "layers": {draw(st.sampled_from(ROLES)): layer},
    }
    if op == "report":
        request["path"] = draw(st.one_of(NUL_TEXT, LONE_SURROGATE, values))
    return request


@st.composite
def open_requests(draw: st.DrawFn) -> dict:
    inputs = draw(st.one_of(values, st.dictionaries(st.sampled_from(ROLES), values, max_size=3)))
    return {
        "op": "open",
        "id": draw(values),
        "inputs": inputs,
        "ordinance": draw(st.one_of(st.just("scarsdale"), values)),
        "settings": draw(st.one_of(st.dictionaries(st.text(max_size=20), values), values)),
        "tolerance": draw(values),
    }


requests = st.one_of(
    open_requests(),
    evaluate_requests("evaluate"),
    evaluate_requests("report"),
    st.fixed_dictionaries({"op": st.just("ping"), "id": values}),
    st.fixed_dictionaries({"op": values, "id": values}),
    values,
)


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@pytest.mark.slow
@given(request=requests)
def test_every_request_gets_one_reply_and_the_worker_lives_on(
    worker: Worker, village: Path, request: object
) -> None:
    reply = worker.ask(_line(request))
    _assert_one_clear_line(reply)
    _ping_is_answered(worker)
    if isinstance(request, dict) and request.get("op") == "open" and not reply["ok"]:
        return
    # a good open after a fuzzed one keeps the session usable for the next example
    assert worker.ask(_line(_open(village)))["ok"]


# --- the three lines that killed or confused the worker -----------------------


def test_a_lone_surrogate_in_the_id_is_refused_naming_the_id(worker: Worker) -> None:
    reply = worker.ask(b'{"op":"ping","id":"\\ud800"}')
    assert reply["ok"] is False and reply["error"].startswith("bad request: id:")
    _ping_is_answered(worker)


def test_bytes_that_are_not_utf8_are_refused_naming_the_part(worker: Worker) -> None:
    reply = worker.ask(b'{"op":"ping","id":"caf\xe9"}')
    assert reply["ok"] is False and "id:" in reply["error"] and "UTF-8" in reply["error"]
    _ping_is_answered(worker)


def test_a_whole_number_of_5000_digits_is_refused_naming_it(worker: Worker) -> None:
    reply = worker.ask(b'{"op":"ping","id":' + b"7" * 5000 + b"}")
    assert reply == {
        "ok": False,
        "error": "bad request: id: a whole number of 5000 digits (at most 100)",
        "id": None,
        "op": None,
    }
    _ping_is_answered(worker)


def test_a_nul_in_a_report_path_is_refused_naming_the_path(worker: Worker, village: Path) -> None:
    request = {
        "op": "report",
        "parcel_id": "1.1-2-6",
        "layers": {},
        "path": str(village.parent / "re\x00port.html"),
    }
    reply = worker.ask(_line(request))
    assert reply["ok"] is False and "path" in reply["error"] and "NUL" in reply["error"]
    _ping_is_answered(worker)
