"""Derive Scarsdale's adjoining property buffer (§ 254-4) from a parcel layer.

The buffer is the part of a lot in a Residence A district within the side-yard
setback or the thirty-foot rear-yard setback of a lot line shared with a
neighbouring lot. Lot lines shared with no lot face the street (the frontage);
a shared line facing away from the frontage is a rear line, the others side
lines.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np
import shapely

from sitecheck.overlay import empty_array, polygonal

RESIDENCE_A_DISTRICTS: tuple[str, ...] = ("AA-1", "A-1", "A-2", "A-2a", "A-3", "A-4", "A-5")

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
    districts : tuple of str
        The districts the buffer applies in (Residence A).
    neighbour_tolerance_ft : float
        Gap or overlap between neighbouring lots still read as a shared line.
    """

    rear_setback_ft: float = 30.0
    side_setbacks_ft: Mapping[str, float] = field(default_factory=dict)
    default_side_setback_ft: float = 30.0
    districts: tuple[str, ...] = RESIDENCE_A_DISTRICTS
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
            "districts": list(self.districts),
            "neighbour_tolerance_ft": self.neighbour_tolerance_ft,
        }


def adjoining_buffers(
    lots: np.ndarray,
    districts: np.ndarray | None,
    settings: AdjoiningSettings,
    feet_per_unit: float,
    only: np.ndarray | None = None,
) -> np.ndarray:
    """The adjoining property buffer of each lot.

    Parameters
    ----------
    lots : ndarray of shapely polygons
        All lots of the layer (neighbours are found among them).
    districts : ndarray of str or None
        Zoning district of each lot (None entries where unknown). When the whole
        argument is None, zoning is unknown and every lot gets a buffer.
    settings : AdjoiningSettings
    feet_per_unit : float
        Feet in one CRS unit.
    only : ndarray of int, optional
        Compute only these lots (others stay empty); the buffer of a lot still
        depends on all its neighbours.

    Returns
    -------
    ndarray of shapely polygons
        The buffer inside each lot; empty outside Residence A districts.
    """
    n = len(lots)
    out = empty_array(n)
    wanted = np.arange(n) if only is None else np.asarray(only, dtype=np.int64)
    if districts is not None:
        in_district = np.array([d in settings.districts for d in districts[wanted]], dtype=bool)
        wanted = wanted[in_district]
    if len(wanted) == 0:
        return out
    tolerance = settings.neighbour_tolerance_ft / feet_per_unit
    tree = shapely.STRtree(lots)
    lot_idx, neighbour_idx = tree.query(lots[wanted], predicate="dwithin", distance=tolerance)
    lot_idx = wanted[lot_idx]
    different = lot_idx != neighbour_idx
    lot_idx, neighbour_idx = lot_idx[different], neighbour_idx[different]
    for i in wanted:
        neighbours = neighbour_idx[lot_idx == i]
        district = None if districts is None else districts[i]
        side = settings.side_setback(district) / feet_per_unit
        rear = settings.rear_setback_ft / feet_per_unit
        out[i] = _lot_buffer(lots[i], lots[neighbours], tolerance, side, rear)
    return out


def _lot_buffer(
    lot: shapely.Geometry, neighbours: np.ndarray, tolerance: float, side: float, rear: float
) -> shapely.Geometry:
    """The strip of one lot along the lines it shares with its neighbours."""
    if len(neighbours) == 0:
        return shapely.Polygon()
    segments = _boundary_segments(lot)
    neighbour_zone = shapely.buffer(shapely.union_all(neighbours), tolerance)
    parts, segment_of_part = shapely.get_parts(
        shapely.intersection(segments, neighbour_zone), return_index=True
    )
    # A frontage segment meets the tolerance zone for about one tolerance at a
    # corner with a neighbour; such stubs are not shared lines.
    real = shapely.length(parts) > 2 * tolerance
    parts, segment_of_part = parts[real], segment_of_part[real]
    shared_lengths = np.bincount(
        segment_of_part, weights=shapely.length(parts), minlength=len(segments)
    )
    normals, lengths = _outward_normals(lot, segments)
    frontage_lengths = np.clip(lengths - shared_lengths, 0.0, None)
    setbacks = np.full(len(segments), side)
    facing = (normals * frontage_lengths[:, None]).sum(axis=0)
    norm = float(np.hypot(*facing))
    if frontage_lengths.sum() > tolerance and norm > 0:
        cosine = normals @ (facing / norm)
        setbacks[cosine < _REAR_COSINE] = rear
    else:
        setbacks[:] = max(side, rear)  # landlocked lot: no frontage to tell rear from side
    if len(parts) == 0:
        return shapely.Polygon()
    strips = shapely.buffer(parts, setbacks[segment_of_part])
    return polygonal(np.array([shapely.intersection(shapely.union_all(strips), lot)]))[0]


def _boundary_segments(lot: shapely.Geometry) -> np.ndarray:
    """Every straight segment of a lot's rings as a two-point line."""
    rings = shapely.get_rings(shapely.get_parts(lot))
    coords_list = [shapely.get_coordinates(ring) for ring in rings]
    starts = np.concatenate([c[:-1] for c in coords_list])
    ends = np.concatenate([c[1:] for c in coords_list])
    keep = np.any(starts != ends, axis=1)
    pairs = np.stack([starts[keep], ends[keep]], axis=1)
    return shapely.linestrings(pairs)


def _outward_normals(lot: shapely.Geometry, segments: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Unit normal of each segment pointing out of the lot, and segment lengths."""
    coords = shapely.get_coordinates(segments).reshape(-1, 2, 2)
    direction = coords[:, 1] - coords[:, 0]
    lengths = np.hypot(direction[:, 0], direction[:, 1])
    normals = np.stack([direction[:, 1], -direction[:, 0]], axis=1) / lengths[:, None]
    midpoints = coords.mean(axis=1)
    probe = shapely.points(midpoints + normals * np.minimum(lengths, 1.0)[:, None] * 1e-3)
    inward = shapely.contains(lot, probe)
    normals[inward] *= -1
    return normals, lengths
