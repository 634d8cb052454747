"""Rules of the code layout that the architecture rests on."""

from __future__ import annotations

import ast
import configparser
import json
import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
FORBIDDEN_IN_ENGINE = ("qgis", "PyQt5", "PyQt6", "PySide2", "PySide6", "sip")
PLUGIN_FOLDERS = ("bridge", "layers", "ui", "processing")


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
    for folder in PLUGIN_FOLDERS:
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
    for folder in PLUGIN_FOLDERS:
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


# --- the engine's layers -------------------------------------------------------------

# Each folder of the engine may import its own modules and those of lower floors only.
ENGINE_FLOORS: dict[str, int] = {
    "errors": 0,
    "termination": 0,
    "collector": 0,
    "allocator": 0,
    "schema": 1,
    "io": 2,
    "geometry": 3,
    "constraints": 4,
    "terrain": 4,
    "measure": 5,
    "rules": 6,
    "runoff": 6,
    "screening": 7,
    "reports": 8,
    "pipeline": 9,
    "sample": 9,
    "distributed": 10,
    "app": 11,
    "__main__": 12,
}


def _engine_imports(path: Path) -> set[str]:
    """Dotted ``sitecheck...`` modules a file imports, deferred imports included."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith("sitecheck."))
        elif (
            isinstance(node, ast.ImportFrom)
            and node.level == 0
            and (node.module or "").startswith("sitecheck.")
        ):
            found.add(str(node.module))
    return found


def _engine_part(module: str) -> str:
    """``sitecheck.io.readers`` -> ``io``; ``sitecheck.errors`` -> ``errors``."""
    return module.split(".")[1]


def _engine_module_of(path: Path) -> str:
    return ".".join(path.relative_to(REPO).with_suffix("").parts).removesuffix(".__init__")


def test_every_engine_module_sits_on_a_known_floor():
    parts = {
        _engine_part(_engine_module_of(path))
        for path in (REPO / "sitecheck").rglob("*.py")
        if path.name != "__init__.py" or path.parent != REPO / "sitecheck"
    }
    assert parts - set(ENGINE_FLOORS) == set()


def test_engine_folders_import_only_lower_floors():
    offenders = []
    for path in (REPO / "sitecheck").rglob("*.py"):
        module = _engine_module_of(path)
        if module == "sitecheck":
            continue
        part = _engine_part(module)
        for imported in _engine_imports(path):
            other = _engine_part(imported)
            if other != part and ENGINE_FLOORS[other] >= ENGINE_FLOORS[part]:
                offenders.append(f"{module} imports {imported}")
    assert offenders == []


def _import_graph(files: list[Path], resolve) -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for path in files:
        graph[resolve(path)] = set()
    for path in files:
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            for target in _targets(node, path, graph):
                if target in graph and target != resolve(path):
                    graph[resolve(path)].add(target)
    return graph


def _targets(node: ast.AST, path: Path, known: dict[str, set[str]]) -> list[str]:
    """The modules an import statement takes names from: ``from p import m`` is module p.m."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if not isinstance(node, ast.ImportFrom):
        return []
    if node.level == 0:
        base = node.module or ""
    else:
        package = path.relative_to(REPO).parent.parts
        package = package[: len(package) - (node.level - 1)] if node.level > 1 else package
        base = ".".join((*package, node.module) if node.module else package)
    found = []
    for alias in node.names:
        module = f"{base}.{alias.name}" if base else alias.name
        found.append(module if module in known else base)
    return found


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected groups of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in graph[node]:
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return groups


def _dotted(path: Path) -> str:
    return ".".join(path.relative_to(REPO).with_suffix("").parts).removesuffix(".__init__")


def test_no_import_circle_in_the_engine():
    files = list((REPO / "sitecheck").rglob("*.py"))
    assert _cycles(_import_graph(files, _dotted)) == []


# The steps of a run, called only by the pipeline (sitecheck/pipeline/run.py).
PIPELINE_STEPS = {"measure", "check_parcels", "screen_runoff", "check_measured"}


def test_only_the_pipeline_assembles_a_run():
    """The CLI, the worker and the Dask tasks run through sitecheck.pipeline, never step by step."""
    offenders = []
    for path in (REPO / "sitecheck").rglob("*.py"):
        if path.parent.name == "pipeline":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
                if name in PIPELINE_STEPS:
                    offenders.append(f"{path.relative_to(REPO)}:{node.lineno} calls {name}")
    assert offenders == []


# --- the plugin's layers ---------------------------------------------------------------

# bridge/ (engine process, worker client, layer exchange, vocabulary, icon) is the floor;
# printing and styles (layers/) stand on it; the panel (ui/) and Processing stand on both;
# plugin.py on everything. Printing never imports the panel.
PLUGIN_FLOORS = {"resources": 0, "bridge": 1, "layers": 2, "ui": 3, "processing": 3, "plugin": 4}


def _plugin_files() -> list[Path]:
    files = [REPO / "plugin.py", REPO / "resources.py"]
    for folder in PLUGIN_FOLDERS:
        files += list((REPO / folder).rglob("*.py"))
    return files


def _plugin_module(path: Path) -> str:
    return _dotted(path)


def test_plugin_folders_import_only_lower_floors():
    files = _plugin_files()
    graph = _import_graph(files, _plugin_module)
    offenders = []
    for module, imported in graph.items():
        for other in imported:
            mine, theirs = module.split(".")[0], other.split(".")[0]
            if mine != theirs and PLUGIN_FLOORS[theirs] >= PLUGIN_FLOORS[mine]:
                offenders.append(f"{module} imports {other}")
    assert offenders == []


def test_no_import_circle_in_the_plugin():
    assert _cycles(_import_graph(_plugin_files(), _plugin_module)) == []


def test_the_plugins_description_of_the_engine_is_fresh():
    """bridge/engine_description.json is what `sitecheck describe --json` prints today."""
    from sitecheck.schema.describe import describe

    committed = json.loads((REPO / "bridge" / "engine_description.json").read_text("utf-8"))
    assert committed == json.loads(json.dumps(describe())), (
        "bridge/engine_description.json is stale: run "
        ".venv/bin/sitecheck describe --json > bridge/engine_description.json"
    )


# Calls that put text in front of a user: their literal text goes through tr().
USER_TEXT_CALLS = {
    "QLabel",
    "QPushButton",
    "QAction",
    "QgsCollapsibleGroupBox",
    "QTreeWidgetItem",
    "setText",
    "setToolTip",
    "setPlaceholderText",
    "addRow",
    "addItem",
    "setHeaderLabels",
    "setHorizontalHeaderLabels",
    "show_error",
    "pushInfo",
    "pushWarning",
    "reportError",
    "QgsProcessingException",
}
TEXT_METHODS = {"displayName", "shortHelpString", "group", "longName"}


def _bare_text(node: ast.AST) -> bool:
    """A literal holding words (not only punctuation joining translated parts)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return re.search(r"[A-Za-z]", node.value) is not None
    if isinstance(node, ast.JoinedStr):
        return any(isinstance(v, ast.Constant) and _bare_text(v) for v in node.values)
    if isinstance(node, ast.List | ast.Tuple):
        return any(_bare_text(element) for element in node.elts)
    return False


def test_the_plugins_user_facing_text_goes_through_tr():
    offenders = []
    for path in _plugin_files():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            where = f"{path.relative_to(REPO)}:{getattr(node, 'lineno', 0)}"
            if isinstance(node, ast.Call):
                name = getattr(node.func, "id", None) or getattr(node.func, "attr", None) or ""
                arguments = list(node.args)
                if name.startswith("QgsProcessingParameter"):
                    arguments = arguments[1:2]  # the label
                elif name not in USER_TEXT_CALLS:
                    continue
                offenders += [f"{where} {name}" for arg in arguments if _bare_text(arg)]
            elif isinstance(node, ast.FunctionDef) and node.name in TEXT_METHODS:
                for sub in ast.walk(node):
                    if (
                        isinstance(sub, ast.Return)
                        and sub.value is not None
                        and _bare_text(sub.value)
                    ):
                        offenders.append(f"{where} {node.name}")
    assert offenders == []
