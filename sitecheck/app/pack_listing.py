"""``sitecheck rules`` and ``sitecheck validate``: a pack as staff check it against the law."""

from __future__ import annotations

import textwrap

from sitecheck.rules.pack_model import Pack, Rule
from sitecheck.schema.storms import storm_summary


def pack_listing(pack: Pack) -> list[str]:
    """Every rule with its section, severity, condition, exemptions, storms and quote.

    Then the named conditions, the parameters and what the pack does not
    evaluate, so each line can be held against the text of the law.
    """
    lines = [
        f"{pack.name}, {pack.chapter} (pack {pack.id} {pack.version}, sha256 {pack.sha256[:12]})"
    ]
    for paragraph in pack.notes.strip().split("\n\n"):
        if paragraph.strip():
            lines += ["", *textwrap.wrap(" ".join(paragraph.split()), 100)]
    for rule in pack.rules:
        lines.append("")
        lines.extend(_rule_lines(rule))
    if pack.conditions:
        lines += ["", f"Named conditions ({len(pack.conditions)})"]
        for entry in pack.conditions:
            lines.append(f"  {entry.name}: {' '.join(entry.when_text.split())}")
    if pack.parameters:
        lines += ["", f"Parameters ({len(pack.parameters)})"]
        for name, value in pack.parameters.items():
            shown = ", ".join(map(str, value)) if isinstance(value, tuple) else str(value)
            lines.append(f"  {name} = {shown}")
    if pack.not_evaluated:
        lines += ["", f"Not evaluated ({len(pack.not_evaluated)}): check these by hand"]
        for item in pack.not_evaluated:
            lines.append(f"  {item.citation}  {item.requirement}: {item.reason}")
    return lines


def _rule_lines(rule: Rule) -> list[str]:
    lines = [f"{rule.id}  {rule.citation}  {rule.severity}  {rule.title}"]
    lines.append(f"  when: {' '.join(rule.when_text.split())}")
    if rule.review_when_text:
        lines.append(f"  review when: {' '.join(rule.review_when_text.split())}")
    if rule.discretion:
        lines.append(f"  decided by an officer: {rule.discretion}")
    if rule.unless:
        lines.append(f"  unless exempt under: {', '.join(rule.unless)}")
    if rule.design_storms or rule.design_storm_years:
        storms = ", ".join(str(years) for years in rule.design_storms) or "-"
        lines.append(
            f"  storms (years): {storms}; governing: {storm_summary(rule.design_storm_years)}"
        )
    quote = textwrap.wrap(f"“{rule.quote}”", 96)
    lines += [f"  quote: {quote[0]}", *(f"         {line}" for line in quote[1:])]
    return lines


def validation_lines(path: str, pack: Pack) -> list[str]:
    """What ``validate`` prints for a pack that loads: its size, then each warning."""
    lines = [f"{path}: valid pack '{pack.id}' with {len(pack.rules)} rules"]
    lines += [f"warning: {message}" for message in pack.warnings]
    return lines
