"""What a flag kind is: one kind of place where the disturbance meets a constraint.

The kinds themselves are listed in :mod:`sitecheck.schema.flags`.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class FlagKind:
    """One kind of flag.

    Attributes
    ----------
    key : str
        The ``kind`` field of the flags layer.
    label : str
        How every legend names it.
    colour : str
        How every map colours it (``#rrggbb``).
    metric : str
        The metric that measures it: a trigger naming the metric shows this flag.
    rank : int
        Stacking order on a map, the lowest drawn first: wide, faint areas low, so
        narrower ones stay visible on top.
    hatch : str or None
        A hatch for the report's maps, in matplotlib's notation (``/``, ``\\``, ``|``,
        ``-``, ``+``, ``x``, repeated for density): thin strips along lot lines are
        hatched, so the lot line stays readable under them.
    """

    key: str
    label: str
    colour: str
    metric: str
    rank: int
    hatch: str | None = None
