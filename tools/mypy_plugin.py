"""Type-check the plugin side (bridge/, layers/, ui/, processing/, plugin.py) with mypy.

The plugin's modules import each other relatively, as parts of the package QGIS
loads; mypy must see them under a package name too. This links the repository
as ``sitecheck_qgis`` in a temporary folder (as the QGIS tests do) and checks
those packages with the repository's mypy settings. QGIS itself is not
installed in the engine's environment: its names are typed as Any.

    .venv/bin/python tools/mypy_plugin.py
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
PLUGIN = "sitecheck_qgis"
PACKAGES = ("bridge", "layers", "ui", "processing")


def main() -> int:
    with tempfile.TemporaryDirectory(prefix="sitecheck-mypy-") as folder:
        (Path(folder) / PLUGIN).symlink_to(REPO, target_is_directory=True)
        command = [sys.executable, "-m", "mypy", "--config-file", str(REPO / "pyproject.toml")]
        for package in PACKAGES:
            command += ["-p", f"{PLUGIN}.{package}"]
        command += ["-m", f"{PLUGIN}.plugin"]
        environment = {**os.environ, "MYPYPATH": folder}
        return subprocess.run(command, cwd=folder, env=environment, check=False).returncode


if __name__ == "__main__":
    sys.exit(main())
