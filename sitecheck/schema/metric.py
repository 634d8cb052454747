"""What a metric is: one per-parcel measurement, its unit, label and display.

The metrics themselves are listed in :mod:`sitecheck.schema.metrics`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Kind = Literal["area", "share", "percent", "boolean", "text", "length", "volume", "number", "years"]
Display = Literal[
    "sqft", "sqft_acres", "signed_sqft", "pct", "share", "bool", "text", "cn", "cuft", "storm"
]


@dataclass(frozen=True)
class Metric:
    """One reported measurement.

    Attributes
    ----------
    name : str
        Field and JSON key.
    kind : str
        ``area`` (square feet), ``share`` (0 to 1), ``percent``, ``boolean`` or ``text``.
    label : str
        Short words for reasons and tables.
    needs : str or None
        The input layer the value depends on; the value is null without it.
    title : str
        How a table row (the panel, the atlas) names it.
    display : str
        How a table shows the value (``sqft``, ``sqft_acres``, ``signed_sqft``,
        ``pct``, ``share``, ``bool``, ``text``, ``cn``, ``cuft``, ``storm``).
    panel : bool
        Shown among the panel's and the atlas's key figures.
    """

    name: str
    kind: Kind
    label: str
    needs: str | None = None
    title: str = ""
    display: Display = "sqft"
    panel: bool = False

    def to_json(self) -> dict[str, object]:
        return {
            "name": self.name,
            "kind": self.kind,
            "unit": UNITS[self.kind],
            "label": self.label,
            "title": self.title,
            "display": self.display,
            "panel": self.panel,
            "needs": self.needs,
        }


UNITS: dict[str, str | None] = {
    "area": "sq ft",
    "share": "0 to 1",
    "percent": "percent",
    "boolean": None,
    "text": None,
    "length": "ft",
    "volume": "cu ft",
    "number": None,
    "years": "years",
}
