"""Water-quality volume (WQv), NYS Stormwater Management Design Manual, the 90% rule.

Design Manual chapter 4, Table 4.1 (New York Stormwater Sizing Criteria)::

    WQv = P * Rv * A / 12        (acre-feet with A in acres; cubic feet with A in sq ft)
    Rv  = 0.05 + 0.009 * I       (I = impervious cover, percent)
    minimum Rv = 0.2

P is the 90% rainfall event number in inches, read for the site from the
manual's Figure 4.1 map of New York; it varies across the state (roughly 0.9
to 1.5 in), so it is a parameter and every report must confirm it for the
site. The 2010 edition applies the 0.2 minimum "if WQv > RRv" (where runoff
reduction does not meet the whole WQv); a screen applies it always.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from sitecheck.errors import InputError

DEFAULT_WQV_RAINFALL_IN = 1.0
"""Default 90% rainfall (inches): a round screening value; confirm on Figure 4.1 for the site."""

MINIMUM_RV = 0.2


def runoff_coefficient_rv(impervious_pct: npt.ArrayLike) -> np.ndarray:
    """Volumetric runoff coefficient Rv = 0.05 + 0.009 I, at least 0.2."""
    percent = np.asarray(impervious_pct, dtype=float)
    if np.any((percent < 0) | (percent > 100)):
        raise InputError("impervious cover: percent outside 0 to 100")
    rv = np.maximum(0.05 + 0.009 * percent, MINIMUM_RV)
    return np.where(np.isnan(percent), np.nan, rv)


def wqv_cuft(
    impervious_sqft: npt.ArrayLike,
    area_sqft: npt.ArrayLike,
    rainfall_in: float = DEFAULT_WQV_RAINFALL_IN,
) -> np.ndarray:
    """Water-quality volume in cubic feet of a site of ``area_sqft``.

    Parameters
    ----------
    impervious_sqft : float or array
        Impervious cover on the site (post-development), square feet.
    area_sqft : float or array
        Site area, square feet.
    rainfall_in : float
        90% rainfall event number P, inches (Design Manual Figure 4.1).

    Returns
    -------
    numpy.ndarray
        WQv, cubic feet. NaN where the area is zero or a value is missing.

    Raises
    ------
    InputError
        When ``rainfall_in`` is not positive or impervious cover exceeds the area.
    """
    if not rainfall_in > 0:
        raise InputError(f"WQv rainfall: {rainfall_in} in is not a positive depth")
    impervious = np.asarray(impervious_sqft, dtype=float)
    area = np.asarray(area_sqft, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        percent = np.where(area > 0, 100.0 * impervious / area, np.nan)
    if np.any(percent > 100 + 1e-9):
        raise InputError("impervious cover: larger than the lot area")
    rv = runoff_coefficient_rv(np.clip(percent, 0.0, 100.0))
    return rainfall_in * rv * area / 12.0
