"""The packaged plugin: one top folder, no dev files, and it runs from qgis_process."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from .conftest import LAYERS, REPO


@pytest.fixture(scope="module")
def package(tmp_path_factory) -> Path:
    subprocess.run(
        [sys.executable, str(REPO / "tools" / "package.py")], check=True, capture_output=True
    )
    return REPO / "dist" / "sitecheck_qgis.zip"


def test_zip_has_one_top_folder_and_no_dev_files(package):
    names = zipfile.ZipFile(package).namelist()
    assert {name.split("/")[0] for name in names} == {"sitecheck_qgis"}
    for forbidden in (
        "/tests/",
        "/bench/",
        "/tools/",
        "/.venv/",
        "/.git/",
        "__pycache__",
        "/sample_data/",
    ):
        assert not [n for n in names if forbidden in f"/{n}"], forbidden
    for needed in (
        "metadata.txt",
        "__init__.py",
        "plugin.py",
        "resources.py",
        "processing/check_site.py",
        "layers/styles/parcels.qml",
        "sitecheck/ordinances/scarsdale.toml",
        "LICENSE",
    ):
        assert f"sitecheck_qgis/{needed}" in names, needed


def test_every_guide_the_plugin_points_to_is_in_the_zip(package):
    """Help that says 'see docs/x.md' must find it in the installed plugin."""
    import re

    names = set(zipfile.ZipFile(package).namelist())
    pointed = set()
    for folder in ("processing", "ui", "layers", "bridge"):
        for path in (REPO / folder).rglob("*.py"):
            pointed |= set(re.findall(r"docs/[\w-]+\.md", path.read_text(encoding="utf-8")))
    pointed |= set(re.findall(r"docs/[\w-]+\.md", (REPO / "README.md").read_text(encoding="utf-8")))
    assert pointed, "no guide named: the pattern no longer matches"
    assert {f"sitecheck_qgis/{guide}" for guide in pointed} - names == set()


def test_qgis_process_runs_check_site_from_the_zip(package, village, cli_reference, tmp_path):
    plugins = tmp_path / "plugins"
    zipfile.ZipFile(package).extractall(plugins)
    home = tmp_path / "home"  # a throwaway QGIS profile
    home.mkdir()
    env = dict(
        os.environ, QGIS_PLUGINPATH=str(plugins), HOME=str(home), QT_QPA_PLATFORM="offscreen"
    )
    env.pop("PYTHONPATH", None)
    enabled = subprocess.run(
        ["qgis_process.bin", "plugins", "enable", "sitecheck_qgis"],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert enabled.returncode == 0, enabled.stdout + enabled.stderr
    gpkg = village / "village.gpkg"
    report = tmp_path / "qgis_process.json"
    arguments = [
        "qgis_process.bin",
        "run",
        "sitecheck:check_site",
        "--ORDINANCE=2",
        f"--PARCELS={gpkg}|layername=parcels",
        f"--DISTURBANCE={gpkg}|layername=disturbance",
        f"--DEM={village / 'dem.tif'}",
        f"--OUTPUT={tmp_path / 'parcels.gpkg'}",
        f"--FLAGS={tmp_path / 'flags.gpkg'}",
        f"--JSON_REPORT={report}",
        "--JSON_LAYOUT=1",
    ]
    arguments += [f"--{name.upper()}={gpkg}|layername={name}" for name in LAYERS]
    run = subprocess.run(arguments, env=env, capture_output=True, text=True, timeout=900)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    # each stage of the engine's progress is printed once, not at every percent it reports
    printed = [line for line in run.stdout.splitlines() if line.strip()]
    stages = [line for line in printed if "evaluating the rule packs" in line]
    assert len(stages) == 1, stages
    document = json.loads(report.read_text())
    ours = {
        p["parcel_id"]: (p["metrics"], [(t["rule_id"], t["outcome"]) for t in p["triggers"]])
        for p in document["parcels"]
    }
    theirs = {
        p["parcel_id"]: (p["metrics"], [(t["rule_id"], t["outcome"]) for t in p["triggers"]])
        for p in cli_reference["parcels"]
    }
    assert ours == theirs
