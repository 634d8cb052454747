"""The JSON document of a run: audit block, inputs, warnings and per-parcel metrics."""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping, Sequence

import numpy as np
import pandas as pd

from sitecheck import __version__
from sitecheck.io.crs import WorkingCRS
from sitecheck.io.readers import InputRecord
from sitecheck.io.writers import Streamed, json_ready
from sitecheck.measure.inputs import MeasureResult, MeasureSettings, run_stamp
from sitecheck.reports.compact import (
    COMPACT,
    FULL,
    compact_columns,
    compacted,
    rule_descriptions,
    rule_fields,
)
from sitecheck.rules.margins import Margin
from sitecheck.rules.outcome import ParcelOutcome
from sitecheck.rules.review_groups import review_groups
from sitecheck.schema.fields import PASSTHROUGH_CANDIDATES, PROJECT_FIELDS
from sitecheck.schema.metrics import ACRE_METRICS, METRICS, acres_name
from sitecheck.screening.check import CheckResult
from sitecheck.screening.runoff_result import runoff_metric_names

METRIC_KEYS: tuple[str, ...] = tuple(m.name for m in METRICS) + tuple(
    acres_name(n) for n in ACRE_METRICS
)


def measure_document(
    result: MeasureResult,
    all_parcels: bool = False,
    only: set[str] | None = None,
    layout: str = FULL,
) -> dict[str, object]:
    """Build the JSON document of a measure run.

    Parameters
    ----------
    result : MeasureResult
    all_parcels : bool
        List every parcel, not only those with disturbance or impervious change.
    only : set of str, optional
        List only these parcel ids (a Dask window's own parcels, not its halo).
    layout : str
        ``full``, metrics by name under each parcel; ``compact``, as the list of
        their values in the order of ``metric_columns``.
    """
    document = _measure_entries(result, all_parcels, only)
    if layout == FULL:
        return {"layout": FULL, **document}
    parcels = document["parcels"]
    assert isinstance(parcels, list)
    document["parcels"] = [compacted(entry, METRIC_KEYS) for entry in parcels]
    return {"layout": COMPACT, **document, "metric_columns": list(METRIC_KEYS)}


def _measure_entries(
    result: MeasureResult, all_parcels: bool, only: set[str] | None
) -> dict[str, object]:
    """:func:`measure_document` with every entry's metrics by name."""
    table = result.parcels
    rows = _listed_rows(result, all_parcels, only)
    parcels = _parcel_entries(table, rows, _attribute_names(table))
    return {**_measure_header(result, all_parcels), "parcels": parcels}


def _listed_rows(result: MeasureResult, all_parcels: bool, only: set[str] | None) -> np.ndarray:
    """The rows of the parcel table a document lists, in order."""
    table = result.parcels
    rows = np.arange(len(table)) if all_parcels else np.flatnonzero(result.touched)
    if only is not None:
        ids = table["parcel_id"].astype(str).to_numpy()
        rows = np.array([row for row in rows if ids[row] in only], dtype=int)
    return rows


def _attribute_names(table: pd.DataFrame) -> list[str]:
    """The parcel fields an entry lists under ``attributes``."""
    return [
        name
        for name in dict.fromkeys((*PASSTHROUGH_CANDIDATES, *PROJECT_FIELDS))
        if name in table.columns
    ]


def _parcel_entries(
    table: pd.DataFrame, rows: np.ndarray, attribute_names: list[str]
) -> list[dict]:
    """The entries of the parcels at ``rows``: id, metrics and attributes by name."""
    # Column by column: a frame's rows as dicts cost the panel 3.5 ms of an answer.
    metrics = zip(*(_column(table, key, rows) for key in METRIC_KEYS), strict=True)
    attributes = (
        zip(*(_column(table, key, rows) for key in attribute_names), strict=True)
        if attribute_names
        else iter([()] * len(rows))
    )
    return [
        {
            "parcel_id": parcel_id,
            "metrics": dict(zip(METRIC_KEYS, metric_values, strict=True)),
            "attributes": dict(zip(attribute_names, attribute_values, strict=True)),
        }
        for parcel_id, metric_values, attribute_values in zip(
            table["parcel_id"].iloc[rows].tolist(), metrics, attributes, strict=True
        )
    ]


def _measure_header(result: MeasureResult, all_parcels: bool) -> dict[str, object]:
    """A document's members before its parcels: the header, warnings, timings, listing."""
    return {
        **document_header(audit_block(result), result.working, result.id_field),
        "warnings": list(result.log.warnings),
        # A reader of part of the layers (the panel's neighbourhood) cannot tell.
        "unassigned_work": [] if result.log.partial_view else list(result.log.unassigned),
        "timings_s": {stage: round(seconds, 3) for stage, seconds in result.timings.items()},
        **listing(len(result.parcels), all_parcels),
    }


def _column(table: pd.DataFrame, name: str, rows: np.ndarray) -> list[object]:
    """A column's values at ``rows``, JSON-ready (:func:`json_ready`): a float column's
    non-finite values null, the others' NumPy and pandas scalars Python's."""
    column = table[name]
    if column.dtype == np.float64:
        return [v if math.isfinite(v) else None for v in column.to_numpy()[rows].tolist()]
    # The array's own take: a Series' iloc cost the panel 1 ms of each answer's few rows.
    return [json_ready(v) for v in column.array.take(rows).tolist()]


def document_header(
    audit: Mapping[str, object], working: WorkingCRS, id_field: str
) -> dict[str, object]:
    """The keys every JSON document opens with: the audit block's, with units and the id field."""
    return {
        "sitecheck_version": audit["sitecheck_version"],
        "run_id": audit["run_id"],
        "generated": audit["generated"],
        "crs": audit["crs"],
        "units": {"area": working.area_unit, "length": "ft", "acre": "43,560 sq ft"},
        "id_field": id_field,
        "settings": audit["settings"],
        "inputs": audit["inputs"],
    }


def listing(parcel_count: int, all_parcels: bool) -> dict[str, object]:
    """How many parcels the run read and which of them the document lists."""
    return {
        "parcel_count": parcel_count,
        "listed": "all parcels" if all_parcels else "parcels with disturbance or impervious change",
    }


def check_document(
    result: CheckResult,
    all_parcels: bool = False,
    only: set[str] | None = None,
    layout: str = FULL,
    metric_columns: Sequence[str] | None = None,
    streamed: bool = False,
) -> dict[str, object]:
    """The measure document plus, per parcel, the jurisdiction and its rules' outcomes.

    Parameters
    ----------
    result : CheckResult
    all_parcels, only
        Which parcels are listed, as :func:`measure_document` lists them.
    layout : str
        ``full``: every rule's outcome with its description under each parcel;
        ``compact``: each rule described once (:mod:`sitecheck.reports.compact`).
    metric_columns : sequence of str, optional
        The compact layout's metric columns (default: those of this result); a Dask
        window passes the run's, so every partition lists the same.
    streamed : bool
        In the compact layout, the parcels as :class:`~sitecheck.io.writers.Streamed`:
        made a chunk at a time as the document is written, never held whole.
    """
    if layout == FULL:
        return {"layout": FULL, **_check_entries(result, all_parcels, only, layout)}
    columns = list(metric_columns or compact_columns(metric_names(result)))
    if streamed:
        document = _streamed_compact_entries(result, all_parcels, only, columns)
    else:
        document = _check_entries(result, all_parcels, only, layout)
    for key in ("parcels", "projects"):
        if isinstance(document.get(key), list):  # streamed parcels come compacted
            entries = document[key]
            assert isinstance(entries, list)
            document[key] = [compacted(entry, columns) for entry in entries]
    return {
        "layout": COMPACT,
        **document,
        "metric_columns": columns,
        "rules": rule_descriptions(result.packs.values()),
    }


def metric_names(result: CheckResult) -> list[str]:
    """The metrics a check lists per parcel: the measured ones, then the runoff screen's."""
    runoff = [] if result.runoff is None else runoff_metric_names(result.runoff.table.columns)
    return [*METRIC_KEYS, *runoff]


def _check_entries(
    result: CheckResult, all_parcels: bool, only: set[str] | None, layout: str
) -> dict[str, object]:
    """:func:`check_document` with every entry's metrics by name."""
    measured = result.measured
    rows = _listed_rows(measured, all_parcels, only)
    parcels = _parcel_entries(measured.parcels, rows, _attribute_names(measured.parcels))
    _add_rule_keys(result, parcels, [int(row) for row in rows], layout)
    document = {
        **_measure_header(measured, all_parcels),
        "parcels": parcels,
        **_check_members(result),
    }
    if result.projects is not None:
        document["projects"] = project_entries(result, parcels, layout)
    return document


ENTRY_CHUNK = 5_000
"""Parcels a streamed document makes into entries at a time."""


def _streamed_compact_entries(
    result: CheckResult, all_parcels: bool, only: set[str] | None, columns: Sequence[str]
) -> dict[str, object]:
    """:func:`check_document`'s compact members, the parcels' entries compacted to ``columns``
    and made a chunk at a time as they are written (at 250k, 37,513 entries held took
    168 MB at the check's peak, the JSON stage)."""
    measured = result.measured
    rows = _listed_rows(measured, all_parcels, only)
    names = _attribute_names(measured.parcels)

    def chunks() -> Iterator[list[dict]]:
        for start in range(0, len(rows), ENTRY_CHUNK):
            chunk = [int(row) for row in rows[start : start + ENTRY_CHUNK]]
            entries = _parcel_entries(measured.parcels, np.asarray(chunk, dtype=int), names)
            _add_rule_keys(result, entries, chunk, COMPACT)
            yield [compacted(entry, columns) for entry in entries]

    document: dict[str, object] = {
        **_measure_header(measured, all_parcels),
        "parcels": Streamed(chunks),
        **_check_members(result),
    }
    if result.projects is not None:
        # The compact layout lists the projects checked on sites alone: no lot entry is read.
        document["projects"] = project_entries(result, [], COMPACT)
    return document


def _check_members(result: CheckResult) -> dict[str, object]:
    """A check document's members after its parcels, the projects aside."""
    return {
        "packs": [pack.audit() for pack in result.packs.values()],
        "tolerance": result.tolerance,
        "runoff": result.runoff.to_json() if result.runoff is not None else None,
    }


def _add_rule_keys(result: CheckResult, parcels: list[dict], rows: list[int], layout: str) -> None:
    """Each entry's rules' keys, its runoff metrics and the projects on its lot."""
    if layout == COMPACT:  # the nearest threshold alone, found without the others
        margins = {row: [m] if m else [] for row, m in result.nearest(rows).items()}
    else:
        margins = result.margins(rows)
    on_lot = result.projects.of_lot() if result.projects is not None else None
    for parcel, row in zip(parcels, rows, strict=True):
        parcel.update(rule_keys(result.outcomes[row], margins[row], layout))
        if result.runoff is not None:
            parcel["metrics"].update(result.runoff.metrics_of(row))
        if on_lot is None:
            continue
        on_this_lot = on_lot.get(str(parcel["parcel_id"]), [])
        parcel["projects"] = on_this_lot
        if layout == FULL:
            assert result.projects is not None
            parcel["project_note"] = (
                "; ".join(f"work of project {project} on this lot" for project in on_this_lot)
                if result.projects.from_field
                else None
            )


def rule_keys(
    outcome: ParcelOutcome | None, margins: Sequence[Margin], layout: str
) -> dict[str, object]:
    """A parcel's jurisdiction, severity, design storm, and its rules in the layout asked."""
    keys: dict[str, object] = {
        "jurisdiction": outcome.pack.id if outcome else None,
        "highest_severity": outcome.highest_severity if outcome else None,
        "design_storm_years": outcome.design_storm_years if outcome else None,
        "design_storm_review_years": (
            max(outcome.design_storm_review_years, default=None) if outcome else None
        ),
        "design_storm": outcome.design_storm if outcome and outcome.triggers else None,
    }
    groups = review_groups(outcome) if outcome else []
    if layout == COMPACT:
        # The storm's wording ("50, or 100: review") is the two years' (GeoPackage, full JSON).
        del keys["design_storm"]
        if outcome is not None:
            keys.update(rule_fields(outcome, groups, margins))
        return keys
    return {
        "jurisdiction": keys["jurisdiction"],
        "triggers": [trigger.to_json() for trigger in outcome.triggers] if outcome else [],
        **{key: value for key, value in keys.items() if key != "jurisdiction"},
        "reviews": [group.to_json() for group in groups],
        "margin": margins[0].to_json() if margins else None,
        "margins": [margin.to_json() for margin in margins],
    }


def project_entries(
    result: CheckResult, lot_entries: list[dict], layout: str = FULL
) -> list[dict[str, object]]:
    """The ``projects`` of the JSON: each project's id, lots, metrics, triggers, severity
    and storm, from its site's check (its lot's, where the project is that lot alone)."""
    projects = result.projects
    assert projects is not None
    by_lot = {str(entry["parcel_id"]): entry for entry in lot_entries}
    by_site: dict[str, dict] = {}
    if projects.site_result is not None:
        # The sites alone: not the lots beside them, which the site pass measures only so
        # that a sliver of a site's work on one is counted on the site.
        sites = {p for p, row in zip(projects.ids, projects.site_rows, strict=True) if row >= 0}
        listed = _check_entries(projects.site_result, True, sites, layout)["parcels"]
        assert isinstance(listed, list)
        by_site = {str(entry["parcel_id"]): entry for entry in listed}
    entries = []
    for index, (project, lots) in enumerate(zip(projects.ids, projects.lots, strict=True)):
        on_site = projects.site_rows[index] >= 0
        entry = by_site.get(project) if on_site else by_lot.get(lots[0])
        if entry is None:  # a lot with work the lot listing left out
            continue
        if layout == COMPACT and not on_site:
            continue  # the project is its lot alone: the lot's entry, which names it

        fields = {
            k: v for k, v in entry.items() if k not in ("parcel_id", "projects", "project_note")
        }
        entries.append({"project_id": project, "lots": lots, **fields})
    return entries


def audit_block(
    result: MeasureResult, packs: list[dict[str, object]] | None = None
) -> dict[str, object]:
    """What every output of a run in one process says about how it was made."""
    return run_audit(result.working, result.settings, result.log.inputs, packs or [], result.stamp)


def run_audit(
    working: WorkingCRS,
    settings: MeasureSettings,
    inputs: Sequence[InputRecord],
    packs: list[dict[str, object]],
    stamp: Mapping[str, str] | None = None,
) -> dict[str, object]:
    """The audit block: version, run id, time, CRS, settings, every input with its hash, the packs.

    ``stamp`` is the run's id and time (:func:`~sitecheck.measure.inputs.run_stamp`,
    new when not given): every output of one run carries the same.
    """
    stamp = stamp or run_stamp()
    return {
        "sitecheck_version": __version__,
        "run_id": stamp["run_id"],
        "generated": stamp["generated"],
        "crs": working.to_json(),
        "settings": settings.to_json(),
        "inputs": [record.to_json() for record in inputs],
        "packs": packs,
    }
