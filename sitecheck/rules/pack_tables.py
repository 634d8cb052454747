"""Reading a pack's TOML tables: every key, type, unit and condition checked, with its line."""

from __future__ import annotations

import re

from sitecheck.rules.conditions import inline
from sitecheck.rules.errors import RuleLanguageError
from sitecheck.rules.language import check, parse
from sitecheck.rules.pack_checks import code_errors
from sitecheck.rules.pack_model import (
    NotEvaluated,
    PackError,
    PackNames,
    Review,
    Rule,
    RunoffSection,
    refuse_unknown_keys,
)
from sitecheck.rules.pack_rainfall import pack_rainfall
from sitecheck.rules.syntax import Boolean, Expression, Membership, names_in, walk
from sitecheck.schema.severities import SEVERITY_KEYS

PACK_KEYS = {"id", "name", "jurisdiction", "chapter", "version", "amendments", "source", "notes"}


_RULE_KEYS = {
    "id",
    "citation",
    "title",
    "requirement",
    "quote",
    "when",
    "severity",
    "requirements",
    "design_storms",
    "design_storm_years",
    "review_when",
    "review_reason",
    "reviews",
    "discretion",
    "unless",
    "notes",
}


TOP_LEVEL_KEYS = {
    "pack",
    "parameters",
    "conditions",
    "rules",
    "runoff",
    "measuring",
    "not_evaluated",
}

_NOT_EVALUATED_KEYS = {"citation", "requirement", "reason"}


_RUNOFF_KEYS = {"unimproved_before_when", "unimproved_before_citation", "rainfall", "notes"}


_RULE_REQUIRED = ("id", "citation", "title", "requirement", "quote", "when", "severity")


_RULE_ID = r"[a-z0-9][a-z0-9_.-]*"


_TABLES = ("pack", "parameters", "conditions", "runoff", "measuring")
_ARRAYS_OF_TABLES = ("rules", "not_evaluated")


def shape_problems(data: dict, where: str) -> list[str]:
    """What is wrong with the pack's top level: a table given as a number, rules as a list of numbers."""
    problems = [
        f"{where}: '{key}' must be a [{key}] table, not {type(data[key]).__name__}"
        for key in _TABLES
        if key in data and not isinstance(data[key], dict)
    ]
    problems += [
        f"{where}: '{key}' must be a list of [[{key}]] tables"
        for key in _ARRAYS_OF_TABLES
        if key in data
        and (not isinstance(data[key], list) or not all(isinstance(t, dict) for t in data[key]))
    ]
    return problems


def pack_table(data: dict, key: str, where: str) -> dict:
    value = data.get(key)
    if not isinstance(value, dict):
        raise PackError(f"{where}: needs a [{key}] table")
    return value


def runoff_section(data: dict, names: PackNames, where: str, text: str) -> RunoffSection:
    """The optional ``[runoff]`` table: the unimproved-before condition and rainfall."""
    if "runoff" not in data:
        return RunoffSection()
    line = line_of(text, r"^\s*\[runoff\]")
    context = f"{where}: [runoff] (line {line})"
    table = data["runoff"]
    if not isinstance(table, dict):
        raise PackError(f"{context}: 'runoff' is a table")
    refuse_unknown_keys(table, _RUNOFF_KEYS, context)
    condition_text = table.get("unimproved_before_when")
    condition = None
    if condition_text is not None:
        condition = _condition(condition_text, "unimproved_before_when", names, context, text, line)
        if not isinstance(table.get("unimproved_before_citation"), str):
            raise PackError(
                f"{context}: 'unimproved_before_when' needs 'unimproved_before_citation', "
                "the section that asks for it"
            )
    return RunoffSection(
        unimproved_before_when=condition,
        unimproved_before_when_text=condition_text,
        unimproved_before_citation=str(table.get("unimproved_before_citation", "")),
        rainfall=pack_rainfall(table.get("rainfall"), _header_id(data), context),
    )


def _header_id(data: dict) -> str:
    """The pack id of raw TOML data (already checked to be text)."""
    return str(data["pack"]["id"]).strip()


def pack_rule(table: dict, names: PackNames, where: str, line: int, text: str) -> Rule:
    rule_id = table.get("id") if isinstance(table.get("id"), str) else "?"
    context = f"{where}: rule {rule_id} (line {line})"
    if not isinstance(table, dict):
        raise PackError(f"{context}: a rule is a table")
    refuse_unknown_keys(table, _RULE_KEYS, context)
    for key in _RULE_REQUIRED:
        if not isinstance(table.get(key), str) or not table[key].strip():
            raise PackError(f"{context}: needs a text '{key}'")
    if not re.fullmatch(_RULE_ID, table["id"]):
        raise PackError(f"{context}: ids are lower-case letters, digits, '.', '_' and '-'")
    if table["severity"] not in SEVERITY_KEYS:
        raise PackError(
            f"{context}: severity '{table['severity']}' is not one of {', '.join(SEVERITY_KEYS)}"
        )
    if not _is_citation(table["citation"]):
        raise PackError(
            f"{context}: a citation is a section in the code's own form (§ 254-9) or a named "
            "state source (NYSDEC SPDES General Permit GP-0-25-001, Part I.B)"
        )
    when = _condition(table["when"], "when", names, context, text, line)
    reviews = _reviews(table, names, context, text, line)
    storms = table.get("design_storms", [])
    if not isinstance(storms, list) or not all(_is_years(s) for s in storms):
        raise PackError(
            f"{context}: 'design_storms' is a list of return periods in years "
            f"(1 to {MAX_RETURN_PERIOD_YEARS:,}), e.g. [25, 10, 2]"
        )
    governing = table.get("design_storm_years")
    if governing is not None and not _is_years(governing):
        raise PackError(
            f"{context}: 'design_storm_years' is a return period in years "
            f"(1 to {MAX_RETURN_PERIOD_YEARS:,}), e.g. 25"
        )
    requirements = table.get("requirements", [])
    if not isinstance(requirements, list) or not all(isinstance(r, str) for r in requirements):
        raise PackError(f"{context}: 'requirements' is a list of texts")
    discretion = table.get("discretion")
    if discretion is not None and (not isinstance(discretion, str) or not discretion.strip()):
        raise PackError(f"{context}: 'discretion' says who decides, e.g. \"the officer decides\"")
    unless = table.get("unless", [])
    if isinstance(unless, str):
        unless = [unless]
    if not isinstance(unless, list) or not all(isinstance(u, str) for u in unless):
        raise PackError(f"{context}: 'unless' is a list of rule ids (or a list parameter's name)")
    unless = _expand_lists(unless, names, context)
    return Rule(
        id=table["id"],
        citation=table["citation"],
        title=table["title"].strip(),
        requirement=" ".join(table["requirement"].split()),
        quote=" ".join(table["quote"].split()),
        when_text=table["when"],
        when=when,
        severity=table["severity"],
        requirements=tuple(requirements),
        design_storms=tuple(storms),
        design_storm_years=governing,
        reviews=reviews,
        discretion=" ".join(discretion.split()) if discretion else None,
        unless=tuple(unless),
        line=line,
    )


def _reviews(
    table: dict, names: PackNames, context: str, text: str, line: int
) -> tuple[Review, ...]:
    """``review_when`` + ``review_reason``, and/or ``reviews = [{ when, reason }, ...]``.

    Several reviews let one rule ask different questions; the first that holds is asked.
    """
    # each review with the names its condition and reason have where it is written
    written: list[tuple[object, object, str, str]] = []
    if "review_when" in table or "review_reason" in table:
        written.append(
            (table.get("review_when"), table.get("review_reason"), "review_when", "review_reason")
        )
    extra = table.get("reviews", [])
    if not isinstance(extra, list) or not all(isinstance(item, dict) for item in extra):
        raise PackError(f'{context}: \'reviews\' is a list of {{ when = "...", reason = "..." }}')
    for number, item in enumerate(extra, start=1):
        refuse_unknown_keys(item, {"when", "reason"}, f"{context} reviews")
        where = f"reviews[{number}]"
        written.append((item.get("when"), item.get("reason"), f"{where}.when", f"{where}.reason"))
    reviews = []
    for when_text, reason, when_key, reason_key in written:
        if not isinstance(when_text, str):
            why = "is missing" if when_text is None else "must be text"
            raise PackError(
                f"{context}: '{when_key}' {why} (a review needs the condition it is asked under)"
            )
        if not isinstance(reason, str) or not reason.strip():
            why = "is missing" if reason is None else "must be text that is not blank"
            raise PackError(
                f"{context}: '{reason_key}' {why} (a review needs the question it asks, in words)"
            )
        when = _condition(when_text, when_key, names, context, text, line)
        reviews.append(Review(when_text, when, " ".join(reason.split())))
    return tuple(reviews)


def _condition(
    source: object, key: str, names: PackNames, context: str, text: str, rule_line: int
) -> Expression:
    """A condition parsed, with lists put in, checked, then with named conditions put in."""
    if not isinstance(source, str):
        raise PackError(f"{context}: '{key}' must be text")
    try:
        parsed = parse(source)
        names.used |= {
            n.list_name for n in walk(parsed) if isinstance(n, Membership) and n.list_name
        }
        expression = inline(parsed, names.lists, {})
        names.used |= names_in(expression)
        check(expression, names.infos)
        expression = inline(expression, {}, names.conditions)
    except RuleLanguageError as error:
        line = _condition_line(text, rule_line, key, source, error.offset)
        raise PackError(
            f"{context.rsplit(' (line', 1)[0]} (line {line}): {key}: {error}\n"
            f"{error.pointer(source)}"
        ) from error
    codes = code_errors(expression)
    if codes:
        raise PackError(f"{context.rsplit(' (line', 1)[0]}: {key}: {'; '.join(codes)}")
    return expression


def pack_conditions(entries: list, names: PackNames, where: str, text: str) -> None:
    """Check each named condition (in order: one may use those above it) and add it to names."""
    errors = []
    for entry in entries:
        line = line_of(text, rf"^\s*{re.escape(entry.name)}\s*=")
        context = f"{where}: condition {entry.name} (line {line})"
        if entry.name in names.infos or entry.name in names.lists:
            errors.append(f"{context}: the name is taken by a metric, attribute or parameter")
            continue
        key_line = max(line - 1, 0)
        if re.search(rf"\b{re.escape(entry.name)}\b", entry.when_text):
            errors.append(
                f"{context}: condition {entry.name} uses itself; a condition may use only "
                "those defined above it"
            )
            names.add_condition(entry, Boolean(0, 0, "false", False))
            continue
        try:
            expression = _condition(entry.when_text, entry.name, names, context, text, key_line)
        except PackError as error:
            errors.append(str(error))
            # Still a true/false name, so that the rules using it are checked.
            names.add_condition(entry, Boolean(0, 0, "false", False))
            continue
        names.add_condition(entry, expression)
    if errors:
        raise PackError("\n".join(errors))


def _is_citation(text: str) -> bool:
    """'§ 254-9' or a named source that starts with a capitalised word ('NYSDEC SPDES ...')."""
    text = text.strip()
    return text.startswith("§") or bool(re.match(r"[A-Z][A-Za-z]+\b", text))


MAX_RETURN_PERIOD_YEARS = 1000
"""The longest storm NOAA Atlas 14 gives a depth for (its PFDS tables end at 1,000 years)."""


def _is_years(value: object) -> bool:
    """A return period in years: a whole number from 1 to 1,000 (true/false are not numbers)."""
    return (
        isinstance(value, int)
        and not isinstance(value, bool)
        and 0 < value <= MAX_RETURN_PERIOD_YEARS
    )


def _expand_lists(unless: list[str], names: PackNames, context: str) -> list[str]:
    expanded: list[str] = []
    for entry in unless:
        listed = names.lists.get(entry)
        if listed is None:
            expanded.append(entry)
        elif all(isinstance(item, str) for item in listed):
            expanded.extend(str(item) for item in listed)
        else:
            raise PackError(f"{context}: 'unless' list {entry} holds numbers, not rule ids")
        names.used.add(entry)
    return list(dict.fromkeys(expanded))


def rule_lines(text: str) -> list[int]:
    """Line numbers (1-based) of each ``[[rules]]`` header."""
    return [
        number
        for number, line in enumerate(text.splitlines(), start=1)
        if line.strip().startswith("[[rules]]")
    ]


def line_of(text: str, pattern: str, start: int = 0) -> int:
    """The first line from ``start`` matching ``pattern`` (1-based; 0 when none)."""
    for number, line in enumerate(text.splitlines(), start=1):
        if number >= start and re.search(pattern, line):
            return number
    return 0


def _condition_line(text: str, rule_line: int, key: str, source: str, offset: int) -> int:
    """The file line of a character offset inside a rule's condition."""
    key_line = line_of(text, rf"^\s*{key}\s*=", rule_line)
    if key_line == 0:
        return rule_line
    opening = text.splitlines()[key_line - 1]
    starts_below = bool(re.search(r'=\s*("""|\'\'\')\s*$', opening))
    return key_line + int(starts_below) + source[:offset].count("\n")


def not_evaluated_items(data: dict, where: str) -> tuple[NotEvaluated, ...]:
    """The pack's ``[[not_evaluated]]``: requirements it leaves out, each with its reason."""
    tables = data.get("not_evaluated", [])
    if not isinstance(tables, list):
        raise PackError(f"{where}: 'not_evaluated' is a list of [[not_evaluated]] tables")
    items = []
    for number, table in enumerate(tables, start=1):
        context = f"{where}: [[not_evaluated]] #{number}"
        if not isinstance(table, dict):
            raise PackError(f"{context}: must be a table")
        refuse_unknown_keys(table, _NOT_EVALUATED_KEYS, context)
        for key in sorted(_NOT_EVALUATED_KEYS):
            if not isinstance(table.get(key), str) or not table[key].strip():
                raise PackError(f"{context}: needs a text '{key}'")
        items.append(
            NotEvaluated(
                *(" ".join(table[key].split()) for key in ("citation", "requirement", "reason"))
            )
        )
    return tuple(items)
