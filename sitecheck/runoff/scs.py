"""TR-55 (SCS curve-number) runoff depth and volume.

TR-55 chapter 2, equation 2-1, Q = (P - Ia)^2 / ((P - Ia) + S), with the
initial abstraction Ia = 0.2 S (equation 2-2), which gives equations 2-3 and 2-4::

    S = 1000 / CN - 10                        (inches)
    Q = (P - 0.2 S)^2 / (P + 0.8 S)   for P > 0.2 S, else 0   (inches)

P is the 24-hour rainfall depth and Q the direct runoff depth, both in inches.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from sitecheck.errors import InputError

INITIAL_ABSTRACTION_RATIO = 0.2


def potential_retention_in(cn: npt.ArrayLike) -> np.ndarray:
    """Potential maximum retention S (inches) for curve numbers 0 < CN <= 100."""
    curve = _checked_cn(cn)
    return 1000.0 / curve - 10.0


def runoff_depth_in(p_in: npt.ArrayLike, cn: npt.ArrayLike) -> np.ndarray:
    """Direct runoff depth Q (inches) for rainfall P (inches) and curve number CN.

    Parameters
    ----------
    p_in : float or array
        24-hour rainfall depth, inches, >= 0.
    cn : float or array
        Curve number, 0 < CN <= 100. NaN gives NaN.

    Returns
    -------
    numpy.ndarray
        Runoff depth in inches (broadcast shape of the inputs); 0 where
        P <= 0.2 S.

    Raises
    ------
    InputError
        When a curve number is outside (0, 100] or a rainfall depth is negative.
    """
    rain = np.asarray(p_in, dtype=float)
    if np.any(rain < 0):
        raise InputError(f"rainfall depth: negative value {float(np.nanmin(rain))} in")
    retention = potential_retention_in(cn)
    abstraction = INITIAL_ABSTRACTION_RATIO * retention
    excess = rain - abstraction
    denominator = excess + retention
    with np.errstate(invalid="ignore", divide="ignore"):
        depth = np.where(excess > 0, excess**2 / denominator, 0.0)
    return np.where(np.isnan(rain) | np.isnan(retention), np.nan, depth)


def runoff_volume_cuft(q_in: npt.ArrayLike, area_sqft: npt.ArrayLike) -> np.ndarray:
    """Runoff volume in cubic feet: depth (inches) over an area (square feet)."""
    return np.asarray(q_in, dtype=float) / 12.0 * np.asarray(area_sqft, dtype=float)


def _checked_cn(cn: npt.ArrayLike) -> np.ndarray:
    curve = np.asarray(cn, dtype=float)
    outside = (curve <= 0) | (curve > 100)
    if np.any(outside):
        bad = curve[outside].flat[0]
        raise InputError(f"curve number: {bad:g} is outside 0 < CN <= 100")
    return curve
