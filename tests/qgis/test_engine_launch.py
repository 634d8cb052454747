"""The engine the plugin starts is the one it ships, whatever folder QGIS runs in.

``python -m`` and ``python -c`` put the working folder first on the module
path: run from a folder holding a ``sitecheck`` package (a checkout of the
engine, a project folder of that name) they import it instead of the plugin's.
The test runs ``qgis_process`` from such a folder, whose decoy engine fails
every command, and check_site must still answer with the plugin's engine, on a
hand rectangle: 50 ft x 50 ft of disturbance on one lot is 2,500 sq ft.
"""

from __future__ import annotations

import json
import os
import subprocess

from qgis.PyQt.QtCore import QCoreApplication, QEvent, QEventLoop, QTimer

from .conftest import ENGINE_PYTHON

DECOY = 'import sys\nprint("the decoy engine ran", file=sys.stderr)\nraise SystemExit(3)\n'

WRITER = """
import sys, geopandas as gpd
from shapely.geometry import box
gpd.GeoDataFrame({"parcel_id": ["A"]}, geometry=[box(0, 0, 100, 100)], crs="EPSG:2260").to_file(
    sys.argv[1], layer="parcels", driver="GPKG")
gpd.GeoDataFrame({"parcel_id": ["A"]}, geometry=[box(10, 10, 60, 60)], crs="EPSG:2260").to_file(
    sys.argv[1], layer="disturbance", driver="GPKG")
"""


def test_check_site_runs_the_plugins_engine_from_a_folder_holding_another(plugin_root, tmp_path):
    folder = tmp_path / "project"  # where the user starts qgis_process
    (folder / "sitecheck").mkdir(parents=True)
    (folder / "sitecheck" / "__init__.py").write_text("", encoding="utf-8")
    (folder / "sitecheck" / "__main__.py").write_text(DECOY, encoding="utf-8")
    gpkg = tmp_path / "site.gpkg"
    subprocess.run([ENGINE_PYTHON, "-c", WRITER, str(gpkg)], check=True, timeout=120)
    home = tmp_path / "home"
    home.mkdir()
    env = dict(
        os.environ, QGIS_PLUGINPATH=str(plugin_root), HOME=str(home), QT_QPA_PLATFORM="offscreen"
    )
    env.pop("PYTHONPATH", None)

    def qgis_process(*arguments: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            ["qgis_process.bin", *arguments],
            env=env,
            cwd=folder,
            capture_output=True,
            text=True,
            timeout=900,
        )

    enabled = qgis_process("plugins", "enable", "sitecheck_qgis")
    assert enabled.returncode == 0, enabled.stdout + enabled.stderr
    report = tmp_path / "report.json"
    run = qgis_process(
        "run",
        "sitecheck:check_site",
        "--ORDINANCE=0",
        f"--PARCELS={gpkg}|layername=parcels",
        f"--DISTURBANCE={gpkg}|layername=disturbance",
        f"--OUTPUT={tmp_path / 'parcels.gpkg'}",
        f"--FLAGS={tmp_path / 'flags.gpkg'}",
        f"--JSON_REPORT={report}",
        "--JSON_LAYOUT=1",
    )
    assert "the decoy engine ran" not in run.stdout + run.stderr
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    parcel = json.loads(report.read_text())["parcels"][0]
    assert parcel["metrics"]["disturbed_area_sqft"] == 2500


def test_the_panels_worker_is_the_plugins_engine_from_a_folder_holding_another(qgis_app, tmp_path):
    from sitecheck_qgis.bridge.worker_client import WorkerClient

    (tmp_path / "sitecheck").mkdir()
    (tmp_path / "sitecheck" / "__init__.py").write_text("", encoding="utf-8")
    (tmp_path / "sitecheck" / "__main__.py").write_text(DECOY, encoding="utf-8")
    replies: list[dict] = []
    failures: list[str] = []
    started_in = os.getcwd()
    os.chdir(tmp_path)  # QGIS started from that folder
    try:
        worker = WorkerClient(ENGINE_PYTHON)
        loop = QEventLoop()
        worker.replied.connect(lambda reply: (replies.append(reply), loop.quit()))
        worker.failed.connect(lambda message: (failures.append(message), loop.quit()))
        worker.send({"op": "ping"})
        QTimer.singleShot(60_000, loop.quit)
        loop.exec()
        worker.replied.disconnect()
        worker.failed.disconnect()
        worker.stop()
        worker.deleteLater()  # gone before QGIS exits, as the dock's worker goes with the dock
        QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    finally:
        os.chdir(started_in)
    assert failures == []
    assert [reply["op"] for reply in replies] == ["ping"]
