"""A parcel's values as the rule language takes them: metrics and project attributes."""

from __future__ import annotations

from collections.abc import Collection, Sequence

import numpy as np
import pandas as pd

from sitecheck.measure.inputs import MeasureResult
from sitecheck.rules.attributes import (
    ATTRIBUTES,
    UNREADABLE,
    Attribute,
    attribute_value,
    unreadable,
)
from sitecheck.rules.units import Quantity
from sitecheck.schema.metrics import METRICS, PARTLY_MEASURED, PartlyMeasured
from sitecheck.schema.mixed_values import is_mixed

FEATURES_DIFFER = "from feature to feature"
"""Marks the warning of work whose features differ in a project fact."""

# Exact cell coverage of a wholly covered shape can fall a hair short of 1.
FULL = 1.0 - 1e-6


def parcel_value_rows(
    measured: MeasureResult,
    rows: Sequence[int],
    warn: bool = True,
    names: Collection[str] | None = None,
) -> list[dict[str, object]]:
    """The metric and attribute values of each of ``rows``, reading each column once.

    ``warn=False`` when the rows were read before (the run already named their
    unreadable values). ``names``: only these values (those one condition reads),
    rather than every metric and attribute: some rows may give more.

    In a session that keeps values (the panel's worker) each row's are remembered with
    the measured run, and a call that names nothing anew (``warn=False``) reads those
    already read: an answer read the same row for its rules, its runoff screen and its
    margins, each time 1.5 ms.
    """
    known = _known_rows(measured)
    if known is None:
        return _value_rows(measured, rows, warn, names)
    if not warn and all(row in known for row in rows):
        return [known[row] for row in rows]
    if names is not None:
        return _value_rows(measured, rows, warn, names)
    read = _value_rows(measured, rows, warn, None)
    known.update(zip(rows, read, strict=True))
    return read


def _known_rows(measured: MeasureResult) -> dict[int, dict[str, object]] | None:
    """The values of the rows of a session's run read so far (None outside a session).

    Held by the run, not by the session's kept values: no later answer reads this run's
    table, which the session would otherwise hold until 256 newer values pushed it out.
    """
    if measured.log.kept is None:
        return None
    known: dict[int, dict[str, object]] = measured.__dict__.setdefault("_known_values", {})
    return known


def _value_rows(
    measured: MeasureResult,
    rows: Sequence[int],
    warn: bool,
    names: Collection[str] | None,
) -> list[dict[str, object]]:
    """:func:`parcel_value_rows`, read from the table."""
    picked = measured.parcels.iloc[list(rows)]
    columns: dict[str, list[object]] = {}
    for metric in METRICS:
        if names is None or metric.name in names:
            columns[metric.name] = _metric_values(metric.kind, picked[metric.name])
    # Where the data under the work are partial, its areas are a range; none, unknown.
    for partial in PARTLY_MEASURED:
        if names is None or partial.metric in names:
            columns[partial.metric] = _bounded(picked, partial)
    unreadable_texts: list[dict[str, str]] = [{} for _ in range(len(picked))]
    for attribute in ATTRIBUTES:
        if attribute.name in picked.columns and (names is None or attribute.name in names):
            raw = picked[attribute.name].tolist()
            readings = _readings(attribute, raw)
            columns[attribute.name] = [value for value, _ in readings]
            for texts, (_, text) in zip(unreadable_texts, readings, strict=True):
                if text is not None:
                    texts[attribute.label] = text
            if warn:
                _warn_unreadable(measured, attribute, raw, readings)
    rows_out: list[dict[str, object]] = (
        [dict(zip(columns, values, strict=True)) for values in zip(*columns.values(), strict=True)]
        if columns
        else [{} for _ in range(len(picked))]
    )
    for row, texts in zip(rows_out, unreadable_texts, strict=True):
        if texts:
            row[UNREADABLE] = texts
    return rows_out


def _readings(attribute: Attribute, raw: list[object]) -> list[tuple[object, str | None]]:
    """Each raw value as the rules read it and, where they cannot read it, its text; each
    distinct value read once (a county's lots repeat a few codes)."""
    seen: dict[tuple[type, object], tuple[object, str | None]] = {}
    readings = []
    for value in raw:
        key = (type(value), value)  # 1, 1.0 and True are equal keys, not equal readings
        try:
            found, kept = seen.get(key), True
        except TypeError:  # a value that cannot be a key is read each time
            found, kept = None, False
        if found is None:
            text = str(value).strip() if unreadable(attribute, value) else None
            found = (attribute_value(attribute, value), text)
            if kept:
                seen[key] = found
        readings.append(found)
    return readings


def _bounded(picked: pd.DataFrame, partial: PartlyMeasured) -> list[object]:
    """A partly measured metric per lot: exact where its data cover the whole, a range
    from the measured area up to it plus the unmeasured rest elsewhere, unknown where
    the data cover none of it."""
    values: list[object] = []
    measured_areas, coverages, wholes = (
        picked[name].to_numpy(dtype=float, na_value=np.nan).tolist()
        for name in (partial.metric, partial.coverage, partial.whole)
    )
    # NaN is the one float unequal to itself: the three read as missing where NaN.
    for measured, coverage, whole in zip(measured_areas, coverages, wholes, strict=True):
        if measured != measured or coverage != coverage or coverage >= FULL or whole != whole:
            values.append(None if measured != measured else measured)
        elif coverage <= 0:
            values.append(None)
        else:
            unmeasured = (1.0 - coverage) * whole
            why = f"{partial.data} covers {coverage:.0%} of the disturbance"
            values.append(Quantity(measured, "area", None, measured + unmeasured, why))
    return values


def _metric_values(kind: str, column: pd.Series) -> list[object]:
    """A metric's values as the rules read them (:func:`_metric_value`); an area or a
    share held as floats converted in one pass, NaN read as None."""
    if column.dtype == np.float64 and kind not in ("boolean", "text"):
        return [None if value != value else value for value in column.to_numpy().tolist()]
    return [_metric_value(kind, value) for value in column]


def _metric_value(kind: str, value: object) -> object:
    if pd.isna(value):
        return None
    if kind == "boolean":
        return bool(value)
    return value if kind == "text" else float(value)  # type: ignore[arg-type]


def _warn_unreadable(
    measured: MeasureResult,
    attribute: Attribute,
    raw: list[object],
    readings: list[tuple[object, str | None]],
) -> None:
    """Name each given value the rules cannot read, once: it is read as not given
    (``readings``: :func:`_readings` of ``raw``, whose text marks such a value)."""
    counts: dict[str, int] = {}
    mixed = 0
    for value, (_, text) in zip(raw, readings, strict=True):
        if text is None:  # read, or not given
            continue
        if is_mixed(str(value)):
            mixed += 1
        else:
            counts[text] = counts.get(text, 0) + 1
    if mixed:
        measured.log.warn(
            f"field '{attribute.name}': the {attribute.label} of the work on {mixed} lot(s) "
            f"or project site(s) differs {FEATURES_DIFFER}: each finding covers only the "
            "work it describes, so the rules that need it need review"
        )
    for value, count in sorted(counts.items()):
        known = (
            ", ".join(attribute.codes)
            if attribute.codes
            else "yes/no: 1, 0, true, false, y, n, yes, no"
        )
        measured.log.warn(
            f"field '{attribute.name}': '{value}' on {count} lot(s) is not a value the rules "
            f"know (known: {known}); read as not given, so the rules that need it need review"
        )
