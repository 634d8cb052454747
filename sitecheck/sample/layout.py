"""One district's lots, south to north: blocks of two rows of lots back to back on a street grid."""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import numpy as np
import pandas as pd
import shapely

from sitecheck.sample.constants import DISTRICT_WIDTH_FT, STREET_FT


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
HOUSE = {
    "A-4": (30.0, 34.0, 20.0),
    "A-3": (36.0, 38.0, 25.0),
    "A-2a": (42.0, 40.0, 30.0),
    "A-2": (46.0, 42.0, 35.0),
    "A-1": (52.0, 46.0, 40.0),
    "AA-1": (80.0, 60.0, 80.0),
}


RESIDENTIAL = ("210", "220")


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


@dataclass(frozen=True)
class _Place:
    """Where a part's lots are laid: the block row, its zoning district, the depth of a
    row of lots, and the part's south-west corner."""

    row: int
    zone: str
    depth: float
    x0: float
    y0: float


@dataclass(frozen=True)
class _Edge:
    """A lot's front or rear line: its y and its two x ends."""

    y: float
    x0: float
    x1: float


def _lot_record(
    place: _Place, use: str, side: int, depth: float, front: _Edge, rear: _Edge
) -> dict[str, object]:
    """One lot's frame and its ring (counter-clockwise, closed)."""
    if side > 0:
        ring = [(front.x0, front.y), (front.x1, front.y), (rear.x1, rear.y), (rear.x0, rear.y)]
    else:
        ring = [(rear.x0, rear.y), (rear.x1, rear.y), (front.x1, front.y), (front.x0, front.y)]
    return {
        "row": place.row,
        "zone": place.zone,
        "use": use,
        "side": side,
        "front_y": front.y,
        "depth": depth,
        "fx0": front.x0,
        "fx1": front.x1,
        "rx0": rear.x0,
        "rx1": rear.x1,
        "x0": max(front.x0, rear.x0),
        "x1": min(front.x1, rear.x1),
        "ring": np.array([*ring, ring[0]], dtype=float),
    }


def _two_rows(rng: np.random.Generator, part: _Part, place: _Place) -> list[dict[str, object]]:
    """Lots of a part split in two rows back to back, with slightly skewed side lines."""
    depth, x0, y0 = place.depth, place.x0, place.y0
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
                place,
                part.use,
                side,
                depth,
                _Edge(front_y, front[i], front[i + 1]),
                _Edge(y_mid, rear[i], rear[i + 1]),
            )
            rec["forced"] = bool(first) and i == 0
            rec["street"] = place.row if side > 0 else place.row + 1
            rec["part_first"] = i == 0
            rec["part_last"] = i == len(front) - 2
            records.append(rec)
    return records


def _through_lot(part: _Part, place: _Place) -> dict:
    """One lot running through the block, fronting the south street."""
    x0, y0, depth = place.x0, place.y0, place.depth
    x1 = x0 + part.width
    rec = _lot_record(
        place, part.use, 1, 2.0 * depth, _Edge(y0, x0, x1), _Edge(y0 + 2 * depth, x0, x1)
    )
    rec.update(forced=False, street=place.row, part_first=True, part_last=True)
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


def district_layout(
    rng: np.random.Generator,
) -> tuple[pd.DataFrame, np.ndarray, list[tuple], float]:
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
                place = _Place(r, spec.zone, row.depth, bx, y)
                if part.lot_width:
                    block_records += _two_rows(rng, part, place)
                else:
                    block_records.append(_through_lot(part, place))
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
