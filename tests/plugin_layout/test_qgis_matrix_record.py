"""The README's QGIS versions and metadata.txt's range come from one recorded matrix run."""

from __future__ import annotations

import configparser
import importlib.util
import json
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
RECORD = REPO / "bench" / "results" / "qgis_matrix.json"


def _matrix():
    path = REPO / "tools" / "qgis_matrix.py"
    spec = importlib.util.spec_from_file_location("sitecheck_tools_qgis_matrix", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _record() -> dict:
    return json.loads(RECORD.read_text(encoding="utf-8"))


def _major_minor(version: str) -> tuple[int, int]:
    major, minor = version.split(".")[:2]
    return int(major), int(minor)


def test_the_readme_table_is_the_recorded_run():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert _matrix().table(_record()) in readme, (
        "README.md's QGIS table differs from bench/results/qgis_matrix.json: "
        "run make test-qgis-matrix"
    )


def test_the_record_holds_the_three_debian_qgis_versions_all_passed():
    runs = _record()["runs"]
    assert sorted(_major_minor(run["qgis"]) for run in runs) == [(3, 22), (3, 40), (3, 44)]
    for run in runs:
        assert run["returncode"] == 0, run
        assert run["tests"] > 0 and run["passed"] == run["tests"], run
    # every QGIS ran the same suite
    assert len({run["tests"] for run in runs}) == 1


def test_metadata_asks_for_the_versions_the_record_shows():
    metadata = configparser.ConfigParser(interpolation=None)
    metadata.read(REPO / "metadata.txt", encoding="utf-8")
    general = metadata["general"]
    versions = sorted(_major_minor(run["qgis"]) for run in _record()["runs"])
    lowest, highest = versions[0], versions[-1]
    assert general["qgisMinimumVersion"] == f"{lowest[0]}.{lowest[1]}"
    # the matrix tests Qt 5 builds of QGIS 3 only: QGIS 4 (Qt 6) is not claimed
    assert general["qgisMaximumVersion"] == f"{highest[0]}.99"
    assert general["supportsQt6"] == "False"
