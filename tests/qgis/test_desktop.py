"""QGIS desktop itself (under Xvfb): the plugin loads through initGui and its panel answers."""

from __future__ import annotations

import json
import subprocess
import sys

from qgis.PyQt.QtGui import QImage

from .conftest import REPO, make_village_project


def test_qgis_desktop_opens_the_panel_and_it_answers(village, tmp_path):
    make_village_project(village, tmp_path)
    shot = tmp_path / "panel.png"
    run = subprocess.run(
        [
            sys.executable,
            str(REPO / "tools" / "run_qgis.py"),
            str(tmp_path),
            "--screenshot",
            str(shot),
        ],
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    status = json.loads((tmp_path / "qgis" / "session.json").read_text())
    assert status["ok"] and status["dock_visible"]
    assert (
        status["parcel_id"] == "1.1-11-5" and status["highest_severity"] == "state_permit_required"
    )
    image = QImage(str(shot))
    assert image.width() >= 1200
    colours = {
        image.pixel(x, y) for x in range(0, image.width(), 37) for y in range(0, image.height(), 37)
    }
    assert len(colours) > 20  # a rendered window, not a blank one
