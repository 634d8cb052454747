"""Which watersheds drain to impaired (303(d)-listed) waters, from the layers users have.

``--impaired-watersheds`` takes one of three things:

- watershed polygons that are all impaired (a layer of just those watersheds);
- a watershed layer of every basin with a listed flag (a HUC-12 layer of the
  Watershed Boundary Dataset joined to the 303(d) list): the flagged ones count;
- the listed waterbodies themselves, NYS DEC Waterbody Inventory / 303(d)
  stream lines and lake polygons, with ``--watersheds`` giving the basins
  (HUC-12): the basins holding a listed water are its impaired watersheds.

A layer of stream lines without basins, waterbody polygons without basins, or
every WBD basin with no flag would mark the wrong lots, so each is refused
saying what to give.
"""

from __future__ import annotations

from collections.abc import Callable

import geopandas as gpd
import numpy as np
import pandas as pd
import shapely

from sitecheck.errors import InputError
from sitecheck.io.extent import Extent
from sitecheck.io.parcels import attribute_columns, find_field
from sitecheck.io.readers import LINEAR, POLYGONAL, LayerSource

# Read the whole field named by --impaired-flag, or the first of these present.
LISTED_FLAG_CANDIDATES = (
    "impaired",
    "is_impaired",
    "listed",
    "listed_303d",
    "is_303d",
    "on_303d",
    "303d",
    "303d_listed",
    "impaired_flag",
)
# Fields that mark a layer of waterbodies (DEC Waterbody Inventory / Priority
# Waterbodies List ids, EPA ATTAINS assessment units), not of watersheds.
WATERBODY_FIELDS = ("PWL_ID", "WIPWL", "WB_TYPE", "ASSESSMENTUNITIDENTIFIER", "AUID")
# The Watershed Boundary Dataset's 12-digit hydrologic unit code: a layer of every basin.
WBD_FIELDS = ("HUC12", "HUC_12")
EVERY_POLYGON = "all"
YES = {"1", "T", "TRUE", "Y", "YES"}
NO = {"0", "F", "FALSE", "N", "NO"}

Reader = Callable[..., gpd.GeoDataFrame]


def impaired_watersheds(
    read: Reader,
    impaired: LayerSource,
    watersheds: LayerSource | None,
    flag: str | None,
    warn: Callable[[str], None],
) -> np.ndarray:
    """The impaired watershed polygons, in the working CRS.

    Parameters
    ----------
    read : callable
        ``read(source, kinds, within=None)``: a layer in the working CRS,
        within the run's extent unless ``within`` says otherwise.
    impaired : LayerSource
        ``--impaired-watersheds``: watersheds, or listed waterbodies when
        ``watersheds`` is given.
    watersheds : LayerSource, optional
        ``--watersheds``: the basins of the listed waterbodies.
    flag : str, optional
        ``--impaired-flag``: the listed flag field, or ``all``.
    """
    if watersheds is not None:
        return _basins_of_listed_waters(read, impaired, watersheds, flag, warn)
    frame = read(impaired, POLYGONAL + LINEAR)
    kinds = set(shapely.get_type_id(frame.geometry.to_numpy()))
    if kinds & {1, 2, 5}:  # LineString, LinearRing, MultiLineString
        raise InputError(
            f"{impaired.label()}: holds lines (listed streams, as the DEC's 303(d) layer): a "
            "stream is not its watershed; give the basins that drain to them with --watersheds "
            "(e.g. the WBD HUC-12 layer)"
        )
    columns = attribute_columns(frame)
    waterbody = find_field(columns, WATERBODY_FIELDS)
    if waterbody is not None and flag is None:
        raise InputError(
            f"{impaired.label()}: holds waterbodies (field {waterbody}), not watersheds: a lake "
            "is not its watershed; give the basins that drain to them with --watersheds"
        )
    return frame.geometry.to_numpy()[_listed_rows(frame, impaired, flag, warn)]


def _basins_of_listed_waters(
    read: Reader,
    waters: LayerSource,
    watersheds: LayerSource,
    flag: str | None,
    warn: Callable[[str], None],
) -> np.ndarray:
    """The basins holding a listed water, more than touching their edge."""
    basins = read(watersheds, POLYGONAL)
    basin_geoms = basins.geometry.to_numpy()
    if not len(basin_geoms):
        return basin_geoms
    # The waters may lie anywhere in a basin, not only near the lots.
    within = Extent.around(basin_geoms, 0.0, basins.crs)
    frame = read(waters, POLYGONAL + LINEAR, within=within)
    listed = frame.geometry.to_numpy()[_listed_rows(frame, waters, flag, warn)]
    if not len(listed):
        return basin_geoms[:0]
    basin_index, water_index = shapely.STRtree(listed).query(basin_geoms, predicate="intersects")
    # A stream on the divide, or ending on a basin's edge, only touches that basin.
    inside = ~shapely.touches(basin_geoms[basin_index], listed[water_index])
    return basin_geoms[np.unique(basin_index[inside])]


def _listed_rows(
    frame: gpd.GeoDataFrame, source: LayerSource, flag: str | None, warn: Callable[[str], None]
) -> np.ndarray:
    """Which rows are listed: by the flag field, or all of them when the layer has none."""
    columns = attribute_columns(frame)
    if flag is not None and flag.strip().lower() == EVERY_POLYGON:
        return np.ones(len(frame), dtype=bool)
    field = find_field(columns, [flag] if flag else LISTED_FLAG_CANDIDATES)
    if flag and field is None:
        raise InputError(
            f"{source.label()}: no field '{flag}' (--impaired-flag); fields are: "
            f"{', '.join(columns) or 'none'}"
        )
    if field is None:
        basin_code = find_field(columns, WBD_FIELDS)
        if basin_code is not None:
            raise InputError(
                f"{source.label()}: has every watershed (field {basin_code}) and no listed flag: "
                "name the field marking listed ones with --impaired-flag, or --impaired-flag all "
                "when every watershed in it is listed"
            )
        return np.ones(len(frame), dtype=bool)
    text = pd.Series(frame[field], dtype="string").str.strip().str.upper()
    listed = text.isin(YES).to_numpy(dtype=bool)
    odd = [f"'{value}'" for value in sorted(set(text[~text.isin(YES | NO)].dropna()))]
    if text.isna().any():
        odd.append("empty values")
    if odd:
        warn(
            f"{source.label()}: field {field} holds {', '.join(odd[:6])} besides yes/no "
            "(1/0, Y/N, true/false): those rows are read as not listed"
        )
    return listed
