"""Slope classes of a whole DEM, as a raster or as polygons (the steep_slopes tool).

Class 0 is slope up to the low threshold, 1 above the low up to the high, 2
above the high threshold (15% and 25% by default); 255 where the DEM has no
data. Polygons are the dissolved areas of classes 1 and 2.
"""

from __future__ import annotations

from pathlib import Path

import geopandas as gpd
import numpy as np
import rasterio
import rasterio.features
import rasterio.windows
import shapely
import shapely.geometry
from rasterio.windows import Window

from sitecheck.terrain.dem import NO_SLOPE, SlopeSettings, open_dem
from sitecheck.terrain.horn import slope_block, slope_classes

BLOCK_ROWS = 1024


def class_labels(settings: SlopeSettings) -> dict[int, str]:
    low, high = settings.thresholds_pct
    return {1: f"over {low:g}% up to {high:g}%", 2: f"over {high:g}%"}


def write_slope_raster(dem_path: str, settings: SlopeSettings, out: Path) -> int:
    """Write the class raster (uint8 GeoTIFF on the DEM's grid) to the new file ``out``.

    Returns the number of cells over the low threshold.
    """
    steep = 0
    with open_dem(dem_path) as dataset:
        profile = {
            "driver": "GTiff",
            "height": dataset.height,
            "width": dataset.width,
            "count": 1,
            "dtype": "uint8",
            "crs": dataset.crs,
            "transform": dataset.transform,
            "nodata": NO_SLOPE,
            "compress": "deflate",
            "tiled": True,
        }
        with rasterio.open(out, "w", **profile) as target:
            for row in range(0, dataset.height, BLOCK_ROWS):
                rows = (row, min(row + BLOCK_ROWS, dataset.height))
                classes = slope_classes(
                    slope_block(dataset, settings, rows, (0, dataset.width)),
                    settings.thresholds_pct,
                )
                steep += int(np.count_nonzero((classes > 0) & (classes != NO_SLOPE)))
                target.write(
                    classes, 1, window=Window(0, rows[0], dataset.width, rows[1] - rows[0])
                )
    return steep


def slope_polygons(dem_path: str, settings: SlopeSettings) -> gpd.GeoDataFrame:
    """Dissolved polygons of the slope classes above the low threshold, in the DEM's CRS."""
    parts: dict[int, list[shapely.Geometry]] = {1: [], 2: []}
    with open_dem(dem_path) as dataset:
        crs = dataset.crs
        for row in range(0, dataset.height, BLOCK_ROWS):
            rows = (row, min(row + BLOCK_ROWS, dataset.height))
            classes = slope_classes(
                slope_block(dataset, settings, rows, (0, dataset.width)), settings.thresholds_pct
            )
            transform = rasterio.windows.transform(
                Window(0, rows[0], dataset.width, rows[1] - rows[0]), dataset.transform
            )
            steep = (classes > 0) & (classes != NO_SLOPE)
            for shape, value in rasterio.features.shapes(classes, mask=steep, transform=transform):
                parts[int(value)].append(shapely.geometry.shape(shape))
    labels = class_labels(settings)
    rows_out = [
        {"slope_class": value, "label": labels[value], "geometry": shapely.union_all(geoms)}
        for value, geoms in parts.items()
        if geoms
    ]
    frame = (
        gpd.GeoDataFrame(rows_out, geometry="geometry", crs=crs)
        if rows_out
        else gpd.GeoDataFrame({"slope_class": [], "label": []}, geometry=[], crs=crs)
    )
    return frame
