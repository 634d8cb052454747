"""What ``measure`` and ``check`` print when they finish: a short table and where the outputs are."""

from __future__ import annotations

import argparse

import numpy as np

from sitecheck import __version__
from sitecheck.errors import one_line
from sitecheck.measure.inputs import MeasureResult
from sitecheck.rules.outcome import NEEDS_REVIEW, TRIGGERED
from sitecheck.rules.review_groups import review_groups
from sitecheck.screening.check import CheckResult

MAX_ROWS = 25
MAX_QUESTIONS = 3  # per parcel in the terminal; the report and the JSON list them all


def say(text: str) -> None:
    """Print one line; what the user's files hold cannot break it."""
    print(one_line(text))


def print_summary(result: MeasureResult, args: argparse.Namespace) -> None:
    """A short table of the parcels with work on them, and where the outputs are."""
    table = result.parcels[result.touched]
    say(
        f"SiteCheck {__version__}: {len(result.parcels)} parcels measured in "
        f"{result.working.to_json()['authid']} ({result.working.area_unit}); "
        f"{len(table)} with disturbance or impervious change."
    )
    columns = [
        ("parcel", "parcel_id", "{}"),
        ("lot sq ft", "lot_area_sqft", "{:,.0f}"),
        ("disturbed", "disturbed_area_sqft", "{:,.0f}"),
        ("net imperv.", "impervious_net_change_sqft", "{:+,.0f}"),
        ("flood 1%", "disturbed_in_floodplain_1pct_sqft", "{:,.0f}"),
        ("wetl.+adj.", "_wetland_total", "{:,.0f}"),
        ("slope>25%", "disturbed_on_slope_over_25pct_sqft", "{:,.0f}"),
    ]
    frame = table.assign(
        _wetland_total=table["disturbed_in_wetland_sqft"]
        + table["disturbed_in_wetland_adjacent_sqft"]
    )
    rows = [[title for title, _, _ in columns]]
    for _, row in frame.head(MAX_ROWS).iterrows():
        rows.append([_cell(row[name], fmt) for _, name, fmt in columns])
    widths = [max(len(r[i]) for r in rows) for i in range(len(columns))]
    for row in rows:
        say("  ".join(cell.rjust(width) for cell, width in zip(row, widths, strict=True)))
    if len(table) > MAX_ROWS:
        say(f"... and {len(table) - MAX_ROWS} more")
    say(_outputs_line(args))


def _cell(value: object, fmt: str) -> str:
    try:
        if value is None or value != value:
            return "-"
        return fmt.format(value)
    except (TypeError, ValueError):
        return str(value)


def print_check_summary(result: CheckResult, args: argparse.Namespace) -> None:
    """Per parcel with work: its highest severity and the sections it triggers."""
    measured = result.measured
    packs = ", ".join(
        f"{p.name} {p.chapter.split(',')[0]} (pack {p.version})" for p in result.packs.values()
    )
    say(
        f"SiteCheck {__version__}: {packs}; {int(measured.touched.sum())} of "
        f"{len(measured.parcels)} parcels with work, measured in "
        f"{measured.working.to_json()['authid']} ({measured.working.area_unit})."
    )
    shown = 0
    for row in np.flatnonzero(measured.touched):
        outcome = result.outcomes[row]
        if outcome is None:
            continue
        shown += 1
        if shown > MAX_ROWS:
            continue
        record = measured.parcels.iloc[row]
        triggered = sorted({t.rule.citation for t in outcome.of(TRIGGERED)})
        review = len(outcome.of(NEEDS_REVIEW))
        say(
            f"  {record['parcel_id']:>12}  {record['disturbed_area_sqft']:>9,.0f} sq ft  "
            f"{outcome.highest_severity or 'none':<24} {', '.join(triggered) or '-'}"
            + (f"  [{review} to review]" if review else "")
            + (f"  storm {outcome.design_storm}" if outcome.design_storm != "none" else "")
            + _retention_text(result, int(row))
        )
        nearest = result.nearest([int(row)])[int(row)]
        if nearest is not None:
            say(f"{'':>16}nearest threshold: {nearest.text}")
        groups = review_groups(outcome)
        for group in groups[:MAX_QUESTIONS]:
            say(f"{'':>16}review: {group.question}")
        if len(groups) > MAX_QUESTIONS:
            say(f"{'':>16}... and {len(groups) - MAX_QUESTIONS} more questions (see the report)")
    if shown > MAX_ROWS:
        say(f"  ... and {shown - MAX_ROWS} more")
    if result.runoff is not None:
        for depths in result.runoff.storms.values():
            if note := depths.confirm_note():
                say(f"rainfall: {note}")
    say(_outputs_line(args))


def _outputs_line(args: argparse.Namespace) -> str:
    """The files the run wrote, as the options named them."""
    names = ("out", "json", "jsonl", "report")
    written = [str(getattr(args, name)) for name in names if getattr(args, name, None)]
    return f"outputs: {', '.join(written)}"


def _retention_text(result: CheckResult, row: int) -> str:
    if result.runoff is None:
        return ""
    metrics = result.runoff.metrics_of(row)
    retention, storm = metrics.get("retention_required_cuft"), metrics.get("retention_storm_yr")
    if retention is None or storm is None:
        return ""
    text = f"  retention {retention:,.0f} cu ft ({storm:.0f}-yr)"
    larger, storm_under_review = (
        metrics.get("retention_review_cuft"),
        metrics.get("retention_review_storm_yr"),
    )
    if larger is not None and storm_under_review is not None:
        text += f", or {larger:,.0f} cu ft ({storm_under_review:.0f}-yr: review)"
    return text
