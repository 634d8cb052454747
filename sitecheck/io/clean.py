"""Clean a layer's geometries: Z/M dropped, the geometry family checked, invalid
geometries repaired, coordinates that are not numbers refused."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import numpy as np
import shapely

from sitecheck.errors import InputError
from sitecheck.io.geometry_types import COLLECTION, LINE_TYPES, POINT_TYPES, POLYGON_TYPES


class LayerSource(Protocol):
    """What a message needs of a layer's source: its name."""

    def label(self) -> str: ...


POLYGONAL = ("Polygon", "MultiPolygon")
LINEAR = ("LineString", "MultiLineString", "LinearRing")


def listed(values: Sequence[object], limit: int = 10) -> str:
    """``a, b, c and 4 more``: values for a message, shortened past ``limit``."""
    shown = ", ".join(str(value) for value in values[:limit])
    return shown + (f" and {len(values) - limit} more" if len(values) > limit else "")


def named_features(fids: np.ndarray, limit: int = 10) -> str:
    """``FID 3, 7`` for messages, shortened past ``limit`` features."""
    return "FID " + listed([int(f) for f in fids], limit)


def clean_geometries(
    geoms: np.ndarray,
    kinds: tuple[str, ...],
    source: LayerSource,
    fids: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Drop Z/M, refuse coordinates that are not numbers, repair invalid geometries
    and check the geometry family.

    Parameters
    ----------
    geoms : ndarray of shapely geometries
    kinds : tuple of str
        Accepted families, ``POLYGONAL`` and/or ``LINEAR``.
    source : LayerSource
        Named in messages.
    fids : ndarray of int, optional
        Feature ids named in messages (row numbers when absent).

    Returns
    -------
    geoms : ndarray
        The cleaned array, empty geometries where nothing usable is left.
    dropped : ndarray of int
        Rows that were null, empty, or left nothing of an accepted type after repair.
    repaired : ndarray of int
        Rows repaired.

    Raises
    ------
    InputError
        A coordinate that is NaN or infinite (GEOS would drop the feature, or
        repair it into something else, without a word), or a geometry family
        the role cannot use.
    """
    fids = np.arange(len(geoms)) if fids is None else np.asarray(fids)
    missing = shapely.is_missing(geoms) | shapely.is_empty(geoms)
    geoms = geoms.copy()
    geoms[missing] = shapely.Polygon()
    present = ~missing
    valid = shapely.is_valid(geoms)  # XY only: the same once Z and M are dropped
    _refuse_non_finite(geoms, fids, source, _suspects(geoms, present, valid))
    # Only shapes with Z or M are made anew in 2D: rebuilding every shape of a county's
    # impervious layer cost 0.6 s of a check for layers that are nearly always 2D.
    extra = present.copy()
    extra[present] = shapely.has_z(geoms[present]) | shapely.has_m(geoms[present])
    if extra.any():
        geoms[extra] = shapely.force_2d(geoms[extra])
    types = shapely.get_type_id(geoms[present])
    accepted: set[int] = set()
    if any(kind in POLYGONAL for kind in kinds):
        accepted |= set(POLYGON_TYPES)
    if any(kind in LINEAR for kind in kinds):
        accepted |= set(LINE_TYPES)
    collections = types == COLLECTION
    if collections.any():
        # Keep the accepted parts of mixed collections (e.g. from repairs upstream).
        idx = np.flatnonzero(present)[collections]
        geoms[idx] = [_keep_parts(g, accepted) for g in geoms[idx]]
        valid[idx] = shapely.is_valid(geoms[idx])
        types = shapely.get_type_id(geoms[present])
    wrong = ~np.isin(types, list(accepted)) & ~shapely.is_empty(geoms[present])
    if wrong.any():
        found = sorted({shapely.get_type_id(g) for g in geoms[present][wrong]})
        names = ", ".join(_TYPE_NAMES.get(t, str(t)) for t in found)
        wanted = " or ".join(sorted({"polygons" if k in POLYGONAL else "lines" for k in kinds}))
        raise InputError(f"{source.label()}: needs {wanted}, found {names}")
    invalid = present & ~valid
    if invalid.any():
        fixed = shapely.make_valid(geoms[invalid], method="structure", keep_collapsed=False)
        if kinds == POLYGONAL:
            fixed = np.array([_keep_parts(g, set(POLYGON_TYPES)) for g in fixed], dtype=object)
        geoms[invalid] = fixed
    if kinds == POLYGONAL:
        # A polygon of no area (all its points on a line) holds no ground.
        flat = present & ~shapely.is_empty(geoms) & (shapely.area(geoms) <= 0)
        geoms[flat] = shapely.Polygon()
    dropped = np.flatnonzero(shapely.is_empty(geoms))
    return geoms, dropped, np.flatnonzero(invalid)


FARTHEST_COORDINATE = 1e15
"""No map lies farther from its origin: the earth's girth is 4e10 mm, 1.3e8 ft."""


def _suspects(geoms: np.ndarray, present: np.ndarray, valid: np.ndarray) -> np.ndarray:
    """Rows that may hold a vertex that is not a number or lies beyond any map: those GEOS
    finds invalid (a NaN or infinite coordinate is one of its reasons) and those whose
    bounds reach past :data:`FARTHEST_COORDINATE`. Reading every vertex of a county's
    impervious layer to find none cost 0.3 s a layer."""
    with np.errstate(invalid="ignore"):  # an empty shape's bounds are NaN
        far = (np.abs(shapely.bounds(geoms)) > FARTHEST_COORDINATE).any(axis=1)
    return np.flatnonzero(present & (far | ~valid))


def _refuse_non_finite(
    geoms: np.ndarray, fids: np.ndarray, source: LayerSource, rows: np.ndarray
) -> None:
    """Refuse features (among ``rows``) with a vertex that is not a number or lies beyond
    any map.

    Coordinates near 1e300 overflow every area and length worked from them.
    """
    geoms, fids = geoms[rows], fids[rows]
    coords, owner = shapely.get_coordinates(geoms, include_z=False, return_index=True)
    bad = ~np.isfinite(coords).all(axis=1)
    if bad.any():
        rows = np.unique(owner[bad])
        raise InputError(
            f"{source.label()}: {len(rows)} feature(s) ({named_features(fids[rows])}) have a "
            "vertex whose coordinates are not numbers (NaN or infinite); fix or delete them"
        )
    far = (np.abs(coords) > FARTHEST_COORDINATE).any(axis=1)
    if far.any():
        rows = np.unique(owner[far])
        largest = float(np.abs(coords[far]).max())
        raise InputError(
            f"{source.label()}: {len(rows)} feature(s) ({named_features(fids[rows])}) have a "
            f"vertex {largest:.3g} units from the origin, beyond any map (at most "
            f"{FARTHEST_COORDINATE:.0e}): their coordinates are broken; fix or delete them"
        )


_TYPE_NAMES = {
    **dict.fromkeys(POINT_TYPES, "points"),
    **dict.fromkeys(LINE_TYPES, "lines"),
    int(shapely.GeometryType.LINEARRING): "rings",
    **dict.fromkeys(POLYGON_TYPES, "polygons"),
    COLLECTION: "geometry collections",
}


def _keep_parts(geom: shapely.Geometry, type_ids: set[int]) -> shapely.Geometry:
    """The parts of a collection whose type is accepted, merged into one geometry.

    Collections inside the collection are opened too, however deep, so a polygon
    nested in them is kept, never dropped as if the feature were empty.
    """
    parts: list[shapely.Geometry] = []
    pending = [geom]
    while pending:
        for part in shapely.get_parts(pending.pop()):
            kind = shapely.get_type_id(part)
            if kind == COLLECTION:
                pending.append(part)
            elif kind in type_ids and not shapely.is_empty(part):
                parts.append(part)
    if not parts:
        return shapely.Polygon()
    if len(parts) == 1:
        return parts[0]
    return shapely.union_all(parts)
