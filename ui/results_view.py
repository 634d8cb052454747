"""Show a worker reply: key metrics, and the triggers grouped by severity."""

from __future__ import annotations

from html import escape

from qgis.PyQt.QtCore import Qt
from qgis.PyQt.QtGui import QBrush, QColor, QFont, QIcon, QPixmap
from qgis.PyQt.QtWidgets import QTableWidget, QTableWidgetItem, QTreeWidget, QTreeWidgetItem

from ..bridge.i18n import tr
from ..bridge.vocabulary import (
    KEY_METRICS,
    SEVERITY_COLOURS,
    SEVERITY_LABELS,
    SEVERITY_ORDER,
    format_metric,
)

REVIEW_GROUP = "Needs review"
TRIGGER_ROLE = Qt.ItemDataRole.UserRole
SEVERITY_ROLE = Qt.ItemDataRole.UserRole + 1
REVIEW_COLOUR = QColor("#b35806")


def fill_metrics(table: QTableWidget, reply: dict) -> None:
    """The measurements that matter, one row each."""
    metrics = reply.get("metrics", {})
    table.setRowCount(len(KEY_METRICS))
    for row, (name, label, kind) in enumerate(KEY_METRICS):
        table.setItem(row, 0, QTableWidgetItem(label))
        value = QTableWidgetItem(format_metric(metrics.get(name), kind))
        value.setTextAlignment(int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter))
        table.setItem(row, 1, value)


def grouped(reply: dict) -> list[tuple[str | None, str, list[dict]]]:
    """Triggered rules by severity (most demanding first), then those needing review.

    Each group is (severity key, or None for the review group; its label; its rules).
    """
    triggers = reply.get("triggers", [])
    groups: list[tuple[str | None, str, list[dict]]] = []
    for severity in SEVERITY_ORDER:
        members = [t for t in triggers if t["outcome"] == "triggered" and t["severity"] == severity]
        if members:
            groups.append((severity, SEVERITY_LABELS[severity], members))
    review = [t for t in triggers if t["outcome"] == "needs_review"]
    if review:
        groups.append((None, REVIEW_GROUP, review))
    return groups


def swatch(colour: str, size: int = 12) -> QIcon:
    """A square of a severity's colour, as the maps and the reports colour it."""
    pixmap = QPixmap(size, size)
    pixmap.fill(QColor(colour))
    return QIcon(pixmap)


QUESTIONS_GROUP = "Questions to answer"


def _branch(tree: QTreeWidget, text: str, bold: bool = False) -> QTreeWidgetItem:
    """A top-level row of the tree whose text spans both columns."""
    branch = QTreeWidgetItem([text, ""])
    if bold:
        font = QFont(branch.font(0))
        font.setBold(True)
        branch.setFont(0, font)
    tree.addTopLevelItem(branch)
    branch.setFirstColumnSpanned(True)
    return branch


def _add_questions(tree: QTreeWidget, reviews: list[dict]) -> None:
    """The reviews by cause, those that could change the most first (the engine's order)."""
    if not reviews:
        return
    branch = _branch(tree, tr("{0} ({1})").format(tr(QUESTIONS_GROUP), len(reviews)), bold=True)
    for review in reviews:
        item = QTreeWidgetItem(["", ""])
        item.setForeground(1, QBrush(REVIEW_COLOUR))
        _show_question(item, review)
        branch.addChild(item)
    branch.setExpanded(True)


def _show_question(item: QTreeWidgetItem, review: dict) -> None:
    item.setText(0, ", ".join(review["citations"]))
    item.setText(1, review["question"])
    item.setToolTip(1, escape(review["question"]))


NOT_EVALUATED_GROUP = "Not evaluated by the pack: check by hand"


def _not_evaluated(reply: dict) -> list[dict]:
    """What the parcel's pack leaves out of the law, each with its section and reason."""
    if not reply.get("triggers"):
        return []
    return [
        item
        for pack in reply.get("packs", [])
        if pack.get("id") == reply.get("jurisdiction")
        for item in pack.get("not_evaluated", [])
    ]


def _add_not_evaluated(tree: QTreeWidget, items: list[dict]) -> None:
    if not items:
        return
    branch = _branch(tree, tr("{0} ({1})").format(tr(NOT_EVALUATED_GROUP), len(items)))
    for item in items:
        row = QTreeWidgetItem(["", ""])
        _show_not_evaluated(row, item)
        branch.addChild(row)
    branch.setExpanded(False)


def _show_not_evaluated(row: QTreeWidgetItem, item: dict) -> None:
    row.setText(0, item["citation"])
    row.setText(1, item["requirement"])
    row.setToolTip(1, escape(item["reason"]))


LAYOUT_PROPERTY = "sitecheck_rows"
"""The tree's property holding what its rows show (:func:`_rows_of`) and how many top rows
its build made."""


def _rows_of(reply: dict) -> tuple:
    """What decides the tree's rows, each in its place: the groups with their rules, the
    questions, the items the pack leaves out. Two replies alike in this differ only in
    the words and data of the rows, which an edit changes far more often than its rows."""
    return (
        tuple((severity, label, tuple(t["rule_id"] for t in members))
              for severity, label, members in grouped(reply)),
        len(reply.get("reviews", [])),
        len(_not_evaluated(reply)),
    )  # fmt: skip


def fill_triggers(tree: QTreeWidget, reply: dict) -> None:
    """One branch per severity; each rule a row with its citation and title.

    The reason sits in an expandable child row and, with the quoted sentence
    of the law, in the tooltip. Rules needing review are set apart in their
    own branch, in italics, with what is missing or why.

    A reply with the rows the tree shows (the same rules in the same groups, as most
    edits give) changes their words in place: the rows, their heights and what the user
    expanded or folded stay, and the panel answers sooner (building the tree again took
    3 ms of each answer on the sample village).
    """
    rows = repr(_rows_of(reply))  # text: a Qt property gives back a tuple as a list
    # With the number of top rows the build made: a tree changed since is built again.
    if tree.property(LAYOUT_PROPERTY) == f"{rows} {tree.topLevelItemCount()}":
        # Each word set would have the view measure its row again, six times a rule: the
        # rows are measured once, after.
        model = tree.model()
        was_blocked = model.blockSignals(True)
        try:
            _show_in_place(tree, reply)
        finally:
            model.blockSignals(was_blocked)
        tree.doItemsLayout()
    else:
        _build(tree, reply)
        tree.setProperty(LAYOUT_PROPERTY, f"{rows} {tree.topLevelItemCount()}")
    fit_section_column(tree)


def _build(tree: QTreeWidget, reply: dict) -> None:
    tree.clear()
    for severity, label, members in grouped(reply):
        if severity is None:
            _add_questions(tree, reply.get("reviews", []))
        branch = _branch(tree, tr("{0} ({1})").format(label, len(members)), bold=True)
        branch.setData(0, SEVERITY_ROLE, severity)
        if severity is not None:
            branch.setIcon(0, swatch(SEVERITY_COLOURS[severity]))
        for trigger in members:
            item = QTreeWidgetItem(["", ""])
            reason = QTreeWidgetItem(["", ""])
            if label == REVIEW_GROUP:
                for column in (0, 1):
                    italic = QFont(item.font(column))
                    italic.setItalic(True)
                    item.setFont(column, italic)
                    item.setForeground(column, QBrush(REVIEW_COLOUR))
                reason.setForeground(1, QBrush(REVIEW_COLOUR))
            _show_trigger(item, reason, trigger)
            item.addChild(reason)
            branch.addChild(item)
        branch.setExpanded(True)
    if tree.topLevelItemCount() == 0:
        tree.addTopLevelItem(QTreeWidgetItem(["", tr("No rule is triggered.")]))
    _add_not_evaluated(tree, _not_evaluated(reply))


def _show_trigger(item: QTreeWidgetItem, reason: QTreeWidgetItem, trigger: dict) -> None:
    """A rule's row and its reason's row: their words and the trigger they hold."""
    tooltip = _tooltip(trigger)
    item.setText(0, trigger["citation"])
    item.setText(1, trigger["title"])
    item.setData(0, TRIGGER_ROLE, trigger)
    item.setToolTip(0, tooltip)
    item.setToolTip(1, tooltip)
    reason.setText(1, trigger["reason"])
    reason.setToolTip(1, tooltip)
    reason.setData(0, TRIGGER_ROLE, trigger)


def _show_in_place(tree: QTreeWidget, reply: dict) -> None:
    """The words of a reply whose rows the tree shows (:func:`_rows_of`), row by row in the
    order :func:`_build` made them."""
    top = 0
    for severity, _, members in grouped(reply):
        if severity is None and reply.get("reviews"):
            questions = tree.topLevelItem(top)
            for index, review in enumerate(reply["reviews"]):
                _show_question(questions.child(index), review)
            top += 1
        branch = tree.topLevelItem(top)
        for index, trigger in enumerate(members):
            item = branch.child(index)
            _show_trigger(item, item.child(0), trigger)
        top += 1
    if not grouped(reply):
        top += 1  # "No rule is triggered."
    left_out = _not_evaluated(reply)
    if left_out:
        branch = tree.topLevelItem(top)
        for index, item in enumerate(left_out):
            _show_not_evaluated(branch.child(index), item)


SECTION_SHARE = 0.4
"""The most of the list's width the section column takes: the requirements keep the rest."""


def fit_section_column(tree: QTreeWidget) -> None:
    """The section column as wide as its longest section number, the rest for the words.

    The group headings span both columns, so they do not widen it; both
    columns wrap (``panel_layout``), so a long list of sections
    ("§ 254-5, § 254-5(11), …") takes more lines, not the requirement's room.
    """
    metrics = tree.fontMetrics()
    widest = metrics.horizontalAdvance(tree.headerItem().text(0)) + 12
    pending = [(tree.topLevelItem(i), 1) for i in range(tree.topLevelItemCount())]
    while pending:
        item, depth = pending.pop()
        pending += [(item.child(i), depth + 1) for i in range(item.childCount())]
        if not item.isFirstColumnSpanned():
            text = metrics.horizontalAdvance(item.text(0))
            widest = max(widest, text + tree.indentation() * depth + 12)
    room = tree.viewport().width() or tree.width()
    tree.setColumnWidth(0, min(widest, max(int(room * SECTION_SHARE), 80)))


def _tooltip(trigger: dict) -> str:
    requirements = "".join(f"<li>{escape(r)}</li>" for r in trigger.get("requirements", []))
    return (
        f"<b>{escape(trigger['citation'])} {escape(trigger['title'])}</b><br>"
        f"<i>{escape(trigger['outcome'].replace('_', ' '))}</i>: {escape(trigger['reason'])}<br><br>"
        f"{escape(trigger.get('requirement', ''))}"
        + (f"<ul>{requirements}</ul>" if requirements else "<br>")
        + f"<br>&ldquo;{escape(trigger.get('quote', ''))}&rdquo;"
    )


def clipboard_text(reply: dict, pack_label: str) -> str:
    """The trigger list as plain text, for an e-mail or a permit file."""
    metrics = reply.get("metrics", {})
    lines = [
        f"SiteCheck: parcel {reply.get('parcel_id')} ({pack_label})",
        f"Disturbed {format_metric(metrics.get('disturbed_area_sqft'), 'sqft_acres')}; "
        f"net impervious change {format_metric(metrics.get('impervious_net_change_sqft'), 'signed_sqft')}",
    ]
    if metrics.get("retention_required_cuft") is not None:
        lines.append(
            f"Runoff screen: retention {format_metric(metrics['retention_required_cuft'], 'cuft')} "
            f"({format_metric(metrics.get('retention_storm_yr'), 'storm')} storm); "
            f"WQv {format_metric(metrics.get('wqv_cuft'), 'cuft')}"
        )
        if metrics.get("retention_review_cuft") is not None:
            lines.append(
                f"  or {format_metric(metrics['retention_review_cuft'], 'cuft')} "
                f"({format_metric(metrics.get('retention_review_storm_yr'), 'storm')} storm) "
                "if the rule under review applies"
            )
    if reply.get("design_storm") and reply["design_storm"] != "none":
        lines.append(f"Design storm (years): {reply['design_storm']}")
    lines += [f"Rainfall: {note}" for note in reply.get("runoff_confirm", [])]
    if reply.get("reviews"):
        lines += ["", f"{QUESTIONS_GROUP}:"]
        lines += [f"  {review['question']}" for review in reply["reviews"]]
    for _, label, members in grouped(reply):
        lines.append("")
        lines.append(f"{label}:")
        for trigger in members:
            lines.append(f"  {trigger['citation']} {trigger['title']}: {trigger['reason']}")
    return "\n".join(lines)
