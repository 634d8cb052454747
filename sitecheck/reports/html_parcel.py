"""One parcel's section of the HTML report: facts, map, measurements and every rule's outcome."""

from __future__ import annotations

from urllib.parse import quote

from sitecheck.reports.html_format import (
    PARCEL_FACTS,
    ParcelCells,
    anchor,
    esc,
    format_acres,
    format_metric,
    is_missing,
    outcome_badge,
    sentence_case,
    severity_badge,
    storm_list,
    text_or_dash,
)
from sitecheck.reports.html_rules import rule_anchor, rule_link, rule_opening, rule_requirements
from sitecheck.reports.runoff import parcel_runoff_table
from sitecheck.rules.outcome import NEEDS_REVIEW, NOT_TRIGGERED, TRIGGERED, ParcelOutcome, Trigger
from sitecheck.rules.review_groups import review_groups
from sitecheck.schema.metrics import ACRE_METRICS, METRICS, acres_name
from sitecheck.schema.severities import SEVERITY_KEYS
from sitecheck.screening.check import CheckResult


def parcel_section(
    result: CheckResult, row: int, svg: str | None, max_maps: int, cells: ParcelCells
) -> str:
    outcome = result.outcomes[row]
    parcel_id = cells(row, "parcel_id")
    address = cells(row, "address")
    where = "" if is_missing(address) else f'<span class="where">{esc(address)}</span>'
    return (
        f'<section class="parcel" id="{anchor(row)}">\n'
        f'<div class="parcel-head"><h3>Parcel {esc(parcel_id)}</h3>{where}'
        f"{outcome_badge(outcome)}</div>\n"
        '<div class="parcel-body">'
        + _map_figure(parcel_id, svg, max_maps)
        + _facts(result, row, cells)
        + _project_note(result, str(parcel_id))
        + "</div>\n<h4>Measurements</h4>\n"
        + _metrics_table(result, row, cells)
        + parcel_runoff_table(result, row)
        + _outcomes(outcome)
        + _margins(result, row)
        + '<p class="back"><a href="#parcel-list">Back to the table</a></p>\n</section>\n'
    )


def _project_note(result: CheckResult, lot: str) -> str:
    """Which named projects have work on the lot, and what each comes to on its site."""
    projects = result.projects
    if projects is None or not projects.named:
        return ""
    notes = []
    for index in projects.indices_on(lot):
        project, lots = projects.ids[index], projects.lots[index]
        outcome = projects.outcome(index, result)
        severity = outcome.highest_severity if outcome else None
        notes.append(
            f"Work of project <strong>{esc(project)}</strong> on this lot; the project "
            f"(lots {esc(', '.join(lots))}) is checked on its site: "
            f"{severity_badge(severity) if severity else 'no rule triggered'}."
        )
    return "".join(f'<p class="project">{note}</p>' for note in notes)


def _margins(result: CheckResult, row: int) -> str:
    """The nearest threshold of each area a redesign can change, nearest first."""
    margins = result.margins([row])[row]
    if not margins:
        return ""
    items = "".join(f"<li>{esc(margin.text)}</li>" for margin in margins)
    return (
        "<h4>Nearest thresholds</h4>\n"
        '<p class="muted">How far each area is from the nearest threshold that changes what '
        "the law asks, and what changes there (evaluated exactly, without the tolerance "
        f'band).</p>\n<ul class="margins">{items}</ul>\n'
    )


def _map_figure(parcel_id: object, svg: str | None, max_maps: int) -> str:
    if svg is None and max_maps <= 0:
        return '<div class="no-map">This report was made without parcel maps.</div>'
    if svg is None:
        return (
            f'<div class="no-map">No map for this parcel: the report draws at most '
            f"{max_maps:,} maps, for the most demanding parcels.</div>"
        )
    return (
        '<figure class="map">'
        # Lazy: a county report's two hundred maps are decoded as they scroll into view.
        f'<img loading="lazy" decoding="async" src="{svg_data_uri(svg)}" '
        'width="640" height="480" '
        f'alt="Map of parcel {esc(parcel_id)}">'
        "<figcaption>The lot, its disturbance and where the disturbance meets a constraint. "
        "Grid north up.</figcaption></figure>"
    )


SVG_URI_SAFE = "/=:;,.'()-_*!~+"
"""What an SVG map keeps unescaped in its ``data:`` URI: the rest of its path data and
attributes, so the URI is barely longer than the drawing. ``#``, ``%``, ``&``, ``"``, ``<``,
``>`` and spaces are escaped: in an HTML attribute they would end or change the URI."""


_ESCAPED_ASCII = {
    code: f"%{code:02X}"
    for code in range(128)
    if not (chr(code).isalnum() or chr(code) in "_.-~" + SVG_URI_SAFE)
}
"""Each ASCII character ``quote`` escapes with :data:`SVG_URI_SAFE` kept, and its escape."""


def svg_data_uri(svg: str) -> str:
    """An SVG document as a ``data:`` URI for an ``<img>``, percent-escaped, not base64.

    An ASCII document (a map whose parcel id and labels are ASCII, as most are) is
    escaped by one ``str.translate``, as ``urllib.parse.quote`` escapes it byte by byte in
    Python (0.2 ms a map, 44 ms of a report's two hundred); any other through ``quote``."""
    if svg.isascii():
        return "data:image/svg+xml," + svg.translate(_ESCAPED_ASCII)
    return "data:image/svg+xml," + quote(svg, safe=SVG_URI_SAFE)


def _facts(result: CheckResult, row: int, cells: ParcelCells) -> str:
    outcome = result.outcomes[row]
    pack = "no pack applies" if outcome is None else f"{outcome.pack.name} ({outcome.pack.id})"
    items = [("Ordinance", esc(pack))]
    items += [
        (label, text_or_dash(cells(row, name)))
        for name, label in PARCEL_FACTS
        if name in result.measured.parcels.columns
    ]
    body = "".join(f"<dt>{esc(label)}</dt><dd>{value}</dd>" for label, value in items)
    return f'<dl class="facts">{body}</dl>'


def _metrics_table(result: CheckResult, row: int, cells: ParcelCells) -> str:
    lines = []
    for metric in METRICS:
        value = cells(row, metric.name)
        text = format_metric(metric, value)
        cell = f'<span class="muted">{esc(text)}</span>' if is_missing(value) else esc(text)
        acres = (
            format_acres(cells(row, acres_name(metric.name))) if metric.name in ACRE_METRICS else ""
        )
        lines.append(
            f'<tr><td>{esc(sentence_case(metric.label))}</td><td class="num">{cell}</td>'
            f'<td class="num">{esc(acres)}</td><td><code>{esc(metric.name)}</code></td></tr>'
        )
    unit = result.measured.working.area_unit
    return (
        f'<table class="metrics"><caption>Areas in '
        f"{esc(unit)}; an acre is 43,560 sq ft.</caption><thead><tr><th>Measurement</th>"
        '<th class="num">Value</th><th class="num">Acres</th><th>Field</th></tr></thead>'
        f"<tbody>{''.join(lines)}</tbody></table>\n"
    )


def _outcomes(outcome: ParcelOutcome | None) -> str:
    if outcome is None:
        return '<p class="notice">No rule pack applies: the parcel lies in no jurisdiction.</p>\n'
    if not outcome.triggers:
        return '<p class="muted">No work on this parcel: no rule was evaluated.</p>\n'
    return (
        _triggered(outcome.of(TRIGGERED))
        + _needs_review(outcome)
        + _not_triggered(outcome.of(NOT_TRIGGERED))
    )


def _triggered(triggers: list[Trigger]) -> str:
    out = [f"<h4>Triggered rules ({len(triggers)})</h4>\n"]
    if not triggers:
        out.append('<p class="muted">No rule is triggered.</p>\n')
    for severity in reversed(SEVERITY_KEYS):
        group = [t for t in triggers if t.rule.severity == severity]
        if group:
            out.append(f"<h5>{severity_badge(severity)} {len(group)}</h5>\n")
            out += [_rule_card(trigger) for trigger in group]
    return "".join(out)


def _needs_review(outcome: ParcelOutcome) -> str:
    triggers = outcome.of(NEEDS_REVIEW)
    if not triggers:
        return '<h4>Needs review (0)</h4>\n<p class="muted">No rule needs review.</p>\n'
    groups = review_groups(outcome)
    out = [
        f"<h4>Needs review ({len(triggers)} rules, {len(groups)} "
        f"question{'s' if len(groups) > 1 else ''}, those that could change the most first; "
        "a rule waiting on two answers is under each)</h4>\n"
    ]
    for group in groups:
        count = f"{len(group.triggers)} rules" if len(group.triggers) > 1 else "1 rule"
        consequence = "".join(
            f' <span class="badge review">{esc(key.replace("_", " "))} could rise</span>'
            for key in group.could_raise
        )
        out.append(
            '<div class="review-group">'
            f'<p class="why"><span class="badge review">Needs review</span>{consequence} '
            f'<span class="label">Why ({count}):</span> {esc(group.cause)}</p>'
            + "".join(
                _rule_card(trigger, with_reason=trigger.reason != group.cause)
                for trigger in group.triggers
            )
            + "</div>\n"
        )
    return "".join(out)


def _not_triggered(triggers: list[Trigger]) -> str:
    rows = "".join(
        f'<tr><td class="citation">{esc(t.rule.citation)}</td><td>'
        f'<a href="#{esc(rule_anchor(t.rule))}">{esc(t.rule.title)}</a></td>'
        f"<td>{severity_badge(t.rule.severity)}</td><td>{esc(t.reason)}</td></tr>"
        for t in triggers
    )
    return (
        f'<details class="not-triggered"><summary>Not triggered ({len(triggers)})</summary>'
        "<table><thead><tr><th>Section</th><th>Rule</th><th>Severity when triggered</th>"
        f"<th>Why not</th></tr></thead><tbody>{rows}</tbody></table></details>\n"
    )


def _rule_card(trigger: Trigger, with_reason: bool = True) -> str:
    rule = trigger.rule
    parts = [rule_opening(rule)]
    if with_reason:
        parts.append(f'<p><span class="label">Why:</span> {esc(trigger.reason)}</p>')
    parts += rule_requirements(rule)
    if rule.design_storms:
        parts.append(
            f'<p><span class="label">Design storms:</span> {esc(storm_list(rule.design_storms))}'
            + (
                f" (governing: {esc(rule.design_storm_years)}-year)"
                if rule.design_storm_years
                else ""
            )
            + "</p>"
        )
    parts.append(f'<p class="muted">{rule_link(rule)}</p></div>\n')
    return "".join(parts)
