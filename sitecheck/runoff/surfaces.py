"""Runoff of a lot surface by surface: impervious cover apart from each pervious cover.

TR-55 (chapter 2) warns that one area-weighted curve number understates the
runoff of a lot whose impervious cover drains apart from its lawn: the runoff
equation is far from linear, so a lawn's initial abstraction "absorbs" rain
that in truth runs off the pavement. New pavement on A soils nearly vanished
in a composite number (11 cu ft of 1-year runoff against about 3,100 computed
surface by surface). Here each surface, impervious cover at its CN on each
soil group and each pervious cover on each soil group, gets its own runoff
depth, and the volumes are summed.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from sitecheck.runoff.curve_numbers import IMPERVIOUS, cover
from sitecheck.runoff.scs import runoff_depth_in, runoff_volume_cuft


def surface_runoff_cuft(
    p_in: float,
    impervious_sqft: np.ndarray,
    pervious_sqft: np.ndarray,
    soils: np.ndarray,
    cover_shares: Mapping[str, np.ndarray],
) -> np.ndarray:
    """Each lot's runoff volume (cubic feet) of one 24-hour storm, summed over its surfaces.

    Parameters
    ----------
    p_in : float
        24-hour rainfall, inches.
    impervious_sqft, pervious_sqft : ndarray
        Each lot's impervious and pervious area, square feet.
    soils : ndarray
        Shape ``(lots, 4)``: each lot's share of soil groups A to D (NaN where
        unknown: the lot's volume is then NaN).
    cover_shares : mapping of str to ndarray
        Each lot's share of each TR-55 cover in its pervious part.
    """
    volume = np.zeros(len(impervious_sqft))
    surfaces = [(IMPERVIOUS, impervious_sqft), *((name, None) for name in cover_shares)]
    for name, area in surfaces:
        covered = area if area is not None else pervious_sqft * cover_shares[name]
        for group, cn in enumerate(cover(name).cn_row()):
            depth = runoff_depth_in(p_in, cn)
            volume = volume + runoff_volume_cuft(depth, covered * soils[:, group])
    return volume
