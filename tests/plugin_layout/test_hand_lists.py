"""Roles and flag kinds are listed once, in the engine's schema: the map side, the
panel, Processing, the reports and the rules take them from there (issue 29, item 1)."""

from __future__ import annotations

import ast
import json
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
DESCRIPTION = json.loads((REPO / "bridge" / "engine_description.json").read_text("utf-8"))
ROLE_KEYS = {role["key"] for role in DESCRIPTION["roles"]}
FLAG_KEYS = {kind["key"] for kind in DESCRIPTION["flag_kinds"]}
PRODUCT = ("sitecheck", "layers", "ui", "processing", "bridge")
SCHEMA = REPO / "sitecheck" / "schema"
SAMPLE = REPO / "sitecheck" / "sample"  # builds a village's layers, keyed by role
AT_MOST = 2  # a module may name a role or two it treats in its own way


def _strings(node: ast.AST) -> set[str]:
    items = node.keys if isinstance(node, ast.Dict) else getattr(node, "elts", [])
    return {
        item.value
        for item in items
        if isinstance(item, ast.Constant) and isinstance(item.value, str)
    }


def hand_lists(path: Path, root: Path = REPO) -> list[str]:
    """The literal tuples, lists, sets and dicts of a module that list roles or flag kinds."""
    found = []
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Tuple | ast.List | ast.Set | ast.Dict):
            strings = _strings(node)
            for name, keys in (("roles", ROLE_KEYS), ("flag kinds", FLAG_KEYS)):
                if len(strings & keys) > AT_MOST:
                    found.append(f"{path.relative_to(root)}:{node.lineno} lists {name}")
    return found


def test_no_module_outside_the_schema_lists_roles_or_flag_kinds():
    modules = [
        path
        for folder in PRODUCT
        for path in (REPO / folder).rglob("*.py")
        if SCHEMA not in path.parents and SAMPLE not in path.parents
    ]
    assert len(modules) > 100
    assert [line for path in modules for line in hand_lists(path)] == []


def test_the_check_finds_a_hand_list(tmp_path):
    module = tmp_path / "legend.py"
    module.write_text(
        'ORDER = ("zoning", "sda", "floodplain")\n'
        'HATCHES = {"adjoining_buffer": "//", "outside_parcel": "xx", "floodway": "--"}\n'
        'OWN = ("parcels", "disturbance")\n',
        encoding="utf-8",
    )
    assert hand_lists(module, tmp_path) == [
        "legend.py:1 lists roles",
        "legend.py:2 lists flag kinds",
    ]
