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

import base64
import html
import re
from collections.abc import Iterator, Mapping
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, TextIO

import pandas as pd

from sitecheck import __version__
from sitecheck.io.writers import write_text
from sitecheck.reports.maps import ParcelMapper
from sitecheck.reports.runoff import parcel_runoff_table, runoff_section
from sitecheck.rules.attributes import ATTRIBUTES
from sitecheck.rules.outcome import NEEDS_REVIEW, NOT_TRIGGERED, TRIGGERED, ParcelOutcome, Trigger
from sitecheck.rules.pack import Pack
from sitecheck.schema.fields import PROJECT_FIELDS
from sitecheck.schema.metrics import ACRE_METRICS, METRICS, Metric, acres_name
from sitecheck.schema.severities import SEVERITY_KEYS
from sitecheck.screening.check import CheckResult

DEFAULT_MAX_MAPS = 300
NO_PACK_RANK, NONE_TRIGGERED_RANK = -2, -1  # below every severity in the summary order

SEVERITY_LABELS: dict[str, str] = {
    "exempt": "Exempt",
    "informational": "Informational",
    "submittal_required": "Submittal required",
    "permit_required": "Permit required",
    "board_approval_required": "Board approval required",
    "state_permit_required": "State permit required",
}


def sentence_case(text: str) -> str:
    """First letter upper case, the rest as written: 'DEM coverage' stays so."""
    return text[:1].upper() + text[1:]


_ATTRIBUTE_LABELS = {attribute.name: attribute.label for attribute in ATTRIBUTES}
PARCEL_FACTS: tuple[tuple[str, str], ...] = tuple(
    (name, sentence_case(_ATTRIBUTE_LABELS.get(name, name.replace("_", " "))))
    for name in ("address", "owner", "land_use", "zoning_district", *PROJECT_FIELDS)
)


def esc(value: object) -> str:
    """HTML-escape any value's text, quotes included."""
    return html.escape(str(value), quote=True)


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
    yield _header(result, generated, rows)
    yield _audit(result, generated, all_parcels)
    yield _summary(result, rows, len(mapped), max_maps)
    yield runoff_section(result)
    yield '<section id="parcels">\n<h2>Parcels</h2>\n'
    with ParcelMapper(result) as mapper:
        for position, row in enumerate(rows):
            png = mapper.png(row) if position < len(mapped) else None
            yield _parcel_section(result, row, png, max_maps)
    yield "</section>\n"
    yield _page_end(generated)


# --------------------------------------------------------------------------
# Order and formatting


def listed_rows(result: CheckResult, all_parcels: bool = False) -> list[int]:
    """Rows of the listed parcels: most demanding severity first, then by parcel id."""
    measured = result.measured
    candidates = range(len(measured.parcels)) if all_parcels else measured.touched.nonzero()[0]
    ids = measured.parcels["parcel_id"].to_numpy(dtype=object)
    return sorted(
        (int(row) for row in candidates),
        key=lambda row: (-severity_rank(result.outcomes[row]), natural_key(str(ids[row]))),
    )


def severity_rank(outcome: ParcelOutcome | None) -> int:
    """Position of the parcel's highest severity in ``SEVERITY_KEYS``; lower when none."""
    if outcome is None:
        return NO_PACK_RANK
    highest = outcome.highest_severity
    return NONE_TRIGGERED_RANK if highest is None else SEVERITY_KEYS.index(highest)


def natural_key(text: str) -> tuple[tuple[int, str], ...]:
    """Sort key reading digit runs as numbers: '1.1-2-6' before '1.1-11-3'."""
    parts = re.split(r"([0-9]+)", text)  # digit runs at the odd positions
    return tuple(
        (0, f"{int(part):020d}") if position % 2 else (1, part.lower())
        for position, part in enumerate(parts)
        if part
    )


def is_missing(value: object) -> bool:
    """True for None, NaN and pandas' NA."""
    if value is None:
        return True
    try:
        return bool(pd.isna(value))
    except (TypeError, ValueError):
        return False


def format_sqft(value: Any, signed: bool = False) -> str:
    """Square feet with thousands separators: '26,010'; two decimals under 1 sq ft."""
    value = float(value)
    sign = "+" if signed and value != 0 else ""
    if value == 0 or abs(value) >= 1:
        return f"{value:{sign},.0f}"
    return f"{value:{sign},.2f}"


def format_metric(metric: Metric, value: Any) -> str:
    """A metric's value as text, with its unit; 'not measured' for null."""
    if is_missing(value):
        return "not measured"
    if metric.kind == "area":
        signed = metric.name == "impervious_net_change_sqft"
        return f"{format_sqft(value, signed)} sq ft"
    if metric.kind == "percent":
        return f"{float(value):,.1f}%"
    if metric.kind == "share":
        return f"{float(value):.0%}"
    if metric.kind == "length":
        return f"{float(value):,.0f} ft"
    if metric.kind == "boolean":
        return "yes" if bool(value) else "no"
    return str(value)


def format_acres(value: Any, unit: str = " ac") -> str:
    """Acres to two decimals: '0.60 ac'; empty for null."""
    return "" if is_missing(value) else f"{float(value):,.2f}{unit}"


def storm_list(years: tuple[int, ...]) -> str:
    """'100-, 25- and 2-year' for (100, 25, 2)."""
    names = [f"{year}-" for year in years]
    if len(names) == 1:
        return f"{years[0]}-year"
    return f"{', '.join(names[:-1])} and {names[-1]}year"


def group_by_reason(triggers: list[Trigger]) -> list[tuple[str, list[Trigger]]]:
    """Triggers sharing a reason together, in the order each reason first appears."""
    groups: dict[str, list[Trigger]] = {}
    for trigger in triggers:
        groups.setdefault(trigger.reason, []).append(trigger)
    return list(groups.items())


def _value(result: CheckResult, row: int, column: str) -> Any:
    parcels = result.measured.parcels
    return parcels[column].iat[row] if column in parcels.columns else None


def _text(value: object, empty: str = "—") -> str:
    """Escaped text of a value; ``empty`` where it is missing."""
    return empty if is_missing(value) or str(value) == "" else esc(value)


def _badge(severity: str | None) -> str:
    if severity is None:
        return '<span class="badge sev-none">No rule triggered</span>'
    label = SEVERITY_LABELS.get(severity, severity.replace("_", " ").capitalize())
    return f'<span class="badge sev-{esc(severity)}">{esc(label)}</span>'


def _outcome_badge(outcome: ParcelOutcome | None) -> str:
    if outcome is None:
        return '<span class="badge sev-none">No pack applies</span>'
    return _badge(outcome.highest_severity)


def _anchor(row: int) -> str:
    return f"parcel-{row}"


# --------------------------------------------------------------------------
# Page frame and header


STYLE = """
:root { --ink:#1d2733; --muted:#5f6b7a; --line:#d7dde4; --soft:#f5f7f9; --accent:#1f4e79; }
* { box-sizing: border-box; }
body { margin: 0; color: var(--ink); background: #fff;
  font: 14px/1.45 "Segoe UI", "Helvetica Neue", Arial, sans-serif; }
main { max-width: 1200px; margin: 0 auto; padding: 24px 32px 48px; }
h1 { font-size: 26px; margin: 0 0 6px; letter-spacing: .2px; }
h2 { font-size: 20px; margin: 36px 0 12px; padding-bottom: 6px;
  border-bottom: 2px solid var(--accent); color: var(--accent); }
h3 { font-size: 17px; margin: 0; }
h4 { font-size: 15px; margin: 22px 0 8px; }
h5 { font-size: 13px; margin: 14px 0 6px; color: var(--muted); }
a { color: var(--accent); }
code { font-family: "SFMono-Regular", Consolas, "Liberation Mono", monospace;
  font-size: 12px; }
.hash { word-break: break-all; }
.muted { color: var(--muted); }
.report-header { border-bottom: 4px solid var(--accent); padding-bottom: 14px; margin-bottom: 8px; }
.report-header .kicker { text-transform: uppercase; letter-spacing: 1.5px; font-size: 11px;
  color: var(--muted); margin-bottom: 4px; }
.report-header .packs { margin: 6px 0; font-size: 15px; }
.report-header .packs li { margin: 2px 0; }
.report-header ul { list-style: none; padding-left: 0; margin: 4px 0; }
.meta { display: flex; flex-wrap: wrap; gap: 6px 22px; color: var(--muted); font-size: 13px; }
.meta strong { color: var(--ink); }
nav.toc { margin: 10px 0 0; font-size: 13px; }
nav.toc a { margin-right: 14px; }
.cards { display: flex; flex-wrap: wrap; gap: 10px; margin: 8px 0 16px; }
.card { border: 1px solid var(--line); border-radius: 6px; padding: 8px 14px; min-width: 140px;
  background: var(--soft); }
.card .n { font-size: 22px; font-weight: 600; }
.card .l { font-size: 12px; color: var(--muted); }
table { border-collapse: collapse; width: 100%; margin: 6px 0 12px; font-size: 13px; }
th, td { text-align: left; vertical-align: top; padding: 5px 8px;
  border-bottom: 1px solid var(--line); }
th { background: var(--soft); font-weight: 600; border-bottom: 2px solid var(--line); }
tbody tr:nth-child(even) td { background: #fafbfc; }
.wide { overflow-x: auto; }
table.summary { font-size: 12.5px; }
table.summary td:first-child { white-space: nowrap; font-weight: 600; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
caption { text-align: left; color: var(--muted); font-size: 12px; padding: 2px 0; }
table.kv th { width: 260px; background: none; border-bottom: 1px solid var(--line);
  font-weight: 600; }
.badge { display: inline-block; padding: 1px 8px; border-radius: 10px; font-size: 12px;
  font-weight: 600; white-space: nowrap; border: 1px solid transparent; }
.sev-exempt { background: #e3f2e6; color: #1e6b35; border-color: #b7dcc0; }
.sev-informational { background: #e6eef9; color: #1b4f8a; border-color: #bcd0ec; }
.sev-submittal_required { background: #fff3cf; color: #6e4b00; border-color: #f0d78c; }
.sev-permit_required { background: #ffe2c6; color: #8a3b00; border-color: #f5bb86; }
.sev-board_approval_required { background: #fbd3d3; color: #8f1d1d; border-color: #ef9a9a; }
.sev-state_permit_required { background: #6d1a36; color: #fff; border-color: #6d1a36; }
.sev-none { background: #eceff2; color: #495057; border-color: #d5dae0; }
.badge.review { background: #fff8db; color: #6b4e00; border: 1px dashed #c99a00; }
.notice { border-left: 4px solid #c99a00; background: #fffaf0; padding: 8px 12px; margin: 10px 0; }
section.parcel { border-top: 1px solid var(--line); padding-top: 18px; margin-top: 26px; }
.parcel-head { display: flex; flex-wrap: wrap; align-items: baseline; gap: 10px; }
.parcel-head .where { color: var(--muted); }
.parcel-body { display: grid; grid-template-columns: minmax(0, 640px) minmax(220px, 1fr); gap: 18px;
  margin-top: 12px; }
figure.map { margin: 0; }
figure.map img { width: 100%; max-width: 640px; height: auto; border: 1px solid var(--line); }
figure.map figcaption { font-size: 12px; color: var(--muted); }
.no-map { border: 1px dashed var(--line); padding: 16px; color: var(--muted); font-size: 13px; }
dl.facts { margin: 0; display: grid; grid-template-columns: max-content 1fr; gap: 4px 12px;
  font-size: 13px; align-content: start; }
dl.facts dt { color: var(--muted); }
dl.facts dd { margin: 0; }
.rule { border: 1px solid var(--line); border-left-width: 5px; border-radius: 4px;
  padding: 8px 12px; margin: 8px 0; break-inside: avoid; background: #fff; }
.rule-exempt { border-left-color: #3f9a5b; }
.rule-informational { border-left-color: #4f7fc0; }
.rule-submittal_required { border-left-color: #d6a400; }
.rule-permit_required { border-left-color: #e07a1f; }
.rule-board_approval_required { border-left-color: #c73c3c; }
.rule-state_permit_required { border-left-color: #6d1a36; }
.rule-head { display: flex; flex-wrap: wrap; gap: 8px; align-items: baseline; }
.citation { font-weight: 700; white-space: nowrap; }
.rule-title { font-weight: 600; }
.rule p { margin: 5px 0; }
.rule ul { margin: 4px 0 4px 18px; padding: 0; }
.label { font-weight: 600; color: var(--muted); }
.review-group { border: 1px dashed #c99a00; background: #fffcf2; border-radius: 6px;
  padding: 8px 12px; margin: 10px 0; }
.review-group > .why { margin: 2px 0 6px; }
.review-group .rule { border-left-color: #c99a00; border-style: dashed; }
details { margin: 6px 0; }
details > summary { cursor: pointer; color: var(--accent); }
details.not-triggered > summary { font-weight: 600; font-size: 15px; color: var(--ink); }
blockquote { margin: 6px 0; padding: 6px 12px; border-left: 3px solid var(--line);
  background: var(--soft); font-family: Georgia, "Times New Roman", serif; }
.back { font-size: 12px; }
footer { margin-top: 40px; padding-top: 10px; border-top: 1px solid var(--line); font-size: 12px;
  color: var(--muted); }
@media (max-width: 900px) { .parcel-body { grid-template-columns: 1fr; } }
@media print {
  @page { size: letter; margin: 14mm; }
  body { font-size: 11px; }
  main { max-width: none; padding: 0; }
  nav.toc, .back { display: none; }
  section.parcel { break-before: page; }
  details::details-content { content-visibility: visible; display: block; }
  tr, .rule, figure.map { break-inside: avoid; }
}
"""


def _page_start(result: CheckResult) -> str:
    names = ", ".join(pack.name for pack in result.packs.values())
    title = f"SiteCheck compliance report — {names}" if names else "SiteCheck compliance report"
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f'<meta name="generator" content="SiteCheck {esc(__version__)}">\n'
        f"<title>{esc(title)}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n<main>\n"
    )


def _page_end(generated: datetime) -> str:
    return (
        f"<footer>Generated by SiteCheck {esc(__version__)} on {esc(_utc(generated))}. "
        "Screening results computed from the layers listed under Audit; they support, and do "
        "not replace, the reviewer's determination.</footer>\n</main>\n</body>\n</html>\n"
    )


def _utc(moment: datetime) -> str:
    return moment.astimezone(timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")


def _pack_line(pack: Pack) -> str:
    return (
        f"<li><strong>{esc(pack.name)}</strong>, {esc(pack.chapter)} "
        f'<span class="muted">(pack <code>{esc(pack.id)}</code>, '
        f"version {esc(pack.version)})</span></li>"
    )


def _header(result: CheckResult, generated: datetime, rows: list[int]) -> str:
    measured = result.measured
    crs = measured.working.to_json()
    packs = "".join(_pack_line(pack) for pack in result.packs.values())
    return (
        '<header class="report-header">\n'
        '<div class="kicker">Stormwater management and erosion control screening</div>\n'
        "<h1>SiteCheck compliance report</h1>\n"
        f'<div class="packs"><ul>{packs}</ul></div>\n'
        '<div class="meta">'
        f"<span>Report date <strong>{esc(generated.astimezone(timezone.utc).strftime('%Y-%m-%d'))}"
        "</strong> (UTC)</span>"
        f"<span><strong>{len(rows):,}</strong> parcels listed of "
        f"{len(measured.parcels):,} in the parcel layer</span>"
        f"<span>Measured in <strong>{esc(crs['authid'] or crs['name'])}</strong> "
        f"({esc(crs['area_unit'])})</span>"
        f"<span>SiteCheck {esc(__version__)}</span></div>\n"
        '<nav class="toc"><a href="#audit">Audit</a><a href="#summary">Summary</a>'
        f'<a href="#parcels">Parcels ({len(rows):,})</a></nav>\n'
        "</header>\n"
    )


# --------------------------------------------------------------------------
# Audit block


def _kv_table(pairs: list[tuple[str, str]]) -> str:
    """A two-column table of label and (already escaped) value."""
    body = "".join(f"<tr><th>{esc(label)}</th><td>{value}</td></tr>" for label, value in pairs)
    return f'<table class="kv"><tbody>{body}</tbody></table>\n'


def flatten_settings(settings: Mapping[str, object], prefix: str = "") -> list[tuple[str, str]]:
    """Nested settings as ('adjoining_buffer.rear_setback_ft', '30.0') pairs, in order."""
    pairs: list[tuple[str, str]] = []
    for key, value in settings.items():
        name = f"{prefix}{key}"
        if isinstance(value, Mapping) and value:
            pairs += flatten_settings(value, f"{name}.")
        elif isinstance(value, Mapping):
            pairs.append((name, "none"))
        elif isinstance(value, list | tuple):
            pairs.append((name, ", ".join(str(item) for item in value) or "none"))
        else:
            pairs.append((name, "not set" if value is None else str(value)))
    return pairs


def _audit(result: CheckResult, generated: datetime, all_parcels: bool) -> str:
    measured = result.measured
    run = [
        ("SiteCheck version", esc(__version__)),
        ("Generated (UTC)", esc(generated.astimezone(timezone.utc).isoformat(timespec="seconds"))),
        ("Parcel id field", f"<code>{esc(measured.id_field)}</code>"),
        (
            "Parcels listed",
            "every parcel"
            if all_parcels
            else "parcels with disturbance or a change of impervious cover",
        ),
    ]
    return (
        '<section id="audit">\n<h2>Audit</h2>\n'
        + _kv_table(run)
        + "<h4>Rule packs</h4>\n"
        + _packs_table(result)
        + "<h4>Input layers</h4>\n"
        + _inputs_table(result)
        + "<h4>Coordinate reference system</h4>\n"
        + _crs_table(result)
        + "<h4>Settings</h4>\n"
        + _settings_table(result)
        + _warnings(result)
        + "</section>\n"
    )


def _packs_table(result: CheckResult) -> str:
    rows = []
    for pack in result.packs.values():
        amendments = "".join(f"<li>{esc(a)}</li>" for a in pack.amendments)
        rows.append(
            f"<tr><td><code>{esc(pack.id)}</code></td><td>{esc(pack.name)}<br>"
            f'<span class="muted">{esc(pack.chapter)}</span>'
            + (f"<ul>{amendments}</ul>" if amendments else "")
            + f'</td><td>{esc(pack.version)}</td><td class="num">{len(pack.rules)}</td>'
            f'<td><code class="hash">{esc(pack.path)}</code></td>'
            f'<td><code class="hash">{esc(pack.sha256)}</code></td></tr>'
        )
    return (
        "<table><thead><tr><th>Pack</th><th>Ordinance</th><th>Version</th>"
        '<th class="num">Rules</th><th>File</th><th>SHA-256</th></tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table>\n"
    )


def _inputs_table(result: CheckResult) -> str:
    rows = [
        f'<tr><td>{esc(record.name)}</td><td><code class="hash">{esc(record.path)}</code></td>'
        f"<td>{_text(record.layer)}</td>"
        f'<td><code class="hash">{_text(record.sha256, "not hashed (a folder)")}</code></td>'
        f'<td class="num">{record.feature_count:,}</td></tr>'
        for record in result.measured.log.inputs
    ]
    return (
        "<table><thead><tr><th>Input</th><th>Path</th><th>Layer</th><th>SHA-256 of the file</th>"
        f'<th class="num">Features</th></tr></thead><tbody>{"".join(rows)}</tbody></table>\n'
    )


def _crs_table(result: CheckResult) -> str:
    crs = result.measured.working.to_json()
    return _kv_table(
        [
            ("EPSG", _text(crs["epsg"], "none")),
            ("Name", esc(crs["name"])),
            ("Area unit", esc(crs["area_unit"])),
            ("How chosen", esc(crs["how_chosen"])),
        ]
    )


def _settings_table(result: CheckResult) -> str:
    pairs = [
        (name, f"<code>{esc(value)}</code>")
        for name, value in flatten_settings(result.measured.settings.to_json())
    ]
    pairs.append(
        (
            "tolerance",
            f"<code>{esc(result.tolerance)}</code> "
            f'<span class="muted">(a measured value within {result.tolerance:.0%} of a '
            "threshold needs review)</span>",
        )
    )
    return _kv_table(pairs)


def _warnings(result: CheckResult) -> str:
    warnings = result.measured.log.warnings
    if not warnings:
        return '<h4>Warnings</h4>\n<p class="muted">No warnings were raised.</p>\n'
    items = "".join(f"<li>{esc(message)}</li>" for message in warnings)
    return f'<h4 id="warnings">Warnings ({len(warnings)})</h4>\n<ul>{items}</ul>\n'


# --------------------------------------------------------------------------
# Summary


def _summary(result: CheckResult, rows: list[int], mapped: int, max_maps: int) -> str:
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
        f"{_badge(severity)} {highest.count(severity):,}"
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
        "<th>Design<br>storm</th></tr></thead><tbody>\n"
    )
    body = "".join(_summary_row(result, row) for row in rows)
    return head + body + "</tbody></table></div>\n"


def _summary_row(result: CheckResult, row: int) -> str:
    outcome = result.outcomes[row]
    severity = outcome.highest_severity if outcome is not None else None
    disturbed = _value(result, row, "disturbed_area_sqft")
    net = _value(result, row, "impervious_net_change_sqft")
    storm = outcome.design_storm_years if outcome is not None else None
    return (
        f'<tr data-severity="{esc(severity or "none")}">'
        f'<td><a href="#{_anchor(row)}">{esc(_value(result, row, "parcel_id"))}</a></td>'
        f"<td>{_text(_value(result, row, 'address'))}</td>"
        f"<td>{_text(_value(result, row, 'owner'))}</td>"
        f'<td class="num">{_sqft_cell(disturbed)}</td>'
        f'<td class="num">{_acres_cell(_value(result, row, "disturbed_area_acres"))}</td>'
        f'<td class="num">{_sqft_cell(net, signed=True)}</td>'
        f"<td>{_outcome_badge(outcome)}</td>"
        f'<td class="num">{len(outcome.of(TRIGGERED)) if outcome else 0}</td>'
        f'<td class="num">{len(outcome.of(NEEDS_REVIEW)) if outcome else 0}</td>'
        f"<td>{f'{storm}-year' if storm else '—'}</td></tr>\n"
    )


def _acres_cell(value: Any) -> str:
    return format_acres(value, unit="") or "—"


def _sqft_cell(value: Any, signed: bool = False) -> str:
    return "—" if is_missing(value) else esc(format_sqft(value, signed))


# --------------------------------------------------------------------------
# One parcel


def _parcel_section(result: CheckResult, row: int, png: bytes | None, max_maps: int) -> str:
    outcome = result.outcomes[row]
    parcel_id = _value(result, row, "parcel_id")
    address = _value(result, row, "address")
    where = "" if is_missing(address) else f'<span class="where">{esc(address)}</span>'
    return (
        f'<section class="parcel" id="{_anchor(row)}">\n'
        f'<div class="parcel-head"><h3>Parcel {esc(parcel_id)}</h3>{where}'
        f"{_outcome_badge(outcome)}</div>\n"
        '<div class="parcel-body">'
        + _map_figure(parcel_id, png, max_maps)
        + _facts(result, row)
        + "</div>\n<h4>Measurements</h4>\n"
        + _metrics_table(result, row)
        + parcel_runoff_table(result, row)
        + _outcomes(outcome)
        + '<p class="back"><a href="#summary">Back to the summary</a></p>\n</section>\n'
    )


def _map_figure(parcel_id: object, png: bytes | None, max_maps: int) -> str:
    if png is None and max_maps <= 0:
        return '<div class="no-map">This report was made without parcel maps.</div>'
    if png is None:
        return (
            f'<div class="no-map">No map for this parcel: the report draws at most '
            f"{max_maps:,} maps, for the parcels first in the summary.</div>"
        )
    data = base64.b64encode(png).decode("ascii")
    return (
        '<figure class="map">'
        f'<img src="data:image/png;base64,{data}" width="640" height="480" '
        f'alt="Map of parcel {esc(parcel_id)}">'
        "<figcaption>The lot, its disturbance and where the disturbance meets a constraint. "
        "Grid north up.</figcaption></figure>"
    )


def _facts(result: CheckResult, row: int) -> str:
    outcome = result.outcomes[row]
    pack = "no pack applies" if outcome is None else f"{outcome.pack.name} ({outcome.pack.id})"
    items = [("Ordinance", esc(pack))]
    items += [
        (label, _text(_value(result, row, name)))
        for name, label in PARCEL_FACTS
        if name in result.measured.parcels.columns
    ]
    body = "".join(f"<dt>{esc(label)}</dt><dd>{value}</dd>" for label, value in items)
    return f'<dl class="facts">{body}</dl>'


def _metrics_table(result: CheckResult, row: int) -> str:
    lines = []
    for metric in METRICS:
        value = _value(result, row, metric.name)
        text = format_metric(metric, value)
        cell = f'<span class="muted">{esc(text)}</span>' if is_missing(value) else esc(text)
        acres = (
            format_acres(_value(result, row, acres_name(metric.name)))
            if metric.name in ACRE_METRICS
            else ""
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
        + _needs_review(outcome.of(NEEDS_REVIEW))
        + _not_triggered(outcome.of(NOT_TRIGGERED))
    )


def _triggered(triggers: list[Trigger]) -> str:
    out = [f"<h4>Triggered rules ({len(triggers)})</h4>\n"]
    if not triggers:
        out.append('<p class="muted">No rule is triggered.</p>\n')
    for severity in reversed(SEVERITY_KEYS):
        group = [t for t in triggers if t.rule.severity == severity]
        if group:
            out.append(f"<h5>{_badge(severity)} {len(group)}</h5>\n")
            out += [_rule_card(trigger) for trigger in group]
    return "".join(out)


def _needs_review(triggers: list[Trigger]) -> str:
    if not triggers:
        return '<h4>Needs review (0)</h4>\n<p class="muted">No rule needs review.</p>\n'
    out = [f"<h4>Needs review ({len(triggers)})</h4>\n"]
    for reason, group in group_by_reason(triggers):
        count = f"{len(group)} rules" if len(group) > 1 else "1 rule"
        out.append(
            '<div class="review-group">'
            f'<p class="why"><span class="badge review">Needs review</span> '
            f'<span class="label">Why ({count}):</span> {esc(reason)}</p>'
            + "".join(_rule_card(trigger, with_reason=False) for trigger in group)
            + "</div>\n"
        )
    return "".join(out)


def _not_triggered(triggers: list[Trigger]) -> str:
    rows = "".join(
        f'<tr><td class="citation">{esc(t.rule.citation)}</td><td>{esc(t.rule.title)}'
        f"{_quote(t)}</td><td>{_badge(t.rule.severity)}</td><td>{esc(t.reason)}</td></tr>"
        for t in triggers
    )
    return (
        f'<details class="not-triggered"><summary>Not triggered ({len(triggers)})</summary>'
        "<table><thead><tr><th>Section</th><th>Rule</th><th>Severity when triggered</th>"
        f"<th>Why not</th></tr></thead><tbody>{rows}</tbody></table></details>\n"
    )


def _rule_card(trigger: Trigger, with_reason: bool = True) -> str:
    rule = trigger.rule
    parts = [
        f'<div class="rule rule-{esc(rule.severity)}"><div class="rule-head">'
        f'<span class="citation">{esc(rule.citation)}</span>'
        f'<span class="rule-title">{esc(rule.title)}</span>{_badge(rule.severity)}</div>',
        f"<p>{esc(rule.requirement)}</p>",
    ]
    if with_reason:
        parts.append(f'<p><span class="label">Why:</span> {esc(trigger.reason)}</p>')
    if rule.requirements:
        items = "".join(f"<li>{esc(item)}</li>" for item in rule.requirements)
        parts.append(f'<p class="label">Required:</p><ul>{items}</ul>')
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
    parts.append(_quote(trigger))
    parts.append("</div>\n")
    return "".join(parts)


def _quote(trigger: Trigger) -> str:
    rule = trigger.rule
    return (
        f"<details><summary>Ordinance text, {esc(rule.citation)}</summary>"
        f"<blockquote>{esc(rule.quote)}</blockquote>"
        f'<p class="muted">Rule <code>{esc(rule.id)}</code></p></details>'
    )
