"""What users may change about the runoff screen."""

from __future__ import annotations

from dataclasses import dataclass

from sitecheck.runoff.rational import MINIMUM_TC_MIN, LawnSlope
from sitecheck.runoff.soils import DualReading
from sitecheck.runoff.water_quality import DEFAULT_WQV_RAINFALL_IN


@dataclass(frozen=True)
class RunoffSettings:
    """What users may change about the runoff screen.

    Attributes
    ----------
    pervious_cover : str
        TR-55 cover of the pervious part of a lot when no cover areas are given.
    unimproved_cover : str
        TR-55 cover of an SDA lot's "unimproved land area" before condition.
    dual_hsg : {"undrained", "drained"}
        How dual soil groups (A/D, B/D, C/D) are read.
    wqv_rainfall_in : float
        90% rainfall event number P for WQv, inches (confirm on Design Manual Figure 4.1).
    tc_min : float
        Time of concentration for the Rational method, minutes (at least 6).
    lawn_slope : {"flat", "average", "steep"}
        Slope class of pervious ground for the Rational C.
    """

    pervious_cover: str = "open_space_good"
    unimproved_cover: str = "woods_good"
    dual_hsg: DualReading = "undrained"
    wqv_rainfall_in: float = DEFAULT_WQV_RAINFALL_IN
    tc_min: float = MINIMUM_TC_MIN
    lawn_slope: LawnSlope = "average"

    def to_json(self) -> dict[str, object]:
        return {
            "pervious_cover": self.pervious_cover,
            "unimproved_cover": self.unimproved_cover,
            "dual_hsg": self.dual_hsg,
            "wqv_rainfall_in": self.wqv_rainfall_in,
            "tc_min": self.tc_min,
            "lawn_slope": self.lawn_slope,
        }
