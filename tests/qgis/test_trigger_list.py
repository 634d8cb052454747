"""The dock's trigger list after an edit: words changed in place show what a list built
afresh for the same reply shows, row heights included, and keep what the user folded."""

from __future__ import annotations

import copy
import importlib

import pytest

LONG = (
    "disturbed 26,253.85 sq ft > 500 sq ft (25,753.85 sq ft over); lot area 132,350.4 sq ft "
    "> 7,500 sq ft (124,850.4 sq ft over); the work reaches the floodplain's fringe and the "
    "wetland's adjacent area, both measured on the lot"
)


def _reply() -> dict:
    def rule(key: str, outcome: str, severity: str, reason: str) -> dict:
        return {
            "rule_id": f"r.{key}",
            "citation": f"§ 254-{key}",
            "title": f"Rule {key}",
            "outcome": outcome,
            "severity": severity,
            "reason": reason,
            "requirement": f"Requirement {key}",
            "requirements": [f"Plan {key}"],
            "quote": f"The words of {key}",
        }

    return {
        "jurisdiction": "scarsdale",
        "triggers": [
            rule("5", "triggered", "permit_required", "disturbed 1,200 sq ft > 1,000 sq ft"),
            rule("6", "triggered", "board_approval_required", "impervious +450 sq ft > 400 sq ft"),
            rule("7", "needs_review", "permit_required", "is the work home gardening?"),
            rule("8", "not_triggered", "exempt", "disturbed 1,200 sq ft > 500 sq ft"),
        ],
        "reviews": [{"citations": ["§ 254-7"], "question": "Is the work home gardening?"}],
        "packs": [
            {
                "id": "scarsdale",
                "not_evaluated": [
                    {"citation": "§ 254-9", "requirement": "Fees", "reason": "set by resolution"}
                ],
            }
        ],
    }


def _edited(reply: dict) -> dict:
    """The same rules in the same groups, as an edit leaves them: their reasons (longer),
    the question and a note changed; their sections the same (the columns as wide)."""
    edited = copy.deepcopy(reply)
    for trigger in edited["triggers"]:
        trigger["reason"] = f"{LONG} ({trigger['rule_id']})"
    edited["reviews"][0]["question"] = "Is the work home gardening, or part of a project?"
    edited["packs"][0]["not_evaluated"][0]["reason"] = "set by the board's resolution"
    return edited


@pytest.fixture
def view(plugin):
    return importlib.import_module("sitecheck_qgis.ui.results_view")


def _tree(view):
    from qgis.PyQt.QtWidgets import QTreeWidget

    wrapping = importlib.import_module("sitecheck_qgis.ui.wrapping")
    tree = QTreeWidget()
    tree.setColumnCount(2)
    tree.setItemDelegate(wrapping.WrappingDelegate(tree))
    tree.resize(320, 900)
    tree.show()
    return tree


def _shown(view, tree) -> list[tuple]:
    """Every row as the user sees it: words, tooltips, data, style, folding, height."""
    from qgis.PyQt.QtWidgets import QApplication

    QApplication.processEvents()
    rows = []
    pending = [tree.topLevelItem(i) for i in reversed(range(tree.topLevelItemCount()))]
    while pending:
        item = pending.pop()
        pending += [item.child(i) for i in reversed(range(item.childCount()))]
        rows.append(
            (
                item.text(0),
                item.text(1),
                item.toolTip(0),
                item.toolTip(1),
                item.data(0, view.TRIGGER_ROLE),
                item.data(0, view.SEVERITY_ROLE),
                item.font(0).italic(),
                item.font(0).bold(),
                item.foreground(1).color().name(),
                item.isExpanded(),
                item.isFirstColumnSpanned(),
                tree.visualItemRect(item).height(),
            )
        )
    return rows


def test_an_edit_changes_the_words_as_a_list_built_afresh_shows_them(view):
    first, edited = _reply(), _edited(_reply())
    in_place, afresh = _tree(view), _tree(view)
    view.fill_triggers(in_place, first)
    before = _shown(view, in_place)
    view.fill_triggers(in_place, edited)
    view.fill_triggers(afresh, edited)
    after = _shown(view, in_place)
    assert after == _shown(view, afresh)
    assert after != before
    # the longer reasons take more lines: the rows were measured again
    assert sum(row[-1] for row in after) > sum(row[-1] for row in before)
    assert in_place.columnWidth(0) == afresh.columnWidth(0)


def test_an_edit_keeps_what_the_user_folded_until_the_rules_change(view):
    tree = _tree(view)
    view.fill_triggers(tree, _reply())
    assert tree.topLevelItem(0).text(0).startswith("Board approval")  # most demanding first
    tree.topLevelItem(0).setExpanded(False)  # the user folds it
    view.fill_triggers(tree, _edited(_reply()))
    assert not tree.topLevelItem(0).isExpanded()
    # a rule more: the list is built again, as it would be afresh
    more = _edited(_reply())
    more["triggers"].insert(1, {**more["triggers"][1], "rule_id": "r.6a", "title": "Rule 6a"})
    view.fill_triggers(tree, more)
    afresh = _tree(view)
    view.fill_triggers(afresh, more)
    assert _shown(view, tree) == _shown(view, afresh)
    assert tree.topLevelItem(0).isExpanded()
    # a row another caller added: the list is built again, not walked as if built
    from qgis.PyQt.QtWidgets import QTreeWidgetItem

    tree.insertTopLevelItem(0, QTreeWidgetItem(["", "checking…"]))
    view.fill_triggers(tree, more)
    assert _shown(view, tree) == _shown(view, afresh)
