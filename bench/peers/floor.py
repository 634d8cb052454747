"""The floor: only the irreducible work of measuring a village, each step done once, vectorized.

What no screening tool can skip, done the fastest plain way, so the engine's time has
a floor to be measured against (the peers are what people write; this is what the
work costs):

- Arrow reads (pyogrio ``read_arrow``, geometries from WKB): the parcels and the
  disturbance whole, every other layer only where it meets the boxes around the lots
  with work grown by the widest buffer (100 ft), merged where they meet, read through
  the layer's spatial index (one box alone, many through one multipolygon mask), as the
  engine reads its windows
  (issue 30: a floor that read every layer whole was slower than the engine at 250k
  parcels, so no ratio to it meant anything);
- the disturbance split by lot: one spatial query of every feature against the lots,
  one vectorized intersection, overlaps counted once (a union per lot with several
  pieces);
- per constraint (impervious cover existing and proposed, the 1% and 0.2% floodplain,
  the floodway, wetlands, their 100-ft adjacent area, the 100-ft watercourse buffer):
  one spatial query of the disturbed lots against the layer, one vectorized
  intersection, a union per lot where pieces overlap, the areas; the adjacent area
  as the wetlands and their 100 ft less the wetlands (a difference with the union of
  every wetland took 12.6 of the floor's 42 s at 250k parcels, issue 30);
- membership of the lots with work in the SDA and impaired watersheds, and their zoning
  district (the district holding most of the lot): one query and intersection each;
- the adjoining property buffer in its plainest form: the lines each lot with work shares
  with its neighbours, buffered 30 ft into the lot (one query of those lots against every
  lot, one intersection of boundaries, one buffer, one intersection), and the
  disturbance inside it;
- one exact raster pass for slopes: Horn's slope over the DEM's cells under the work,
  and exactextract's coverage of the cells over 15% and 25% for every disturbed lot;
- one write of the parcel metrics (GeoPackage, through Arrow).

It computes no flag geometries, rules or reports, and none of the adjoining buffer's
finer points (street lines, rear lines, setbacks by district): those are the engine's
own work beyond this floor.

Run: python floor.py VILLAGE_DIR OUT_JSON
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import exactextract
import numpy as np
import pyarrow as pa
import pyogrio
import pyproj
import rasterio
import rasterio.windows
import shapely
from exactextract.feature import Feature, FeatureSource
from exactextract.raster import NumPyRasterSource

from sitecheck.io.extent import Extent

VILLAGE_CRS = pyproj.CRS("EPSG:2260")  # the bench village's CRS, in US survey feet
SFHA = ("A", "AE", "AH", "AO", "A99", "V", "VE")


WIDEST_BUFFER_FT = 100.0
"""The wetland adjacent area and the watercourse buffer: nothing farther from a lot with
work can change its figures (the engine reads 300 ft more, for its adjoining buffer's
neighbours; the floor reads the least that answers)."""


def read(gpkg: Path, layer: str, columns: list[str] | None = None, within=None):
    """A layer's geometries (and columns) through Arrow, only what meets ``within`` (a box,
    read through the index alone, or a multipolygon of boxes, each feature tested) if given."""
    window = {}
    if within is not None:
        boxes = shapely.get_num_geometries(within)
        window = {"bbox": tuple(shapely.bounds(within))} if boxes == 1 else {"mask": within}
    meta, table = pyogrio.read_arrow(gpkg, layer=layer, columns=columns or [], **window)
    geometry = shapely.from_wkb(table[meta["geometry_name"] or "wkb_geometry"].to_numpy())
    return geometry, table


def window(geoms: np.ndarray, margin: float) -> shapely.Geometry:
    """The boxes around ``geoms`` grown by ``margin``, merged where they meet, as one
    multipolygon (boxes that never meet need no union)."""
    boxes = Extent.around(geoms, margin, VILLAGE_CRS).boxes
    if not boxes:
        return shapely.box(0, 0, 0, 0)
    return shapely.multipolygons(shapely.box(*np.array(boxes).T))


def per_lot(
    lots: np.ndarray, geoms: np.ndarray, tree: shapely.STRtree
) -> tuple[np.ndarray, np.ndarray]:
    """Each lot's part of ``geoms``: one query, one intersection, a union where parts overlap."""
    feature, lot = tree.query(geoms, predicate="intersects")
    pieces = polygonal(shapely.intersection(geoms[feature], lots[lot]))
    keep = shapely.area(pieces) > 0  # touching lots share a line, not ground
    return dissolve(lot[keep], pieces[keep])


def polygonal(geoms: np.ndarray) -> np.ndarray:
    """The polygons of each geometry (an intersection of polygons can add lines and points)."""
    mixed = np.flatnonzero(shapely.get_type_id(geoms) == 7)
    for position in mixed:
        parts = shapely.get_parts(geoms[position])
        geoms[position] = shapely.multipolygons(parts[np.isin(shapely.get_type_id(parts), (3, 6))])
    return geoms


def dissolve(keys: np.ndarray, pieces: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """One geometry per key: the pieces of keys with several are unioned."""
    order = np.argsort(keys, kind="stable")
    keys, pieces = keys[order], pieces[order]
    unique, starts, counts = np.unique(keys, return_index=True, return_counts=True)
    merged = pieces[starts].copy()
    for position in np.flatnonzero(counts > 1):
        start = starts[position]
        merged[position] = shapely.union_all(pieces[start : start + counts[position]])
    return unique, merged


def adjoining_strips(lots: np.ndarray, lot_index: np.ndarray, setback: float = 30.0) -> np.ndarray:
    """Each lot's strip along the lines it shares with other lots, ``setback`` wide."""
    mine, other = shapely.STRtree(lots).query(lots[lot_index], predicate="intersects")
    apart = lot_index[mine] != other
    mine, other = mine[apart], other[apart]
    shared = shapely.intersection(
        shapely.boundary(lots[lot_index[mine]]), shapely.boundary(lots[other])
    )
    keys, lines = dissolve(mine, shapely.buffer(shared, setback))
    strips = np.array([shapely.Polygon()] * len(lot_index), dtype=object)
    strips[keys] = shapely.intersection(lines, lots[lot_index[keys]])
    return strips


def largest_district(shapes: np.ndarray, districts: np.ndarray, names: np.ndarray) -> np.ndarray:
    """The name of the district holding most of each shape (None where none does)."""
    shape, district = shapely.STRtree(districts).query(shapes, predicate="intersects")
    areas = shapely.area(shapely.intersection(shapes[shape], districts[district]))
    order = np.lexsort((-areas, shape))
    first = np.unique(shape[order], return_index=True)[1]
    out = np.full(len(shapes), None, dtype=object)
    out[shape[order][first]] = names[district[order][first]]
    return out


def overlap_areas(shapes: np.ndarray, layer: np.ndarray) -> np.ndarray:
    """The area of each shape inside the layer's polygons (overlapping polygons counted once)."""
    areas = np.zeros(len(shapes))
    if not len(layer):
        return areas
    shape, polygon = shapely.STRtree(layer).query(shapes, predicate="intersects")
    if not len(shape):
        return areas
    keys, merged = dissolve(shape, polygonal(shapely.intersection(shapes[shape], layer[polygon])))
    areas[keys] = shapely.area(merged)
    return areas


def slope_classes(z: np.ndarray, cell: float) -> np.ndarray:
    """The inner cells' classes by Horn's slope: 0, 1 over 15%, 2 over 25%, 255 unknown."""
    a, b, c = z[:-2, :-2], z[:-2, 1:-1], z[:-2, 2:]
    d, f = z[1:-1, :-2], z[1:-1, 2:]
    g, h, i = z[2:, :-2], z[2:, 1:-1], z[2:, 2:]
    dx = ((c + 2 * f + i) - (a + 2 * d + g)) / (8 * cell)
    dy = ((g + 2 * h + i) - (a + 2 * b + c)) / (8 * cell)
    slope = 100 * np.hypot(dx, dy)
    classes = np.full(slope.shape, 255, dtype=np.uint8)
    known = np.isfinite(slope)
    classes[known] = (slope[known] > 15).astype(np.uint8) + (slope[known] > 25)
    return classes


class _Wkb(Feature):
    def __init__(self, index: int, wkb: bytes) -> None:
        Feature.__init__(self)
        self.index, self.wkb, self.values = index, wkb, {}

    def geometry(self) -> bytes:
        return self.wkb

    def get(self, name: str) -> object:
        return self.index if name == "i" else self.values[name]

    def set(self, name: str, value: object) -> None:
        self.values[name] = value

    def fields(self) -> list[str]:
        return ["i"]

    def set_geometry_format(self) -> str:
        return "wkb"


class _Shapes(FeatureSource):
    def __init__(self, shapes: np.ndarray, wkt: str) -> None:
        super().__init__()
        self.wkb, self.wkt = shapely.to_wkb(shapes), wkt

    def count(self) -> int:
        return len(self.wkb)

    def __iter__(self):
        return (_Wkb(i, wkb) for i, wkb in enumerate(self.wkb))

    def srs_wkt(self) -> str:
        return self.wkt


TILE_CELLS = 1024
"""Shapes are grouped by the square tile of DEM cells their box starts in; each group reads
the window around its shapes alone. Tiles of 1,024 cells were the faster: the slope pass of
the 250k bench village took 2.27-2.37 s against 3.14-3.39 s with 2,048 (three runs each,
alternated, 2026-12-07), its windows hugging the work closer."""


def steep_areas(dem_path: Path, shapes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Square feet of each shape on slopes over 15% and 25%: Horn's slope of the cells under
    the work (each tile's group of shapes reads the window around them, with a cell's
    margin), and one exactextract pass with a class raster (0, 1 over 15%, 2 over 25%)."""
    with rasterio.open(dem_path) as dem:
        cell, wkt = dem.res[0], dem.crs.to_wkt()
        classes = np.full((dem.height, dem.width), 255, dtype=np.uint8)
        bounds = shapely.bounds(shapes)
        to_cell = ~dem.transform
        col0, row0 = to_cell * (bounds[:, 0], bounds[:, 3])
        col1, row1 = to_cell * (bounds[:, 2], bounds[:, 1])
        first = np.floor(np.stack([row0, col0])).astype(np.int64) - 1
        last = np.ceil(np.stack([row1, col1])).astype(np.int64) + 1
        tiles = (first[0] // TILE_CELLS) * (dem.width // TILE_CELLS + 1) + first[1] // TILE_CELLS
        for tile in np.unique(tiles):
            group = tiles == tile
            top, left = np.maximum(first[:, group].min(axis=1), 0)
            bottom = min(int(last[0, group].max()), dem.height)
            right = min(int(last[1, group].max()), dem.width)
            window = rasterio.windows.Window(left, top, right - left, bottom - top)
            z = dem.read(1, window=window, masked=True).filled(np.nan).astype(np.float64)
            classes[top + 1 : bottom - 1, left + 1 : right - 1] = slope_classes(z, cell)
        extent = dem.bounds
    raster = NumPyRasterSource(classes, *extent, nodata=255, srs_wkt=wkt)
    frame = exactextract.exact_extract(
        raster, _Shapes(shapes, wkt), ["count", "unique", "frac"], include_cols=["i"],
        output="pandas",
    )  # fmt: skip
    over_15, over_25 = np.zeros(len(shapes)), np.zeros(len(shapes))
    for index, count, unique, fractions in zip(
        frame["i"], frame["count"], frame["unique"], frame["frac"], strict=True
    ):
        cells = dict(
            zip(np.asarray(unique, int), np.asarray(fractions) * (count or 0), strict=True)
        )
        over_25[index] = cells.get(2, 0.0) * cell * cell
        over_15[index] = over_25[index] + cells.get(1, 0.0) * cell * cell
    return over_15, over_25


def main(village: Path, out_json: Path) -> None:
    timings: dict[str, float] = {}
    start = time.perf_counter()
    gpkg = village / "village.gpkg"
    lots, parcels = read(gpkg, "parcels", ["parcel_id"])
    ids = parcels["parcel_id"].to_numpy(zero_copy_only=False)
    disturbance, _ = read(gpkg, "disturbance")
    timings["read"] = time.perf_counter() - start

    t = time.perf_counter()
    tree = shapely.STRtree(lots)
    lot_index, disturbed = per_lot(lots, disturbance, tree)
    timings["disturbance"] = time.perf_counter() - t

    t = time.perf_counter()
    around = window(lots[lot_index], WIDEST_BUFFER_FT)
    flood, zones = read(gpkg, "floodplain", ["FLD_ZONE", "ZONE_SUBTY"], around)
    layers = {
        name: read(gpkg, name, within=around)[0]
        for name in ("impervious_existing", "impervious_proposed")
    }
    wetlands, _ = read(gpkg, "wetlands", within=around)
    streams, _ = read(gpkg, "watercourses", within=around)
    sda, _ = read(gpkg, "sda", within=around)
    impaired, _ = read(gpkg, "impaired_watersheds", within=around)
    zoning, districts = read(gpkg, "zoning", ["district"], around)
    timings["read"] += time.perf_counter() - t

    t = time.perf_counter()
    zone = zones["FLD_ZONE"].fill_null("").to_numpy(zero_copy_only=False).astype(str)
    subtype = zones["ZONE_SUBTY"].fill_null("").to_numpy(zero_copy_only=False).astype(str)
    in_sfha = np.isin(zone, SFHA)
    constraints = {
        "floodplain_1pct": flood[in_sfha],
        "floodplain_0_2pct": flood[in_sfha | np.char.startswith(subtype, "0.2 PCT")],
        "floodway": flood[np.char.find(subtype, "FLOODWAY") >= 0],
        "wetland": wetlands,
        "wetland_and_adjacent": shapely.buffer(wetlands, 100.0),
        "watercourse_buffer": shapely.buffer(streams, 100.0),
    }
    touched = lots[lot_index]
    areas = {
        f"{name}_sqft": overlap_areas(touched, geoms) for name, geoms in layers.items()
    }  # cover on the lots with work
    areas |= {
        f"disturbed_in_{name}_sqft": overlap_areas(disturbed, geoms)
        for name, geoms in constraints.items()
    }
    # Every wetland lies in its own 100-ft zone, so the adjacent area inside the work is
    # the zone's less the wetlands': no difference with a union of a county's wetlands.
    areas["disturbed_in_wetland_adjacent_sqft"] = (
        areas.pop("disturbed_in_wetland_and_adjacent_sqft") - areas["disturbed_in_wetland_sqft"]
    )
    areas["in_sda"] = overlap_areas(touched, sda) >= 1.0
    areas["in_impaired_watershed"] = overlap_areas(touched, impaired) >= 1.0
    names = districts["district"].to_numpy(zero_copy_only=False)
    areas["zoning_district"] = largest_district(touched, zoning, names)
    strips = adjoining_strips(lots, lot_index)
    areas["disturbed_in_adjoining_buffer_sqft"] = shapely.area(
        shapely.intersection(disturbed, strips)
    )
    timings["constraints"] = time.perf_counter() - t

    t = time.perf_counter()
    over_15, over_25 = steep_areas(village / "dem.tif", disturbed)
    timings["slope"] = time.perf_counter() - t

    t = time.perf_counter()
    columns = {
        "parcel_id": ids[lot_index],
        "disturbed_area_sqft": shapely.area(disturbed),
        **areas,
        "disturbed_on_slope_over_15pct_sqft": over_15,
        "disturbed_on_slope_over_25pct_sqft": over_25,
    }
    table = pa.table({**columns, "geometry": shapely.to_wkb(touched)})
    pyogrio.write_arrow(
        table, out_json.with_suffix(".gpkg"), layer="parcels", driver="GPKG",
        geometry_name="geometry", geometry_type="Polygon", crs="EPSG:2260",
    )  # fmt: skip
    timings["write"] = time.perf_counter() - t
    timings["total"] = time.perf_counter() - start
    result = {
        "timings_s": timings,
        "disturbed_area_sqft": dict(
            zip(columns["parcel_id"].tolist(), columns["disturbed_area_sqft"].tolist(), strict=True)
        ),
    }
    out_json.write_text(json.dumps(result))


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]))
