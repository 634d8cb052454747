"""The part of a layer a run needs: boxes around the lots it measures.

A statewide layer (200,000 wetland polygons) read whole to check ten lots
costs seconds and gigabytes. A run reads each constraint layer only within
boxes around the lots with work, grown by the run's reach, through the
source's spatial index (GeoPackage R-tree, shapefile .qix or .sbn, FileGDB,
PostGIS GiST). Nearby lots share a box; far-apart lots get their own.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pyproj
import shapely
from pyproj.exceptions import ProjError

MAX_BOXES = 32
"""More boxes than this are read in one pass through a mask of their union."""


@dataclass(frozen=True)
class Extent:
    """Boxes in a CRS; a layer is read where its features meet one of them.

    Attributes
    ----------
    boxes : tuple of (minx, miny, maxx, maxy)
    crs : pyproj.CRS
    """

    boxes: tuple[tuple[float, float, float, float], ...]
    crs: pyproj.CRS

    @classmethod
    def around(cls, geoms: np.ndarray, margin: float, crs: pyproj.CRS) -> Extent:
        """Boxes around geometries grown by ``margin`` (CRS units), overlapping ones merged."""
        present = geoms[~(shapely.is_empty(geoms) | shapely.is_missing(geoms))]
        if len(present) == 0:
            return cls((), crs)
        bounds = shapely.bounds(present)
        grown = shapely.box(
            bounds[:, 0] - margin,
            bounds[:, 1] - margin,
            bounds[:, 2] + margin,
            bounds[:, 3] + margin,
        )
        # Merge until no two boxes meet: a union of boxes, re-boxed part by part.
        boxes = grown
        while True:
            merged = shapely.envelope(shapely.get_parts(shapely.union_all(boxes)))
            if len(merged) == len(boxes):
                break
            boxes = merged
        return cls(tuple(_bounds(b) for b in boxes), crs)

    @classmethod
    def box_around(cls, geoms: np.ndarray, margin: float, crs: pyproj.CRS) -> Extent:
        """One box around all the geometries, grown by ``margin`` (CRS units)."""
        minx, miny, maxx, maxy = shapely.total_bounds(geoms)
        if not np.all(np.isfinite([minx, miny, maxx, maxy])):
            return cls((), crs)
        grown = (minx - margin, miny - margin, maxx + margin, maxy + margin)
        return cls((tuple(float(v) for v in grown),), crs)  # type: ignore[arg-type]

    def in_crs(self, crs: pyproj.CRS) -> list[tuple[float, float, float, float]] | None:
        """The boxes in another CRS (each grown to hold its corners' images); None if
        a box cannot be transformed (then the layer is read whole)."""
        if crs.equals(self.crs):
            return list(self.boxes)
        transformer = pyproj.Transformer.from_crs(self.crs, crs, always_xy=True)
        out = []
        for box in self.boxes:
            try:
                moved = transformer.transform_bounds(*box, densify_pts=21)
            except ProjError:
                return None
            if not np.all(np.isfinite(moved)):
                return None
            out.append(tuple(float(v) for v in moved))
        return out  # type: ignore[return-value]


def _bounds(box: shapely.Geometry) -> tuple[float, float, float, float]:
    minx, miny, maxx, maxy = shapely.bounds(box)
    return float(minx), float(miny), float(maxx), float(maxy)
