"""A parcel's values as the rule language takes them: metrics and project attributes."""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from sitecheck.measure.inputs import MeasureResult
from sitecheck.rules.attributes import ATTRIBUTES, Attribute, attribute_value, unreadable
from sitecheck.schema.metrics import METRICS


def parcel_value_rows(measured: MeasureResult, rows: Sequence[int]) -> list[dict[str, object]]:
    """The metric and attribute values of each of ``rows``, reading each column once."""
    picked = measured.parcels.iloc[list(rows)]
    columns: dict[str, list[object]] = {}
    for metric in METRICS:
        columns[metric.name] = [_metric_value(metric.kind, v) for v in picked[metric.name]]
    # Where the DEM has no elevation under the work, its slope areas are unknown, not 0.
    unread = (picked["slope_data_coverage"].fillna(1.0) <= 0).tolist()
    for metric in METRICS:
        if metric.needs == "dem" and metric.name != "slope_data_coverage":
            values = columns[metric.name]
            columns[metric.name] = [
                None if blind else v for v, blind in zip(values, unread, strict=True)
            ]
    for attribute in ATTRIBUTES:
        if attribute.name in picked.columns:
            raw = picked[attribute.name].tolist()
            columns[attribute.name] = [attribute_value(attribute, v) for v in raw]
            _warn_unreadable(measured, attribute, raw)
    return [
        dict(zip(columns, values, strict=True)) for values in zip(*columns.values(), strict=True)
    ]


def _metric_value(kind: str, value: object) -> object:
    if pd.isna(value):
        return None
    if kind == "boolean":
        return bool(value)
    return value if kind == "text" else float(value)  # type: ignore[arg-type]


def _warn_unreadable(measured: MeasureResult, attribute: Attribute, raw: list[object]) -> None:
    """Name each given value the rules cannot read, once: it is read as not given."""
    counts: dict[str, int] = {}
    for value in raw:
        if unreadable(attribute, value):
            counts[str(value).strip()] = counts.get(str(value).strip(), 0) + 1
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
