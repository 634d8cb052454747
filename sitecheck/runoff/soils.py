"""Hydrologic soil groups (HSG): read soil-survey values and share lots among groups.

NRCS soil surveys give one of A, B, C, D or a dual group A/D, B/D, C/D. TR-55
Appendix A: a dual group is a soil placed in group D because of a high water
table; drained, it falls in the first group ("the drained Ackerman soil is in
group A and the undrained soil is in group D"). A screening tool cannot tell
whether a lot is drained, so the default reading is the undrained group D,
which gives the most runoff.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Literal

import numpy as np
import numpy.typing as npt
import pandas as pd

from sitecheck.errors import InputError

HSG: tuple[str, ...] = ("A", "B", "C", "D")
DUAL_HSG: tuple[str, ...] = ("A/D", "B/D", "C/D")
DualReading = Literal["drained", "undrained"]
DUAL_READINGS: tuple[str, ...] = ("drained", "undrained")

SoilInput = str | Sequence[str] | Mapping[str, npt.ArrayLike]
"""One group for all lots, one group per lot, or per-lot areas (or shares) by group."""


def hsg_from_value(text: str, dual: DualReading = "undrained") -> str:
    """The hydrologic soil group a soil-survey value stands for.

    Parameters
    ----------
    text : str
        ``A``, ``B``, ``C``, ``D`` or a dual group ``A/D``, ``B/D``, ``C/D``
        (case and surrounding spaces ignored).
    dual : {"undrained", "drained"}
        How a dual group is read: ``undrained`` gives D (the default: the
        higher-runoff reading, right for screening), ``drained`` gives the
        first letter.

    Returns
    -------
    str
        One of ``A``, ``B``, ``C``, ``D``.

    Raises
    ------
    InputError
        When the value is not a soil group or ``dual`` is neither reading.
    """
    if dual not in DUAL_READINGS:
        raise InputError(f"dual soil group reading: '{dual}' is not 'drained' or 'undrained'")
    value = str(text).strip().upper().replace(" ", "")
    if value in HSG:
        return value
    if value in DUAL_HSG:
        return value[0] if dual == "drained" else "D"
    raise InputError(
        f"hydrologic soil group: unknown value '{text}' "
        f"(expected one of {', '.join(HSG + DUAL_HSG)})"
    )


def hsg_shares(soil: SoilInput, count: int, dual: DualReading = "undrained") -> np.ndarray:
    """Each lot's share of each hydrologic soil group.

    Parameters
    ----------
    soil : str, sequence of str or mapping
        One group for every lot; one group per lot; or, per group (dual groups
        allowed), each lot's area in that group in any one unit (square feet
        from an overlay of the soil survey, or shares).
    count : int
        Number of lots.
    dual : {"undrained", "drained"}
        How dual groups are read (see :func:`hsg_from_value`).

    Returns
    -------
    numpy.ndarray
        Shape ``(count, 4)``: shares of A, B, C, D, summing to 1 per lot. A lot
        with no soil area, or a missing value, has NaN shares.

    Raises
    ------
    InputError
        On an unknown group, a wrong number of values or a negative area.
    """
    if isinstance(soil, str):
        shares = np.zeros((count, len(HSG)))
        shares[:, HSG.index(hsg_from_value(soil, dual))] = 1.0
        return shares
    if isinstance(soil, Mapping):
        return _shares_from_areas(soil, count, dual)
    values = list(soil)
    if len(values) != count:
        raise InputError(f"hydrologic soil group: {len(values)} values for {count} lots")
    shares = np.full((count, len(HSG)), np.nan)
    for row, value in enumerate(values):
        if pd.isna(value) or str(value).strip() == "":
            continue
        shares[row] = 0.0
        shares[row, HSG.index(hsg_from_value(value, dual))] = 1.0
    return shares


def _shares_from_areas(
    areas: Mapping[str, npt.ArrayLike], count: int, dual: DualReading
) -> np.ndarray:
    totals = np.zeros((count, len(HSG)))
    for group, area in areas.items():
        values = np.broadcast_to(np.asarray(area, dtype=float), (count,))
        if np.any(values < 0):
            raise InputError(f"soil group {group} area: negative values")
        totals[:, HSG.index(hsg_from_value(group, dual))] += values
    lot_total = totals.sum(axis=1, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(lot_total > 0, totals / lot_total, np.nan)
