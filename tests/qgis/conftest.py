"""Real QGIS for the plugin tests (Debian's python3-qgis, offscreen).

The repository root is the plugin folder. Tests import it the way QGIS does
from a plugin path: as a package named ``sitecheck_qgis``, through a symlink in
a temporary plugin folder.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

REPO = Path(__file__).resolve().parents[2]
PLUGIN_NAME = "sitecheck_qgis"
_plugin_root = Path(tempfile.mkdtemp(prefix="sitecheck-plugins-"))
(_plugin_root / PLUGIN_NAME).symlink_to(REPO, target_is_directory=True)
sys.path.insert(0, str(_plugin_root))

from qgis.core import QgsApplication  # noqa: E402

_app = QgsApplication([], False)
_app.initQgis()


@pytest.fixture(scope="session")
def qgis_app() -> QgsApplication:
    """The running QgsApplication."""
    return _app


@pytest.fixture(scope="session")
def plugin_root() -> Path:
    """A plugin folder holding this repository as ``sitecheck_qgis``."""
    return _plugin_root
