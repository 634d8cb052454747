"""The HTML compliance report of a check run: one self-contained file to file with a decision.

The report holds a header naming the pack(s), the audit block (version, pack
hashes, inputs with their hashes, CRS, settings), a summary table of the
listed parcels (most demanding severity first) and one section per parcel:
its facts, a map, every measurement and every rule's outcome with the
ordinance's own words.

Nothing is fetched when the file is opened: the styles are inline, the maps
are PNG ``data:`` URIs, and no script runs (``<details>`` does the
expanding). Every value taken from the data is HTML-escaped.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timezone
from functools import cache
from importlib import resources
from pathlib import Path
from typing import TextIO

from sitecheck import __version__
from sitecheck.io.writers import write_text
from sitecheck.reports.html_audit import audit_section, header_section
from sitecheck.reports.html_format import esc, natural_key, severity_rank, utc_text
from sitecheck.reports.html_parcel import parcel_section
from sitecheck.reports.html_summary import summary_section
from sitecheck.reports.maps import ParcelMapper
from sitecheck.reports.runoff import runoff_section
from sitecheck.schema.severities import SEVERITIES, text_colour_on
from sitecheck.screening.check import CheckResult

DEFAULT_MAX_MAPS = 300


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


def write_html_report(
    result: CheckResult, path: Path, all_parcels: bool = False, max_maps: int = DEFAULT_MAX_MAPS
) -> None:
    """Write the self-contained HTML report of a check run, atomically.

    Parameters
    ----------
    result : CheckResult
    path : Path
        The ``.html`` file to write.
    all_parcels : bool
        List every parcel, not only those with disturbance or impervious change.
    max_maps : int
        Draw maps for at most this many parcels (the first in summary order);
        the report says when maps were left out.
    """
    generated = datetime.now(timezone.utc)

    def write(handle: TextIO) -> None:
        for part in report_parts(result, all_parcels, max_maps, generated):
            handle.write(part)

    write_text(path, write)


def render_report(
    result: CheckResult,
    all_parcels: bool = False,
    max_maps: int = DEFAULT_MAX_MAPS,
    generated: datetime | None = None,
) -> str:
    """The whole report as one string (see :func:`write_html_report`)."""
    return "".join(
        report_parts(result, all_parcels, max_maps, generated or datetime.now(timezone.utc))
    )


def report_parts(
    result: CheckResult, all_parcels: bool, max_maps: int, generated: datetime
) -> Iterator[str]:
    """The report in pieces, in document order, so a large one is written as it is drawn."""
    rows = listed_rows(result, all_parcels)
    mapped = rows[: max(max_maps, 0)]
    yield _page_start(result)
    yield header_section(result, generated, rows)
    yield audit_section(result, generated, all_parcels)
    yield summary_section(result, rows, len(mapped), max_maps)
    yield runoff_section(result)
    yield '<section id="parcels">\n<h2>Parcels</h2>\n'
    with ParcelMapper(result) as mapper:
        for position, row in enumerate(rows):
            png = mapper.png(row) if position < len(mapped) else None
            yield parcel_section(result, row, png, max_maps)
    yield "</section>\n"
    yield _page_end(generated)


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
        "not replace, the reviewer's determination.</footer>\n</main>\n</body>\n</html>\n"
    )
