"""Runoff of every lot before and after a project, the retention it implies and its WQv.

One call screens thousands of lots with numpy. Per lot:

- ``cn_pre``, ``cn_post``: area-weighted TR-55 curve numbers. Before is the
  lot as it is (existing impervious cover at CN 98, the rest the pervious
  cover), or, for a lot in a Scarsdale sensitive drainage area (SDA), the
  whole lot as unimproved land (see below). After is the proposed impervious
  cover at CN 98 and the rest the same pervious cover.
- ``runoff_pre_cuft_<N>yr``, ``runoff_post_cuft_<N>yr``: runoff volume of each
  24-hour storm, cubic feet.
- ``retention_required_cuft``: post minus pre runoff volume of the lot's
  governing storm, at least 0. Larchmont § 335-28A asks that the increase in
  the *peak rate* of the 50-year storm (100-year above one acre of
  disturbance) be offset by on-site retention; Scarsdale § 254-7 sizes plans
  for the 25-year storm (100-year from two acres). The volume increase is the
  screening measure of the storage that takes, not a design. The governing
  storm is chosen per lot by the caller, from the ordinance.
- ``peak_pre_cfs_<N>yr``, ``peak_post_cfs_<N>yr``: Rational-method peaks
  (:mod:`sitecheck.runoff.rational`).
- ``wqv_cuft``: NYS water-quality volume with I = proposed impervious percent.

Unimproved land (Scarsdale § 254-7, § 254-8: "The predevelopment calculations
shall be based on an unimproved land area ... for properties located in an
SDA"): land with no improvements at all, so no impervious cover, and the
vegetation such land carries in Westchester, woods. The default cover is
TR-55 "woods, good" (litter and brush cover the soil); "open space, good"
(a lawn) is the other defensible reading and is a setting. Woods runs off
least, so the retention screen is the larger of the two.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt
import pandas as pd

from sitecheck.errors import InputError
from sitecheck.runoff.assumptions import ScreenedLots, runoff_assumptions
from sitecheck.runoff.curve_numbers import IMPERVIOUS, cover, cover_cn_by_lot
from sitecheck.runoff.rational import (
    composite_c,
    intensity_in_hr,
    lawn_c,
    rational_peak_cfs,
)
from sitecheck.runoff.settings import RunoffSettings as RunoffSettings
from sitecheck.runoff.soils import DualReading, SoilInput, hsg_shares
from sitecheck.runoff.surfaces import surface_runoff_cuft
from sitecheck.runoff.water_quality import wqv_cuft

AREA_TOLERANCE_SQFT = 0.01
"""Impervious cover may exceed the lot area by this much (measurement round-off)."""


@dataclass
class RunoffResult:
    """Runoff screen of many lots.

    Attributes
    ----------
    table : pandas.DataFrame
        One row per lot (the index of ``lot_area_sqft`` when it is a Series).
    storms_in : dict of int to float
        24-hour depth (inches) of each storm computed, by return period.
    assumptions : list of str
        Plain sentences a report must print with the numbers.
    """

    table: pd.DataFrame
    storms_in: dict[int, float]
    assumptions: list[str] = field(default_factory=list)


def parcel_runoff(
    lot_area_sqft: npt.ArrayLike,
    impervious_existing_sqft: npt.ArrayLike,
    impervious_proposed_sqft: npt.ArrayLike,
    soil: SoilInput,
    storms_in: Mapping[int, float],
    governing_storm_yr: npt.ArrayLike,
    unimproved_pre: npt.ArrayLike = False,
    pervious_cover_sqft: Mapping[str, npt.ArrayLike] | None = None,
    settings: RunoffSettings | None = None,
) -> RunoffResult:
    """Screen the runoff of lots before and after their projects.

    Parameters
    ----------
    lot_area_sqft : array
        Lot areas, square feet. All per-lot arrays are matched by position.
    impervious_existing_sqft, impervious_proposed_sqft : array
        Impervious cover now and after the project (total, not the change),
        square feet; NaN where unknown (the lot's results are then NaN).
    soil : str, sequence of str or mapping
        Hydrologic soil group of all lots, of each lot, or each lot's area (or
        share) in each group (see :func:`sitecheck.runoff.soils.hsg_shares`).
    storms_in : mapping of int to float
        24-hour rainfall depth (inches) by return period (years).
    governing_storm_yr : int or array
        Return period whose runoff increase sets each lot's retention; must
        be one of ``storms_in``. NaN gives a NaN retention.
    unimproved_pre : bool or array
        True for lots whose before condition is unimproved land (Scarsdale
        SDA); a missing value reads as False.
    pervious_cover_sqft : mapping of str to array, optional
        Each lot's area (or share) of TR-55 covers making up its pervious part
        (``open_space_good``, ``woods_fair``, ...). A lot with none of them
        takes ``settings.pervious_cover``.
    settings : RunoffSettings, optional

    Returns
    -------
    RunoffResult

    Raises
    ------
    InputError
        On negative areas, impervious cover larger than the lot, unknown
        covers or soil groups, or a governing storm without a depth.
    """
    settings = settings or RunoffSettings()
    lot, existing, proposed = _lot_areas(
        lot_area_sqft, impervious_existing_sqft, impervious_proposed_sqft
    )
    count = lot.size
    storms = _checked_storms(storms_in)
    governing = _governing_storms(governing_storm_yr, storms, count)
    unimproved = _true_where_given(_per_lot(unimproved_pre, count, "unimproved_pre"))
    surfaces = _Surfaces(
        lot,
        existing,
        proposed,
        unimproved,
        _pervious_cover_shares(pervious_cover_sqft, settings.pervious_cover, count),
        {settings.unimproved_cover: np.ones(count)},
    )
    soils = _SoilReadings.of(soil, count, settings.dual_hsg)
    columns = {"unimproved_pre": unimproved.copy(), **_coefficients(surfaces, soils, settings)}
    columns |= _storm_columns(surfaces, soils, storms, governing, settings.tc_min, columns)
    columns["wqv_cuft"] = wqv_cuft(proposed, lot, settings.wqv_rainfall_in)
    index = lot_area_sqft.index if isinstance(lot_area_sqft, pd.Series) else None
    no_soil = int(np.sum(np.isnan(soils.taken).any(axis=1)))
    screened = ScreenedLots(governing, int(np.sum(unimproved)), no_soil, bool(pervious_cover_sqft))
    assumptions = runoff_assumptions(settings, storms, screened)
    return RunoffResult(pd.DataFrame(columns, index=index), storms, assumptions)


@dataclass(frozen=True)
class _Surfaces:
    """Each lot's surfaces: its area, impervious cover now and after, whether its before is
    unimproved land, and the shares of its pervious covers (as it is, and unimproved)."""

    lot: np.ndarray
    existing: np.ndarray
    proposed: np.ndarray
    unimproved: np.ndarray
    cover_shares: dict[str, np.ndarray]
    unimproved_shares: dict[str, np.ndarray]

    def volumes(self, depth: float, soils: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Runoff before and after (cubic feet), surface by surface, on one reading of the
        soils."""
        lot, existing, proposed = self.lot, self.existing, self.proposed
        as_is = surface_runoff_cuft(depth, existing, lot - existing, soils, self.cover_shares)
        bare = (
            surface_runoff_cuft(depth, np.zeros(lot.size), lot, soils, self.unimproved_shares)
            if self.unimproved.any()
            else as_is
        )
        after = surface_runoff_cuft(depth, proposed, lot - proposed, soils, self.cover_shares)
        return np.where(self.unimproved, bare, as_is), after


@dataclass(frozen=True)
class _SoilReadings:
    """Each lot's soil-group shares as the settings read dual groups (``taken``) and on the
    other reading, and which lots have a dual group the two readings tell apart."""

    taken: np.ndarray
    taken_reading: DualReading
    other: np.ndarray
    other_reading: DualReading
    dual_lots: np.ndarray

    @classmethod
    def of(cls, soil: SoilInput, count: int, reading: DualReading) -> _SoilReadings:
        other_reading: DualReading = "drained" if reading == "undrained" else "undrained"
        taken = hsg_shares(soil, count, reading)
        other = hsg_shares(soil, count, other_reading)
        same = (taken == other) | (np.isnan(taken) & np.isnan(other))
        return cls(taken, reading, other, other_reading, ~np.all(same, axis=1))

    def larger_increase(
        self,
        increase: np.ndarray,
        chosen: np.ndarray,
        depth: float,
        surfaces: _Surfaces,
        drained: np.ndarray,
    ) -> np.ndarray:
        """The runoff increase of each lot on the reading of its dual group that gives the
        larger one; which reading that is goes into ``drained`` for the ``chosen`` lots."""
        if not self.dual_lots[chosen].any():
            return increase
        other_pre, other_post = surfaces.volumes(depth, self.other)
        other_increase = other_post - other_pre
        larger = self.dual_lots & (other_increase > increase)
        taken = np.where(larger, self.other_reading == "drained", self.taken_reading == "drained")
        drained[chosen & self.dual_lots] = taken[chosen & self.dual_lots]
        return np.where(larger, other_increase, increase)


def _storm_columns(
    surfaces: _Surfaces,
    soils: _SoilReadings,
    storms: dict[int, float],
    governing: np.ndarray,
    tc_min: float,
    coefficients: dict[str, np.ndarray],
) -> dict[str, np.ndarray]:
    """Each storm's runoff and peaks before and after, and the retention of each lot's
    governing storm (on the reading of a dual soil group that asks more)."""
    lot, count = surfaces.lot, surfaces.lot.size
    columns: dict[str, np.ndarray] = {}
    retention = np.full(count, np.nan)
    drained = np.full(count, np.nan)  # 1: drained reading, 0: undrained, NaN: no dual group
    for years, depth in storms.items():
        pre, post = surfaces.volumes(depth, soils.taken)
        columns[f"runoff_pre_cuft_{years}yr"] = pre
        columns[f"runoff_post_cuft_{years}yr"] = post
        intensity = float(intensity_in_hr(depth, tc_min))
        columns[f"peak_pre_cfs_{years}yr"] = rational_peak_cfs(
            coefficients["c_pre"], intensity, lot
        )
        columns[f"peak_post_cfs_{years}yr"] = rational_peak_cfs(
            coefficients["c_post"], intensity, lot
        )
        chosen = governing == years
        increase = soils.larger_increase(post - pre, chosen, depth, surfaces, drained)
        retention[chosen] = np.maximum(increase[chosen], 0.0)
    columns["retention_storm_yr"] = governing
    columns["retention_required_cuft"] = retention
    columns["retention_dual_drained"] = drained
    return columns


def _coefficients(
    surfaces: _Surfaces, soils: _SoilReadings, settings: RunoffSettings
) -> dict[str, np.ndarray]:
    """Each lot's TR-55 curve numbers and Rational-method runoff coefficients, before and
    after."""
    lot, unimproved = surfaces.lot, surfaces.unimproved
    cn_pervious = cover_cn_by_lot(surfaces.cover_shares, soils.taken)
    cn_impervious = soils.taken @ cover(IMPERVIOUS).cn_row()
    cn_unimproved = soils.taken @ cover(settings.unimproved_cover).cn_row()
    cn_existing = _weighted(surfaces.existing, lot, cn_impervious, cn_pervious)
    c_pervious = lawn_c(soils.taken, settings.lawn_slope)
    return {
        "cn_pre": np.where(unimproved, cn_unimproved, cn_existing),
        "cn_post": _weighted(surfaces.proposed, lot, cn_impervious, cn_pervious),
        "c_pre": composite_c(np.where(unimproved, 0.0, surfaces.existing), lot, c_pervious),
        "c_post": composite_c(surfaces.proposed, lot, c_pervious),
    }


def _lot_areas(
    lot_area: npt.ArrayLike, existing: npt.ArrayLike, proposed: npt.ArrayLike
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    named = {
        "lot_area_sqft": np.atleast_1d(np.asarray(lot_area, dtype=float)),
        "impervious_existing_sqft": np.atleast_1d(np.asarray(existing, dtype=float)),
        "impervious_proposed_sqft": np.atleast_1d(np.asarray(proposed, dtype=float)),
    }
    try:
        lot, old, new = np.broadcast_arrays(*named.values())
    except ValueError:
        sizes = ", ".join(f"{name} {values.size}" for name, values in named.items())
        raise InputError(f"lot areas: different numbers of lots ({sizes})") from None
    for name, values in zip(named, (lot, old, new), strict=True):
        if np.any(values < 0):
            raise InputError(f"{name}: negative area on {int(np.sum(values < 0))} lots")
    for name, values in (("impervious_existing_sqft", old), ("impervious_proposed_sqft", new)):
        over = values > lot + AREA_TOLERANCE_SQFT
        if np.any(over):
            raise InputError(f"{name}: larger than the lot area on {int(np.sum(over))} lots")
    return lot.astype(float), np.minimum(old, lot), np.minimum(new, lot)


def _checked_storms(storms_in: Mapping[int, float]) -> dict[int, float]:
    if not storms_in:
        raise InputError("rainfall: no design storms given")
    storms = {}
    for years, depth in sorted(storms_in.items()):
        if int(years) != years or years <= 0:
            raise InputError(f"rainfall: return period {years} is not a whole number of years")
        if not depth > 0:
            raise InputError(f"rainfall: the {years}-year depth {depth} in is not positive")
        storms[int(years)] = float(depth)
    return storms


def _governing_storms(
    governing_storm_yr: npt.ArrayLike, storms: dict[int, float], count: int
) -> np.ndarray:
    governing = _per_lot(governing_storm_yr, count, "governing storm").astype(float)
    known = np.isin(governing, list(storms)) | np.isnan(governing)
    if not np.all(known):
        missing = sorted({int(value) for value in governing[~known]})
        raise InputError(
            f"governing storm: no rainfall depth for the {', '.join(map(str, missing))}-year storm "
            f"(depths given for {', '.join(map(str, storms))} years)"
        )
    return governing


def _pervious_cover_shares(
    cover_sqft: Mapping[str, npt.ArrayLike] | None, default_cover: str, count: int
) -> dict[str, np.ndarray]:
    cover(default_cover)
    if not cover_sqft:
        return {default_cover: np.ones(count)}
    areas = {}
    for name, values in cover_sqft.items():
        if name == IMPERVIOUS:
            raise InputError(
                "land cover: give impervious cover as impervious_existing/proposed_sqft, "
                "not as a pervious cover"
            )
        cover(name)
        area = _per_lot(values, count, f"land cover {name}").astype(float)
        if np.any(area < 0):
            raise InputError(f"land cover {name}: negative area on {int(np.sum(area < 0))} lots")
        areas[name] = np.nan_to_num(area)
    total = sum(areas.values())
    described = total > 0
    with np.errstate(invalid="ignore", divide="ignore"):
        shares = {name: np.where(described, area / total, 0.0) for name, area in areas.items()}
    shares[default_cover] = shares.get(default_cover, np.zeros(count)) + np.where(
        described, 0.0, 1.0
    )
    return shares


def _true_where_given(values: np.ndarray) -> np.ndarray:
    """True where a value is given and true; a missing value reads as False."""
    return np.array([not pd.isna(value) and bool(value) for value in values])


def _per_lot(values: npt.ArrayLike, count: int, name: str) -> np.ndarray:
    array = np.asarray(values)
    try:
        return np.broadcast_to(array, (count,)).copy()
    except ValueError:
        raise InputError(f"{name}: {array.size} values for {count} lots") from None


def _weighted(
    impervious: np.ndarray, lot: np.ndarray, cn_impervious: np.ndarray, cn_pervious: np.ndarray
) -> np.ndarray:
    with np.errstate(invalid="ignore", divide="ignore"):
        share = np.where(lot > 0, impervious / lot, np.nan)
    return share * cn_impervious + (1.0 - share) * cn_pervious
