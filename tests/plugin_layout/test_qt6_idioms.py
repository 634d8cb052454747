"""The plugin's code holds no Qt 5-only idiom, so the same files load under Qt 6 (QGIS 4).

Each pattern is a construct PyQt6 refuses and QGIS's PyQt5-to-PyQt6 migration
script rewrites: unscoped enums (``Qt.AlignRight`` for
``Qt.AlignmentFlag.AlignRight``), ``QVariant`` field types, ``exec_()``,
classes Qt 6 removed or moved to another module. ``bridge/qt_compat.py`` is the
one place that names both spellings.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
PLUGIN_SOURCES = [
    REPO / "plugin.py",
    REPO / "__init__.py",
    *(
        path
        for folder in ("bridge", "layers", "ui", "processing")
        for path in sorted((REPO / folder).rglob("*.py"))
    ),
]
COMPAT = REPO / "bridge" / "qt_compat.py"

QT5_ONLY = {
    "an unscoped Qt enum (write Class.Enum.Member)": re.compile(
        r"\bQ(?!gs)\w*\.[A-Z]\w*\b(?![\w.(])"
    ),
    "a QVariant field type (use bridge.qt_compat TEXT_FIELD / REAL_FIELD)": re.compile(
        r"\bQVariant\.(String|Int|UInt|LongLong|Double|Bool|Date|DateTime|Time|Map|List|Invalid)\b"
    ),
    "exec_() (write exec())": re.compile(r"\.exec_\("),
    "a class Qt 6 removed (QRegExp, QDesktopWidget, QStringListModel from QtCore)": re.compile(
        r"\b(QRegExp|QDesktopWidget|QTextCodec)\b"
    ),
    "a QtWidgets class Qt 6 moved to QtGui (import it from bridge.qt_compat)": re.compile(
        r"from qgis\.PyQt\.QtWidgets import [^\n]*\b(QAction|QActionGroup|QShortcut|QUndoCommand)\b"
    ),
}


def findings(text: str) -> list[str]:
    """Each Qt 5-only idiom of a source, as 'line N: what'."""
    found = []
    for number, line in enumerate(text.splitlines(), start=1):
        code = line.split("#", 1)[0]
        for what, pattern in QT5_ONLY.items():
            if pattern.search(code):
                found.append(f"line {number}: {what}: {line.strip()}")
    return found


@pytest.mark.parametrize(
    "source",
    [p for p in PLUGIN_SOURCES if p != COMPAT],
    ids=lambda p: str(p.relative_to(REPO)),
)
def test_no_qt5_only_idiom(source: Path) -> None:
    assert findings(source.read_text(encoding="utf-8")) == []


@pytest.mark.parametrize(
    "line",
    [
        "label.setAlignment(Qt.AlignRight)",
        "field = QgsField('id', QVariant.String)",
        "dialog.exec_()",
        "pattern = QRegExp('x')",
        "from qgis.PyQt.QtWidgets import QMenu, QAction",
        "box = QMessageBox.Yes",
    ],
)
def test_the_check_finds_each_idiom(line: str) -> None:
    assert findings(line), line


def test_the_check_leaves_qt6_spellings_alone() -> None:
    text = "\n".join(
        [
            "label.setAlignment(Qt.AlignmentFlag.AlignRight)",
            "field = QgsField('id', TEXT_FIELD)",
            "dialog.exec()",
            "state = QProcess.ProcessState.NotRunning",
            "geometry = QgsGeometry.fromWkt('POINT(0 0)')",
        ]
    )
    assert findings(text) == []
