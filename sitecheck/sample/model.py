"""What one district of the sample village is made of: its stream, hill, projects and template."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt
import pandas as pd
import shapely


@dataclass(frozen=True)
class Stream:
    """Centre line of the stream: a meander around ``y0``, periodic over the district width."""

    y0: float
    x_phase: float
    amplitude: float
    waves: int
    width: float

    def y(self, x: npt.ArrayLike) -> np.ndarray:
        """Northing of the centre line at eastings ``x`` (local feet)."""
        angle = 2.0 * np.pi * self.waves * (np.asarray(x) - self.x_phase) / self.width
        return self.y0 - self.amplitude * np.cos(angle)

    def slope(self, x: npt.ArrayLike) -> np.ndarray:
        """dy/dx of the centre line."""
        k = 2.0 * np.pi * self.waves / self.width
        return self.amplitude * k * np.sin(k * (np.asarray(x) - self.x_phase))


@dataclass(frozen=True)
class Terrain:
    """What the DEM is made of, in district-local feet (the surface repeats by district).

    ``hill`` is (x, y, height, west scale, east scale, north-south scale); the
    small east scale makes the east face steep. ``hole`` is (x, y, radius) of
    the nodata hole, in the first district only.
    """

    width: float
    height: float
    stream: Stream
    valley_rise: float
    valley_half_width: float
    hill: tuple[float, float, float, float, float, float]
    hole: tuple[float, float, float]


@dataclass
class Project:
    """A hand-placed project on a template lot (district-local coordinates)."""

    name: str
    lot: int
    exercises: str
    project_type: str = "single_family_home"
    activity: str = "construction"
    permit: str | None = "building"
    disturbance: list[tuple[shapely.Geometry, int | None]] = field(default_factory=list)
    added: list[tuple[shapely.Geometry, str]] = field(default_factory=list)
    removed: list[int] = field(default_factory=list)
    spills_onto: int | None = None

    def lots(self) -> list[int]:
        """The project's lot and the neighbour its work spills onto, if any."""
        return [self.lot] if self.spills_onto is None else [self.lot, self.spills_onto]


@dataclass
class Template:
    """One district: lots, impervious cover, constraint layers, projects and terrain.

    ``lots`` holds one row per lot (sorted by block) with its frame: ``front_y``
    and ``side`` (+1 when the lot runs north from its front line, -1 when
    south), ``depth``, the inner rectangle ``x0``..``x1`` that lies wholly in
    the lot, and the house box ``hx0, hx1, hv0, hv1`` where ``v`` is the
    distance from the front lot line. ``features`` holds the impervious cover.
    """

    width: float
    height: float
    lots: pd.DataFrame
    lot_geoms: np.ndarray
    features: pd.DataFrame
    constraints: dict[str, tuple[np.ndarray, dict[str, list[object]]]]
    projects: list[Project]
    terrain: Terrain
