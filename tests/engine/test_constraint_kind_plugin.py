"""A constraint kind is one file: a throwaway kind dropped into ``sitecheck/schema/kinds/``
reaches every surface of the engine without another file changed.

The engine is copied to a temporary folder, the kind's module
(``tests/throwaway_kind.py``: a historic-district overlay with a buffer option,
on hand rectangles whose answer is 1,500 sq ft for lot A) written into the
copy's ``schema/kinds/`` and every command run from the copy in its own Python.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pyogrio
import pytest
import shapely

import sitecheck


def _throwaway_kind():
    """tests/throwaway_kind.py, shared with the QGIS tests (which run in another Python)."""
    path = Path(__file__).resolve().parents[1] / "throwaway_kind.py"
    spec = importlib.util.spec_from_file_location("sitecheck_tests_throwaway_kind", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


KIND = _throwaway_kind()
EXPECTED_A_SQFT = KIND.EXPECTED_A_SQFT


@pytest.fixture(scope="module")
def engine_with_kind(tmp_path_factory) -> Path:
    """A copy of the engine with the throwaway kind's one file added."""
    root = tmp_path_factory.mktemp("engine-with-kind")
    shutil.copytree(
        Path(sitecheck.__file__).parent,
        root / "sitecheck",
        ignore=shutil.ignore_patterns("__pycache__"),
    )
    KIND.add_to_engine(root / "sitecheck")
    return root


@pytest.fixture(scope="module")
def hand_layers(tmp_path_factory) -> dict[str, str]:
    folder = tmp_path_factory.mktemp("historic-layers")
    gpkg, pack = KIND.write_layers(folder, sys.executable)
    return {"gpkg": str(gpkg), "pack": str(pack), "folder": str(folder)}


def _engine(root: Path, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    environment = {**os.environ, "PYTHONPATH": str(root)}
    return subprocess.run(  # from the copy's folder: ``-m`` puts the working folder first
        [sys.executable, "-m", "sitecheck", *args],
        cwd=root,
        input=stdin,
        capture_output=True,
        text=True,
        env=environment,
        timeout=600,
        check=False,
    )


def _check_argv(layers: dict[str, str], out: str, *extra: str, with_kind: bool = True) -> list[str]:
    gpkg = layers["gpkg"]
    kind = ["--historic-districts", f"{gpkg}:historic", "--historic-buffer-ft", str(KIND.BUFFER_FT)]
    return [
        "check",
        "--quiet",
        "--ordinance",
        layers["pack"],
        "--parcels",
        f"{gpkg}:parcels",
        "--disturbance",
        f"{gpkg}:disturbance",
        *(kind if with_kind else []),
        "--out",
        f"{out}.gpkg",
        "--json",
        f"{out}.json",
        "--json-layout",
        "full",
        *extra,
    ]


def _outcomes(parcel: dict) -> dict[str, str]:
    return {trigger["rule_id"]: trigger["outcome"] for trigger in parcel["triggers"]}


def test_the_kind_is_in_the_description_the_plugin_builds_from(engine_with_kind):
    described = json.loads(_engine(engine_with_kind, "describe", "--json").stdout)
    roles = {role["key"]: role for role in described["roles"]}
    assert roles["historic_districts"]["flag"] == "--historic-districts"
    assert roles["historic_districts"]["processing"] == "HISTORIC_DISTRICTS"
    assert roles["historic_districts"]["symbol"]["outline"] == "#8c510a"
    metrics = {metric["name"]: metric for metric in described["metrics"]}
    assert metrics["disturbed_in_historic_district_sqft"]["unit"] == "sq ft"
    assert metrics["disturbed_in_historic_district_sqft"]["needs"] == "historic_districts"
    options = {option["name"]: option for option in described["options"]}
    assert options["historic_buffer_ft"]["processing"] == "HISTORIC_BUFFER_FT"
    assert "historic_district" in {flag["key"] for flag in described["flag_kinds"]}


def test_the_command_line_offers_the_layer_and_its_option(engine_with_kind):
    for command in ("measure", "check"):
        shown = _engine(engine_with_kind, command, "--help").stdout
        assert "--historic-districts" in shown
        assert "--historic-buffer-ft" in shown


def test_a_run_measures_the_kind_checks_it_and_maps_it(engine_with_kind, hand_layers):
    out = str(Path(hand_layers["folder"]) / "single")
    html = out + ".html"
    done = _engine(engine_with_kind, *_check_argv(hand_layers, out, "--report", html))
    assert done.returncode == 0, done.stderr
    parcels = {p["parcel_id"]: p for p in json.loads(Path(out + ".json").read_text())["parcels"]}
    assert parcels["A"]["metrics"]["disturbed_in_historic_district_sqft"] == pytest.approx(
        EXPECTED_A_SQFT
    )
    assert parcels["B"]["metrics"]["disturbed_in_historic_district_sqft"] == 0
    assert _outcomes(parcels["A"]) == {"testville.historic": "triggered"}
    assert _outcomes(parcels["B"]) == {"testville.historic": "not_triggered"}

    flags = pyogrio.read_dataframe(out + ".gpkg", layer="flags")
    historic = flags[flags["kind"] == "historic_district"]
    assert list(historic["parcel_id"]) == ["A"]
    assert shapely.area(historic.geometry.iloc[0]) == pytest.approx(EXPECTED_A_SQFT)
    assert "Historic district" in Path(html).read_text(encoding="utf-8")


def test_a_run_without_the_layer_leaves_the_metric_unknown(engine_with_kind, hand_layers):
    out = str(Path(hand_layers["folder"]) / "without")
    argv = _check_argv(hand_layers, out, with_kind=False)
    done = _engine(engine_with_kind, *argv)
    assert done.returncode == 0, done.stderr
    parcel_a = json.loads(Path(out + ".json").read_text())["parcels"][0]
    assert parcel_a["metrics"]["disturbed_in_historic_district_sqft"] is None
    assert _outcomes(parcel_a) == {"testville.historic": "needs_review"}


def test_the_panels_worker_takes_the_layer(engine_with_kind, hand_layers):
    gpkg = hand_layers["gpkg"]
    disturbance = pyogrio.read_dataframe(gpkg, layer="disturbance")
    drawn = {
        "crs": "EPSG:2260",
        "features": [
            {"wkb": shapely.to_wkb(geom, hex=True), "properties": {"parcel_id": pid}}
            for geom, pid in zip(disturbance.geometry, disturbance["parcel_id"], strict=True)
        ],
    }
    requests = [
        {
            "op": "open",
            "inputs": {"parcels": f"{gpkg}:parcels", "historic_districts": f"{gpkg}:historic"},
            "settings": {"historic_buffer_ft": KIND.BUFFER_FT},
            "ordinance": hand_layers["pack"],
        },
        {"op": "evaluate", "id": 1, "parcel_id": "A", "layers": {"disturbance": drawn}},
        {"op": "quit"},
    ]
    done = _engine(engine_with_kind, "serve", stdin="".join(json.dumps(r) + "\n" for r in requests))
    replies = [json.loads(line) for line in done.stdout.splitlines()]
    assert replies[0]["ok"], replies[0]
    assert replies[1]["ok"], replies[1]
    assert replies[1]["metrics"]["disturbed_in_historic_district_sqft"] == pytest.approx(
        EXPECTED_A_SQFT
    )
    assert [t["rule_id"] for t in replies[1]["triggers"]] == ["testville.historic"]


@pytest.mark.slow
def test_the_dask_engine_cuts_the_layer_to_its_windows(engine_with_kind, hand_layers):
    out = str(Path(hand_layers["folder"]) / "dask")
    done = _engine(
        engine_with_kind,
        *_check_argv(hand_layers, out, "--engine", "dask", "--workers", "1"),
    )
    assert done.returncode == 0, done.stderr
    parcels = {p["parcel_id"]: p for p in json.loads(Path(out + ".json").read_text())["parcels"]}
    assert parcels["A"]["metrics"]["disturbed_in_historic_district_sqft"] == pytest.approx(
        EXPECTED_A_SQFT
    )
    assert _outcomes(parcels["A"]) == {"testville.historic": "triggered"}
