"""Derive Scarsdale's adjoining property buffer (§ 254-4) from a parcel layer.

The buffer is the part of a lot in a Residence A district within the side-yard
setback or the thirty-foot rear-yard setback of a lot line shared with a
neighbouring lot. Lot lines shared with no lot face the street (the frontage);
a shared line facing away from the frontage is a rear line, the others side
lines. Which districts have a buffer is the law's, not the engine's: the pack
names them (its ``[measuring]`` table); without one every lot has a buffer.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np
import shapely

from sitecheck.geometry.overlay import empty_array, intersect_pairs, polygonal, union_by_group
from sitecheck.geometry.parallel import map_arrays, map_query
from sitecheck.io.geometry_types import LINESTRING

# A shared line whose outward direction is more than 120 degrees from the
# frontage's outward direction faces the rear. Corner lots (two frontages at a
# right angle) then read both far lines as rear lines: the larger setback,
# which errs toward flagging.
_REAR_COSINE = -0.5


@dataclass(frozen=True)
class AdjoiningSettings:
    """Setbacks that define the adjoining property buffer.

    Attributes
    ----------
    rear_setback_ft : float
        Rear-yard setback (§ 254-4: thirty feet).
    side_setbacks_ft : mapping of str to float
        Side-yard setback per zoning district. Districts missing here use
        ``default_side_setback_ft``.
    default_side_setback_ft : float
        Side setback where the district has none configured. The ordinance text
        does not give side setbacks (they are in the zoning code), so the
        default equals the rear setback: it errs toward flagging.
    districts : tuple of str or None
        The districts the buffer applies in (Scarsdale's pack: Residence A); None
        for every lot, which errs toward flagging.
    neighbour_tolerance_ft : float
        Gap or overlap between neighbouring lots still read as a shared line (a
        distance, called the gap in this module; not the rules' review
        tolerance, which is a share of a threshold).
    """

    rear_setback_ft: float = 30.0
    side_setbacks_ft: Mapping[str, float] = field(default_factory=dict)
    default_side_setback_ft: float = 30.0
    districts: tuple[str, ...] | None = None
    neighbour_tolerance_ft: float = 1.0

    def side_setback(self, district: str | None) -> float:
        if district is None:
            return self.default_side_setback_ft
        return float(self.side_setbacks_ft.get(district, self.default_side_setback_ft))

    def to_json(self) -> dict[str, object]:
        return {
            "rear_setback_ft": self.rear_setback_ft,
            "side_setbacks_ft": dict(self.side_setbacks_ft),
            "default_side_setback_ft": self.default_side_setback_ft,
            "districts": None if self.districts is None else list(self.districts),
            "neighbour_tolerance_ft": self.neighbour_tolerance_ft,
        }


@dataclass
class SharedLines:
    """The lot lines shared with neighbours, each with the setback that applies to it.

    Attributes
    ----------
    lines : ndarray of shapely LineStrings
    lot : ndarray of int
        The lot whose line it is.
    setback : ndarray of float
        Rear or side setback, in CRS units.
    """

    lines: np.ndarray
    lot: np.ndarray
    setback: np.ndarray

    def subset(self, keep: np.ndarray) -> SharedLines:
        return SharedLines(self.lines[keep], self.lot[keep], self.setback[keep])


def shared_lines(
    lots: np.ndarray,
    districts: np.ndarray | None,
    settings: AdjoiningSettings,
    feet_per_unit: float,
    only: np.ndarray | None = None,
) -> SharedLines:
    """The lines each lot shares with neighbouring lots, and their setbacks.

    Parameters
    ----------
    lots : ndarray of shapely polygons
        All lots of the layer (neighbours are found among them).
    districts : ndarray of str or None
        Zoning district of each lot (None entries where unknown). When the whole
        argument is None, zoning is unknown and every lot counts; so does a lot
        whose own district is None.
    settings : AdjoiningSettings
    feet_per_unit : float
        Feet in one CRS unit.
    only : ndarray of int, optional
        Only these lots; their neighbours still come from all lots.

    Returns
    -------
    SharedLines
        Lines of lots in the buffer's districts only.
    """
    wanted = np.arange(len(lots)) if only is None else np.asarray(only, dtype=np.int64)
    buffered = settings.districts
    if districts is not None and buffered is not None:
        # A lot whose district is unknown keeps its buffer; the rules then ask for zoning.
        in_district = np.array([d is None or d in buffered for d in districts[wanted]], dtype=bool)
        wanted = wanted[in_district]
    if len(wanted) == 0:
        return SharedLines(np.empty(0, dtype=object), np.empty(0, dtype=np.int64), np.empty(0))
    gap = settings.neighbour_tolerance_ft / feet_per_unit
    segments, segment_lot = _boundary_segments(lots, wanted, gap * STRAIGHT_RUN_FRACTION)
    parts, part_segment = _shared_parts(lots, segments, segment_lot, gap)
    boundary = _Boundary(segments, segment_lot, parts, part_segment)
    setbacks = _segment_setbacks(lots, boundary, districts, settings, feet_per_unit)
    return SharedLines(parts, segment_lot[part_segment], setbacks[part_segment])


@dataclass(frozen=True)
class _Boundary:
    """The wanted lots' boundary as straight segments, and the parts shared with neighbours.

    Attributes
    ----------
    segments : ndarray of LineStrings
    segment_lot : ndarray of int
        The lot each segment bounds.
    parts : ndarray of LineStrings
        The parts of segments lying along a neighbouring lot.
    part_segment : ndarray of int
        The segment each part lies on.
    """

    segments: np.ndarray
    segment_lot: np.ndarray
    parts: np.ndarray
    part_segment: np.ndarray


def adjoining_buffers(
    lots: np.ndarray,
    districts: np.ndarray | None,
    settings: AdjoiningSettings,
    feet_per_unit: float,
    only: np.ndarray | None = None,
) -> np.ndarray:
    """The adjoining property buffer of each lot (see :func:`shared_lines` for the arguments).

    Returns
    -------
    ndarray of shapely polygons
        The buffer inside each lot; empty outside Residence A districts and for
        lots not in ``only``.
    """
    n = len(lots)
    out = empty_array(n)
    lines = shared_lines(lots, districts, settings, feet_per_unit, only)
    strips, strip_lot = _strips(lines)
    merged = union_by_group(strips, strip_lot, n)
    wanted = np.unique(strip_lot)
    out[wanted] = polygonal(map_arrays(shapely.intersection, merged[wanted], lots[wanted]))
    return out


def disturbance_in_buffer(
    lots: np.ndarray,
    disturbed: np.ndarray,
    districts: np.ndarray | None,
    settings: AdjoiningSettings,
    feet_per_unit: float,
    active: np.ndarray,
) -> np.ndarray:
    """The part of each lot's disturbance inside its own adjoining property buffer.

    Only strips that can reach the disturbance are built, and they are cut by
    the disturbance inside the lot rather than by the whole lot: the same
    answer as intersecting :func:`adjoining_buffers` with the disturbance, for
    a fraction of the work.
    """
    n = len(lots)
    out = empty_array(n)
    lines = shared_lines(lots, districts, settings, feet_per_unit, active)
    if len(lines.lines) == 0:
        return out
    inside = empty_array(n)
    lots_with_lines = np.unique(lines.lot)
    inside[lots_with_lines] = intersect_pairs(disturbed[lots_with_lines], lots[lots_with_lines])
    reaches = shapely.dwithin(lines.lines, inside[lines.lot], lines.setback)
    lines = lines.subset(reaches)
    strips, strip_lot = _strips(lines)
    pieces = polygonal(map_arrays(shapely.intersection, strips, inside[strip_lot]))
    return union_by_group(pieces, strip_lot, n)


def _strips(lines: SharedLines) -> tuple[np.ndarray, np.ndarray]:
    """Buffer the lines into strips: one multi-line per lot and setback, buffered at once.

    GEOS unions the lines while buffering them, which leaves at most a rear and
    a side strip per lot.
    """
    if len(lines.lines) == 0:
        return np.empty(0, dtype=object), np.empty(0, dtype=np.int64)
    keys, group = np.unique(np.stack([lines.lot, lines.setback]), axis=1, return_inverse=True)
    group = group.ravel()
    order = np.argsort(group, kind="stable")
    multilines = shapely.multilinestrings(lines.lines[order], indices=group[order])
    return map_arrays(shapely.buffer, multilines, keys[1]), keys[0].astype(np.int64)


STRAIGHT_RUN_FRACTION = 0.1
"""Vertices off a straight run by less than this part of the neighbour gap are dropped."""


def _boundary_segments(
    lots: np.ndarray, wanted: np.ndarray, straightness: float
) -> tuple[np.ndarray, np.ndarray]:
    """The straight runs of the wanted lots' rings, and the lot of each.

    Vertices within ``straightness`` of the line through their neighbours are
    dropped first (Douglas-Peucker): a line densified into steps shorter than
    the stub length (a segmentized or digitised-by-stream boundary) is one run,
    not thousands each too short to read as a shared line.
    """
    outlines = shapely.simplify(lots[wanted], straightness, preserve_topology=False)
    parts, part_lot = shapely.get_parts(outlines, return_index=True)
    rings, ring_part = shapely.get_rings(parts, return_index=True)
    ring_lot = wanted[part_lot[ring_part]]
    coords, coord_ring = shapely.get_coordinates(rings, return_index=True)
    same_ring = coord_ring[:-1] == coord_ring[1:]
    starts, ends = coords[:-1][same_ring], coords[1:][same_ring]
    segment_lot = ring_lot[coord_ring[:-1][same_ring]]
    real = np.any(starts != ends, axis=1)
    segments = shapely.linestrings(np.stack([starts[real], ends[real]], axis=1))
    return segments, segment_lot[real]


def _shared_parts(
    lots: np.ndarray, segments: np.ndarray, segment_lot: np.ndarray, gap: float
) -> tuple[np.ndarray, np.ndarray]:
    """The parts of each segment lying along a neighbouring lot, and their segment."""
    tree = shapely.STRtree(lots)
    # Boxes first, and a segment's own lot dropped before any distance is worked:
    # testing every segment against the lot it bounds costs the lot's vertex
    # count per segment, which a lot of a million vertices makes a trillion.
    low, high = np.hsplit(shapely.bounds(segments), 2)
    reach = shapely.box(*(low - gap).T, *(high + gap).T)
    segment_idx, neighbour = map_query(tree, reach)
    other = neighbour != segment_lot[segment_idx]
    segment_idx, neighbour = segment_idx[other], neighbour[other]
    near = shapely.dwithin(segments[segment_idx], lots[neighbour], gap)
    segment_idx, neighbour = segment_idx[near], neighbour[near]
    if len(segment_idx) == 0:
        return np.empty(0, dtype=object), np.empty(0, dtype=np.int64)
    unique_neighbours, which = np.unique(neighbour, return_inverse=True)
    zones = map_arrays(shapely.buffer, lots[unique_neighbours], gap, quad_segs=2)
    shapely.prepare(zones)
    zone_of_pair = zones[which.ravel()]
    candidates = segments[segment_idx]
    whole = shapely.covers(zone_of_pair, candidates)
    shared = candidates.copy()
    shared[~whole] = map_arrays(shapely.intersection, candidates[~whole], zone_of_pair[~whole])
    parts, pair = shapely.get_parts(shared, return_index=True)
    # A frontage segment meets the zone within the gap of a neighbour for about one
    # gap at the corner they share; such stubs are not shared lines.
    real = (shapely.get_type_id(parts) == LINESTRING) & (shapely.length(parts) > 2 * gap)
    return parts[real], segment_idx[pair[real]]


def _segment_setbacks(
    lots: np.ndarray,
    boundary: _Boundary,
    districts: np.ndarray | None,
    settings: AdjoiningSettings,
    feet_per_unit: float,
) -> np.ndarray:
    """Setback (CRS units) of each segment: rear when it faces away from the frontage."""
    segment_lot, gap = boundary.segment_lot, settings.neighbour_tolerance_ft / feet_per_unit
    normals, lengths = _outward_normals(lots[segment_lot], boundary.segments)
    shared = np.bincount(
        boundary.part_segment,
        weights=shapely.length(boundary.parts),
        minlength=len(boundary.segments),
    )
    shared_lengths = np.minimum(shared, lengths)
    frontage = lengths - shared_lengths
    n = len(lots)
    facing = np.stack(
        [np.bincount(segment_lot, weights=normals[:, k] * frontage, minlength=n) for k in (0, 1)],
        axis=1,
    )
    frontage_total = np.bincount(segment_lot, weights=frontage, minlength=n)
    norm = np.hypot(facing[:, 0], facing[:, 1])
    has_frontage = frontage_total > gap
    # Frontages facing opposite ways (a through lot) cancel out: such a lot has
    # no line opposite "the" frontage, so all its shared lines are side lines.
    one_way = norm > 0.2 * frontage_total
    unit = np.divide(facing, norm[:, None], out=np.zeros_like(facing), where=one_way[:, None])
    cosine = np.einsum("ij,ij->i", normals, unit[segment_lot])
    side = np.array(
        [settings.side_setback(None if districts is None else districts[i]) for i in range(n)]
        if districts is not None
        else [settings.default_side_setback_ft] * n,
        dtype=float,
    )[segment_lot]
    rear = settings.rear_setback_ft
    setbacks = np.where(cosine < _REAR_COSINE, rear, side)
    # A landlocked lot has no frontage to tell rear from side: the larger setback.
    setbacks = np.where(has_frontage[segment_lot], setbacks, np.maximum(side, rear))
    return setbacks / feet_per_unit


def _outward_normals(lots: np.ndarray, segments: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Unit normal of each segment pointing out of its lot, and the segment lengths."""
    coords = shapely.get_coordinates(segments).reshape(-1, 2, 2)
    direction = coords[:, 1] - coords[:, 0]
    lengths = np.hypot(direction[:, 0], direction[:, 1])
    normals = np.stack([direction[:, 1], -direction[:, 0]], axis=1) / lengths[:, None]
    midpoints = coords.mean(axis=1)
    probe = shapely.points(midpoints + normals * np.minimum(lengths, 1.0)[:, None] * 1e-3)
    inward = shapely.contains(lots, probe)
    normals[inward] *= -1
    return normals, lengths
