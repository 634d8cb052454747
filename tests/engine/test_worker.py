"""The dock panel's worker: the same answers as a full run, for one parcel at a time."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys

import pyogrio
import pytest
import shapely
from shapely.geometry import box

from sitecheck.app.cli import main
from sitecheck.app.worker import serve
from sitecheck.sample.village import generate_village

from .conftest import let_settle

STATIC = (
    "floodplain",
    "wetlands",
    "watercourses",
    "sda",
    "zoning",
    "impaired_watersheds",
    "impervious_existing",
    "soils",
)
DRAWN = ("disturbance", "impervious_proposed")


@pytest.fixture(scope="module")
def village(tmp_path_factory):
    folder = tmp_path_factory.mktemp("worker-village")
    paths = generate_village(folder)
    gpkg = paths["gpkg"]
    argv = [
        "check",
        "--quiet",
        "--ordinance",
        "scarsdale",
        "--parcels",
        f"{gpkg}:parcels",
        "--disturbance",
        f"{gpkg}:disturbance",
        "--dem",
        str(paths["dem"]),
        "--out",
        str(folder / "full.gpkg"),
        "--json-layout",
        "full",
        "--json",
        str(folder / "full.json"),
    ]
    for name in (*STATIC, "impervious_proposed"):
        argv += [f"--{name.replace('_', '-')}", f"{gpkg}:{name}"]
    assert main(argv) == 0
    full = {p["parcel_id"]: p for p in json.loads((folder / "full.json").read_text())["parcels"]}
    return paths, full


def _layer_payload(gpkg, layer: str, parcel_id: str | None = None) -> dict:
    frame = pyogrio.read_dataframe(gpkg, layer=layer)
    if parcel_id is not None and "parcel_id" in frame:
        frame = frame[frame["parcel_id"] == parcel_id]
    features = []
    for geometry, (_, row) in zip(
        frame.geometry, frame.drop(columns="geometry").iterrows(), strict=True
    ):
        properties = {k: (None if v is None or v != v else v) for k, v in row.items()}
        properties = {
            k: (int(v) if hasattr(v, "item") and float(v).is_integer() else v)
            for k, v in properties.items()
        }
        features.append({"wkb": shapely.to_wkb(geometry, hex=True), "properties": properties})
    return {"crs": "EPSG:2260", "features": features}


def _open_request(paths) -> dict:
    gpkg = paths["gpkg"]
    inputs = {"parcels": f"{gpkg}:parcels", **{name: f"{gpkg}:{name}" for name in STATIC}}
    return {"op": "open", "inputs": inputs, "dem": str(paths["dem"]), "ordinance": "scarsdale"}


def _run(requests: list[dict]) -> list[dict]:
    stdin = io.StringIO("".join(json.dumps(r) + "\n" for r in requests))
    stdout = io.StringIO()
    assert serve(stdin, stdout) == 0
    return [json.loads(line) for line in stdout.getvalue().splitlines()]


@pytest.mark.slow
def test_each_project_parcel_matches_the_full_run(village):
    paths, full = village
    gpkg = paths["gpkg"]
    projects = pyogrio.read_dataframe(gpkg, layer="projects", read_geometry=False)
    requests = [_open_request(paths)]
    for parcel_id in projects["parcel_id"]:
        requests.append(
            {
                "op": "evaluate",
                "id": parcel_id,
                "parcel_id": parcel_id,
                "layers": {
                    "disturbance": _layer_payload(gpkg, "disturbance"),
                    "impervious_proposed": _layer_payload(gpkg, "impervious_proposed"),
                },
            }
        )
    replies = _run(requests)
    flags = pyogrio.read_dataframe(gpkg.parent / "full.gpkg", layer="flags", read_geometry=False)
    assert replies[0]["ok"] and replies[0]["crs"]["epsg"] == 2260
    for reply in replies[1:]:
        assert reply["ok"], reply
        expected = full[reply["parcel_id"]]
        assert reply["metrics"] == expected["metrics"]
        # The parcel's flags, every one and no other parcel's, as the full run's layer has them.
        its_flags = flags[flags["parcel_id"] == reply["parcel_id"]]
        assert sorted((f["kind"], f["area_sqft"]) for f in reply["flags"]) == sorted(
            zip(its_flags["kind"], its_flags["area_sqft"], strict=True)
        )
        assert reply["metrics"]["cn_post"] is not None  # the runoff screen ran too
        assert reply["runoff_confirm"], "pack-default rainfall must be flagged to confirm"
        assert [(t["rule_id"], t["outcome"]) for t in reply["triggers"]] == [
            (t["rule_id"], t["outcome"]) for t in expected["triggers"]
        ]
        assert reply["highest_severity"] == expected["highest_severity"]


def test_an_edit_past_a_threshold_changes_the_answer(village):
    paths, _ = village
    lots = pyogrio.read_dataframe(paths["gpkg"], layer="parcels")
    projects = set(
        pyogrio.read_dataframe(paths["gpkg"], layer="projects", read_geometry=False)["parcel_id"]
    )
    roomy = lots[
        (lots.geometry.area > 15_000)
        & (lots.geometry.area < 30_000)
        & ~lots["parcel_id"].isin(projects)
    ]
    lot_id = sorted(roomy["parcel_id"])[0]  # a lot without a project, big enough for the drawing
    quiet = roomy[roomy["parcel_id"] == lot_id].geometry.iloc[0]
    x, y = quiet.centroid.coords[0]

    def drawing(area: float) -> dict:
        side = area**0.5
        shape = box(x - side / 2, y - side / 2, x + side / 2, y + side / 2)
        return {
            "crs": "EPSG:2260",
            "features": [
                {"wkb": shapely.to_wkb(shape, hex=True), "properties": {"parcel_id": lot_id}}
            ],
        }

    replies = _run(
        [_open_request(paths)]
        + [
            {"op": "evaluate", "parcel_id": lot_id, "layers": {"disturbance": drawing(area)}}
            for area in (1_000.0, 5_300.0)
        ]
    )
    small, large = replies[1], replies[2]
    assert small["metrics"]["disturbed_area_sqft"] == pytest.approx(1_000.0, abs=0.01)
    small_outcome = {t["rule_id"]: t["outcome"] for t in small["triggers"]}
    assert small_outcome["scarsdale.tier.254_9"] == "not_triggered"
    assert small_outcome["scarsdale.tier.254_8"] == "triggered"
    large_outcome = {t["rule_id"]: t["outcome"] for t in large["triggers"]}
    assert large_outcome["scarsdale.tier.254_9"] == "triggered"
    assert all("wkb" in flag for flag in large["flags"])


def test_bad_requests_get_an_error_and_the_worker_keeps_serving(village):
    paths, _ = village
    replies = _run(
        [
            {"op": "evaluate", "parcel_id": "x"},
            {"op": "nonsense"},
            _open_request(paths),
            {
                "op": "evaluate",
                "parcel_id": "no-such-lot",
                "layers": {"disturbance": {"crs": "EPSG:2260", "features": []}},
            },
            {"op": "ping"},
        ]
    )
    assert [r["ok"] for r in replies] == [False, False, True, False, True]
    assert "send 'open' before 'evaluate'" in replies[0]["error"]
    assert "unknown op" in replies[1]["error"]
    assert "no parcel with id no-such-lot" in replies[3]["error"]


def test_serve_runs_as_a_process(village):
    _paths, _ = village
    process = subprocess.run(
        [sys.executable, "-m", "sitecheck", "serve"],
        input=json.dumps({"op": "ping"}) + "\n" + json.dumps({"op": "quit"}) + "\n",
        capture_output=True,
        text=True,
        timeout=120,
    )
    replies = [json.loads(line) for line in process.stdout.splitlines()]
    assert [r["op"] for r in replies] == ["ping", "quit"]


def test_the_panels_watersheds_and_impaired_flag_reach_the_measure(village):
    """The panel sends --watersheds as an input and --impaired-flag as a setting, as the CLI
    takes them: the village's stream as the listed water, its zoning districts as basins."""
    paths, _ = village
    gpkg = paths["gpkg"]
    request = _open_request(paths)
    request["inputs"] |= {
        "impaired_watersheds": f"{gpkg}:watercourses",
        "watersheds": f"{gpkg}:zoning",
    }
    evaluate = {
        "op": "evaluate",
        "layers": {"disturbance": _layer_payload(gpkg, "disturbance")},
    }
    # Worked with shapely alone: a lot with work in a basin (a zoning district) the stream
    # meets, and one in none, each more than 1 sq ft (US survey, EPSG:2260) or none at all.
    basins = pyogrio.read_dataframe(gpkg, layer="zoning").geometry
    stream = shapely.union_all(pyogrio.read_dataframe(gpkg, layer="watercourses").geometry)
    listed = shapely.union_all([basin for basin in basins if basin.intersects(stream)])
    lots = pyogrio.read_dataframe(gpkg, layer="parcels").set_index("parcel_id").geometry
    projects = pyogrio.read_dataframe(gpkg, layer="projects", read_geometry=False)
    overlap = {str(p): lots[p].intersection(listed).area for p in projects["parcel_id"]}
    inside = next(p for p, area in overlap.items() if area > 1.0)
    outside = next(p for p, area in overlap.items() if area == 0.0)
    flags = {}
    for flag in ("all", "NO_SUCH_FIELD"):
        opened = dict(request, settings={"impaired_flag": flag})
        asks = [dict(evaluate, id=p, parcel_id=p) for p in (inside, outside)]
        flags[flag] = _run([opened, *asks])
    assert all(reply["ok"] for reply in flags["all"]), flags["all"]
    assert flags["all"][1]["metrics"]["in_impaired_watershed"] is True
    assert flags["all"][2]["metrics"]["in_impaired_watershed"] is False
    refused = [reply for reply in flags["NO_SUCH_FIELD"] if not reply["ok"]]
    assert refused and "no field 'NO_SUCH_FIELD' (--impaired-flag)" in refused[0]["error"]


def test_the_panels_rainfall_file_replaces_the_pack_defaults(village, tmp_path):
    """The panel's runoff box sends ``rainfall_file``: its depths are the site's, nothing is
    left to confirm; without it the pack's placeholder depths are flagged."""
    from .test_source_rainfall_files import _pfds

    paths, _ = village
    gpkg = paths["gpkg"]
    rain = tmp_path / "PF_Depth_English_PDS.csv"
    rain.write_text(_pfds())
    projects = pyogrio.read_dataframe(gpkg, layer="projects", read_geometry=False)
    first = str(projects["parcel_id"].iloc[0])
    evaluate = {
        "op": "evaluate",
        "id": first,
        "parcel_id": first,
        "layers": {"disturbance": _layer_payload(gpkg, "disturbance")},
    }
    confirm = {}
    for name, runoff in (
        ("defaults", {"default_hsg": "B"}),
        ("file", {"default_hsg": "B", "rainfall_file": str(rain)}),
    ):
        replies = _run([dict(_open_request(paths), runoff=runoff), evaluate])
        assert all(reply["ok"] for reply in replies), replies
        confirm[name] = replies[1]["runoff_confirm"]
    assert confirm["defaults"] and confirm["file"] == []


def test_a_lot_without_work_is_answered_with_the_runoff_screen_empty(village):
    """Selecting a quiet lot is the panel's first request: no lot is screened for runoff,
    and the answer still comes, its runoff metrics empty."""
    paths, _ = village
    gpkg = paths["gpkg"]
    work = pyogrio.read_dataframe(gpkg, layer="disturbance", read_geometry=False)
    parcels = pyogrio.read_dataframe(gpkg, layer="parcels", read_geometry=False)
    quiet = next(p for p in parcels["parcel_id"] if p not in set(work["parcel_id"]))
    empty = {"crs": "EPSG:2260", "features": []}
    replies = _run(
        [
            _open_request(paths),
            {"op": "evaluate", "parcel_id": quiet, "layers": {"disturbance": empty}},
        ]
    )
    assert replies[1]["ok"], replies[1]
    assert replies[1]["triggers"] == [] and replies[1]["touched"] is False
    assert replies[1]["metrics"]["cn_post"] is None


def test_each_edit_is_answered_from_the_layers_as_sent_the_unchanged_kept(village):
    """The worker keeps a drawn layer read while the panel sends it unchanged: an edit to
    one layer must still be answered with that layer as sent, and going back to a drawing
    gives its first answer again, the audit's hash of each layer with it."""
    paths, _ = village
    lots = pyogrio.read_dataframe(paths["gpkg"], layer="parcels")
    projects = set(
        pyogrio.read_dataframe(paths["gpkg"], layer="projects", read_geometry=False)["parcel_id"]
    )
    roomy = lots[(lots.geometry.area > 15_000) & ~lots["parcel_id"].isin(projects)]
    lot_id = sorted(roomy["parcel_id"])[0]
    x, y = roomy[roomy["parcel_id"] == lot_id].geometry.iloc[0].centroid.coords[0]

    def square(area: float, dx: float = 0.0) -> dict:
        half = area**0.5 / 2
        shape = box(x + dx - half, y - half, x + dx + half, y + half)
        feature = {"wkb": shapely.to_wkb(shape, hex=True), "properties": {"parcel_id": lot_id}}
        return {"crs": "EPSG:2260", "features": [feature]}

    none = {"crs": "EPSG:2260", "features": []}
    drawings = [  # (disturbance, proposed impervious): one layer changed at a time
        (square(1_000.0), none),
        (square(5_300.0), none),
        (square(1_000.0), square(400.0, dx=2.0)),
        (square(1_000.0), none),
    ]
    replies = _run(
        [_open_request(paths)]
        + [
            {
                "op": "evaluate",
                "parcel_id": lot_id,
                "layers": {"disturbance": disturbance, "impervious_proposed": proposed},
            }
            for disturbance, proposed in drawings
        ]
    )[1:]
    assert all(reply["ok"] for reply in replies), replies
    disturbed = [reply["metrics"]["disturbed_area_sqft"] for reply in replies]
    assert disturbed == pytest.approx([1_000.0, 5_300.0, 1_000.0, 1_000.0], abs=0.01)
    proposed = [reply["metrics"]["impervious_proposed_sqft"] for reply in replies]
    assert proposed[2] == pytest.approx(proposed[0] + 400.0, abs=0.01)
    assert replies[3]["metrics"] == replies[0]["metrics"]
    assert replies[3]["triggers"] == replies[0]["triggers"]

    def hashes(role: str) -> list[str]:
        return [
            next(i["features_sha256"] for i in reply["inputs"] if i["name"] == role)
            for reply in replies
        ]

    first, larger, back, again = hashes("disturbance")
    assert first == back == again != larger
    first, same, drawn, gone = hashes("impervious_proposed")
    assert first == same == gone != drawn


def test_the_dem_is_hashed_again_only_when_it_changes(village, monkeypatch):
    """Every answer's audit names the DEM's SHA-256; the worker measured each answer (and
    a project's site) with a new record and read the whole DEM again to hash it: 64 ms a
    pass for the 250k bench village's 91 MB DEM, growing with the DEM (the file rewritten:
    ``test_file_hashes``)."""
    import hashlib

    import sitecheck.io.fingerprint as fingerprint

    paths, _ = village
    dem = paths["dem"]
    opened = []

    def counted_open(path, *args, **kwargs):
        opened.append(os.fspath(path))
        return open(path, *args, **kwargs)

    # The hashing module's own name for open: what it reads, counted; nothing else is.
    monkeypatch.setattr(fingerprint, "open", counted_open, raising=False)
    let_settle(dem)  # the DEM the fixture wrote just now
    evaluate = {
        "op": "evaluate",
        "parcel_id": _a_project_lot(paths),
        "layers": {role: _layer_payload(paths["gpkg"], role) for role in DRAWN},
    }
    replies = _run([_open_request(paths), evaluate, evaluate, evaluate])[1:]
    assert all(reply["ok"] for reply in replies), replies
    expected = hashlib.sha256(dem.read_bytes()).hexdigest()
    for reply in replies:
        assert next(i["sha256"] for i in reply["inputs"] if i["name"] == "dem") == expected
    assert opened.count(str(dem)) <= 1  # at most once in this process, however many answers


def _a_project_lot(paths) -> str:
    projects = pyogrio.read_dataframe(paths["gpkg"], layer="projects", read_geometry=False)
    return str(sorted(projects["parcel_id"])[0])
