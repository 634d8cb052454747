"""TR-55 runoff curve numbers by cover and soil group, and area-weighted composites.

The table is data: ``sitecheck/data/tr55_curve_numbers.toml`` (TR-55, 2nd
edition, June 1986, Tables 2-2a and 2-2c).

A composite CN is the area-weighted mean of the CNs of a drainage area's
parts, and runoff is computed once from it. That is how TR-55 combines covers
(chapter 2, Examples 2-1 to 2-4 and worksheet 2). The alternative, computing a
runoff depth for each part and weighting the depths, gives more runoff when
the parts' CNs differ much (roof at 98 next to lawn at 61) and small storms;
the composite CN therefore understates runoff from a lot whose impervious
cover drains apart from its lawn. Screening keeps the TR-55 convention, the
one reviewers check against.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources

import numpy as np
import tomllib

from sitecheck.errors import InputError
from sitecheck.runoff.soils import HSG, DualReading, hsg_from_value

IMPERVIOUS = "impervious"


@dataclass(frozen=True)
class Cover:
    """One row of the TR-55 tables.

    Attributes
    ----------
    name : str
        Key used in code and inputs (``open_space_good``).
    label : str
        The table's words.
    table : str
        ``2-2a`` or ``2-2c``.
    cn_by_hsg : dict of str to int
        Curve number for soil groups A, B, C, D.
    impervious_pct : float or None
        Average impervious share assumed in a composite row (residential districts).
    """

    name: str
    label: str
    table: str
    cn_by_hsg: dict[str, int]
    impervious_pct: float | None = None

    def cn_row(self) -> np.ndarray:
        """Curve numbers for A, B, C, D as an array."""
        return np.array([self.cn_by_hsg[group] for group in HSG], dtype=float)


@cache
def curve_number_table() -> dict[str, Cover]:
    """The bundled TR-55 curve numbers, by cover name."""
    path = resources.files("sitecheck") / "data" / "tr55_curve_numbers.toml"
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    covers = {}
    for name, row in data["covers"].items():
        covers[name] = Cover(
            name=name,
            label=row["label"],
            table=row["table"],
            cn_by_hsg={group: int(row["cn"][group]) for group in HSG},
            impervious_pct=row.get("impervious_pct"),
        )
    return covers


def curve_number_source() -> dict[str, object]:
    """The table header: document, edition, tables and runoff condition."""
    path = resources.files("sitecheck") / "data" / "tr55_curve_numbers.toml"
    return dict(tomllib.loads(path.read_text(encoding="utf-8"))["source"])


def cover(name: str) -> Cover:
    """The TR-55 row for a cover name; InputError names an unknown cover."""
    table = curve_number_table()
    if name not in table:
        raise InputError(f"land cover: unknown cover '{name}' (known: {', '.join(sorted(table))})")
    return table[name]


def curve_number(cover_name: str, hsg: str, dual: DualReading = "undrained") -> int:
    """TR-55 curve number of a cover on a soil group (dual groups read by ``dual``)."""
    return cover(cover_name).cn_by_hsg[hsg_from_value(hsg, dual)]


def composite_cn(
    areas_by_cover: Mapping[tuple[str, str], float], dual: DualReading = "undrained"
) -> float:
    """Area-weighted composite curve number, as TR-55 worksheet 2 computes it.

    Parameters
    ----------
    areas_by_cover : mapping of (cover, soil group) to area
        Area of each cover on each soil group, all in one unit (square feet,
        acres or percent).
    dual : {"undrained", "drained"}
        How dual soil groups are read.

    Returns
    -------
    float
        Sum of CN times area over the total area, unrounded (TR-55 rounds the
        worksheet result to a whole number before computing runoff).

    Raises
    ------
    InputError
        On an unknown cover or group, a negative area or no area at all.
    """
    total_area = 0.0
    weighted = 0.0
    for (cover_name, hsg), area in areas_by_cover.items():
        if area < 0:
            raise InputError(f"land cover {cover_name} on soil {hsg}: negative area {area}")
        total_area += area
        weighted += curve_number(cover_name, hsg, dual) * area
    if total_area <= 0:
        raise InputError("composite curve number: no area given")
    return weighted / total_area


def cover_cn_by_lot(cover_shares: Mapping[str, np.ndarray], hsg_shares: np.ndarray) -> np.ndarray:
    """Per-lot curve number of a mix of covers, each spread over the lot's soils.

    Parameters
    ----------
    cover_shares : mapping of cover name to array
        Each lot's share of each cover (shares sum to 1 per lot).
    hsg_shares : numpy.ndarray
        Shape ``(lots, 4)``: each lot's share of soil groups A to D.

    Returns
    -------
    numpy.ndarray
        Area-weighted CN per lot, assuming every cover lies on the lot's soils
        in the same proportions.
    """
    result = np.zeros(hsg_shares.shape[0])
    for cover_name, share in cover_shares.items():
        result += share * (hsg_shares @ cover(cover_name).cn_row())
    return result
