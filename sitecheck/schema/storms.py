"""Design-storm depths: the shape a pack's ``[runoff] rainfall`` table and ``--rainfall`` share.

Packs (:mod:`sitecheck.rules.pack`) read depths into it and the runoff library
(:mod:`sitecheck.runoff`) computes with it, so neither imports the other.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class DesignRainfall:
    """Design-storm depths for one place.

    Attributes
    ----------
    place : str
        Village key (``larchmont``) or ``user`` for an override.
    depths_in : dict of int to float
        24-hour rainfall depth in inches by return period in years.
    source : str
        Where the depths come from.
    default : bool
        True for pack defaults that must be confirmed for the site.
    confirmed : bool
        True when the depths were copied from ``source``; False for placeholders.
    note : str
        Why the depths are not confirmed, or empty.
    """

    place: str
    depths_in: dict[int, float]
    source: str
    default: bool
    confirmed: bool
    note: str = ""

    def to_json(self) -> dict[str, object]:
        return {
            "place": self.place,
            "depths_in": {str(years): depth for years, depth in self.depths_in.items()},
            "duration_hr": 24,
            "source": self.source,
            "default": self.default,
            "confirmed": self.confirmed,
            "note": self.note,
        }


def storm_summary(governing: int | None, under_review: tuple[int, ...] = ()) -> str:
    """How every output words a parcel's design storm (years), reviews included.

    A storm a rule under review would set, larger than the governing one, is
    named after it: ``"50, or 100: review"``; ``"none"`` when no rule names one.

    Parameters
    ----------
    governing : int or None
        The largest storm a triggered rule names.
    under_review : tuple of int
        Larger storms named by rules that need review, smallest first.
    """
    head = str(governing) if governing else "none"
    if not under_review:
        return head
    return f"{head}, or {' or '.join(str(years) for years in under_review)}: review"
