"""Tree rows whose text wraps to the column's width, so a narrow panel cuts nothing off.

QTreeView's own word wrap sizes a row before it knows its column's width; this
delegate measures each cell at the width its column has now (the whole row for
a heading that spans the columns), and the view lays its rows out again when a
column's width changes.
"""

from __future__ import annotations

from qgis.PyQt.QtCore import QRect, QSize, Qt, QTimer
from qgis.PyQt.QtGui import QFontMetrics
from qgis.PyQt.QtWidgets import QStyle, QStyledItemDelegate, QStyleOptionViewItem, QTreeWidget

TEXT_PADDING = 8  # the cell's text margins and focus frame, in pixels


class WrappingDelegate(QStyledItemDelegate):
    """Draws a tree's cells wrapped at spaces, and makes each row as tall as its text."""

    def __init__(self, tree: QTreeWidget) -> None:
        super().__init__(tree)
        self.tree = tree
        tree.setWordWrap(True)
        tree.setTextElideMode(Qt.TextElideMode.ElideNone)
        # One re-layout after a burst of column changes; the timer ends with the tree.
        self.relayout = QTimer(self)
        self.relayout.setSingleShot(True)
        self.relayout.setInterval(0)
        self.relayout.timeout.connect(tree.doItemsLayout)
        tree.header().sectionResized.connect(self.relayout.start)

    def text_width(self, index) -> int:
        """The width the text of the cell ``index`` has: its column's, less indentation."""
        if self.tree.isFirstColumnSpanned(index.row(), index.parent()):
            width = self.tree.viewport().width()
        else:
            width = self.tree.header().sectionSize(index.column())
        if index.column() == 0:
            depth = 1
            parent = index.parent()
            while parent.isValid():
                depth, parent = depth + 1, parent.parent()
            width -= self.tree.indentation() * depth
            if index.data(Qt.ItemDataRole.DecorationRole) is not None:
                width -= self.tree.iconSize().width() + 4
        return max(width - TEXT_PADDING, 20)

    def sizeHint(self, option: QStyleOptionViewItem, index) -> QSize:  # noqa: N802 - Qt API
        hint = super().sizeHint(option, index)
        text = index.data(Qt.ItemDataRole.DisplayRole) or ""
        if not text:
            return hint
        font = index.data(Qt.ItemDataRole.FontRole) or option.font
        metrics = QFontMetrics(font)
        width = self.text_width(index)
        needed = metrics.boundingRect(
            QRect(0, 0, width, 100_000), int(Qt.TextFlag.TextWordWrap), text
        )
        return QSize(hint.width(), max(hint.height(), needed.height() + 6))

    def initStyleOption(self, option: QStyleOptionViewItem, index) -> None:  # noqa: N802 - Qt API
        super().initStyleOption(option, index)
        option.features |= QStyleOptionViewItem.ViewItemFeature.WrapText
        option.state &= ~QStyle.StateFlag.State_HasFocus  # no dotted frame eating the margin
