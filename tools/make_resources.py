"""Compile resources.qrc into resources.py, the way pyrcc5 does, without Qt's tools.

    python3 tools/make_resources.py

The output imports Qt only through ``qgis.PyQt``, so it loads under PyQt5 and
PyQt6 (pyrcc5 output imports PyQt5 directly, and Qt 6 ships no pyrcc). It holds
the Qt resource tree in format version 1: a data block (each file prefixed by
its 4-byte length), a names block (each name's length, Qt hash and UTF-16
text) and a tree of 14-byte nodes whose children are sorted by name hash.
"""

from __future__ import annotations

import struct
import sys
import xml.etree.ElementTree as ElementTree
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DIRECTORY_FLAG = 0x02


def qt_hash(name: str) -> int:
    """qt_hash() of a resource name, over its UTF-16 code units."""
    value = 0
    for unit in struct.unpack(f">{len(name.encode('utf-16-be')) // 2}H", name.encode("utf-16-be")):
        value = ((value << 4) + unit) & 0xFFFFFFFF
        high = value & 0xF0000000
        if high:
            value ^= high >> 23
            value &= ~high & 0xFFFFFFFF
    return value


@dataclass
class Node:
    name: str
    data: bytes | None = None  # None for a directory
    children: dict[str, Node] = field(default_factory=dict)


def resource_tree(qrc: Path) -> Node:
    root = Node("")
    for resource in ElementTree.parse(qrc).getroot().iter("qresource"):
        prefix = [part for part in resource.get("prefix", "/").split("/") if part]
        for entry in resource.iter("file"):
            alias = entry.get("alias") or entry.text or ""
            parts = prefix + [part for part in alias.split("/") if part]
            node = root
            for part in parts[:-1]:
                node = node.children.setdefault(part, Node(part))
            node.children[parts[-1]] = Node(
                parts[-1], (qrc.parent / (entry.text or "")).read_bytes()
            )
    return root


def compile_tree(root: Node) -> tuple[bytes, bytes, bytes]:
    """The struct, names and data blocks of a resource tree."""
    names, name_offsets = bytearray(), {}
    data = bytearray()
    order = [root]
    index = 0
    while index < len(order):  # breadth first: each directory's children are consecutive
        node = order[index]
        index += 1
        for child in sorted(node.children.values(), key=lambda n: qt_hash(n.name)):
            order.append(child)
    nodes = order
    position = {id(node): i for i, node in enumerate(nodes)}
    for node in nodes[1:]:
        if node.name not in name_offsets:
            name_offsets[node.name] = len(names)
            encoded = node.name.encode("utf-16-be")
            names += struct.pack(">HI", len(encoded) // 2, qt_hash(node.name)) + encoded
    tree = bytearray()
    for node in nodes:
        name_offset = 0 if node is root else name_offsets[node.name]
        if node.data is None:
            children = sorted(node.children.values(), key=lambda n: qt_hash(n.name))
            first = position[id(children[0])] if children else 0
            tree += struct.pack(">IHII", name_offset, DIRECTORY_FLAG, len(children), first)
        else:
            # country AnyCountry (0), language C (1): what rcc writes for a file with no lang.
            tree += struct.pack(">IHHHI", name_offset, 0, 0, 1, len(data))
            data += struct.pack(">I", len(node.data)) + node.data
    return bytes(tree), bytes(names), bytes(data)


def python_source(tree: bytes, names: bytes, data: bytes) -> str:
    return f'''"""Qt resources of the plugin, compiled from resources.qrc by tools/make_resources.py.

Do not edit: run `python3 tools/make_resources.py` after changing resources.qrc.
"""

from qgis.PyQt import QtCore

qt_resource_data = {data!r}

qt_resource_name = {names!r}

qt_resource_struct = {tree!r}


def qInitResources():  # noqa: N802 - the name pyrcc gives it
    QtCore.qRegisterResourceData(0x01, qt_resource_struct, qt_resource_name, qt_resource_data)


def qCleanupResources():  # noqa: N802 - the name pyrcc gives it
    QtCore.qUnregisterResourceData(0x01, qt_resource_struct, qt_resource_name, qt_resource_data)


qInitResources()
'''


def main() -> int:
    tree, names, data = compile_tree(resource_tree(ROOT / "resources.qrc"))
    (ROOT / "resources.py").write_text(python_source(tree, names, data), encoding="utf-8")
    print(f"wrote {ROOT / 'resources.py'} ({len(data)} bytes of data)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
