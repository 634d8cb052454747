"""The plugin's ``bridge`` package imported on its own, outside QGIS (it needs none).

The plugin folder's ``__init__.py`` imports QGIS, so ``sitecheck_qgis.bridge`` cannot
be imported where there is no QGIS; the tests of the set-up's logic and the set-up
benchmark load the package from its folder under a name of their own instead.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

REPO = Path(__file__).resolve().parents[1]


def bridge_module(module: str, package: str = "sitecheck_bridge_alone") -> ModuleType:
    """``bridge/<module>.py``, imported as ``<package>.<module>`` (the package once)."""
    if package not in sys.modules:
        folder = REPO / "bridge"
        spec = importlib.util.spec_from_file_location(
            package, folder / "__init__.py", submodule_search_locations=[str(folder)]
        )
        assert spec is not None and spec.loader is not None
        loaded = importlib.util.module_from_spec(spec)
        sys.modules[package] = loaded
        spec.loader.exec_module(loaded)
    return importlib.import_module(f"{package}.{module}")
