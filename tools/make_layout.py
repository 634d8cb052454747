"""Write layers/compliance_atlas.qpt, the compliance map template, from layers/atlas_template.py.

QT_QPA_PLATFORM=offscreen /usr/bin/python3 tools/make_layout.py
"""

from __future__ import annotations

import atexit
import os
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parent.parent


def main() -> int:
    import tempfile

    plugins = Path(tempfile.mkdtemp(prefix="sitecheck-layout-"))
    (plugins / "sitecheck_qgis").symlink_to(ROOT, target_is_directory=True)
    atexit.register(plugins.rmdir)  # runs second: the link first, then its folder
    atexit.register((plugins / "sitecheck_qgis").unlink)
    sys.path.insert(0, str(plugins))
    from qgis.core import QgsApplication, QgsProject

    app = QgsApplication([], False)
    app.initQgis()
    from sitecheck_qgis.layers.atlas_template import TEMPLATE, create_layout, save_template

    save_template(create_layout(QgsProject.instance()))
    print(f"wrote {TEMPLATE}")
    app.exitQgis()
    return 0


if __name__ == "__main__":
    sys.exit(main())
