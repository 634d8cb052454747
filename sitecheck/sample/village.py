"""Generate a deterministic sample village for demos, tests and benchmarks.

The village imitates a small Westchester village (Scarsdale-like) in New York
State Plane East (EPSG:2260, US survey feet). One *district* of about 300 lots
is laid out on a street grid: blocks of two rows of lots back to back (a few
lots run through the block), zoned Residence A (AA-1 to A-4) with a small B-1
business block. A stream runs along the rear lot lines of the AA-1 estates, with
FEMA-style floodplain bands and two wetlands; a hill with steep faces stands on
the largest estate. Bigger villages repeat the district on a grid, each copy
with its own stream, floodplain, wetlands and hill, and give a share of the lots
a random project.

Ten hand-placed projects in the first district together exercise every
measurement the engine makes; :data:`PROJECTS` lists them after a generation,
and the ``projects`` table of the GeoPackage holds the same rows.

The same arguments always give the same layer contents: every random draw comes
from a seeded NumPy generator and nothing depends on time or set order.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import geopandas as gpd
import numpy as np
import numpy.typing as npt
import pandas as pd
import pyogrio
import rasterio
import shapely
from rasterio.transform import Affine
from rasterio.windows import Window

from sitecheck.io.writers import GPKG_DATASET_OPTIONS, atomic_path

CRS = "EPSG:2260"
ORIGIN_FT = (688000.0, 785000.0)  # south-west corner: Scarsdale, about 40.99 N, 73.79 W
STREET_FT = 50.0
DISTRICT_WIDTH_FT = 2600.0
ACRE_SQFT = 43560.0
NODATA = -9999.0
BIG_VILLAGE_LOTS = 1000
DEFAULT_PROJECT_SHARE = 0.15
DEM_MARGIN_FT = 50.0

PROJECTS: list[dict[str, str]] = []
"""Projects of the last generation: ``name``, ``parcel_id`` and ``exercises``."""

_STREAM_ROW = 3
_STREETS_PER_DISTRICT = 8

# --------------------------------------------------------------------------
# Layout of one district, south to north


@dataclass(frozen=True)
class _Part:
    """A stretch of a block: two rows of lots back to back, or one lot through the block.

    Attributes
    ----------
    width : float
        Length along the street, feet.
    lot_width : float
        Target frontage of the two rows; 0 for one lot through the block.
    use : str
        NY property class code of the part's lots.
    first_north : float
        Fixed frontage of the first lot of the north row (0: drawn like the others).
    """

    width: float
    lot_width: float = 0.0
    use: str = "210"
    first_north: float = 0.0


@dataclass(frozen=True)
class _BlockSpec:
    zone: str
    parts: tuple[_Part, ...]


@dataclass(frozen=True)
class _RowSpec:
    """A row of blocks between two east-west streets; ``depth`` is one lot's depth."""

    depth: float
    blocks: tuple[_BlockSpec, ...]


def _plain_row(zone: str, depth: float, lot_width: float, widths: tuple[float, ...]) -> _RowSpec:
    return _RowSpec(depth, tuple(_BlockSpec(zone, (_Part(w, lot_width),)) for w in widths))


_ROWS: tuple[_RowSpec, ...] = (
    _RowSpec(
        100.0,
        (
            _BlockSpec("A-3", (_Part(300.0, use="620"), _Part(800.0, use="963"))),
            _BlockSpec("A-4", (_Part(750.0, 55.0),)),
            _BlockSpec("B-1", (_Part(200.0, use="452"), _Part(400.0, 52.0, use="481"))),
        ),
    ),
    _plain_row("A-2a", 130.0, 92.0, (800.0, 850.0, 800.0)),
    _plain_row("A-2", 150.0, 100.0, (820.0, 810.0, 820.0)),
    _RowSpec(
        420.0,
        (
            _BlockSpec("AA-1", (_Part(1250.0, 320.0),)),
            _BlockSpec("AA-1", (_Part(1250.0, 320.0, first_north=400.0),)),
        ),
    ),
    _plain_row("A-1", 200.0, 110.0, (800.0, 850.0, 800.0)),
    _plain_row("A-2", 150.0, 100.0, (1250.0, 1250.0)),
    _plain_row("A-3", 125.0, 80.0, (800.0, 850.0, 800.0)),
)

# House footprint width, depth and front setback by zone, feet.
_HOUSE = {
    "A-4": (30.0, 34.0, 20.0),
    "A-3": (36.0, 38.0, 25.0),
    "A-2a": (42.0, 40.0, 30.0),
    "A-2": (46.0, 42.0, 35.0),
    "A-1": (52.0, 46.0, 40.0),
    "AA-1": (80.0, 60.0, 80.0),
}
_RESIDENTIAL = ("210", "220")

_STREET_NAMES = (
    "Oak Lane",
    "Heathcote Road",
    "Fox Meadow Road",
    "Brewster Road",
    "Walworth Avenue",
    "Tisdale Road",
    "Carthage Road",
    "Drake Road",
    "Claremont Road",
    "Autenrieth Road",
    "Brite Avenue",
    "Popham Road",
    "Mamaroneck Road",
    "Murray Hill Road",
    "Woodland Place",
    "Cushman Road",
    "Overhill Road",
    "Sherbrooke Road",
    "Birchall Drive",
    "Greenacres Avenue",
    "Kent Road",
    "Lockwood Road",
    "Nelson Road",
    "Paddington Road",
    "Richbell Road",
    "Secor Road",
    "Tunstall Road",
    "Wayside Lane",
    "Chase Road",
    "Crane Road",
    "Meadow Road",
    "Butler Road",
)
_STREAM_NAMES = (
    "Sheldrake River",
    "Hutchinson River",
    "Bronx River Tributary",
    "Mamaroneck River",
    "Troublesome Brook",
    "Grassy Sprain Brook",
    "Blind Brook",
    "Mianus River",
)
_LAST_NAMES = (
    "Adams",
    "Baker",
    "Chen",
    "Dolan",
    "Esposito",
    "Fischer",
    "Garcia",
    "Hoffman",
    "Iyer",
    "Jensen",
    "Kaplan",
    "Lombardi",
    "Murphy",
    "Nakamura",
    "O'Brien",
    "Patel",
    "Quinn",
    "Rosen",
    "Schwartz",
    "Tanaka",
    "Underwood",
    "Vasquez",
    "Walsh",
    "Xu",
    "Yates",
    "Zimmerman",
    "Bernstein",
    "Costello",
    "DeLuca",
    "Feinberg",
    "Goldberg",
    "Harrington",
    "Kim",
    "Levine",
    "McCarthy",
    "Novak",
    "Park",
    "Russo",
    "Sullivan",
    "Weiss",
)
_FIRST_NAMES = (
    "Anne",
    "Ben",
    "Carla",
    "David",
    "Elena",
    "Frank",
    "Grace",
    "Henry",
    "Irene",
    "James",
    "Karen",
    "Leo",
    "Maria",
    "Nathan",
    "Olivia",
    "Peter",
    "Rachel",
    "Samuel",
    "Teresa",
    "Victor",
    "Wendy",
    "Alan",
    "Beth",
    "Daniel",
    "Emily",
    "George",
    "Helen",
    "Joseph",
    "Laura",
    "Michael",
)
_SAINTS = ("James the Less", "Pius X", "Andrew", "Mary", "Luke")

# --------------------------------------------------------------------------
# The district template: one district's geometry in local coordinates


@dataclass(frozen=True)
class _Stream:
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
class _Terrain:
    """What the DEM is made of, in district-local feet (the surface repeats by district).

    ``hill`` is (x, y, height, west scale, east scale, north-south scale); the
    small east scale makes the east face steep. ``hole`` is (x, y, radius) of
    the nodata hole, in the first district only.
    """

    width: float
    height: float
    stream: _Stream
    valley_rise: float
    valley_half_width: float
    hill: tuple[float, float, float, float, float, float]
    hole: tuple[float, float, float]


@dataclass
class _Project:
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
class _Template:
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
    projects: list[_Project]
    terrain: _Terrain


def _split_frontage(
    rng: np.random.Generator, x0: float, x1: float, target: float, first: float = 0.0
) -> np.ndarray:
    """Lot-line positions from ``x0`` to ``x1``: jittered widths around ``target``."""
    head: list[float] = []
    start = x0
    if first:
        head, start = [x0], x0 + first
    count = max(1, round((x1 - start) / target))
    widths = target * (1.0 + rng.uniform(-0.2, 0.2, count))
    positions = start + np.cumsum(widths) / widths.sum() * (x1 - start)
    xs = np.asarray(np.round(np.r_[start, positions], 2), dtype=float)
    xs[-1] = x1
    return np.r_[head, xs]


def _lot_record(
    row: int,
    zone: str,
    use: str,
    side: int,
    front_y: float,
    depth: float,
    front: tuple[float, float],
    rear: tuple[float, float],
    rear_y: float,
) -> dict[str, object]:
    """One lot's frame and its ring (counter-clockwise, closed)."""
    if side > 0:
        ring = [(front[0], front_y), (front[1], front_y), (rear[1], rear_y), (rear[0], rear_y)]
    else:
        ring = [(rear[0], rear_y), (rear[1], rear_y), (front[1], front_y), (front[0], front_y)]
    return {
        "row": row,
        "zone": zone,
        "use": use,
        "side": side,
        "front_y": front_y,
        "depth": depth,
        "fx0": front[0],
        "fx1": front[1],
        "rx0": rear[0],
        "rx1": rear[1],
        "x0": max(front[0], rear[0]),
        "x1": min(front[1], rear[1]),
        "ring": np.array([*ring, ring[0]], dtype=float),
    }


def _two_rows(
    rng: np.random.Generator,
    part: _Part,
    row: int,
    zone: str,
    depth: float,
    x0: float,
    y0: float,
) -> list[dict[str, object]]:
    """Lots of a part split in two rows back to back, with slightly skewed side lines."""
    x1, y_mid, y_top = x0 + part.width, y0 + depth, y0 + 2.0 * depth
    records = []
    for side, front_y, first in ((1, y0, 0.0), (-1, y_top, part.first_north)):
        front = _split_frontage(rng, x0, x1, part.lot_width, first)
        skew = np.round(rng.uniform(-1.0, 1.0, len(front)) * 0.05 * depth, 2)
        skew[[0, -1]] = 0.0
        if first:
            skew[1] = 0.0
        rear = front + skew
        for i in range(len(front) - 1):
            rec = _lot_record(
                row,
                zone,
                part.use,
                side,
                front_y,
                depth,
                (front[i], front[i + 1]),
                (rear[i], rear[i + 1]),
                y_mid,
            )
            rec["forced"] = bool(first) and i == 0
            rec["street"] = row if side > 0 else row + 1
            rec["part_first"] = i == 0
            rec["part_last"] = i == len(front) - 2
            records.append(rec)
    return records


def _through_lot(part: _Part, row: int, zone: str, depth: float, x0: float, y0: float) -> dict:
    """One lot running through the block, fronting the south street."""
    x1 = x0 + part.width
    rec = _lot_record(row, zone, part.use, 1, y0, 2.0 * depth, (x0, x1), (x0, x1), y0 + 2 * depth)
    rec.update(forced=False, street=row, part_first=True, part_last=True)
    return rec


def _with_vertices(ring: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Insert into a closed ring every point lying inside one of its edges.

    Neighbouring lots then share their common boundary vertex for vertex, so the
    lots form a valid polygonal coverage (no T-junctions).
    """
    out = [ring[:1]]
    for a, b in itertools.pairwise(ring):
        ab = b - a
        rel = points - a
        t = rel @ ab / (ab @ ab)
        cross = ab[0] * rel[:, 1] - ab[1] * rel[:, 0]
        on_edge = (t > 1e-9) & (t < 1.0 - 1e-9) & (np.abs(cross) < 1e-6 * math.hypot(*ab))
        out.append(points[on_edge][np.argsort(t[on_edge])])
        out.append(b[None, :])
    return np.concatenate(out)


def _drawn_use(rng: np.random.Generator, use: str) -> str:
    """A few lots vacant, a few two-family houses; commercial lots sometimes vacant."""
    draw = rng.random()
    if use == "210":
        return "311" if draw < 0.04 else "220" if draw < 0.10 else "210"
    if use == "481":
        return "330" if draw < 0.12 else "481"
    return use


def _layout(rng: np.random.Generator) -> tuple[pd.DataFrame, np.ndarray, list[tuple], float]:
    """Lay the blocks and lots of one district.

    Returns the lot table, the lot polygons, the blocks as (zone, row, x0, y0,
    x1, y1) and the district height.
    """
    records: list[dict] = []
    blocks: list[tuple] = []
    y = STREET_FT / 2.0
    for r, row in enumerate(_ROWS):
        x = STREET_FT / 2.0
        for spec in row.blocks:
            block_records: list[dict] = []
            bx = x
            for part in spec.parts:
                if part.lot_width:
                    block_records += _two_rows(rng, part, r, spec.zone, row.depth, bx, y)
                else:
                    block_records.append(_through_lot(part, r, spec.zone, row.depth, bx, y))
                bx += part.width
            corners = np.unique(np.concatenate([rec["ring"] for rec in block_records]), axis=0)
            for i, rec in enumerate(block_records):
                rec.update(ring=_with_vertices(rec["ring"], corners), block=len(blocks), lot_no=i)
                rec["use"] = "210" if rec["forced"] else _drawn_use(rng, rec["use"])
            records += block_records
            blocks.append((spec.zone, r, x, y, bx, y + 2.0 * row.depth))
            x = bx + STREET_FT
        if abs(x - STREET_FT / 2.0 - DISTRICT_WIDTH_FT) > 1e-6:
            raise AssertionError(f"row {r} does not fill the district width")
        y += 2.0 * row.depth + STREET_FT
    geoms = np.array([shapely.Polygon(rec.pop("ring")) for rec in records], dtype=object)
    lots = pd.DataFrame.from_records(records)
    lots["area"] = shapely.area(geoms)
    return lots, geoms, blocks, y - STREET_FT / 2.0


# --------------------------------------------------------------------------
# Existing impervious cover


def _frame_box(
    front_y: npt.ArrayLike,
    side: npt.ArrayLike,
    x0: npt.ArrayLike,
    x1: npt.ArrayLike,
    v0: npt.ArrayLike,
    v1: npt.ArrayLike,
) -> Any:
    """Boxes given in a lot's frame: ``v`` is the distance in from the front lot line.

    Works on scalars (returns one polygon) and on arrays (returns an array).
    ``v0 = 0`` puts the box's edge exactly on the front lot line.
    """
    front_y, side = np.asarray(front_y, dtype=float), np.asarray(side, dtype=float)
    ya = front_y + side * np.asarray(v0, dtype=float)
    yb = front_y + side * np.asarray(v1, dtype=float)
    return shapely.box(x0, np.minimum(ya, yb), x1, np.maximum(ya, yb))


def _house_lot(rng: np.random.Generator, lot: pd.Series) -> tuple[list, dict[str, float]]:
    """A house, its driveway (front lot line to the garage) and maybe a patio or garage."""
    width0, depth0, setback0 = _HOUSE[str(lot.zone)]
    jitter = rng.uniform(0.9, 1.1, 3)
    inner = lot.x1 - lot.x0
    margin = max(6.0, 0.1 * inner)
    hw = round(min(width0 * jitter[0], inner - 2.0 * margin), 2)
    hv0 = round(setback0 * jitter[1], 2)
    hv1 = round(hv0 + depth0 * jitter[2], 2)
    dw = 14.0 if lot.zone == "AA-1" else 10.0 if lot.zone == "A-4" else 11.0
    left = bool(rng.random() < 0.5)
    garage = (
        bool(rng.random() < 0.25)
        and not lot.forced
        and inner - 2.0 * margin - hw >= dw + 4.0
        and lot.depth - hv1 >= 45.0
    )
    patio = bool(rng.random() < 0.5)
    slack = inner - 2.0 * margin - hw
    features: list[tuple[str, str, float, float, float, float]] = []
    if garage:
        lane = lot.x0 + margin if left else lot.x1 - margin - dw
        hx0 = lot.x0 + margin + dw + 4.0 if left else lot.x1 - margin - dw - 4.0 - hw
        gx0 = lot.x0 + margin if left else lot.x1 - margin - 22.0
        gv0 = hv1 + 6.0
        features += [
            ("driveway", "drive", lane, lane + dw, 0.0, gv0),
            ("building", "garage", gx0, gx0 + 22.0, gv0, gv0 + 22.0),
        ]
        drive = (lane, lane + dw, gv0)
    else:
        offset = 0.0 if lot.forced else float(rng.random()) * slack
        hx0 = round(lot.x0 + margin + offset, 2)
        dx0 = hx0 if left else hx0 + hw - dw
        features.append(("driveway", "drive", dx0, dx0 + dw, 0.0, hv0))
        drive = (dx0, dx0 + dw, hv0)
    hx1 = hx0 + hw
    features.append(("building", "house", hx0, hx1, hv0, hv1))
    if patio:
        pw, pd_ = min(0.45 * hw, 24.0), round(float(rng.uniform(12.0, 16.0)), 2)
        px0 = hx1 - 2.0 - pw if garage and left else hx0 + 2.0  # clear of the garage
        features.append(("patio", "patio", px0, px0 + pw, hv1, hv1 + pd_))
    frame = {
        "hx0": hx0,
        "hx1": hx1,
        "hv0": hv0,
        "hv1": hv1,
        "dx0": drive[0],
        "dx1": drive[1],
        "dv1": drive[2],
        "garage": garage,
        "drive_left": left,
    }
    return features, frame


def _other_lot(lot: pd.Series) -> list[tuple[str, str, float, float, float, float]]:
    """Buildings and parking of the non-residential lots; vacant lots have none."""
    x0, x1 = lot.x0, lot.x1
    if lot.use == "481":
        return [
            ("building", "building", x0 + 2.0, x1 - 2.0, 0.0, 68.0),
            ("driveway", "parking", x0 + 4.0, x1 - 4.0, 70.0, lot.depth - 4.0),
        ]
    if lot.use == "452":
        return [
            ("building", "building", x0 + 45.0, x1 - 45.0, 110.0, 185.0),
            ("driveway", "parking", x0 + 10.0, x1 - 10.0, 0.0, 100.0),
        ]
    if lot.use == "620":
        return [
            ("building", "building", x0 + 60.0, x0 + 150.0, 40.0, 100.0),
            ("driveway", "parking", x0 + 185.0, x0 + 285.0, 0.0, 90.0),
        ]
    if lot.use == "963":
        return [
            ("building", "building", x0 + 380.0, x0 + 410.0, 90.0, 120.0),
            ("driveway", "parking", x0 + 20.0, x0 + 100.0, 0.0, 50.0),
        ]
    return []


def _impervious(rng: np.random.Generator, lots: pd.DataFrame) -> pd.DataFrame:
    """Existing impervious cover of every lot; adds the house frame columns to ``lots``."""
    rows: list[dict[str, object]] = []
    frames: list[dict[str, float]] = []
    for i, lot in enumerate(lots.itertuples(index=False)):
        series = pd.Series(lot._asdict())
        frame = dict.fromkeys(("hx0", "hx1", "hv0", "hv1", "dx0", "dx1", "dv1"), np.nan)
        frame.update(garage=False, drive_left=False)
        if lot.use in _RESIDENTIAL:
            boxes, house = _house_lot(rng, series)
            frame.update(house)
        else:
            boxes = _other_lot(series)
        for kind, role, x0, x1, v0, v1 in boxes:
            geom = _frame_box(lot.front_y, lot.side, x0, x1, v0, v1)
            rows.append({"geom": geom, "lot": i, "kind": kind, "role": role, "v1": v1})
        frames.append(frame)
    features = pd.DataFrame.from_records(rows)
    for key in frames[0]:
        lots[key] = [f[key] for f in frames]
    reach = features.groupby("lot")["v1"].max()
    lots["rear_free"] = reach.reindex(range(len(lots))).fillna(-6.0).to_numpy() + 6.0
    lots["has_house"] = lots["use"].isin(_RESIDENTIAL).to_numpy()
    return features.drop(columns="v1")


# --------------------------------------------------------------------------
# Constraint layers of one district


# Half-widths of the flood bands along the stream: sums of (mean, amplitude,
# cycles per district, phase) waves, so they repeat from district to district.
_FLOODWAY_HW = ((28.0, 6.0, 2, 0.5),)
_ONE_PCT_HW = ((100.0, 22.0, 1, 1.1),)
_TWO_PCT_HW = ((100.0, 22.0, 1, 1.1), (55.0, 12.0, 3, 2.0))


def _strip(
    stream: _Stream, waves: tuple[tuple[float, float, int, float], ...], x0: float, x1: float
) -> shapely.Polygon:
    """The band within a varying distance of the stream centre line."""
    x = np.arange(x0, x1 + 5.0, 10.0)
    y, dy = stream.y(x), stream.slope(x)
    norm = np.hypot(1.0, dy)
    nx, ny = -dy / norm, 1.0 / norm
    turn = 2.0 * np.pi / stream.width
    hw = sum(mean + amp * np.sin(cycles * turn * x + phase) for mean, amp, cycles, phase in waves)
    left = np.column_stack([x + hw * nx, y + hw * ny])
    right = np.column_stack([x - hw * nx, y - hw * ny])
    return shapely.Polygon(np.vstack([left, right[::-1]]))


def _floodplain(
    stream: _Stream, width: float, height: float
) -> tuple[np.ndarray, dict[str, list[object]]]:
    """NFHL-style flood hazard polygons: floodway, the rest of the 1% zone, the 0.2% band.

    The bands do not overlap (each is a ring around the inner one); the 1% and
    0.2% bands are cut at a panel line into two polygons each side.
    """
    frame = shapely.box(0.0, 0.0, width, height)
    floodway, one, two = (
        shapely.intersection(_strip(stream, hw, -200.0, width + 200.0), frame)
        for hw in (_FLOODWAY_HW, _ONE_PCT_HW, _TWO_PCT_HW)
    )
    panel = 0.62 * width
    halves = (shapely.box(0.0, 0.0, panel, height), shapely.box(panel, 0.0, width, height))
    geoms: list[shapely.Geometry] = [floodway]
    attrs: dict[str, list[object]] = {
        "FLD_ZONE": ["AE"],
        "ZONE_SUBTY": ["FLOODWAY"],
        "SFHA_TF": ["T"],
    }
    bands = (
        (shapely.difference(one, floodway), "AE", None, "T"),
        (shapely.difference(two, one), "X", "0.2 PCT ANNUAL CHANCE FLOOD HAZARD", "F"),
    )
    for band, zone, subtype, sfha in bands:
        for half in halves:
            parts = shapely.get_parts(shapely.intersection(band, half))
            for part in parts[shapely.area(parts) > 1.0]:
                geoms.append(part)
                attrs["FLD_ZONE"].append(zone)
                attrs["ZONE_SUBTY"].append(subtype)
                attrs["SFHA_TF"].append(sfha)
    return np.array(geoms, dtype=object), attrs


def _blob(cx: float, cy: float, ax: float, ay: float, wobble: float) -> shapely.Polygon:
    """An irregular ellipse (a wetland outline)."""
    theta = np.linspace(0.0, 2.0 * np.pi, 73)[:-1]
    scale = 1.0 + 0.12 * np.sin(3.0 * theta + wobble)
    return shapely.Polygon(
        np.column_stack([cx + ax * scale * np.cos(theta), cy + ay * scale * np.sin(theta)])
    )


def _side_band(
    width: float, height: float, share: float, amplitude: float, phase: float, west: bool
) -> shapely.Polygon:
    """The part of the district west (or east) of a wavy north-south line."""
    y = np.linspace(0.0, height, 59)
    x = share * width + amplitude * np.sin(4.0 * np.pi * y / height + phase)
    edge = np.column_stack([x, y])
    corner_x = 0.0 if west else width
    return shapely.Polygon([(corner_x, 0.0), *edge.tolist(), (corner_x, height)])


def _south_east(width: float, height: float, stream: _Stream) -> shapely.Polygon:
    """An impaired watershed: the south-east of the district, its divide short of the stream."""
    east = _side_band(width, height, 0.64, 60.0, 1.7, False)
    x = np.linspace(0.0, width, 41)
    divide = stream.y0 - 480.0 + 40.0 * np.sin(2.0 * np.pi * x / width + 0.8)
    south = shapely.Polygon([(0.0, 0.0), *np.column_stack([x, divide]).tolist(), (width, 0.0)])
    return shapely.intersection(east, south)


def _zoning(blocks: list[tuple]) -> tuple[np.ndarray, dict[str, list[object]]]:
    """Zoning districts: each block with half its streets, dissolved by district.

    The B-1 district reaches 30 ft into the next A-4 block so a couple of lots
    lie in two districts, as happens on real maps.
    """
    half = STREET_FT / 2.0
    boxes: dict[str, list[shapely.Geometry]] = {}
    b1_reach: shapely.Geometry = shapely.Polygon()
    for zone, _row, x0, y0, x1, y1 in blocks:
        boxes.setdefault(zone, []).append(shapely.box(x0 - half, y0 - half, x1 + half, y1 + half))
        if zone == "A-4":
            b1_reach = shapely.box(x1 - 30.0, y0 - half, x1 + half, y1 + half)
    merged = {zone: shapely.union_all(parts) for zone, parts in boxes.items()}
    merged["B-1"] = shapely.union(merged["B-1"], b1_reach)
    merged["A-4"] = shapely.difference(merged["A-4"], b1_reach)
    geoms: list[shapely.Geometry] = []
    names: list[object] = []
    for zone in sorted(merged):
        parts = shapely.get_parts(merged[zone])
        geoms += list(parts)
        names += [zone] * len(parts)
    return np.array(geoms, dtype=object), {"district": names}


def _constraints(
    lots: pd.DataFrame, blocks: list[tuple], stream: _Stream, width: float, height: float, p3: int
) -> dict[str, tuple[np.ndarray, dict[str, list[object]]]]:
    """Template constraint layers of one district (attributes per district added later)."""
    lot = lots.loc[p3]
    x_line = np.arange(0.0, width + 1.0, 10.0)
    wet_x = lot.x0 + 0.62 * (lot.x1 - lot.x0)
    crest = stream.x_phase - width / (2.0 * stream.waves)
    wetlands = np.array(
        [
            _blob(wet_x, stream.y0 + 55.0, 120.0, 60.0, 0.4),
            _blob(crest, float(stream.y(crest)) + 10.0, 130.0, 60.0, 1.9),
        ]
    )
    return {
        "floodplain": _floodplain(stream, width, height),
        "watercourses": (
            np.array([shapely.LineString(np.column_stack([x_line, stream.y(x_line)]))]),
            {},
        ),
        "wetlands": (wetlands, {"class": ["II", "III"]}),
        "sda": (np.array([_side_band(width, height, 0.36, 70.0, 0.3, True)]), {}),
        "zoning": _zoning(blocks),
        "impaired_watersheds": (
            np.array([_south_east(width, height, stream)]),
            {"pollutant": ["phosphorus"]},
        ),
        "soils": _soils(width, height, stream, wetlands),
    }


def _soils(
    width: float, height: float, stream: _Stream, wetlands: np.ndarray
) -> tuple[np.ndarray, dict[str, list[object]]]:
    """A soil survey in SSURGO form: map units that tile the district, with ``hydgrp``.

    Wetlands are D, the stream corridor B/D (poorly drained unless drained),
    the north of the district C, the rest B, and one patch of "urban land"
    carries no group (as SSURGO leaves it), so lots there are only partly mapped.
    """
    district = shapely.box(0.0, 0.0, width, height)
    x_line = np.arange(0.0, width + 1.0, 10.0)
    stream_line = shapely.LineString(np.column_stack([x_line, stream.y(x_line)]))
    wet = shapely.union_all(wetlands)
    corridor = shapely.difference(shapely.buffer(stream_line, 140.0, cap_style="flat"), wet)
    urban = shapely.difference(
        shapely.box(0.1 * width, 0.12 * height, 0.22 * width, 0.2 * height), corridor
    )
    north = shapely.difference(
        shapely.box(0.0, 0.7 * height, width, height), shapely.union_all([wet, corridor])
    )
    rest = shapely.difference(district, shapely.union_all([wet, corridor, urban, north]))
    units = [
        (wet, "Ff", "Fluvaquents, frequently flooded", "D"),
        (corridor, "RdB", "Ridgebury loam, 3 to 8 percent slopes", "B/D"),
        (north, "PnC", "Paxton fine sandy loam, 8 to 15 percent slopes", "C"),
        (urban, "Ub", "Urban land", None),
        (rest, "ChB", "Charlton-Urban land complex, 0 to 8 percent slopes", "B"),
    ]
    geoms = np.array([shapely.intersection(unit[0], district) for unit in units], dtype=object)
    return geoms, {
        "musym": [unit[1] for unit in units],
        "muname": [unit[2] for unit in units],
        "hydgrp": [unit[3] for unit in units],
    }


# --------------------------------------------------------------------------
# Hand-placed projects


@dataclass(frozen=True)
class _Site:
    """What the hand-placed projects are fitted to: lots, cover and constraints.

    ``quiet`` marks the lots outside the SDA and the impaired watershed, where
    projects that exercise something else are put.
    """

    lots: pd.DataFrame
    geoms: np.ndarray
    features: pd.DataFrame
    stream: _Stream
    sda: shapely.Geometry
    wetlands: shapely.Geometry
    floodway: shapely.Geometry
    quiet: np.ndarray


def _pick(lots: pd.DataFrame, mask: pd.Series | np.ndarray, used: list[int]) -> int | None:
    """The middle candidate lot (by position in the table) not used yet."""
    candidates = lots.index[np.asarray(mask) & ~lots.index.isin(used)]
    return None if len(candidates) == 0 else int(candidates[len(candidates) // 2])


def _box(lot: pd.Series, x0: float, x1: float, v0: float, v1: float) -> shapely.Geometry:
    return _frame_box(lot.front_y, lot.side, x0, x1, v0, v1)


def _p1_patio(site: _Site, used: list[int]) -> _Project | None:
    lots = site.lots
    mask = (
        (lots.zone == "A-4")
        & (lots.use == "210")
        & (lots.area < 7500.0)
        & (lots.depth - lots.rear_free >= 24.0)
        & (lots.side == 1)
        & site.quiet
    )
    i = _pick(lots, mask, used)
    if i is None:
        return None
    lot = lots.loc[i]
    cx, v = (lot.hx0 + lot.hx1) / 2.0, lot.rear_free
    return _Project(
        "P1 patio",
        i,
        "about 300 sq ft of disturbance (under 500) on a lot under 7,500 sq ft",
        disturbance=[(_box(lot, cx - 10.0, cx + 10.0, v, v + 15.0), None)],
        added=[(_box(lot, cx - 9.0, cx + 9.0, v + 1.0, v + 14.0), "patio")],
    )


def _streamside(
    site: _Site,
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
    base = (lots.row == _STREAM_ROW) & (lots.side == 1) & lots.has_house & ~lots.index.isin(used)
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


def _p2_floodplain(site: _Site, used: list[int]) -> _Project | None:
    def work(x: float, y: float, rear: float) -> shapely.Geometry:
        top = min(y + 8.0, rear)
        return shapely.box(x - 20.0, top - 132.0, x + 20.0, top)

    found = _streamside(site, used, work, site.floodway)
    if found is None:
        return None
    i, x, y, rear = found
    top = min(y + 8.0, rear)
    return _Project(
        "P2 floodplain terrace",
        i,
        "about 5,300 sq ft of disturbance on a lot touching the floodway, the 1% floodplain "
        "and the 0.2% band; the work reaches all three",
        disturbance=[(work(x, y, rear), None)],
        added=[(shapely.box(x - 12.0, top - 128.0, x + 12.0, top - 108.0), "patio")],
    )


def _p3_subdivision(site: _Site, used: list[int]) -> _Project | None:
    i = _pick(site.lots, site.lots.forced, used)
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
    return _Project(
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


def _p4_driveway(site: _Site, used: list[int]) -> _Project | None:
    lots = site.lots
    mask = (lots.row == 4) & (lots.use == "210") & ~lots.garage.astype(bool) & site.quiet
    i = _pick(lots, mask & (_free_side(lots) >= 26.0), used)
    if i is None:
        return None
    lot = lots.loc[i]
    nx0 = lot.hx1 + 4.0 if lot.drive_left else lot.hx0 - 16.0
    return _Project(
        "P4 new driveway",
        i,
        "new driveway adding impervious cover; the disturbance runs past the front lot line "
        "into the street (curb cut)",
        disturbance=[(_box(lot, nx0 - 3.0, nx0 + 15.0, -12.0, lot.hv0 + 34.0), None)],
        added=[(_box(lot, nx0, nx0 + 12.0, 0.0, lot.hv0 + 30.0), "driveway")],
    )


def _p5_pool(site: _Site, used: list[int]) -> _Project | None:
    lots = site.lots
    mask = (
        (lots.row == 5)
        & (lots.use == "210")
        & ~lots.part_last.astype(bool)
        & (lots.depth - lots.rear_free >= 45.0)
        & site.quiet
    )
    i = _pick(lots, mask, used)
    if i is None:
        return None
    lot = lots.loc[i]
    v, side_line = lot.rear_free, max(lot.fx1, lot.rx1)
    return _Project(
        "P5 pool over the side line",
        i,
        "disturbance crossing a side lot line onto the neighbouring lot",
        disturbance=[(_box(lot, lot.x1 - 60.0, side_line + 8.0, v + 2.0, v + 38.0), None)],
        added=[(_box(lot, lot.x1 - 52.0, lot.x1 - 16.0, v + 8.0, v + 30.0), "patio")],
        spills_onto=i + 1,
    )  # the next lot of the same row


def _p6_sda(site: _Site, used: list[int]) -> _Project | None:
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
    i = _pick(lots, mask, used)
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
    return _Project(
        "P6 side addition in the SDA",
        i,
        "about 1,800 sq ft of disturbance in the sensitive drainage area reaching the side-yard "
        "strip along the neighbouring lot (adjoining property buffer)",
        disturbance=[(_box(lot, *work, v - 5.0, v + 55.0), None)],
        added=[(_box(lot, *addition, v + 5.0, v + 35.0), "building")],
    )


def _p7_demolition(site: _Site, used: list[int]) -> _Project | None:
    lots, features = site.lots, site.features
    garages = lots.garage.astype(bool) & (lots.use == "210")
    i = _pick(lots, garages & (lots.row == 6) & site.quiet, used)
    if i is None:
        i = _pick(lots, garages, used)
    if i is None:
        return None
    lot = lots.loc[i]
    own = features[features.lot == i]
    garage = own[own.role == "garage"].index[0]
    drive = own[own.role == "drive"].index[0]
    gx0, _gy0, gx1, _gy1 = shapely.bounds(features.geom[garage])
    x0, x1 = min(lot.dx0, gx0) - 4.0, max(lot.dx1, gx1) + 5.0
    return _Project(
        "P7 garage demolition",
        i,
        "demolition permit; removing a garage and its drive reduces impervious cover",
        activity="demolition",
        permit="demolition",
        disturbance=[(_box(lot, x0, x1, lot.hv0 + 16.0, lot.dv1 + 27.0), None)],
        added=[(_box(lot, lot.dx0, lot.dx1, 0.0, lot.hv0 + 20.0), "driveway")],
        removed=[int(garage), int(drive)],
    )


def _p8_commercial(site: _Site, used: list[int]) -> _Project | None:
    i = _pick(site.lots, site.lots.use == "452", used)
    if i is None:
        return None
    lot = site.lots.loc[i]
    return _Project(
        "P8 shopping centre expansion",
        i,
        "about 0.6 acre of disturbance in an impaired (phosphorus TMDL) watershed",
        project_type="commercial",
        disturbance=[(_box(lot, lot.x0 + 5.0, lot.x0 + 175.0, 30.0, 183.0), None)],
        added=[(_box(lot, lot.x0 + 9.0, lot.x0 + 44.0, 112.0, 182.0), "building")],
    )


def _p9_streamside(site: _Site, used: list[int]) -> _Project | None:
    def work(xc: float, ys: float, _rear: float) -> shapely.Geometry:
        return shapely.box(xc - 22.0, ys - 90.0, xc + 22.0, ys - 50.0)

    found = _streamside(site, used, work)
    if found is None:
        return None
    i, xc, ys, rear = found
    return _Project(
        "P9 streamside deck",
        i,
        "work inside the 100-ft watercourse buffer",
        disturbance=[(work(xc, ys, rear), None)],
        added=[(shapely.box(xc - 15.0, ys - 82.0, xc + 15.0, ys - 57.0), "patio")],
    )


def _p10_lawn(site: _Site, used: list[int]) -> _Project | None:
    lots = site.lots
    mask = (
        (lots.row == 1) & (lots.use == "210") & (lots.depth - lots.rear_free >= 30.0) & site.quiet
    )
    i = _pick(lots, mask, used)
    if i is None:
        return None
    lot = lots.loc[i]
    return _Project(
        "P10 lawn renovation",
        i,
        "lawn stripping and sod (an activity other than construction); impervious unchanged",
        activity="lawn_stripping_and_sod",
        permit=None,
        disturbance=[
            (_box(lot, lot.x0 + 5.0, lot.x1 - 5.0, lot.rear_free + 1.0, lot.depth - 4.0), None)
        ],
    )


_HAND_PLACED: tuple[Callable[[_Site, list[int]], _Project | None], ...] = (
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


def _hand_placed(site: _Site) -> list[_Project]:
    """The ten projects of the first district, each on a lot that suits it."""
    used: list[int] = []
    projects: list[_Project] = []
    for make in _HAND_PLACED:
        project = make(site, used)
        if project is None:
            continue
        projects.append(project)
        used += project.lots()
    return projects


def _hole(lots: pd.DataFrame, used: list[int]) -> tuple[float, float, float]:
    """A small nodata hole in a front yard of an A-2a lot without a project."""
    i = _pick(lots, (lots.row == 1) & (lots.side == 1), used)
    lot = lots.loc[i if i is not None else 0]
    return (float((lot.x0 + lot.x1) / 2.0), float(lot.front_y + lot.side * 10.0), 8.0)


def _terrain(
    lots: pd.DataFrame, estate: int, stream: _Stream, height: float, projects: list[_Project]
) -> _Terrain:
    """The valley along the stream and the hill on the big estate, its steep face east."""
    lot = lots.loc[estate]
    room = min(stream.y0, height - stream.y0) - stream.amplitude - 150.0
    hill = (
        float(lot.x0 + 0.35 * (lot.x1 - lot.x0)),
        float(lot.front_y - 140.0),
        55.0,
        340.0,
        90.0,
        200.0,
    )
    hole = _hole(lots, [i for p in projects for i in p.lots()])
    return _Terrain(stream.width, height, stream, 30.0, room, hill, hole)


def _build_template(rng: np.random.Generator) -> _Template:
    """Lay out one district with its cover, constraints, terrain and projects.

    The stream runs along the rear line of the AA-1 row, its meander placed so
    the stream bends away from the big estate (the lot of project 3), whose
    rear holds a wetland and whose front holds the hill.
    """
    lots, geoms, blocks, height = _layout(rng)
    features = _impervious(rng, lots)
    width = DISTRICT_WIDTH_FT
    estate = int(np.flatnonzero(lots.forced.to_numpy())[0])
    stream_row = next(b for b in blocks if b[1] == _STREAM_ROW)
    stream = _Stream(
        y0=(stream_row[3] + stream_row[5]) / 2.0,
        x_phase=float((lots.x0[estate] + lots.x1[estate]) / 2.0),
        amplitude=35.0,
        waves=3,
        width=width,
    )
    constraints = _constraints(lots, blocks, stream, width, height, estate)
    sda, impaired = constraints["sda"][0][0], constraints["impaired_watersheds"][0][0]
    quiet = ~shapely.intersects(geoms, shapely.union(sda, impaired))
    site = _Site(
        lots,
        geoms,
        features,
        stream,
        sda,
        shapely.union_all(constraints["wetlands"][0]),
        constraints["floodplain"][0][0],
        quiet,
    )
    projects = _hand_placed(site)
    terrain = _terrain(lots, estate, stream, height, projects)
    return _Template(width, height, lots, geoms, features, constraints, projects, terrain)


# --------------------------------------------------------------------------
# The village: the template repeated on a grid


@dataclass(frozen=True)
class _Plan:
    """How many districts, how they are arranged and how many lots are kept."""

    districts: int
    columns: int
    lots: int
    offsets: np.ndarray


def _plan(template: _Template, parcels: int) -> _Plan:
    """Repeat the district, keeping whole blocks until there are at least ``parcels`` lots."""
    per = len(template.lots)
    sizes = np.bincount(template.lots.block.to_numpy())
    copies = max(1, math.ceil(parcels / per))
    cumulative = np.cumsum(np.tile(sizes, copies))
    kept = int(cumulative[int(np.searchsorted(cumulative, parcels))])
    districts = (kept - 1) // per + 1
    columns = math.ceil(math.sqrt(districts))
    index = np.arange(districts)
    offsets = np.column_stack(
        [
            ORIGIN_FT[0] + (index % columns) * template.width,
            ORIGIN_FT[1] + (index // columns) * template.height,
        ]
    )
    return _Plan(districts, columns, kept, offsets)


def _replicate(geoms: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """Copies of ``geoms`` shifted by each offset: all of the first copy, then the next."""
    if len(geoms) == 0 or len(offsets) == 0:
        return np.empty(0, dtype=object)
    per_copy = int(shapely.get_num_coordinates(geoms).sum())
    shift = np.repeat(offsets, per_copy, axis=0)
    return shapely.transform(np.tile(geoms, len(offsets)), lambda xy: xy + shift)


def _owners(rng: np.random.Generator, uses: np.ndarray) -> list[str]:
    """Owner names: people and family trusts, a church, the village, realty companies."""
    n = len(uses)
    last = rng.integers(0, len(_LAST_NAMES), n)
    first = rng.integers(0, len(_FIRST_NAMES), n)
    trust = rng.random(n) < 0.15
    saint = rng.integers(0, len(_SAINTS), n)
    out = []
    for use, ln, fn, tr, st in zip(
        uses.tolist(), last.tolist(), first.tolist(), trust.tolist(), saint.tolist(), strict=True
    ):
        if use == "620":
            out.append(f"St. {_SAINTS[st]} Church")
        elif use == "963":
            out.append("Village of Scarsdale")
        elif use in ("452", "481", "330"):
            out.append(f"{_LAST_NAMES[ln]} Realty LLC")
        elif tr:
            out.append(f"{_LAST_NAMES[ln]} Family Trust")
        else:
            out.append(f"{_LAST_NAMES[ln]}, {_FIRST_NAMES[fn]}")
    return out


def _parcels(template: _Template, plan: _Plan, rng: np.random.Generator) -> gpd.GeoDataFrame:
    """The lots of every district, with SBL ids, addresses, owners and land use."""
    lots, per = template.lots, len(template.lots)
    g = np.arange(plan.lots)
    district, t = g // per, g % per
    block = lots.block.to_numpy()[t]
    lot_no = lots.lot_no.to_numpy()[t]
    ids = [
        f"{d // 99 + 1}.{d % 99 + 1}-{b + 1}-{k + 1}"
        for d, b, k in zip(district.tolist(), block.tolist(), lot_no.tolist(), strict=True)
    ]
    centre = ((lots.fx0 + lots.fx1) / 2.0).to_numpy()[t]
    side = lots.side.to_numpy()[t]
    number = 2 * (centre // 20.0).astype(int) + np.where(side > 0, 1, 2)
    street = (district * _STREETS_PER_DISTRICT + lots.street.to_numpy()[t]) % len(_STREET_NAMES)
    address = [
        f"{n} {_STREET_NAMES[s]}" for n, s in zip(number.tolist(), street.tolist(), strict=True)
    ]
    uses = lots.use.to_numpy()[t]
    geoms = _replicate(template.lot_geoms, plan.offsets)[: plan.lots]
    data = {"parcel_id": ids, "address": address, "owner": _owners(rng, uses), "land_use": uses}
    return gpd.GeoDataFrame(data, geometry=geoms, crs=CRS)


def _existing(template: _Template, plan: _Plan) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Existing impervious cover of the kept lots: geometries, global lot index, kind."""
    features, per = template.features, len(template.lots)
    lot = (np.arange(plan.districts)[:, None] * per + features.lot.to_numpy()[None, :]).ravel()
    keep = lot < plan.lots
    geoms = _replicate(features.geom.to_numpy(), plan.offsets)[keep]
    kinds = np.tile(features.kind.to_numpy(), plan.districts)[keep]
    return geoms, lot[keep], kinds


def _constraint_frames(template: _Template, plan: _Plan) -> dict[str, gpd.GeoDataFrame]:
    """The constraint layers of every district, with per-district names."""
    d = np.arange(plan.districts)
    row = d // plan.columns
    stream_names = [_STREAM_NAMES[r % len(_STREAM_NAMES)] for r in row.tolist()]
    suffix = [f" {k + 1}" if plan.districts > 1 else "" for k in d.tolist()]
    per_district: dict[str, dict[str, list[object]]] = {
        "watercourses": {"name": list(stream_names)},
        "wetlands": {"wetland_id": [f"WP-{2 * k + j + 1}" for k in d.tolist() for j in (0, 1)]},
        "sda": {"name": [f"Bronx River SDA{s}" for s in suffix]},
        "impaired_watersheds": {"name": [f"{n} watershed" for n in stream_names]},
    }
    frames = {}
    for name, (geoms, attrs) in template.constraints.items():
        data: dict[str, list[object]] = dict(per_district.get(name, {}))
        for key, values in attrs.items():
            data[key] = list(values) * plan.districts
        order = ["wetland_id", "class"] if name == "wetlands" else list(data)
        frames[name] = gpd.GeoDataFrame(
            {k: data[k] for k in order}, geometry=_replicate(geoms, plan.offsets), crs=CRS
        )
    return frames


# --------------------------------------------------------------------------
# Projects of the village


@dataclass
class _ProjectRows:
    """Disturbance, proposed cover and project-table rows being collected."""

    dist_geoms: list[np.ndarray] = field(default_factory=list)
    dist_cols: dict[str, list[object]] = field(default_factory=dict)
    prop_geoms: list[np.ndarray] = field(default_factory=list)
    prop_lot: list[np.ndarray] = field(default_factory=list)
    prop_kind: list[np.ndarray] = field(default_factory=list)
    table: dict[str, list[str]] = field(
        default_factory=lambda: {"name": [], "parcel_id": [], "exercises": []}
    )

    def disturbance(self, geoms: np.ndarray, **columns: list[object]) -> None:
        self.dist_geoms.append(np.asarray(geoms, dtype=object))
        for key, values in columns.items():
            self.dist_cols.setdefault(key, []).extend(values)

    def proposed(self, geoms: np.ndarray, lots: np.ndarray, kinds: np.ndarray) -> None:
        self.prop_geoms.append(np.asarray(geoms, dtype=object))
        self.prop_lot.append(np.asarray(lots, dtype=np.int64))
        self.prop_kind.append(np.asarray(kinds, dtype=object))


def _shifted(geom: shapely.Geometry, offset: np.ndarray) -> shapely.Geometry:
    return shapely.transform(geom, lambda xy: xy + offset)


def _add_hand_placed(
    rows: _ProjectRows, template: _Template, plan: _Plan, ids: list[str]
) -> list[int]:
    """The hand-placed projects of the first district; returns the lots they use."""
    offset = plan.offsets[0]
    features = template.features
    lots = []
    for p in template.projects:
        if p.lot >= plan.lots:
            continue
        lots += p.lots()
        pid = ids[p.lot]
        n = len(p.disturbance)
        rows.disturbance(
            np.array([_shifted(g, offset) for g, _ in p.disturbance], dtype=object),
            parcel_id=[pid] * n,
            project=[p.name] * n,
            phase=[ph for _, ph in p.disturbance],
            project_type=[p.project_type] * n,
            activity=[p.activity] * n,
            permit=[p.permit] * n,
            larger_common_plan=[p.project_type == "single_family_subdivision"] * n,
        )
        kept = features[(features.lot == p.lot) & ~features.index.isin(p.removed)]
        geoms = [_shifted(g, offset) for g in kept.geom] + [_shifted(g, offset) for g, _ in p.added]
        kinds = list(kept.kind) + [k for _, k in p.added]
        rows.proposed(np.array(geoms, dtype=object), np.full(len(geoms), p.lot), np.array(kinds))
        rows.table["name"].append(p.name)
        rows.table["parcel_id"].append(pid)
        rows.table["exercises"].append(p.exercises)
    return lots


def _random_lots(
    template: _Template, plan: _Plan, rng: np.random.Generator, share: float, exclude: list[int]
) -> np.ndarray:
    """Lots drawn for random projects: houses with room behind them."""
    lots, per = template.lots, len(template.lots)
    t = np.arange(plan.lots) % per
    eligible = (lots.has_house.to_numpy() & (lots.depth - lots.rear_free >= 25.0).to_numpy())[t]
    eligible[np.asarray(exclude, dtype=np.int64)] = False
    candidates = np.flatnonzero(eligible)
    count = min(len(candidates), round(share * plan.lots))
    return np.sort(rng.choice(candidates, size=count, replace=False))


@dataclass
class _RandomWork:
    """Geometry of random projects: one added feature each, one or two disturbance polygons."""

    added: np.ndarray
    added_kind: np.ndarray
    first: np.ndarray
    second: np.ndarray
    front: np.ndarray
    phased: np.ndarray


def _random_work(
    template: _Template, plan: _Plan, chosen: np.ndarray, rng: np.random.Generator
) -> _RandomWork:
    """Draw the work on each chosen lot, in the lot's frame, as arrays.

    Most projects add a rear addition beyond the existing cover (a quarter of
    them in two phases); a fifth widen the driveway beside the existing one,
    their disturbance running 10 ft into the street.
    """
    n, per = len(chosen), len(template.lots)
    col = {
        k: template.lots[k].to_numpy()[chosen % per].astype(float)
        for k in (
            "x0",
            "x1",
            "front_y",
            "side",
            "depth",
            "dx0",
            "dx1",
            "dv1",
            "rear_free",
            "drive_left",
        )
    }
    off = plan.offsets[chosen // per]
    x0, x1 = col["x0"] + off[:, 0], col["x1"] + off[:, 0]
    dx0, dx1 = col["dx0"] + off[:, 0], col["dx1"] + off[:, 0]
    front_y, side = col["front_y"] + off[:, 1], col["side"]
    front = rng.random(n) < 0.2
    phased = ~front & (rng.random(n) < 0.25)
    # a rear addition beyond everything already built
    depth = np.minimum(rng.uniform(12.0, 30.0, n), col["depth"] - col["rear_free"] - 10.0)
    width = np.minimum(rng.uniform(16.0, 40.0, n), x1 - x0 - 16.0)
    ax0 = x0 + 8.0 + rng.random(n) * (x1 - x0 - 16.0 - width)
    av0 = col["rear_free"] + 2.0
    grow = rng.uniform(6.0, 14.0, n)
    # or a strip on the outer side of the driveway, from the front lot line
    left = col["drive_left"] > 0
    sx0 = np.where(left, np.maximum(x0 + 2.0, dx0 - 8.0), dx1)
    sx1 = np.where(left, dx0, np.minimum(x1 - 2.0, dx1 + 8.0))
    added = _frame_box(
        front_y,
        side,
        np.where(front, sx0, ax0),
        np.where(front, sx1, ax0 + width),
        np.where(front, 0.0, av0),
        np.where(front, col["dv1"], av0 + depth),
    )
    w0 = np.where(front, sx0 - 2.0, np.maximum(x0 + 1.0, ax0 - grow))
    w1 = np.where(front, sx1 + 2.0, np.minimum(x1 - 1.0, ax0 + width + grow))
    v0 = np.where(front, -10.0, av0 - 4.0)
    v1 = np.where(front, col["dv1"] + 2.0, np.minimum(col["depth"] - 1.0, av0 + depth + grow))
    mid = np.where(phased, (w0 + w1) / 2.0, w1)
    first = _frame_box(front_y, side, w0, mid, v0, v1)
    p = phased
    second = _frame_box(front_y[p], side[p], mid[p], w1[p], v0[p], v1[p])
    kind = np.where(front, "driveway", "building").astype(object)
    return _RandomWork(added, kind, first, second, front, phased)


def _add_random(
    rows: _ProjectRows,
    template: _Template,
    plan: _Plan,
    ids: list[str],
    rng: np.random.Generator,
    share: float,
    exclude: list[int],
    existing: tuple[np.ndarray, np.ndarray, np.ndarray],
) -> None:
    """Random projects on a share of the lots; proposed cover = existing plus the addition."""
    chosen = _random_lots(template, plan, rng, share, exclude)
    n = len(chosen)
    if n == 0:
        return
    work = _random_work(template, plan, chosen, rng)
    names = [
        f"R{k + 1:06d} {'driveway widening' if f else 'rear addition'}"
        for k, f in enumerate(work.front.tolist())
    ]
    pids = [ids[g] for g in chosen.tolist()]
    twice = np.flatnonzero(work.phased)
    project = np.r_[np.arange(n), twice]
    phase = np.r_[np.where(work.phased, 1, 0), np.full(len(twice), 2)]
    order = np.lexsort((phase, project))
    count = len(order)
    rows.disturbance(
        np.concatenate([work.first, work.second])[order],
        parcel_id=[pids[k] for k in project[order].tolist()],
        project=[names[k] for k in project[order].tolist()],
        phase=[None if p == 0 else int(p) for p in phase[order].tolist()],
        project_type=["single_family_home"] * count,
        activity=["construction"] * count,
        permit=["building"] * count,
        larger_common_plan=[False] * count,
    )
    keep = np.isin(existing[1], chosen)
    lots = np.r_[existing[1][keep], chosen]
    by_lot = np.argsort(lots, kind="stable")
    rows.proposed(
        np.concatenate([existing[0][keep], work.added])[by_lot],
        lots[by_lot],
        np.concatenate([existing[2][keep], work.added_kind])[by_lot],
    )
    rows.table["name"] += names
    rows.table["parcel_id"] += pids
    rows.table["exercises"] += ["random bench project"] * n


def _project_frames(
    template: _Template,
    plan: _Plan,
    ids: list[str],
    rng: np.random.Generator,
    share: float | None,
    existing: tuple[np.ndarray, np.ndarray, np.ndarray],
) -> tuple[gpd.GeoDataFrame, gpd.GeoDataFrame, pd.DataFrame]:
    """Disturbance, proposed impervious cover and the project table."""
    rows = _ProjectRows()
    hand = _add_hand_placed(rows, template, plan, ids)
    if share:
        _add_random(rows, template, plan, ids, rng, share, hand, existing)
    cols = rows.dist_cols
    disturbance = gpd.GeoDataFrame(
        {
            "parcel_id": cols.get("parcel_id", []),
            "project": cols.get("project", []),
            "phase": pd.array(cols.get("phase", []), dtype="Int32"),
            "project_type": cols.get("project_type", []),
            "activity": cols.get("activity", []),
            "permit": cols.get("permit", []),
            "larger_common_plan": pd.array(cols.get("larger_common_plan", []), dtype="boolean"),
        },
        geometry=_concat(rows.dist_geoms),
        crs=CRS,
    )
    lot = np.concatenate(rows.prop_lot) if rows.prop_lot else np.empty(0, dtype=np.int64)
    proposed = gpd.GeoDataFrame(
        {"parcel_id": [ids[g] for g in lot.tolist()], "kind": _concat(rows.prop_kind)},
        geometry=_concat(rows.prop_geoms),
        crs=CRS,
    )
    return disturbance, proposed, pd.DataFrame(rows.table)


def _concat(parts: list[np.ndarray]) -> np.ndarray:
    return np.concatenate(parts) if parts else np.empty(0, dtype=object)


# --------------------------------------------------------------------------
# Terrain


def _elevation(terrain: _Terrain, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Ground elevation (feet) on the grid of eastings ``x`` by northings ``y`` (rows).

    A valley along each district's stream rising a few percent to a plateau, a
    hill with a steep east face, gentle undulations and a regional fall to the
    east. Every term is smooth and repeats by district without seams.
    """
    xl = np.mod(x - ORIGIN_FT[0], terrain.width)
    yl = np.mod(y - ORIGIN_FT[1], terrain.height)
    t = np.clip(
        np.abs(yl[:, None] - terrain.stream.y(xl)[None, :]) / terrain.valley_half_width, 0.0, 1.0
    )
    z = terrain.valley_rise * t * t * (3.0 - 2.0 * t)
    hx, hy, height, west, east, north = terrain.hill
    dx = xl - hx
    gx = np.exp(-((dx / np.where(dx > 0.0, east, west)) ** 2))
    gy = np.exp(-(((yl - hy) / north) ** 2))
    z += height * gy[:, None] * gx[None, :]
    z += 1.5 * np.outer(
        np.sin(6.0 * np.pi * yl / terrain.height), np.sin(4.0 * np.pi * xl / terrain.width)
    )
    z += (320.0 - 0.002 * (x - ORIGIN_FT[0]))[None, :] + (0.001 * (y - ORIGIN_FT[1]))[:, None]
    return z


def _write_dem(path: Path, terrain: _Terrain, plan: _Plan, resolution: float) -> None:
    """Write the DEM window by window (float32 feet, deflate, tiled, nodata -9999)."""
    rows_of_districts = math.ceil(plan.districts / plan.columns)
    left, bottom = ORIGIN_FT[0] - DEM_MARGIN_FT, ORIGIN_FT[1] - DEM_MARGIN_FT
    width = math.ceil((plan.columns * terrain.width + 2 * DEM_MARGIN_FT) / resolution)
    height = math.ceil((rows_of_districts * terrain.height + 2 * DEM_MARGIN_FT) / resolution)
    top = bottom + height * resolution
    profile = {
        "driver": "GTiff",
        "width": width,
        "height": height,
        "count": 1,
        "dtype": "float32",
        "crs": CRS,
        "transform": Affine(resolution, 0.0, left, 0.0, -resolution, top),
        "nodata": NODATA,
        "tiled": True,
        "blockxsize": 256,
        "blockysize": 256,
        "compress": "deflate",
        "predictor": 3,
        "zlevel": 4,
        "num_threads": "ALL_CPUS",
        "bigtiff": "IF_SAFER",
    }
    x = left + (np.arange(width) + 0.5) * resolution
    hole_x, hole_y, radius = terrain.hole
    radius = max(radius, 1.5 * resolution)
    hole_x, hole_y = hole_x + ORIGIN_FT[0], hole_y + ORIGIN_FT[1]
    with rasterio.open(path, "w", **profile) as dst:
        for row0 in range(0, height, 512):
            count = min(512, height - row0)
            y = top - (np.arange(row0, row0 + count) + 0.5) * resolution
            z = _elevation(terrain, x, y).astype(np.float32)
            near = np.abs(y - hole_y) <= radius
            if near.any():
                inside = ((x[None, :] - hole_x) ** 2 + (y[near, None] - hole_y) ** 2) <= radius**2
                z[near] = np.where(inside, np.float32(NODATA), z[near])
            dst.write(z, 1, window=Window(0, row0, width, count))


# --------------------------------------------------------------------------
# Writing


def _write_gpkg(path: Path, layers: dict[str, pd.DataFrame]) -> None:
    for name, frame in layers.items():
        spatial = isinstance(frame, gpd.GeoDataFrame)
        pyogrio.write_dataframe(
            frame,
            path,
            layer=name,
            driver="GPKG",
            use_arrow=spatial,
            promote_to_multi=False if spatial else None,
            dataset_options=GPKG_DATASET_OPTIONS,
        )


def _record_projects(table: pd.DataFrame) -> None:
    PROJECTS[:] = [
        {"name": str(r.name), "parcel_id": str(r.parcel_id), "exercises": str(r.exercises)}
        for r in table.itertuples(index=False)
    ]


def _first_lots(layers: dict[str, pd.DataFrame], kept: list[str]) -> dict[str, pd.DataFrame]:
    """The layers without the lots past ``kept`` and the features drawn on them."""
    keep = set(kept)
    return {
        name: frame[frame["parcel_id"].isin(keep)].reset_index(drop=True)
        if "parcel_id" in frame.columns
        else frame
        for name, frame in layers.items()
    }


def generate_village(
    outdir: Path,
    parcels: int = 300,
    seed: int = 2260,
    dem_resolution_ft: float | None = None,
    project_share: float | None = None,
    exact: bool = False,
) -> dict[str, Path]:
    """Write a sample village: a GeoPackage of layers and a DEM.

    Parameters
    ----------
    outdir : Path
        Folder to write into (created when missing).
    parcels : int
        About how many lots. The district (about 320 lots) is repeated and
        whole blocks kept until there are at least this many, so the count
        overshoots by less than one block (within 10% from about 300 lots up).
        A village smaller than one district lacks its northern blocks and the
        hand-placed projects that stood on them.
    seed : int
        Seed of every random draw: the same arguments give the same layers.
    dem_resolution_ft : float, optional
        DEM cell size; 2 ft up to 1,000 parcels, else 10 ft.
    project_share : float, optional
        Share of the lots given a random project, on top of the ten
        hand-placed ones; 0.15 above 1,000 parcels, else none.
    exact : bool
        Cut the last block short so there are exactly ``parcels`` lots; the
        work and cover drawn on the lots cut go with them.

    Returns
    -------
    dict
        ``{"gpkg": outdir/"village.gpkg", "dem": outdir/"dem.tif"}``.
    """
    if parcels < 1:
        raise ValueError("parcels must be at least 1")
    if dem_resolution_ft is not None and not dem_resolution_ft > 0:
        raise ValueError("dem_resolution_ft must be positive")
    if project_share is not None and not 0.0 <= project_share <= 1.0:
        raise ValueError("project_share must lie between 0 and 1")
    outdir = Path(outdir)
    outdir.mkdir(parents=True, exist_ok=True)
    seeds = np.random.SeedSequence(seed).spawn(3)
    template = _build_template(np.random.default_rng(seeds[0]))
    plan = _plan(template, parcels)
    big = parcels > BIG_VILLAGE_LOTS
    share = project_share if project_share is not None else (DEFAULT_PROJECT_SHARE if big else None)
    resolution = dem_resolution_ft or (10.0 if big else 2.0)
    lots = _parcels(template, plan, np.random.default_rng(seeds[1]))
    ids = lots.parcel_id.tolist()
    existing = _existing(template, plan)
    disturbance, proposed, table = _project_frames(
        template, plan, ids, np.random.default_rng(seeds[2]), share, existing
    )
    layers: dict[str, pd.DataFrame] = {
        "parcels": lots,
        "impervious_existing": gpd.GeoDataFrame(
            {"parcel_id": [ids[g] for g in existing[1].tolist()], "kind": existing[2]},
            geometry=existing[0],
            crs=CRS,
        ),
        "impervious_proposed": proposed,
        "disturbance": disturbance,
        **_constraint_frames(template, plan),
        "projects": table,
    }
    if exact:
        layers = _first_lots(layers, ids[:parcels])
    paths = {"gpkg": outdir / "village.gpkg", "dem": outdir / "dem.tif"}
    with atomic_path(paths["gpkg"]) as temporary:
        _write_gpkg(temporary, layers)
    with atomic_path(paths["dem"]) as temporary:
        _write_dem(temporary, template.terrain, plan, resolution)
    _record_projects(layers["projects"])
    return paths
