"""The ten hand-placed projects of the first district, each exercising some measurements."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pandas as pd
import shapely

from sitecheck.sample.constants import STREAM_ROW
from sitecheck.sample.cover import frame_box
from sitecheck.sample.model import Project, Stream


@dataclass(frozen=True)
class Site:
    """What the hand-placed projects are fitted to: lots, cover and constraints.

    ``quiet`` marks the lots outside the SDA and the impaired watershed, where
    projects that exercise something else are put.
    """

    lots: pd.DataFrame
    geoms: np.ndarray
    features: pd.DataFrame
    stream: Stream
    sda: shapely.Geometry
    wetlands: shapely.Geometry
    floodway: shapely.Geometry
    quiet: np.ndarray


def pick_lot(lots: pd.DataFrame, mask: pd.Series | np.ndarray, used: list[int]) -> int | None:
    """The middle candidate lot (by position in the table) not used yet."""
    candidates = lots.index[np.asarray(mask) & ~lots.index.isin(used)]
    return None if len(candidates) == 0 else int(candidates[len(candidates) // 2])


def _box(lot: pd.Series, x0: float, x1: float, v0: float, v1: float) -> shapely.Geometry:
    return frame_box(lot.front_y, lot.side, x0, x1, v0, v1)


def _p1_patio(site: Site, used: list[int]) -> Project | None:
    lots = site.lots
    mask = (
        (lots.zone == "A-4")
        & (lots.use == "210")
        & (lots.area < 7500.0)
        & (lots.depth - lots.rear_free >= 24.0)
        & (lots.side == 1)
        & site.quiet
    )
    i = pick_lot(lots, mask, used)
    if i is None:
        return None
    lot = lots.loc[i]
    cx, v = (lot.hx0 + lot.hx1) / 2.0, lot.rear_free
    return Project(
        "P1 patio",
        i,
        "about 300 sq ft of disturbance (under 500) on a lot under 7,500 sq ft",
        disturbance=[(_box(lot, cx - 10.0, cx + 10.0, v, v + 15.0), None)],
        added=[(_box(lot, cx - 9.0, cx + 9.0, v + 1.0, v + 14.0), "patio")],
    )


def _streamside(
    site: Site,
    used: list[int],
    work: Callable[[float, float, float], shapely.Geometry],
    touch: shapely.Geometry | None = None,
) -> tuple[int, float, float, float] | None:
    """A south-row stream lot and a place along it for work set against the stream.

    ``work(x, y, rear)`` gives the work's polygon for the stream at easting
    ``x`` (northing ``y``) on a lot whose rear line is at northing ``rear``.
    The work must lie inside the lot, keep 110 ft from the wetlands and, when
    ``touch`` is given, overlap it by 200 sq ft. Lots outside the SDA and the
    impaired watershed are tried first; the place where the stream runs
    deepest into its lot wins. Returns the lot, easting, stream northing and
    rear-line northing.
    """
    lots = site.lots
    base = (lots.row == STREAM_ROW) & (lots.side == 1) & lots.has_house & ~lots.index.isin(used)
    for mask in (base & site.quiet, base):
        best: tuple[float, int, float, float, float] | None = None
        for i in lots.index[mask]:
            rear = float(lots.front_y[i] + lots.depth[i])
            xs = np.arange(lots.x0[i] + 25.0, lots.x1[i] - 25.0, 5.0)
            ys = site.stream.y(xs)
            places = np.array(
                [work(x, y, rear) for x, y in zip(xs.tolist(), ys.tolist(), strict=True)]
            )
            fits = shapely.within(places, site.geoms[i]) & (
                shapely.distance(places, site.wetlands) >= 110.0
            )
            if touch is not None:
                fits &= shapely.area(shapely.intersection(places, touch)) >= 200.0
            if not fits.any():
                continue
            k = int(np.flatnonzero(fits)[np.argmin(ys[fits])])
            if best is None or ys[k] - rear < best[0]:
                best = (float(ys[k] - rear), int(i), float(xs[k]), float(ys[k]), rear)
        if best is not None:
            return best[1:]
    return None


def _p2_floodplain(site: Site, used: list[int]) -> Project | None:
    def work(x: float, y: float, rear: float) -> shapely.Geometry:
        top = min(y + 8.0, rear)
        return shapely.box(x - 20.0, top - 132.0, x + 20.0, top)

    found = _streamside(site, used, work, site.floodway)
    if found is None:
        return None
    i, x, y, rear = found
    top = min(y + 8.0, rear)
    return Project(
        "P2 floodplain terrace",
        i,
        "about 5,300 sq ft of disturbance on a lot touching the floodway, the 1% floodplain "
        "and the 0.2% band; the work reaches all three",
        disturbance=[(work(x, y, rear), None)],
        added=[(shapely.box(x - 12.0, top - 128.0, x + 12.0, top - 108.0), "patio")],
    )


def _p3_subdivision(site: Site, used: list[int]) -> Project | None:
    i = pick_lot(site.lots, site.lots.forced, used)
    if i is None:
        return None
    lot = site.lots.loc[i]
    x0, w = lot.x0, lot.x1 - lot.x0
    east = (x0 + 0.45 * w, x0 + 0.96 * w)
    road = x0 + 0.47 * w
    h1, h2, h3 = x0 + 0.55 * w, x0 + 0.78 * w, x0 + 0.60 * w
    added = [
        (_box(lot, road, road + 22.0, 0.0, 285.0), "driveway"),
        (_box(lot, h1, h1 + 55.0, 60.0, 110.0), "building"),
        (_box(lot, road + 22.0, h1, 75.0, 87.0), "driveway"),
        (_box(lot, h2, h2 + 55.0, 60.0, 110.0), "building"),
        (_box(lot, h1 + 55.0, h2, 75.0, 87.0), "driveway"),
        (_box(lot, h3, h3 + 50.0, 262.0, 305.0), "building"),
        (_box(lot, road + 22.0, h3, 270.0, 282.0), "driveway"),
    ]
    return Project(
        "P3 estate subdivision",
        i,
        "over two acres disturbed in three phases (largest over one acre) on a lot over two "
        "acres; reaches the wetland, its 100-ft adjacent area and slopes over 25%",
        project_type="single_family_subdivision",
        disturbance=[
            (_box(lot, *east, 0.0, 250.0), 1),
            (_box(lot, *east, 250.0, 350.0), 2),
            (_box(lot, x0 + 0.04 * w, x0 + 0.45 * w, 190.0, 340.0), 3),
        ],
        added=added,
    )


def _free_side(lots: pd.DataFrame) -> pd.Series:
    """Room between the house and the inner edge on the side away from the driveway."""
    return pd.Series(
        np.where(lots.drive_left, lots.x1 - lots.hx1, lots.hx0 - lots.x0), index=lots.index
    )


def _p4_driveway(site: Site, used: list[int]) -> Project | None:
    lots = site.lots
    mask = (lots.row == 4) & (lots.use == "210") & ~lots.garage.astype(bool) & site.quiet
    i = pick_lot(lots, mask & (_free_side(lots) >= 26.0), used)
    if i is None:
        return None
    lot = lots.loc[i]
    nx0 = lot.hx1 + 4.0 if lot.drive_left else lot.hx0 - 16.0
    return Project(
        "P4 new driveway",
        i,
        "new driveway adding impervious cover; the disturbance runs past the front lot line "
        "into the street (curb cut)",
        disturbance=[(_box(lot, nx0 - 3.0, nx0 + 15.0, -12.0, lot.hv0 + 34.0), None)],
        added=[(_box(lot, nx0, nx0 + 12.0, 0.0, lot.hv0 + 30.0), "driveway")],
    )


def _p5_pool(site: Site, used: list[int]) -> Project | None:
    lots = site.lots
    mask = (
        (lots.row == 5)
        & (lots.use == "210")
        & ~lots.part_last.astype(bool)
        & (lots.depth - lots.rear_free >= 45.0)
        & site.quiet
    )
    i = pick_lot(lots, mask, used)
    if i is None:
        return None
    lot = lots.loc[i]
    v, side_line = lot.rear_free, max(lot.fx1, lot.rx1)
    return Project(
        "P5 pool over the side line",
        i,
        "disturbance crossing a side lot line onto the neighbouring lot",
        disturbance=[(_box(lot, lot.x1 - 60.0, side_line + 8.0, v + 2.0, v + 38.0), None)],
        added=[(_box(lot, lot.x1 - 52.0, lot.x1 - 16.0, v + 8.0, v + 30.0), "patio")],
        spills_onto=i + 1,
    )  # the next lot of the same row


def _p6_sda(site: Site, used: list[int]) -> Project | None:
    lots = site.lots
    room_left, room_right = lots.hx0 - lots.x0, lots.x1 - lots.hx1
    inside = shapely.within(site.geoms, site.sda)
    # Neighbours on both sides: the work must reach a line shared with a lot, not a street.
    mid_row = ~lots.part_first.astype(bool) & ~lots.part_last.astype(bool)
    mask = (
        (lots.row == 2)
        & (lots.use == "210")
        & ~lots.garage.astype(bool)
        & inside
        & mid_row
        & (np.maximum(room_left, room_right) >= 20.0)
    )
    i = pick_lot(lots, mask, used)
    if i is None:
        return None
    lot = lots.loc[i]
    v = lot.hv0
    along = np.array([v - 5.0, v + 55.0]) / lot.depth
    if room_left[i] >= room_right[i]:
        edge = float(np.max(lot.fx0 + (lot.rx0 - lot.fx0) * along)) + 2.0
        work = (edge, edge + 30.0)
        addition = (lot.x0 + 10.0, lot.hx0)
    else:
        edge = float(np.min(lot.fx1 + (lot.rx1 - lot.fx1) * along)) - 2.0
        work = (edge - 30.0, edge)
        addition = (lot.hx1, lot.x1 - 10.0)
    return Project(
        "P6 side addition in the SDA",
        i,
        "about 1,800 sq ft of disturbance in the sensitive drainage area reaching the side-yard "
        "strip along the neighbouring lot (adjoining property buffer)",
        disturbance=[(_box(lot, *work, v - 5.0, v + 55.0), None)],
        added=[(_box(lot, *addition, v + 5.0, v + 35.0), "building")],
    )


def _p7_demolition(site: Site, used: list[int]) -> Project | None:
    lots, features = site.lots, site.features
    garages = lots.garage.astype(bool) & (lots.use == "210")
    i = pick_lot(lots, garages & (lots.row == 6) & site.quiet, used)
    if i is None:
        i = pick_lot(lots, garages, used)
    if i is None:
        return None
    lot = lots.loc[i]
    own = features[features.lot == i]
    garage = own[own.role == "garage"].index[0]
    drive = own[own.role == "drive"].index[0]
    gx0, _gy0, gx1, _gy1 = shapely.bounds(features.geom[garage])
    x0, x1 = min(lot.dx0, gx0) - 4.0, max(lot.dx1, gx1) + 5.0
    return Project(
        "P7 garage demolition",
        i,
        "demolition permit; removing a garage and its drive reduces impervious cover",
        activity="demolition",
        permit="demolition",
        disturbance=[(_box(lot, x0, x1, lot.hv0 + 16.0, lot.dv1 + 27.0), None)],
        added=[(_box(lot, lot.dx0, lot.dx1, 0.0, lot.hv0 + 20.0), "driveway")],
        removed=[int(garage), int(drive)],
    )


def _p8_commercial(site: Site, used: list[int]) -> Project | None:
    i = pick_lot(site.lots, site.lots.use == "452", used)
    if i is None:
        return None
    lot = site.lots.loc[i]
    return Project(
        "P8 shopping centre expansion",
        i,
        "about 0.6 acre of disturbance in an impaired (phosphorus TMDL) watershed",
        project_type="commercial",
        disturbance=[(_box(lot, lot.x0 + 5.0, lot.x0 + 175.0, 30.0, 183.0), None)],
        added=[(_box(lot, lot.x0 + 9.0, lot.x0 + 44.0, 112.0, 182.0), "building")],
    )


def _p9_streamside(site: Site, used: list[int]) -> Project | None:
    def work(xc: float, ys: float, _rear: float) -> shapely.Geometry:
        return shapely.box(xc - 22.0, ys - 90.0, xc + 22.0, ys - 50.0)

    found = _streamside(site, used, work)
    if found is None:
        return None
    i, xc, ys, rear = found
    return Project(
        "P9 streamside deck",
        i,
        "work inside the 100-ft watercourse buffer",
        disturbance=[(work(xc, ys, rear), None)],
        added=[(shapely.box(xc - 15.0, ys - 82.0, xc + 15.0, ys - 57.0), "patio")],
    )


def _p10_lawn(site: Site, used: list[int]) -> Project | None:
    lots = site.lots
    mask = (
        (lots.row == 1) & (lots.use == "210") & (lots.depth - lots.rear_free >= 30.0) & site.quiet
    )
    i = pick_lot(lots, mask, used)
    if i is None:
        return None
    lot = lots.loc[i]
    return Project(
        "P10 lawn renovation",
        i,
        "lawn stripping and sod (an activity other than construction); impervious unchanged",
        activity="lawn_stripping_and_sod",
        permit=None,
        disturbance=[
            (_box(lot, lot.x0 + 5.0, lot.x1 - 5.0, lot.rear_free + 1.0, lot.depth - 4.0), None)
        ],
    )


_HAND_PLACED: tuple[Callable[[Site, list[int]], Project | None], ...] = (
    _p1_patio,
    _p2_floodplain,
    _p3_subdivision,
    _p4_driveway,
    _p5_pool,
    _p6_sda,
    _p7_demolition,
    _p8_commercial,
    _p9_streamside,
    _p10_lawn,
)


def hand_placed(site: Site) -> list[Project]:
    """The ten projects of the first district, each on a lot that suits it."""
    used: list[int] = []
    projects: list[Project] = []
    for make in _HAND_PLACED:
        project = make(site, used)
        if project is None:
            continue
        projects.append(project)
        used += project.lots()
    return projects
