"""The recorded QGIS matrix run is of today's tests and of the QGIS it names."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

from qgis.core import Qgis

REPO = Path(__file__).resolve().parents[2]
RECORD = REPO / "bench" / "results" / "qgis_matrix.json"
RECORD_TESTS = "tests/qgis/test_matrix_record.py"  # a matrix run leaves these out


def _release() -> str | None:
    path = REPO / "tools" / "qgis_matrix.py"
    spec = importlib.util.spec_from_file_location("sitecheck_tools_qgis_matrix", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.native_release()


def test_the_record_counts_the_tests_there_are_now():
    listed = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--collect-only", "-q",
         "tests/qgis"],
        cwd=REPO, env={**os.environ, "QT_QPA_PLATFORM": "offscreen"}, capture_output=True,
        text=True, timeout=300, check=False,
    )  # fmt: skip
    collected = [
        line
        for line in listed.stdout.splitlines()
        if "::" in line and not line.startswith(f"{RECORD_TESTS}::")
    ]
    assert collected, listed.stdout + listed.stderr
    for run in json.loads(RECORD.read_text(encoding="utf-8"))["runs"]:
        assert run["tests"] == len(collected), (
            f"bench/results/qgis_matrix.json ran {run['tests']} tests in QGIS {run['qgis']}; "
            f"tests/qgis has {len(collected)}: run make test-qgis-matrix"
        )


def test_the_record_names_the_qgis_this_release_runs():
    runs = {run["release"]: run for run in json.loads(RECORD.read_text())["runs"]}
    release = _release()
    assert release in runs, f"the matrix has no run for this machine's Debian ({release})"
    assert runs[release]["qgis"] == Qgis.QGIS_VERSION.split("-")[0]
