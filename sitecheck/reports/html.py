"""The HTML compliance report of a check run: one self-contained file to file with a decision.

The report holds a header naming the pack(s), the audit block (version, pack
hashes, inputs with their hashes, CRS, settings), a summary, a table of every
listed parcel (most demanding severity first; sortable and filterable) and a
detailed section for each flagged parcel up to a limit, the most demanding
first: its facts, a map, every measurement and every rule's outcome with the
ordinance's own words. A county run lists thousands of parcels: the table holds
them all, and the detailed sections stop at the limit (``--report-details``),
so the file stays small enough to open.

Nothing is fetched when the file is opened: the styles and the table's script
are inline, the maps are SVG ``data:`` URIs, and ``<details>`` does the
expanding. Every value taken from the data is HTML-escaped.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, timezone
from functools import cache
from importlib import resources
from pathlib import Path
from typing import TextIO

from sitecheck import __version__
from sitecheck.io.progress import Progress
from sitecheck.io.writers import write_text
from sitecheck.reports.html_audit import audit_section, header_section
from sitecheck.reports.html_format import (
    ParcelCells,
    esc,
    natural_key,
    severity_rank,
    utc_text,
)
from sitecheck.reports.html_parcel import parcel_section
from sitecheck.reports.html_rules import rules_section
from sitecheck.reports.html_summary import Detail, summary_section
from sitecheck.reports.html_table import TABLE_SCRIPT, parcel_table
from sitecheck.reports.maps import ParcelMapper
from sitecheck.reports.runoff import runoff_section
from sitecheck.rules.outcome import NOT_TRIGGERED, ParcelOutcome
from sitecheck.schema.options import DEFAULT_REPORT_DETAILS
from sitecheck.schema.severities import SEVERITIES, text_colour_on
from sitecheck.screening.check import CheckResult


@cache
def report_style() -> str:
    """The report's CSS (``report.css``), with each severity's colour from the vocabulary."""
    css = (resources.files("sitecheck.reports") / "report.css").read_text(encoding="utf-8")
    rules = []
    for severity in SEVERITIES:
        text = text_colour_on(severity.colour)
        rules.append(
            f".sev-{severity.key} {{ background: {severity.colour}; color: {text}; "
            f"border-color: {severity.colour}; }}\n"
            f".rule-{severity.key} {{ border-left-color: {severity.colour}; }}\n"
        )
    return "\n" + css + "".join(rules)


@dataclass(frozen=True)
class ReportLimits:
    """How much of a large run the report details.

    Attributes
    ----------
    details : int
        Flagged parcels given a detailed section, the most demanding first.
    maps : int or None
        Of those, how many get a map (None: all of them).
    unflagged : bool
        Detail the listed parcels that are not flagged too (one parcel's report).
    """

    details: int = DEFAULT_REPORT_DETAILS
    maps: int | None = None
    unflagged: bool = False

    @property
    def map_count(self) -> int:
        return self.details if self.maps is None else min(self.maps, self.details)


def write_html_report(
    result: CheckResult,
    path: Path,
    all_parcels: bool = False,
    limits: ReportLimits | None = None,
    progress: Progress | None = None,
) -> None:
    """Write the self-contained HTML report of a check run.

    Parameters
    ----------
    result : CheckResult
    path : Path
        The ``.html`` file to write.
    all_parcels : bool
        List every parcel, not only those with disturbance or impervious change.
    limits : ReportLimits, optional
        How many flagged parcels get a detailed section and a map; the report says
        how many it left to the table.
    progress : Progress, optional
        Moved as the parcels' sections and maps are drawn.
    """
    generated = datetime.now(timezone.utc)
    limits = limits or ReportLimits()

    def write(handle: TextIO) -> None:
        for part in report_parts(result, all_parcels, limits, generated, progress):
            handle.write(part)

    write_text(path, write)


def report_parts(
    result: CheckResult,
    all_parcels: bool,
    limits: ReportLimits,
    generated: datetime,
    progress: Progress | None = None,
) -> Iterator[str]:
    """The report in pieces, in document order, so a large one is written as it is drawn."""
    progress = progress or Progress(quiet=True)
    progress.update(0, "writing the HTML report")
    rows = listed_rows(result, all_parcels)
    flagged = [row for row in rows if limits.unflagged or _flagged(result.outcomes[row])]
    detailed = flagged[: max(limits.details, 0)]
    mapped = set(detailed[: max(limits.map_count, 0)])
    yield _page_start(result)
    yield header_section(result, generated, rows)
    yield audit_section(result, generated, all_parcels)
    yield summary_section(
        result,
        rows,
        Detail(
            len(flagged), len(detailed), len(mapped), "listed" if limits.unflagged else "flagged"
        ),
    )
    yield runoff_section(result)
    cells = ParcelCells(result.measured.parcels)
    yield parcel_table(result, rows, set(detailed), cells)
    yield '<section id="parcels">\n<h2>Flagged parcels in detail</h2>\n'
    if not detailed:
        yield '<p class="muted">No parcel has a triggered rule or a rule needing review.</p>\n'
    result.with_every_reason(detailed)
    result.margins(detailed)  # found at once for every section; each reads its own back
    mapper = ParcelMapper(result)
    for position in progress.counted("drawing the report's parcels", len(detailed)):
        row = detailed[position]
        drawn = mapper.svg(row) if row in mapped else None
        yield parcel_section(result, row, drawn, limits.map_count, cells)
    yield "</section>\n"
    yield rules_section(result)
    yield _page_end(generated)


def _flagged(outcome: ParcelOutcome | None) -> bool:
    """A triggered rule or a rule needing review: what a detailed section is for."""
    return outcome is not None and any(t.outcome != NOT_TRIGGERED for t in outcome.triggers)


def listed_rows(result: CheckResult, all_parcels: bool = False) -> list[int]:
    """Rows of the listed parcels: most demanding severity first, then by parcel id."""
    measured = result.measured
    candidates = range(len(measured.parcels)) if all_parcels else measured.touched.nonzero()[0]
    ids = measured.parcels["parcel_id"].to_numpy(dtype=object)
    return sorted(
        (int(row) for row in candidates),
        key=lambda row: (-severity_rank(result.outcomes[row]), natural_key(str(ids[row]))),
    )


def _page_start(result: CheckResult) -> str:
    names = ", ".join(pack.name for pack in result.packs.values())
    title = f"SiteCheck compliance report — {names}" if names else "SiteCheck compliance report"
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f'<meta name="generator" content="SiteCheck {esc(__version__)}">\n'
        f"<title>{esc(title)}</title>\n<style>{report_style()}</style>\n</head>\n<body>\n<main>\n"
    )


def _page_end(generated: datetime) -> str:
    return (
        f"<footer>Generated by SiteCheck {esc(__version__)} on {esc(utc_text(generated))}. "
        "Screening results computed from the layers listed under Audit; they support, and do "
        "not replace, the reviewer's determination.</footer>\n</main>\n"
        f"<script>{TABLE_SCRIPT}</script>\n</body>\n</html>\n"
    )
