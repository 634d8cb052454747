"""The HTML report's summary: counts by severity and the table of listed parcels."""

from __future__ import annotations

from sitecheck.reports.html_format import (
    acres_cell,
    anchor,
    cell_value,
    esc,
    outcome_badge,
    severity_badge,
    sqft_cell,
    text_or_dash,
)
from sitecheck.rules.outcome import NEEDS_REVIEW, TRIGGERED, ParcelOutcome
from sitecheck.schema.severities import SEVERITY_KEYS
from sitecheck.screening.check import CheckResult


def summary_section(result: CheckResult, rows: list[int], mapped: int, max_maps: int) -> str:
    return (
        '<section id="summary">\n<h2>Summary</h2>\n'
        + _summary_cards(result, rows)
        + _maps_notice(len(rows), mapped, max_maps)
        + _summary_table(result, rows)
        + "</section>\n"
    )


def _summary_cards(result: CheckResult, rows: list[int]) -> str:
    outcomes = [result.outcomes[row] for row in rows]
    triggered = sum(1 for o in outcomes if o is not None and o.of(TRIGGERED))
    review = sum(1 for o in outcomes if o is not None and o.of(NEEDS_REVIEW))
    cards = [
        (f"{len(rows):,}", "parcels listed"),
        (f"{triggered:,}", "with triggered rules"),
        (f"{review:,}", "with rules needing review"),
        (f"{len(result.measured.log.warnings):,}", "warnings (see Audit)"),
    ]
    html_cards = "".join(
        f'<div class="card"><div class="n">{esc(n)}</div><div class="l">{esc(label)}</div></div>'
        for n, label in cards
    )
    counts = _severity_counts(outcomes)
    return f'<div class="cards">{html_cards}</div>\n{counts}'


def _severity_counts(outcomes: list[ParcelOutcome | None]) -> str:
    highest = [o.highest_severity for o in outcomes if o is not None]
    parts = [
        f"{severity_badge(severity)} {highest.count(severity):,}"
        for severity in reversed(SEVERITY_KEYS)
        if highest.count(severity)
    ]
    if not parts:
        return ""
    return f"<p>Highest severity per parcel: {' &nbsp; '.join(parts)}</p>\n"


def _maps_notice(listed: int, mapped: int, max_maps: int) -> str:
    """Say when maps were left out, and why."""
    if mapped >= listed:
        return ""
    if mapped == 0:
        return '<p class="notice">This report was made without parcel maps.</p>\n'
    return (
        f'<p class="notice">Maps are drawn for the first {mapped:,} parcels in the order below; '
        f"the other {listed - mapped:,} have none (the report draws at most "
        f"{max_maps:,} maps).</p>\n"
    )


def _summary_table(result: CheckResult, rows: list[int]) -> str:
    head = (
        '<div class="wide"><table class="summary"><thead><tr><th>Parcel</th><th>Address</th>'
        '<th>Owner</th><th class="num">Disturbed<br>sq ft</th><th class="num">Disturbed<br>'
        'acres</th><th class="num">Net impervious<br>change, sq ft</th><th>Highest severity</th>'
        '<th class="num">Triggered</th><th class="num">Needs<br>review</th>'
        "<th>Design storm<br>(years)</th></tr></thead><tbody>\n"
    )
    body = "".join(_summary_row(result, row) for row in rows)
    return head + body + "</tbody></table></div>\n"


def _summary_row(result: CheckResult, row: int) -> str:
    outcome = result.outcomes[row]
    severity = outcome.highest_severity if outcome is not None else None
    disturbed = cell_value(result, row, "disturbed_area_sqft")
    net = cell_value(result, row, "impervious_net_change_sqft")
    storm = outcome.design_storm if outcome is not None and outcome.triggers else None
    return (
        f'<tr data-severity="{esc(severity or "none")}">'
        f'<td><a href="#{anchor(row)}">{esc(cell_value(result, row, "parcel_id"))}</a></td>'
        f"<td>{text_or_dash(cell_value(result, row, 'address'))}</td>"
        f"<td>{text_or_dash(cell_value(result, row, 'owner'))}</td>"
        f'<td class="num">{sqft_cell(disturbed)}</td>'
        f'<td class="num">{acres_cell(cell_value(result, row, "disturbed_area_acres"))}</td>'
        f'<td class="num">{sqft_cell(net, signed=True)}</td>'
        f"<td>{outcome_badge(outcome)}</td>"
        f'<td class="num">{len(outcome.of(TRIGGERED)) if outcome else 0}</td>'
        f'<td class="num">{len(outcome.of(NEEDS_REVIEW)) if outcome else 0}</td>'
        f"<td>{esc(storm) if storm and storm != 'none' else '—'}</td></tr>\n"
    )
