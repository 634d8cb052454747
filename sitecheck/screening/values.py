"""A parcel's values as the rule language takes them: metrics and project attributes."""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from sitecheck.measure.inputs import MeasureResult
from sitecheck.rules.attributes import ATTRIBUTES, attribute_value
from sitecheck.schema.metrics import METRICS


def parcel_value_rows(measured: MeasureResult, rows: Sequence[int]) -> list[dict[str, object]]:
    """The metric and attribute values of each of ``rows``, reading each column once."""
    picked = measured.parcels.iloc[list(rows)]
    columns: dict[str, list[object]] = {}
    for metric in METRICS:
        columns[metric.name] = [_metric_value(metric.kind, v) for v in picked[metric.name]]
    for attribute in ATTRIBUTES:
        if attribute.name in picked.columns:
            columns[attribute.name] = [
                attribute_value(attribute, v) for v in picked[attribute.name].tolist()
            ]
    return [
        dict(zip(columns, values, strict=True)) for values in zip(*columns.values(), strict=True)
    ]


def _metric_value(kind: str, value: object) -> object:
    if pd.isna(value):
        return None
    if kind == "boolean":
        return bool(value)
    return value if kind == "text" else float(value)  # type: ignore[arg-type]
