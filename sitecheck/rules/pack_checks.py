"""Checks of a whole pack that no single condition shows: codes, exemptions, unused names.

Each returns messages (empty when the pack is right) so that ``sitecheck
validate`` can report every problem of a pack at once.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping

from sitecheck.rules.attributes import ATTRIBUTES_BY_NAME
from sitecheck.rules.pack_model import Rule
from sitecheck.rules.syntax import Comparison, Expression, Membership, Name, Text, walk


def code_errors(expr: Expression) -> list[str]:
    """Text compared with an attribute that has codes, where the text is not one of them.

    A value outside the codes is read as not given (so the rule needs review),
    never as that text: a misspelt code in a pack could never match.
    """
    errors = []
    for node in walk(expr):
        pairs: list[tuple[Expression, Expression]] = []
        if isinstance(node, Comparison) and node.op in ("==", "!="):
            pairs = [(node.left, node.right), (node.right, node.left)]
        elif isinstance(node, Membership):
            pairs = [(node.item, choice) for choice in node.choices]
        for subject, value in pairs:
            if not (isinstance(subject, Name) and isinstance(value, Text)):
                continue
            attribute = ATTRIBUTES_BY_NAME.get(subject.name)
            if attribute is None or not attribute.codes or value.value in attribute.codes:
                continue
            close = difflib.get_close_matches(value.value, attribute.codes, n=1)
            hint = f"did you mean {close[0]!r}? " if close else ""
            errors.append(
                f"{value.value!r} is not a code of {subject.name}: {hint}the codes are "
                f"{', '.join(attribute.codes)} (a field value outside them reads as not given)"
            )
    return list(dict.fromkeys(errors))


def unless_errors(rules: Iterable[Rule], written_ids: set[str] | None = None) -> list[str]:
    """``unless`` must name exemption rules of the pack, without a cycle.

    A cycle would let two rules switch each other off, both silently not
    triggered. ``written_ids`` are the ids of every rule table, those with
    errors of their own included, which are not reported again as unknown.
    """
    by_id = {rule.id: rule for rule in rules}
    errors = []
    for rule in by_id.values():
        for other in rule.unless:
            target = by_id.get(other)
            if target is None and other in (written_ids or set()):
                continue
            if target is None:
                errors.append(
                    f"rule {rule.id} (line {rule.line}): 'unless' names unknown rule {other}"
                )
            elif target.severity != "exempt":
                errors.append(
                    f"rule {rule.id} (line {rule.line}): 'unless' names {other}, whose severity "
                    f"is {target.severity}; 'unless' names exemptions (severity exempt)"
                )
    cycle = _cycle({rule.id: [u for u in rule.unless if u in by_id] for rule in by_id.values()})
    if cycle:
        errors.append(
            f"rule {cycle[0]} (line {by_id[cycle[0]].line}): 'unless' goes round in a cycle "
            f"({' -> '.join(cycle)}): each rule would switch the next off"
        )
    return errors


def _cycle(graph: Mapping[str, list[str]]) -> list[str]:
    """One cycle of the graph as a path that returns to its start, or []."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    for start in graph:
        if state.get(start):
            continue
        path = [start]
        branches = [iter(graph[start])]
        state[start] = 1
        while branches:
            following = next(branches[-1], None)
            if following is None:
                state[path.pop()] = 2
                branches.pop()
            elif state.get(following) == 1:
                return [*path[path.index(following) :], following]
            elif not state.get(following):
                state[following] = 1
                path.append(following)
                branches.append(iter(graph[following]))
    return []


def unused_parameters(parameters: Iterable[str], used: set[str]) -> list[str]:
    """Parameters no condition, list or ``unless`` names: a warning, often a misspelling."""
    return [
        f"parameter {name} is never used (no condition or 'unless' names it)"
        for name in parameters
        if name not in used
    ]
