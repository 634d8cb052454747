"""Named conditions and list parameters: written once in a pack, used by many rules.

A pack's ``[conditions]`` table names conditions (``needs_permit = "..."``) that
rules use as true/false names; its list parameters (``value = ["a", "b"]``)
stand after ``in`` and in ``unless``. Both are put in place when the pack is
loaded (:func:`inline`), so evaluation sees one plain condition per rule and
its reasons name what the condition itself says.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping

from sitecheck.rules.errors import RuleLanguageError
from sitecheck.rules.names import NameInfo
from sitecheck.rules.syntax import Expression, Membership, Name, Number, Text

ListValue = tuple[str | float, ...]

_CONDITION_KEYS = {"when", "label", "citation"}


@dataclasses.dataclass(frozen=True)
class NamedCondition:
    """One entry of ``[conditions]``: its name, text and meaning, as written."""

    name: str
    when_text: str
    label: str
    citation: str = ""


def condition_entries(table: object, where: str) -> list[NamedCondition]:
    """The ``[conditions]`` table as written: ``name = "..."`` or ``{ when = "...", label = "..." }``.

    Raises
    ------
    RuleLanguageError
        On an entry that is neither (the caller adds the pack and line).
    """
    if table is None:
        return []
    if not isinstance(table, dict):
        raise RuleLanguageError(f"{where}: [conditions] is a table of name = condition", 0)
    entries = []
    for name, spec in table.items():
        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
            raise RuleLanguageError(f"condition {name}: a name is letters, digits and _", 0)
        if isinstance(spec, str):
            spec = {"when": spec}
        if not isinstance(spec, dict) or not isinstance(spec.get("when"), str):
            raise RuleLanguageError(
                f'condition {name}: write {name} = "..." or {name} = {{ when = "...", '
                'label = "..." }',
                0,
            )
        unknown = sorted(set(spec) - _CONDITION_KEYS)
        if unknown:
            raise RuleLanguageError(
                f"condition {name}: unknown key(s) {', '.join(unknown)}; "
                f"allowed: {', '.join(sorted(_CONDITION_KEYS))}",
                0,
            )
        entries.append(
            NamedCondition(
                name,
                spec["when"],
                str(spec.get("label", name.replace("_", " "))),
                str(spec.get("citation", "")),
            )
        )
    return entries


def condition_name_info(entry: NamedCondition) -> NameInfo:
    """How the checker sees a named condition: a true/false name."""
    return NameInfo("boolean", entry.label, measured=False)


def inline(
    expr: Expression,
    lists: Mapping[str, ListValue],
    conditions: Mapping[str, Expression],
) -> Expression:
    """The expression with list parameters and named conditions put in place.

    A list parameter's items take the span of its name, so an error in them
    points at the name; a named condition brings its own (already inlined) tree.
    """
    if isinstance(expr, Name) and expr.name in conditions:
        return conditions[expr.name]
    if isinstance(expr, Membership) and expr.list_name is not None and not expr.choices:
        if expr.list_name not in lists:
            return expr  # the checker names it
        start = expr.end - len(expr.list_name)
        items = tuple(_literal(value, start, expr.end) for value in lists[expr.list_name])
        return dataclasses.replace(expr, item=inline(expr.item, lists, conditions), choices=items)
    changes: dict[str, object] = {}
    for field in dataclasses.fields(expr):
        value = getattr(expr, field.name)
        if isinstance(value, Expression):
            changed = inline(value, lists, conditions)
            if changed is not value:
                changes[field.name] = changed
        elif isinstance(value, tuple) and value and isinstance(value[0], Expression):
            items = tuple(inline(item, lists, conditions) for item in value)
            if any(new is not old for new, old in zip(items, value, strict=True)):
                changes[field.name] = items
    return dataclasses.replace(expr, **changes) if changes else expr  # type: ignore[arg-type]


def _literal(value: str | float, start: int, end: int) -> Expression:
    if isinstance(value, str):
        return Text(start, end, f'"{value}"', value)
    return Number(start, end, f"{value:g}", float(value))
