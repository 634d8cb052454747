"""The village's DEM: each district's hill and stream valley, written tile by tile."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import rasterio
from rasterio.transform import Affine
from rasterio.windows import Window

from sitecheck.sample.constants import CRS, DEM_MARGIN_FT, NODATA, ORIGIN_FT
from sitecheck.sample.grid import Plan
from sitecheck.sample.model import Terrain


def _elevation(terrain: Terrain, x: np.ndarray, y: np.ndarray) -> np.ndarray:
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


def write_dem(path: Path, terrain: Terrain, plan: Plan, resolution: float) -> None:
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
        dst.set_band_unit(1, "US survey foot")  # elevations in the horizontal unit, said
        for row0 in range(0, height, 512):
            count = min(512, height - row0)
            y = top - (np.arange(row0, row0 + count) + 0.5) * resolution
            z = _elevation(terrain, x, y).astype(np.float32)
            near = np.abs(y - hole_y) <= radius
            if near.any():
                inside = ((x[None, :] - hole_x) ** 2 + (y[near, None] - hole_y) ** 2) <= radius**2
                z[near] = np.where(inside, np.float32(NODATA), z[near])
            dst.write(z, 1, window=Window(0, row0, width, count))
