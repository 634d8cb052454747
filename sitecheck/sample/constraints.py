"""The district's constraint layers: flood bands along the stream, wetlands, zoning, SDA, soils."""

from __future__ import annotations

import numpy as np
import pandas as pd
import shapely

from sitecheck.sample.constants import STREET_FT
from sitecheck.sample.model import Stream

# Half-widths of the flood bands along the stream: sums of (mean, amplitude,
# cycles per district, phase) waves, so they repeat from district to district.
_FLOODWAY_HW = ((28.0, 6.0, 2, 0.5),)


_ONE_PCT_HW = ((100.0, 22.0, 1, 1.1),)


_TWO_PCT_HW = ((100.0, 22.0, 1, 1.1), (55.0, 12.0, 3, 2.0))


def _strip(
    stream: Stream, waves: tuple[tuple[float, float, int, float], ...], x0: float, x1: float
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
    stream: Stream, width: float, height: float
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


def _south_east(width: float, height: float, stream: Stream) -> shapely.Polygon:
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


def district_constraints(
    lots: pd.DataFrame, blocks: list[tuple], stream: Stream, width: float, height: float, p3: int
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
    width: float, height: float, stream: Stream, wetlands: np.ndarray
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
