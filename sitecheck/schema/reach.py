"""How far around a lot its measures reach: what a window or a neighbourhood must hold."""

from __future__ import annotations

BASE_REACH_FT = 300.0
"""Margin beyond the widest buffer, for the lots that share a lot line with a lot in view."""


def reach_ft(*widths_ft: float) -> float:
    """The distance from a lot (and its drawn work) beyond which nothing changes its answers.

    Parameters
    ----------
    *widths_ft : float
        Every buffer width of the run (wetland adjacent area, watercourse
        buffer, setbacks of the adjoining property buffer), feet.
    """
    return BASE_REACH_FT + max(widths_ft, default=0.0)
