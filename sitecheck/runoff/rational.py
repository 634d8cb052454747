"""Peak flow by the Rational method, Q = C i A, with the intensity taken from the 24-hour depth.

Q (cfs) = C * i (in/hr) * A (acres); the unit factor (1.008 cfs per acre-inch
per hour) is taken as 1.0, as FHWA HEC-22 equation 3-1 does in English units.

Runoff coefficient C (ASCE Manual of Practice 77 / FHWA HEC-22 Table 3-1,
"Runoff Coefficients for Rational Formula"): impervious surfaces 0.95 (the top
of the roofs, asphalt and concrete ranges); lawns by soil texture and slope,
the middle of each published range:

=================  =========  ==============  ==========
soil \\ slope       flat <2%   average 2-7%    steep >7%
=================  =========  ==============  ==========
sandy (HSG A, B)   0.05-0.10  0.10-0.15       0.15-0.20
heavy (HSG C, D)   0.13-0.17  0.18-0.22       0.25-0.35
=================  =========  ==============  ==========

Every pervious cover (woods, gravel too) takes the lawn coefficient: the table
has no woods row on these soils, so an unimproved (wooded) "before" is given
a lawn's C, which if anything understates the peak increase.

Intensity: the villages give 24-hour depths, not intensity-duration curves.
The intensity for a duration equal to the time of concentration Tc is the
average over the Tc-long window at the centre of the NRCS Type III 24-hour
storm (New York lies in the Type III region), using the closed-form fit of
the Type III mass curve of Haan, Barfield and Hayes (1994, Design Hydrology
and Sedimentology for Small Catchments) with the coefficients of
Muñoz-Carpena and Parsons (2004), as coded in VFSMOD::

    P(t) / P24 = 0.5 + (T / 24) * (24.04 / (2 |T| + 0.04))^0.75,  T = t - 12 h
    i(Tc) = P24 / 24 * (24.04 / (Tc + 0.04))^0.75          (Tc in hours)

Tc defaults to 0.1 hour (6 minutes), the smallest Tc TR-55 uses, which suits
house lots. The Type III centre is sharper than many regional short-duration
statistics, so these intensities are on the high side; a site design must
use the site's own intensity-duration data.
"""

from __future__ import annotations

from typing import Literal

import numpy as np
import numpy.typing as npt

from sitecheck.errors import InputError
from sitecheck.schema.metrics import SQFT_PER_ACRE

LawnSlope = Literal["flat", "average", "steep"]
LAWN_SLOPES: tuple[str, ...] = ("flat", "average", "steep")

IMPERVIOUS_C = 0.95
LAWN_C_SANDY = {"flat": 0.075, "average": 0.125, "steep": 0.175}
LAWN_C_HEAVY = {"flat": 0.15, "average": 0.20, "steep": 0.30}

MINIMUM_TC_MIN = 6.0
"""TR-55 chapter 3: the minimum time of concentration it uses is 0.1 hour."""


def lawn_c(hsg_shares: np.ndarray, slope: LawnSlope = "average") -> np.ndarray:
    """Rational C of lawn per lot: sandy-soil C on groups A and B, heavy-soil C on C and D."""
    if slope not in LAWN_SLOPES:
        raise InputError(f"lawn slope: '{slope}' is not one of {', '.join(LAWN_SLOPES)}")
    sandy = hsg_shares[:, 0] + hsg_shares[:, 1]
    heavy = hsg_shares[:, 2] + hsg_shares[:, 3]
    return sandy * LAWN_C_SANDY[slope] + heavy * LAWN_C_HEAVY[slope]


def composite_c(
    impervious_sqft: npt.ArrayLike, lot_area_sqft: npt.ArrayLike, pervious_c: npt.ArrayLike
) -> np.ndarray:
    """Area-weighted Rational C of impervious cover (0.95) and the rest of the lot."""
    impervious = np.asarray(impervious_sqft, dtype=float)
    area = np.asarray(lot_area_sqft, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        share = np.where(area > 0, impervious / area, np.nan)
    return share * IMPERVIOUS_C + (1.0 - share) * np.asarray(pervious_c, dtype=float)


def intensity_in_hr(p24_in: npt.ArrayLike, tc_min: float = MINIMUM_TC_MIN) -> np.ndarray:
    """Average rainfall intensity (in/hr) over the central ``tc_min`` minutes of a Type III storm.

    Parameters
    ----------
    p24_in : float or array
        24-hour rainfall depth, inches.
    tc_min : float
        Time of concentration, minutes; at least 6 (TR-55's minimum) and at
        most 1440.

    Raises
    ------
    InputError
        When ``tc_min`` is outside 6 to 1440 minutes or a depth is negative.
    """
    if not MINIMUM_TC_MIN <= tc_min <= 1440:
        raise InputError(
            f"time of concentration: {tc_min:g} min is outside {MINIMUM_TC_MIN:g} to 1440 min"
        )
    depth = np.asarray(p24_in, dtype=float)
    if np.any(depth < 0):
        raise InputError("rainfall depth: negative value")
    tc_hr = tc_min / 60.0
    return depth / 24.0 * (24.04 / (tc_hr + 0.04)) ** 0.75


def rational_peak_cfs(
    c: npt.ArrayLike, intensity: npt.ArrayLike, area_sqft: npt.ArrayLike
) -> np.ndarray:
    """Rational peak flow Q = C i A in cubic feet per second (i in in/hr, A in square feet)."""
    area_acres = np.asarray(area_sqft, dtype=float) / SQFT_PER_ACRE
    return np.asarray(c, dtype=float) * np.asarray(intensity, dtype=float) * area_acres
