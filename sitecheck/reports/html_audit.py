"""The HTML report's header and audit block: packs, inputs with their hashes, CRS, settings."""

from __future__ import annotations

from datetime import datetime, timezone

from sitecheck import __version__
from sitecheck.measure.inputs import MeasureResult
from sitecheck.reports.html_format import esc, flatten_settings, kv_table, text_or_dash
from sitecheck.rules.pack_model import Pack
from sitecheck.screening.check import CheckResult


def _pack_line(pack: Pack) -> str:
    return (
        f"<li><strong>{esc(pack.name)}</strong>, {esc(pack.chapter)} "
        f'<span class="muted">(pack <code>{esc(pack.id)}</code>, '
        f"version {esc(pack.version)})</span></li>"
    )


def parcel_layer_count(measured: MeasureResult) -> int:
    """The parcel layer's features, as read: more than the lots measured where only a
    neighbourhood was (the panel's worker measures the lots around one parcel)."""
    counts = [record.feature_count for record in measured.log.inputs if record.name == "parcels"]
    return max([len(measured.parcels), *counts])


def header_section(result: CheckResult, generated: datetime, rows: list[int]) -> str:
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
        f"{parcel_layer_count(measured):,} in the parcel layer</span>"
        f"<span>Measured in <strong>{esc(crs['authid'] or crs['name'])}</strong> "
        f"({esc(crs['area_unit'])})</span>"
        f"<span>SiteCheck {esc(__version__)}</span></div>\n"
        '<nav class="toc"><a href="#audit">Audit</a><a href="#summary">Summary</a>'
        f'<a href="#parcel-list">Parcels ({len(rows):,})</a>'
        '<a href="#parcels">Flagged parcels in detail</a><a href="#rules">The rules</a></nav>\n'
        "</header>\n"
    )


def audit_section(result: CheckResult, generated: datetime, all_parcels: bool) -> str:
    measured = result.measured
    run = [
        ("SiteCheck version", esc(__version__)),
        (
            "Run id (the same in every output of the run)",
            f"<code>{esc(measured.stamp['run_id'])}</code>",
        ),
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
        + kv_table(run)
        + "<h4>Rule packs</h4>\n"
        + _packs_table(result)
        + _not_evaluated(result)
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


def _not_evaluated(result: CheckResult) -> str:
    """The requirements each pack leaves out: what a reviewer checks by hand."""
    rows = [
        f"<tr><td>{esc(pack.name)}</td><td>{esc(item.citation)}</td>"
        f"<td>{esc(item.requirement)}</td><td>{esc(item.reason)}</td></tr>"
        for pack in result.packs.values()
        for item in pack.not_evaluated
    ]
    if not rows:
        return ""
    return (
        "<h4>Not evaluated: check by hand</h4>\n"
        "<table><thead><tr><th>Pack</th><th>Section</th><th>Requirement</th><th>Why not</th>"
        f"</tr></thead><tbody>{''.join(rows)}</tbody></table>\n"
    )


def _inputs_table(result: CheckResult) -> str:
    rows = [_input_row(record) for record in result.measured.log.inputs]
    return (
        "<table><thead><tr><th>Input</th><th>Path</th><th>Layer</th>"
        "<th>SHA-256 of the features read</th><th>SHA-256 of the file</th>"
        f'<th class="num">Features</th></tr></thead><tbody>{"".join(rows)}</tbody></table>\n'
    )


def _input_row(record) -> str:
    """One input: where the user has it (a QGIS layer's source, else the file) and its hashes.

    A layer the plugin exported for the engine is shown by its QGIS source and
    name; the temporary file it went through, and that file's hash, are not
    the user's data and are only named as such.
    """
    origin = record.origin or {}
    if origin:
        where = _origin(origin)
        layer = text_or_dash(origin.get("layer_name"))
        file_hash = "a temporary export, not kept"
    else:
        where = f'<code class="hash">{esc(record.path)}</code>'
        layer = text_or_dash(record.layer)
        file_hash = text_or_dash(record.sha256, "not hashed (a folder)")
    return (
        f"<tr><td>{esc(record.name)}</td><td>{where}</td><td>{layer}</td>"
        f'<td><code class="hash">{text_or_dash(record.features_sha256, "not read whole")}</code>'
        f'</td><td><code class="hash">{file_hash}</code></td>'
        f'<td class="num">{record.feature_count:,}</td></tr>'
    )


def _origin(origin: dict[str, object]) -> str:
    """Where QGIS has a layer the plugin exported for the engine: provider, source, filter."""
    parts = [f'{esc(origin.get("provider"))}: <code class="hash">{esc(origin.get("uri"))}</code>']
    if origin.get("subset"):
        parts.append(f"filter <code>{esc(origin['subset'])}</code>")
    if origin.get("selected_only"):
        parts.append("selected features only")
    return "QGIS layer, " + "; ".join(parts)


def _crs_table(result: CheckResult) -> str:
    crs = result.measured.working.to_json()
    return kv_table(
        [
            ("EPSG", text_or_dash(crs["epsg"], "none")),
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
    return kv_table(pairs)


def _warnings(result: CheckResult) -> str:
    warnings = result.measured.log.warnings
    if not warnings:
        return '<h4>Warnings</h4>\n<p class="muted">No warnings were raised.</p>\n'
    items = "".join(f"<li>{esc(message)}</li>" for message in warnings)
    return f'<h4 id="warnings">Warnings ({len(warnings)})</h4>\n<ul>{items}</ul>\n'
