"""The runoff parts of the HTML report: what the screen rests on, and each lot's numbers."""

from __future__ import annotations

from html import escape

import pandas as pd

from sitecheck.screening.check import CheckResult
from sitecheck.screening.runoff_result import RunoffScreen, runoff_metric_names


def runoff_section(result: CheckResult) -> str:
    """The report-wide runoff section: rainfall to confirm, then the method's assumptions."""
    screen = result.runoff
    if screen is None:
        return ""
    confirm = "".join(
        f'<p class="notice"><strong>Rainfall to confirm.</strong> {escape(note)}</p>\n'
        for depths in screen.storms.values()
        if (note := depths.confirm_note())
    )
    depths = "".join(
        f"<tr><td>{escape(pack_id)}</td><td>{escape(_depth_list(screen, pack_id))}</td></tr>"
        for pack_id in screen.storms
    )
    assumptions = "".join(f"<li>{escape(line)}</li>" for line in screen.assumptions)
    return (
        '<section id="runoff">\n<h2>Runoff screen</h2>\n'
        "<p>Order-of-magnitude storage at screening time, before an engineer's model: volumes in "
        "cubic feet, peaks in cubic feet per second, rainfall in inches over 24 hours.</p>\n"
        + confirm
        + '<table class="metrics"><thead><tr><th>Pack</th><th>24-hour depths</th></tr></thead>'
        f"<tbody>{depths}</tbody></table>\n"
        f"<h4>Assumptions</h4>\n<ul>{assumptions}</ul>\n</section>\n"
    )


def parcel_runoff_table(result: CheckResult, row: int) -> str:
    """One lot's curve numbers, runoff by storm, retention and WQv."""
    screen = result.runoff
    if screen is None:
        return ""
    metrics = screen.metrics_of(row)
    if all(value is None for value in metrics.values()):
        return '<h4>Runoff</h4>\n<p class="muted">Not screened: no work or no pack here.</p>\n'
    storms = sorted(
        int(name.removeprefix("runoff_pre_cuft_").removesuffix("yr"))
        for name in runoff_metric_names(screen.table.columns)
        if name.startswith("runoff_pre_cuft_")
    )
    lines = [
        "<tr><td>Curve number</td>"
        f'<td class="num">{_number(metrics["cn_pre"], 1)}</td>'
        f'<td class="num">{_number(metrics["cn_post"], 1)}</td><td></td>'
        "<td><code>cn_pre</code>, <code>cn_post</code></td></tr>"
    ]
    for years in storms:
        pre, post = metrics[f"runoff_pre_cuft_{years}yr"], metrics[f"runoff_post_cuft_{years}yr"]
        if pre is None and post is None:
            continue
        lines.append(
            f"<tr><td>{years}-year runoff (cu ft)</td>"
            f'<td class="num">{_number(pre)}</td><td class="num">{_number(post)}</td>'
            f'<td class="num">{_number(metrics.get(f"peak_pre_cfs_{years}yr"), 2)} / '
            f"{_number(metrics.get(f'peak_post_cfs_{years}yr'), 2)}</td>"
            f"<td><code>runoff_pre_cuft_{years}yr</code></td></tr>"
        )
    storm = metrics["retention_storm_yr"]
    retention = (
        f"{_number(metrics['retention_required_cuft'])} cu ft, {storm:.0f}-year storm"
        if storm is not None
        else "none: no triggered rule names a design storm"
    )
    if metrics.get("retention_review_storm_yr") is not None:
        retention += (
            f"; or {_number(metrics.get('retention_review_cuft'))} cu ft, "
            f"{metrics['retention_review_storm_yr']:.0f}-year storm, if the rule under review "
            "applies (retention_review_cuft)"
        )
    return (
        "<h4>Runoff</h4>\n"
        '<table class="metrics"><thead><tr><th>Quantity</th><th class="num">Before</th>'
        '<th class="num">After</th><th class="num">Peak cfs before / after</th>'
        f"<th>Field</th></tr></thead><tbody>{''.join(lines)}</tbody></table>\n"
        f"<p>Retention to offset the increase: <strong>{escape(retention)}</strong> "
        "(<code>retention_required_cuft</code>). Water-quality volume: "
        f"<strong>{_number(metrics['wqv_cuft'])} cu ft</strong> (<code>wqv_cuft</code>).</p>\n"
        + (
            f'<p class="note">{escape(str(note))} (<code>runoff_note</code>).</p>\n'
            if (note := metrics.get("runoff_note"))
            else ""
        )
    )


def _depth_list(screen: RunoffScreen, pack_id: str) -> str:
    depths = screen.storms[pack_id]
    return ", ".join(
        f"{years}-yr {inches:g} in" + (" (user)" if years in depths.given_by_user else " (default)")
        for years, inches in depths.depths_in.items()
    )


def _number(value: object, decimals: int = 0) -> str:
    if not isinstance(value, int | float) or pd.isna(value):
        return "—"
    return f"{value:,.{decimals}f}"
