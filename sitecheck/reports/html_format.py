"""Small pieces of the HTML report: escaping, number formats, badges, the summary order."""

from __future__ import annotations

import html
import re
from collections.abc import Mapping
from datetime import datetime, timezone
from typing import Any

import pandas as pd

from sitecheck.rules.attributes import ATTRIBUTES
from sitecheck.rules.outcome import ParcelOutcome
from sitecheck.schema.fields import PROJECT_FIELDS
from sitecheck.schema.metric import Metric
from sitecheck.schema.severities import SEVERITY_BY_KEY, SEVERITY_KEYS

NO_PACK_RANK, NONE_TRIGGERED_RANK = -2, -1  # below every severity in the summary order


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


class ParcelCells:
    """The parcel table's cells, each column taken from the frame once.

    A report reads a few columns of every listed parcel and some forty cells of each
    detailed one; a cell picked from the frame costs a column lookup each time (the
    200 sections of the 30k bench village took 0.29 s so, 0.12 s from columns).
    """

    def __init__(self, parcels: pd.DataFrame) -> None:
        self._parcels = parcels
        self._columns: dict[str, Any] = {}

    def take_whole(self, *columns: str) -> None:
        """Take these columns' values out of their arrays at once, for a caller reading
        every row of them: a cell picked from an Arrow string array costs about 2 µs, from
        the array's values 0.04 µs (the report's table reads three text columns of every
        listed parcel: the 30k bench village's 4,513 rows took 0.13 s so, 0.09 s taken
        whole)."""
        for column in columns:
            if column in self._parcels.columns:
                self._columns[column] = self._parcels[column].to_numpy(dtype=object)

    def __call__(self, row: int, column: str) -> Any:
        """The cell, or None where the table has no such column."""
        if column not in self._columns:
            present = column in self._parcels.columns
            self._columns[column] = self._parcels[column].array if present else None
        values = self._columns[column]
        return None if values is None else values[row]


def text_or_dash(value: object, empty: str = "—") -> str:
    """Escaped text of a value; ``empty`` where it is missing."""
    return empty if is_missing(value) or str(value) == "" else esc(value)


def severity_badge(severity: str | None) -> str:
    if severity is None:
        return '<span class="badge sev-none">No rule triggered</span>'
    known = SEVERITY_BY_KEY.get(severity)
    label = known.label if known else severity.replace("_", " ").capitalize()
    return f'<span class="badge sev-{esc(severity)}">{esc(label)}</span>'


def outcome_badge(outcome: ParcelOutcome | None) -> str:
    if outcome is None:
        return '<span class="badge sev-none">No pack applies</span>'
    return severity_badge(outcome.highest_severity)


def anchor(row: int) -> str:
    return f"parcel-{row}"


def utc_text(moment: datetime) -> str:
    return moment.astimezone(timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")


def kv_table(pairs: list[tuple[str, str]]) -> str:
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


def sqft_cell(value: Any, signed: bool = False) -> str:
    return "—" if is_missing(value) else esc(format_sqft(value, signed))
