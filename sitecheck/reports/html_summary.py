"""The HTML report's summary: counts by severity, and which parcels the report details."""

from __future__ import annotations

from dataclasses import dataclass

from sitecheck.reports.html_format import esc, severity_badge
from sitecheck.rules.outcome import NEEDS_REVIEW, TRIGGERED, ParcelOutcome
from sitecheck.schema.severities import SEVERITY_KEYS
from sitecheck.screening.check import CheckResult


@dataclass(frozen=True)
class Detail:
    """How many listed parcels are flagged, and how many of those the report details and maps."""

    flagged: int
    detailed: int
    mapped: int
    kind: str = "flagged"  # "listed" when every listed parcel may be detailed (one parcel's)


def summary_section(result: CheckResult, rows: list[int], detail: Detail) -> str:
    return (
        '<section id="summary">\n<h2>Summary</h2>\n'
        + _summary_cards(result, rows)
        + _detail_notice(len(rows), detail)
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


def _detail_notice(listed: int, detail: Detail) -> str:
    """Say which parcels have a detailed section and a map, and that the table lists them all."""
    table = f'<a href="#parcel-list">the table</a> lists all {listed:,} parcels'
    kind = detail.kind
    if detail.flagged == 0:
        return f'<p class="muted">No parcel is {kind}; {table}.</p>\n'
    if detail.detailed == detail.flagged:
        text = f"Each of the {detail.flagged:,} {kind} parcels has a detailed section below"
    elif detail.detailed == 0:
        text = f"This report details none of the {detail.flagged:,} {kind} parcels"
    else:
        text = (
            f"The {detail.detailed:,} most demanding of the {detail.flagged:,} {kind} parcels "
            f"have a detailed section below (the report details at most {detail.detailed:,}; "
            "--report-details sets how many)"
        )
    if detail.mapped == 0:
        maps = ", without maps"
    elif detail.mapped < detail.detailed:
        maps = f", the first {detail.mapped:,} with a map"
    else:
        maps = ", each with a map"
    return f'<p class="notice">{text}{maps}; {table}.</p>\n'
