"""The panel's worker answers every bad request with one line, as the command line would.

Never internal exception text (an ``AttributeError`` or a ``CRSError`` means
nothing to an analyst), never a reply that is not JSON, and the worker keeps
serving: a good request after the bad ones is answered.
"""

from __future__ import annotations

import hashlib
import io
import json
from pathlib import Path

import pytest
import shapely

from sitecheck.app.worker import serve
from sitecheck.sample.village import generate_village

INTERNAL = ("Error:", "Exception", "Traceback", "NoneType", "object has no attribute")


@pytest.fixture(scope="module")
def gpkg(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("worker-bad")
    return generate_village(folder, parcels=40)["gpkg"]


def open_request(gpkg: Path, **changes: object) -> dict:
    request: dict = {
        "op": "open",
        "inputs": {"parcels": f"{gpkg}:parcels"},
        "ordinance": "scarsdale",
    }
    request.update(changes)
    return request


def evaluate_request(gpkg: Path, **layer: object) -> dict:
    square = shapely.box(0, 0, 10, 10)
    disturbance = {"crs": "EPSG:2260", "features": [{"wkb": shapely.to_wkb(square, hex=True)}]}
    disturbance.update(layer)
    return {"op": "evaluate", "parcel_id": "1.1-2-6", "layers": {"disturbance": disturbance}}


def replies_to(lines: list[str]) -> list[dict]:
    out = io.StringIO()
    serve(io.StringIO("\n".join(lines) + "\n"), out)
    return [json.loads(line) for line in out.getvalue().splitlines()]


BAD_LINES = {
    "not json": ("{op: open", "not a JSON object"),
    "a list": ("[1, 2]", "a JSON object"),
    "a number": ("5", "a JSON object"),
    "nested too deeply": ("[" * 100_000 + "]" * 100_000, "not a JSON object"),
}


@pytest.mark.parametrize("name", list(BAD_LINES))
def test_lines_that_are_not_requests(name: str) -> None:
    line, words = BAD_LINES[name]
    reply = replies_to([line, json.dumps({"op": "ping"})])
    assert reply[0]["ok"] is False and words in reply[0]["error"]
    assert "\n" not in reply[0]["error"]
    assert reply[1] == {"ok": True, "op": "ping", "id": None}


def bad_opens(gpkg: Path, folder: Path) -> dict[str, tuple[dict, tuple[str, ...]]]:
    return {
        "inputs a number": (open_request(gpkg, inputs=5), ("open", "inputs")),
        "an input a number": (open_request(gpkg, inputs={"parcels": 5}), ("parcels",)),
        "an unknown role": (
            open_request(gpkg, inputs={"parcels": f"{gpkg}:parcels", "lakes": "x.gpkg"}),
            ("lakes", "not a layer role"),
        ),
        "settings a list": (open_request(gpkg, settings=[1]), ("settings",)),
        "a bad setting": (
            open_request(gpkg, settings={"wetland_adjacent_ft": "nan"}),
            ("wetland_adjacent_ft: ",),
        ),
        "tolerance text": (open_request(gpkg, tolerance="lots"), ("tolerance: ",)),
        "an unknown setting": (
            open_request(gpkg, settings={"slope_thresholds_pct": [10, 20]}),
            ("settings.slope_thresholds_pct", "not a setting"),
        ),
        "ordinance a number": (open_request(gpkg, ordinance=7), ("ordinance",)),
        "runoff a string": (open_request(gpkg, runoff="B"), ("runoff",)),
        "a pack of the wrong shape": (
            open_request(gpkg, ordinance=str(folder / "p.toml")),
            ("p.toml", "rules"),
        ),
    }


def test_bad_open_requests_get_one_line_naming_the_part(gpkg: Path, tmp_path: Path) -> None:
    (tmp_path / "p.toml").write_text(
        'rules = [1]\n[pack]\nid = "x"\nname = "X"\nchapter = "C"\nversion = "1"\n'
    )
    cases = bad_opens(gpkg, tmp_path)
    replies = replies_to([json.dumps(request) for request, _ in cases.values()])
    for (name, (_, words)), reply in zip(cases.items(), replies, strict=True):
        assert reply["ok"] is False, name
        for word in words:
            assert word in reply["error"], (name, reply["error"])
        assert not any(internal in reply["error"] for internal in INTERNAL), (name, reply)


def test_bad_evaluate_requests_get_one_line_and_the_worker_keeps_serving(gpkg: Path) -> None:
    bad = {
        "layers a list": ({"op": "evaluate", "parcel_id": "1.1-2-6", "layers": []}, "layers"),
        "a feature without wkb": (evaluate_request(gpkg, features=[{"x": 1}]), "wkb"),
        "wkb not hex": (evaluate_request(gpkg, features=[{"wkb": "zz"}]), "wkb"),
        "wkb not a geometry": (evaluate_request(gpkg, features=[{"wkb": "00ff"}]), "wkb"),
        "an unknown crs": (evaluate_request(gpkg, crs="EPSG:999999"), "crs"),
        "features a number": (evaluate_request(gpkg, features=3), "features"),
        "properties a list": (
            evaluate_request(
                gpkg,
                features=[
                    {"wkb": shapely.to_wkb(shapely.box(0, 0, 1, 1), hex=True), "properties": [1]}
                ],
            ),
            "properties",
        ),
        "report without a path": ({**evaluate_request(gpkg), "op": "report"}, "path"),
    }
    lines = [json.dumps(open_request(gpkg))]
    lines += [json.dumps(request) for request, _ in bad.values()]
    lines.append(json.dumps(evaluate_request(gpkg)))
    replies = replies_to(lines)
    assert replies[0]["ok"], replies[0]
    for (name, (_, word)), reply in zip(bad.items(), replies[1:-1], strict=True):
        assert reply["ok"] is False and word in reply["error"], (name, reply)
        assert not any(internal in reply["error"] for internal in INTERNAL), (name, reply)
    assert replies[-1]["ok"] and replies[-1]["parcel_id"] == "1.1-2-6"


def test_evaluate_before_open_says_so() -> None:
    reply = replies_to([json.dumps({"op": "evaluate", "parcel_id": "x"})])[0]
    assert reply == {
        "ok": False,
        "error": "send 'open' before 'evaluate'",
        "id": None,
        "op": "evaluate",
    }


def test_a_report_never_replaces_an_input(gpkg: Path) -> None:
    before = hashlib.sha256(gpkg.read_bytes()).hexdigest()
    report = {**evaluate_request(gpkg), "op": "report", "path": str(gpkg)}
    replies = replies_to([json.dumps(open_request(gpkg)), json.dumps(report)])
    assert replies[1]["ok"] is False
    assert "report: path" in replies[1]["error"] and "inputs.parcels" in replies[1]["error"]
    assert hashlib.sha256(gpkg.read_bytes()).hexdigest() == before
    assert not [p for p in gpkg.parent.iterdir() if ".sitecheck-" in p.name]
