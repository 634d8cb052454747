"""Each screened lot's runoff note: why a number is missing, or what a number rests on.

A lot whose curve number or runoff is null says why, in its own entry (the run's
warnings cannot name lots: a run split in windows gives the same warnings as a
whole run). The note is ``runoff_note`` among the lot's metrics; a lot screened
on fully grouped soils with both impervious layers has none.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from sitecheck.measure.inputs import MeasureResult
from sitecheck.screening.lot_soils import LotSoils
from sitecheck.screening.runoff_result import UNMAPPED_TOLERANCE_SQFT, RunoffOptions


def lot_notes(
    table: pd.DataFrame,
    facts: pd.DataFrame,
    soils: LotSoils,
    positions: np.ndarray,
    measured: MeasureResult,
    options: RunoffOptions,
) -> list[str | None]:
    """The note of each of a pack's screened lots.

    Parameters
    ----------
    table : DataFrame
        The pack's runoff metrics, a row per lot.
    facts : DataFrame
        The same lots' facts (``missing_cover``, ``partly_unmapped``).
    soils : LotSoils
        The soils under every screened lot of the run.
    positions : ndarray of int
        Where the pack's lots are among the run's screened lots (``soils``'s rows).
    measured : MeasureResult
    options : RunoffOptions
    """
    rows = table.index.to_numpy()
    existing = measured.parcels["impervious_existing_sqft"].to_numpy(dtype=float)[rows]
    proposed = measured.parcels["impervious_proposed_sqft"].to_numpy(dtype=float)[rows]
    missing_cover = facts["missing_cover"].to_numpy(dtype=bool)
    partly_unmapped = facts["partly_unmapped"].to_numpy(dtype=bool)
    no_number = np.isnan(table["cn_post"].to_numpy(dtype=float))
    no_group_sqft = soils.no_group[positions] * measured.working.sqft_per_unit2
    units = [soils.no_group_units[position] for position in positions.tolist()]
    has_units = np.array([bool(words) for words in units], dtype=bool)
    left_out = has_units & (no_group_sqft > UNMAPPED_TOLERANCE_SQFT)
    notes: list[str | None] = [None] * len(positions)
    # A county's lots are nearly all without a note: only those with one are worded.
    for at in np.flatnonzero(missing_cover | no_number | left_out).tolist():
        if missing_cover[at]:
            notes[at] = _cover_words(existing[at], proposed[at])
        elif no_number[at]:
            notes[at] = _no_number_words(units[at], bool(partly_unmapped[at]), options)
        else:
            notes[at] = _left_out_words(units[at], float(no_group_sqft[at]), options)
    return notes


def _left_out_words(units: str, sqft: float, options: RunoffOptions) -> str:
    filler = (
        f"taken as group {options.default_hsg} (--default-hsg)"
        if options.default_hsg
        else "left out: the soil shares come from the rest of the lot"
    )
    return (
        f"{sqft:,.0f} sq ft of the lot are on map units the survey gives no hydrologic soil "
        f"group ({units}), {filler}"
    )


def _cover_words(existing: float, proposed: float) -> str:
    missing = [
        name for name, value in (("existing", existing), ("proposed", proposed)) if np.isnan(value)
    ]
    return (
        f"runoff not screened: no {' or '.join(missing)} impervious cover measured for the lot "
        "(give both the existing and the proposed impervious layers)"
    )


def _no_number_words(units: str, partly_unmapped: bool, options: RunoffOptions) -> str:
    if units:
        where = f"the lot is on map units the survey gives no hydrologic soil group ({units})" + (
            " and on ground the soils layer does not map" if partly_unmapped else ""
        )
    elif options.soils is not None:
        where = "the soils layer maps none of the lot"
    else:
        where = "no soil group was given"
    return f"no curve number: {where}; give the lot's group with --default-hsg"
