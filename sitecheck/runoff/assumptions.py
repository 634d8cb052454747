"""The sentences a report prints with the runoff screen's numbers."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from sitecheck.runoff.curve_numbers import cover
from sitecheck.runoff.settings import RunoffSettings


@dataclass(frozen=True)
class ScreenedLots:
    """What the sentences count of the lots screened.

    Attributes
    ----------
    governing : array
        Each lot's governing storm (years; NaN for none).
    unimproved_count, no_soil_count : int
        Lots measured against unimproved land; lots without a soil group.
    cover_given : bool
        Whether land-cover areas were given per lot.
    """

    governing: np.ndarray
    unimproved_count: int = 0
    no_soil_count: int = 0
    cover_given: bool = False


@dataclass(frozen=True)
class PackLaw:
    """A pack's own words the sentences cite.

    Attributes
    ----------
    storm_law : str, optional
        Where its design storms come from ("Village of Larchmont § 335-28A").
    unimproved_law : str, optional
        Its citation for measuring some lots against unimproved land.
    """

    storm_law: str | None = None
    unimproved_law: str | None = None


def runoff_assumptions(
    settings: RunoffSettings,
    storms: Mapping[int, float],
    lots: ScreenedLots,
    law: PackLaw | None = None,
) -> list[str]:
    """The sentences a report prints with runoff numbers.

    Parameters
    ----------
    settings : RunoffSettings
    storms : mapping of int to float
        Depth (inches) of each storm computed.
    lots : ScreenedLots
    law : PackLaw, optional
        None when no pack is cited.
    """
    law = law or PackLaw()
    lines = _method_sentences(settings, storms, lots, law)
    if lots.unimproved_count:
        unimproved_cover = cover(settings.unimproved_cover)
        lines.append(
            f"{_lots(lots.unimproved_count)} measured against unimproved land: before condition "
            f"is the whole lot as '{unimproved_cover.label}' (TR-55 Table "
            f"{unimproved_cover.table})"
            + (f", per {law.unimproved_law}." if law.unimproved_law else ".")
        )
    if lots.no_soil_count:
        lines.append(
            f"{_lots(lots.no_soil_count)} without a hydrologic soil group: runoff left null."
        )
    return lines


def _method_sentences(
    settings: RunoffSettings, storms: Mapping[int, float], lots: ScreenedLots, law: PackLaw
) -> list[str]:
    """How each figure is computed, with the run's storms, covers and governing storms."""
    offset = f" ({law.storm_law})" if law.storm_law else ""
    depths = ", ".join(f"{years}-year {depth:g} in" for years, depth in storms.items())
    pervious = cover(settings.pervious_cover)
    dual = (
        "as group D (undrained), the higher-runoff reading"
        if settings.dual_hsg == "undrained"
        else "as their first letter (drained)"
    )
    counts = {int(years): int(np.sum(lots.governing == years)) for years in storms}
    governing_text = ", ".join(f"{years}-year on {_lots(n)}" for years, n in counts.items() if n)
    return [
        "Runoff volumes by the TR-55 curve-number method (USDA SCS/NRCS TR-55, 2nd ed., 1986): "
        "Q = (P - 0.2S)^2 / (P + 0.8S), S = 1000/CN - 10, for 24-hour storms "
        f"{depths}.",
        "Runoff computed surface by surface and summed: impervious cover at CN 98 apart from "
        "each pervious cover on each soil group, since one weighted curve number understates "
        "runoff where roofs and paving drain apart from lawn, most in small storms (TR-55 "
        "chapter 2); the area-weighted composite curve number (TR-55 worksheet 2) is reported "
        "as a figure only.",
        "Impervious cover at CN 98; pervious ground as "
        + ("the land-cover areas given per lot, else " if lots.cover_given else "")
        + f"'{pervious.label}' (TR-55 Table {pervious.table}); covers spread over each lot's "
        "soils in proportion.",
        f"Dual hydrologic soil groups (A/D, B/D, C/D) read {dual} for runoff; the retention "
        "takes whichever reading (drained or undrained) gives the larger increase, and "
        "retention_dual_drained says which (true: drained).",
        "Retention required is the increase in runoff VOLUME of each lot's governing storm "
        f"({governing_text or 'none'}), never below 0: a screening measure of the storage "
        f"needed to offset the increase in runoff{offset}, not a design.",
        "Water-quality volume by the NYS Stormwater Management Design Manual, Table 4.1: "
        "WQv = P Rv A / 12, Rv = 0.05 + 0.009 I (at least 0.2), I = proposed impervious percent "
        f"of the lot, P = {settings.wqv_rainfall_in:g} in; the 90% rainfall P varies across New "
        "York (Figure 4.1) and must be confirmed for the site.",
        "Peak flows by the Rational method Q = C i A (cfs, A in acres): C 0.95 on impervious "
        f"cover and the mid-range lawn C for {settings.lawn_slope} slopes by soil texture "
        "(HEC-22 Table 3-1; HSG A/B sandy, C/D heavy) on all pervious ground, no frequency "
        f"factor; i is the mean intensity over Tc = {settings.tc_min:g} min at the centre of the "
        "NRCS Type III 24-hour storm (Haan et al. 1994 mass-curve fit), on the high side; "
        "confirm with the site's intensity-duration data.",
    ]


def _lots(count: int) -> str:
    return f"{count} lot" if count == 1 else f"{count} lots"
