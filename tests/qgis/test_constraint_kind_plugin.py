"""A constraint kind added as one engine file reaches the plugin in a real QGIS.

The plugin folder is copied, the throwaway kind of ``tests/throwaway_kind.py``
written into the copy's engine, and the two generated files regenerated as
``docs/architecture.md`` says: the description (``sitecheck describe --json``)
and the flags style (``tools/make_styles.py``). Nothing else of the copy
changes. Then ``qgis_process`` runs the copy's check_site with the kind's layer
and option, and the copy's panel settings and map styles are built in QGIS's
own Python. The expected area is the hand figure of ``throwaway_kind.py``.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import ENGINE_PYTHON, REPO


def _module_at(relative: str, name: str):
    """A module of the repository loaded from its file (not a package of the plugin's)."""
    spec = importlib.util.spec_from_file_location(name, REPO / relative)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _packaged_files() -> list[Path]:
    """What the plugin's ZIP holds (``tools/package.py``), relative to the repository."""
    return _module_at("tools/package.py", "sitecheck_package").plugin_files()


KIND = _module_at("tests/throwaway_kind.py", "sitecheck_tests_throwaway_kind")

PANEL_SCRIPT = """
import json, sys
from qgis.core import QgsApplication
app = QgsApplication([], False)
app.initQgis()
sys.path.insert(0, sys.argv[1])
from sitecheck_qgis.bridge.vocabulary import ROLES
from sitecheck_qgis.layers.map_styles import ORDER, TITLES
from sitecheck_qgis.ui.settings_box import SettingsBox
box = SettingsBox()
print(json.dumps({
    "panel_roles": [role.key for role in ROLES],
    "map_order": list(ORDER),
    "map_titles": TITLES,
    "settings": box.values(),
}))
"""


@pytest.fixture(scope="module")
def plugin_with_kind(tmp_path_factory) -> Path:
    """A plugin root holding a copy of the plugin with the kind's one engine file added."""
    plugins = tmp_path_factory.mktemp("plugins-with-kind")
    copy = plugins / "sitecheck_qgis"
    copy.mkdir()
    # The plugin as its ZIP installs it, and the tools that regenerate the two files.
    for relative in _packaged_files():
        (copy / relative).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(REPO / relative, copy / relative)
    shutil.copytree(REPO / "tools", copy / "tools", ignore=shutil.ignore_patterns("__pycache__"))
    KIND.add_to_engine(copy / "sitecheck")
    described = subprocess.run(
        [ENGINE_PYTHON, "-m", "sitecheck", "describe", "--json"],
        cwd=copy,
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    (copy / "bridge" / "engine_description.json").write_text(described.stdout, encoding="utf-8")
    subprocess.run(
        [sys.executable, str(copy / "tools" / "make_styles.py")],
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen"},
        check=True,
        capture_output=True,
        timeout=300,
    )
    return plugins


def _qgis_process(plugins: Path, home: Path, *arguments: str) -> subprocess.CompletedProcess:
    env = dict(
        os.environ, QGIS_PLUGINPATH=str(plugins), HOME=str(home), QT_QPA_PLATFORM="offscreen"
    )
    env.pop("PYTHONPATH", None)
    return subprocess.run(  # from a user's folder, not this repository's (its engine)
        ["qgis_process.bin", *arguments],
        env=env,
        cwd=home,
        capture_output=True,
        text=True,
        timeout=900,
    )


def test_a_kind_in_one_engine_file_reaches_check_site_the_panel_and_the_styles(
    plugin_with_kind, tmp_path
):
    home = tmp_path / "home"  # a throwaway QGIS profile
    home.mkdir()
    enabled = _qgis_process(plugin_with_kind, home, "plugins", "enable", "sitecheck_qgis")
    assert enabled.returncode == 0, enabled.stdout + enabled.stderr
    shown = _qgis_process(plugin_with_kind, home, "help", "sitecheck:check_site").stdout
    assert "HISTORIC_DISTRICTS" in shown and "HISTORIC_BUFFER_FT" in shown, shown

    gpkg, pack = KIND.write_layers(tmp_path, ENGINE_PYTHON)
    report = tmp_path / "report.json"
    run = _qgis_process(
        plugin_with_kind,
        home,
        "run",
        "sitecheck:check_site",
        f"--ORDINANCE_FILE={pack}",
        f"--PARCELS={gpkg}|layername=parcels",
        f"--DISTURBANCE={gpkg}|layername=disturbance",
        f"--HISTORIC_DISTRICTS={gpkg}|layername=historic",
        f"--HISTORIC_BUFFER_FT={KIND.BUFFER_FT}",
        f"--OUTPUT={tmp_path / 'parcels.gpkg'}",
        f"--FLAGS={tmp_path / 'flags.gpkg'}",
        f"--JSON_REPORT={report}",
        "--JSON_LAYOUT=1",
    )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    parcels = {p["parcel_id"]: p for p in json.loads(report.read_text())["parcels"]}
    assert parcels["A"]["metrics"]["disturbed_in_historic_district_sqft"] == pytest.approx(
        KIND.EXPECTED_A_SQFT
    )
    triggered = [t["rule_id"] for t in parcels["A"]["triggers"] if t["outcome"] == "triggered"]
    assert triggered == ["testville.historic"]

    style = (plugin_with_kind / "sitecheck_qgis" / "layers" / "styles" / "flags.qml").read_text()
    assert 'value="historic_district"' in style and 'label="Historic district"' in style

    panel = subprocess.run(
        [sys.executable, "-c", PANEL_SCRIPT, str(plugin_with_kind)],
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen"},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert panel.returncode == 0, panel.stderr[-3000:]
    seen = json.loads(panel.stdout.strip().splitlines()[-1])
    assert "historic_districts" in seen["panel_roles"]
    assert "historic_districts" in seen["map_order"]
    assert seen["map_titles"]["historic_districts"] == "Historic districts"
    assert seen["settings"]["historic_buffer_ft"] == 0.0  # the option's default
