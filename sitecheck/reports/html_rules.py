"""The HTML report's rules: each rule of the packs once, with the ordinance's own words.

A parcel's section names the rules it triggers and links here for the quoted law,
so a report of two hundred parcels quotes each sentence of the law once.
"""

from __future__ import annotations

from sitecheck.reports.html_format import esc, severity_badge, storm_list
from sitecheck.rules.pack_model import Rule
from sitecheck.screening.check import CheckResult


def rule_anchor(rule: Rule) -> str:
    """The id of a rule's entry in the rules section."""
    return f"rule-{rule.id}"


def rule_link(rule: Rule) -> str:
    """A link to the rule's quoted law."""
    return (
        f'<a class="law" href="#{esc(rule_anchor(rule))}">Ordinance text, {esc(rule.citation)}</a>'
    )


def rules_section(result: CheckResult) -> str:
    """Every rule of the run's packs: section, title, severity, requirements, storms, quote."""
    parts = [
        '<section id="rules">\n<h2>The rules</h2>\n'
        '<p class="muted">Each rule of the rule pack, with the ordinance\'s own words; the '
        "parcels above link here.</p>\n"
    ]
    for pack in result.packs.values():
        parts.append(f"<h3>{esc(pack.name)} ({esc(pack.chapter)})</h3>\n")
        parts += [_rule_entry(rule) for rule in pack.rules]
    parts.append("</section>\n")
    return "".join(parts)


def _rule_entry(rule: Rule) -> str:
    parts = [rule_opening(rule, rule_anchor(rule)), *rule_requirements(rule)]
    if rule.design_storms:
        parts.append(
            f'<p><span class="label">Design storms:</span> {esc(storm_list(rule.design_storms))}'
            "</p>"
        )
    parts.append(
        f"<blockquote>{esc(rule.quote)}</blockquote>"
        f'<p class="muted">Rule <code>{esc(rule.id)}</code></p></div>\n'
    )
    return "".join(parts)


def rule_opening(rule: Rule, anchor: str | None = None) -> str:
    """A rule's box opened: its head (citation, title, severity badge) and its requirement."""
    where = f' id="{esc(anchor)}"' if anchor else ""
    return (
        f'<div class="rule rule-{esc(rule.severity)}"{where}>'
        f'<div class="rule-head"><span class="citation">{esc(rule.citation)}</span>'
        f'<span class="rule-title">{esc(rule.title)}</span>{severity_badge(rule.severity)}</div>'
        f"<p>{esc(rule.requirement)}</p>"
    )


def rule_requirements(rule: Rule) -> list[str]:
    """The rule's list of what is required, when it has one."""
    if not rule.requirements:
        return []
    items = "".join(f"<li>{esc(item)}</li>" for item in rule.requirements)
    return [f'<p class="label">Required:</p><ul>{items}</ul>']
