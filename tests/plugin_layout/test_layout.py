"""Rules of the code layout that the architecture rests on."""

from __future__ import annotations

import ast
import configparser
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
FORBIDDEN_IN_ENGINE = ("qgis", "PyQt5", "PyQt6", "PySide2", "PySide6", "sip")


def _imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def test_engine_never_imports_qgis_or_qt():
    offenders = {
        str(path.relative_to(REPO)): sorted(_imported_modules(path) & set(FORBIDDEN_IN_ENGINE))
        for path in (REPO / "sitecheck").rglob("*.py")
    }
    assert {path: names for path, names in offenders.items() if names} == {}


def test_plugin_side_imports_qt_only_through_qgis_pyqt():
    plugin_files = [REPO / "__init__.py", REPO / "plugin.py"]
    for folder in ("processing", "ui", "layers"):
        plugin_files += list((REPO / folder).rglob("*.py"))
    offenders = {
        str(path.relative_to(REPO)): sorted(
            _imported_modules(path) & {"PyQt5", "PyQt6", "PySide2", "PySide6"}
        )
        for path in plugin_files
    }
    assert {path: names for path, names in offenders.items() if names} == {}


def test_plugin_side_never_imports_the_engine_or_its_libraries():
    engine_libraries = {
        "sitecheck",
        "geopandas",
        "shapely",
        "rasterio",
        "pyogrio",
        "exactextract",
        "pyproj",
    }
    plugin_files = [REPO / "__init__.py", REPO / "plugin.py"]
    for folder in ("processing", "ui", "layers"):
        plugin_files += list((REPO / folder).rglob("*.py"))
    offenders = {
        str(path.relative_to(REPO)): sorted(_imported_modules(path) & engine_libraries)
        for path in plugin_files
    }
    assert {path: names for path, names in offenders.items() if names} == {}


def test_metadata_is_complete_for_the_plugin_repository():
    metadata = configparser.ConfigParser()
    metadata.read(REPO / "metadata.txt", encoding="utf-8")
    general = metadata["general"]
    for key in (
        "name",
        "qgisMinimumVersion",
        "description",
        "about",
        "version",
        "author",
        "email",
        "tracker",
        "repository",
        "homepage",
        "tags",
        "icon",
        "hasProcessingProvider",
        "supportsQt6",
    ):
        assert general.get(key), key
    assert general["name"] == "SiteCheck"
    assert general["qgisMinimumVersion"] == "3.22"
    assert (REPO / general["icon"]).is_file()


def test_engine_and_plugin_versions_agree():
    metadata = configparser.ConfigParser()
    metadata.read(REPO / "metadata.txt", encoding="utf-8")
    init = (REPO / "sitecheck" / "__init__.py").read_text(encoding="utf-8")
    assert f'__version__ = "{metadata["general"]["version"]}"' in init


def _resource_tool():
    import importlib.util
    import sys

    spec = importlib.util.spec_from_file_location(
        "make_resources", REPO / "tools" / "make_resources.py"
    )
    assert spec is not None and spec.loader is not None
    tool = importlib.util.module_from_spec(spec)
    sys.modules["make_resources"] = tool  # dataclasses look their module up
    spec.loader.exec_module(tool)
    return tool


def test_compiled_resources_match_resources_qrc():
    tool = _resource_tool()
    tree, names, data = tool.compile_tree(tool.resource_tree(REPO / "resources.qrc"))
    expected = tool.python_source(tree, names, data)
    assert (REPO / "resources.py").read_text(encoding="utf-8") == expected, (
        "resources.py is stale: run python3 tools/make_resources.py"
    )
    assert b"<svg" in data


def test_qt_hash_matches_qt():
    tool = _resource_tool()
    # qt_hash("plugins") as Qt computes it (0x073be0b3 is what QResource looks up).
    assert tool.qt_hash("plugins") == 0x073BE0B3
    assert tool.qt_hash("") == 0


def test_engine_requirements_match_the_tested_pins():
    def pins(path):
        return dict(
            line.split("==", 1)
            for line in (REPO / path).read_text().splitlines()
            if "==" in line and not line.startswith("#")
        )

    tested = pins("constraints.txt")
    engine = pins("engine-requirements.txt")
    assert engine, "engine-requirements.txt lists nothing"
    assert {name: version for name, version in engine.items() if tested.get(name) != version} == {}
