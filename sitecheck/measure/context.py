"""What every measurer of a run shares: the lots and their disturbance, the reader, the
working CRS and settings, and where the metrics and flags go."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import geopandas as gpd
import numpy as np
import shapely

from sitecheck.constraints.layers import buffered
from sitecheck.geometry.overlay import Surface, empty_array
from sitecheck.io.crs import WorkingCRS
from sitecheck.io.extent import Extent
from sitecheck.io.kept import KeptByIdentity, kept_value
from sitecheck.io.parcels import Parcels
from sitecheck.io.readers import LINEAR, POLYGONAL, LayerReader, LayerSource
from sitecheck.measure.inputs import MeasureSettings
from sitecheck.measure.table import FlagCollector
from sitecheck.schema.roles import ROLE_BY_KEY


@dataclass
class Measuring:
    """One run's measuring in progress.

    Attributes
    ----------
    parcels : Parcels
    lot_tree : shapely.STRtree
        Spatial index of the lots.
    reader : LayerReader
    settings : MeasureSettings
    disturbed : ndarray
        Per lot, its disturbance (working CRS; empty where none).
    active : ndarray of int
        The lots with disturbance: constraints are intersected with these only.
    metrics : dict of str to ndarray
        Per metric, one value per lot.
    flags : FlagCollector
    extent : Extent or None
        Where the constraint layers are read: around the lots with work,
        grown by the run's reach (None: whole layers).
    """

    parcels: Parcels
    lot_tree: shapely.STRtree
    reader: LayerReader
    settings: MeasureSettings
    disturbed: np.ndarray
    active: np.ndarray
    metrics: dict[str, np.ndarray]
    flags: FlagCollector
    extent: Extent | None = None

    @property
    def working(self) -> WorkingCRS:
        return self.parcels.working

    @property
    def count(self) -> int:
        return len(self.parcels.geoms)

    @property
    def tile(self) -> float:
        """Side of the tiles large constraint polygons are cut into, in CRS units."""
        return self.settings.tile_size_ft / self.working.feet_per_unit

    def read(self, source: LayerSource, kinds: tuple[str, ...]) -> gpd.GeoDataFrame:
        """A layer in the working CRS, within the run's extent."""
        return self.reader.read(source, kinds, target_crs=self.working.crs, within=self.extent)

    def geometries(self, source: LayerSource) -> np.ndarray:
        """A layer's geometries, of the kinds its role takes, read as :meth:`read` reads."""
        role = ROLE_BY_KEY[source.role]
        kinds = POLYGONAL + LINEAR if role.geometry == "line_or_polygon" else POLYGONAL
        return self.read(source, kinds).geometry.to_numpy()

    def surface(self, geoms: np.ndarray) -> Surface:
        """Polygons dissolved in tiles (:meth:`Surface.from_polygons`), made once a session
        for the same polygons where the reader keeps values (the panel's worker)."""
        return self._kept(
            geoms, ("surface", self.tile), lambda: Surface.from_polygons(geoms, self.tile)
        )

    def buffered_surface(self, geoms: np.ndarray, width_ft: float) -> Surface:
        """The area within ``width_ft`` of lines or polygons, in tiles (0: a polygon's own area)."""
        width = width_ft / self.working.feet_per_unit
        return self._kept(
            geoms,
            ("buffered", self.tile, width),
            lambda: Surface.from_polygons(buffered(geoms, width), self.tile),
        )

    def _kept(self, geoms: np.ndarray, how: tuple, make: Callable[[], Surface]) -> Surface:
        return kept_value(self.reader.kept, geoms, how, make)

    def option(self, name: str) -> object:
        """A plug-in constraint kind's option in this run (``MeasureSettings.kind_options``)."""
        return self.settings.kind_options[name]

    def lots_extent(self) -> Extent:
        """One box around every lot, grown by the run's reach."""
        margin = self.settings.reach_ft() / self.working.feet_per_unit
        return Extent.box_around(self.parcels.geoms, margin, self.working.crs)

    def not_measured(self, *names: str) -> None:
        """Null metrics for an input that was not given (never 0)."""
        for name in names:
            self.metrics[name] = np.full(self.count, np.nan)

    def overlap(self, surface: Surface) -> tuple[np.ndarray, np.ndarray]:
        """Each lot's disturbance in a surface: areas (CRS units) and geometries.

        Where the reader keeps values (the panel's worker), each lot's overlap is kept by
        its work, and an edit overlays again only the lots whose work it changed."""
        areas = np.zeros(self.count)
        geoms = empty_array(self.count)
        work = self.disturbed[self.active]
        if self.reader.kept is None:
            got_areas, got_geoms = surface.overlap(work, want_geometry=True)
        else:
            got_areas, got_geoms = _each_kept_overlap(self.reader.kept, surface, work)
        areas[self.active] = got_areas
        assert got_geoms is not None
        geoms[self.active] = got_geoms
        return areas, geoms

    def record(self, metric: str, kind: str, areas: np.ndarray, geoms: np.ndarray) -> None:
        """A disturbance metric in square feet and the flags showing where it lies."""
        self.metrics[metric] = areas * self.working.sqft_per_unit2
        self.flags.add(kind, geoms, self.working.sqft_per_unit2)


def _each_kept_overlap(
    kept: KeptByIdentity, surface: Surface, work: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """:meth:`Surface.overlap` of each lot's work, kept by the work's shape (WKB)."""

    def overlaid(missing: np.ndarray) -> list[tuple[float, shapely.Geometry]]:
        got_areas, got_geoms = surface.overlap(work[missing], want_geometry=True)
        assert got_geoms is not None
        return list(zip(got_areas.tolist(), got_geoms, strict=True))

    hows = [("overlap", shape) for shape in shapely.to_wkb(work).tolist()]
    each = kept.each([surface], hows, overlaid)
    areas = np.array([area for area, _ in each], dtype=np.float64)
    geoms = empty_array(len(each))
    geoms[:] = [geom for _, geom in each]
    return areas, geoms
