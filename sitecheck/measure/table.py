"""The measured parcels as one table and the flags as one layer."""

from __future__ import annotations

from collections.abc import Mapping

import geopandas as gpd
import numpy as np
import pandas as pd
import shapely

from sitecheck.geometry.overlay import (
    polygonal,
)
from sitecheck.io.crs import WorkingCRS
from sitecheck.io.frames import geo_frame
from sitecheck.io.geometry_types import MULTIPOLYGON
from sitecheck.io.parcels import Parcels
from sitecheck.io.readers import LayerReader
from sitecheck.measure.inputs import AREA_DECIMALS
from sitecheck.schema.metrics import ACRE_METRICS, METRICS, SQFT_PER_ACRE, acres_name


def result_table(
    parcels: Parcels, metrics: Mapping[str, np.ndarray], attributes: Mapping[str, np.ndarray]
) -> gpd.GeoDataFrame:
    """Parcels with pass-through fields, metrics (rounded), acres and project fields."""
    frame = parcels.frame
    geometry = frame.geometry.name
    # Every column gathered first and the table made once: a column set into a table costs
    # pandas a copy of its index (issue 30: 8.6 of the panel's 65 ms an answer, then the
    # project fields' 3 ms). A parcel field of a metric's or a project field's name is
    # replaced where it stands; the others follow in order.
    # Arrays rather than Series: a Series made or aligned per column cost the panel 0.4 ms
    # of each table, two tables an answer.
    columns: dict[str, object] = {
        name: frame[name].array for name in frame.columns if name != geometry
    }
    for metric in METRICS:
        values = metrics[metric.name]
        if metric.kind in ("area", "percent"):
            columns[metric.name] = np.round(values.astype(float), AREA_DECIMALS)
        elif metric.kind == "share":
            columns[metric.name] = np.round(values.astype(float), 4)
        elif metric.kind == "boolean":
            columns[metric.name] = pd.array(values, dtype="boolean")
        else:
            columns[metric.name] = pd.array(values, dtype="string")
    for name in ACRE_METRICS:
        columns[acres_name(name)] = np.round(np.asarray(columns[name]) / SQFT_PER_ACRE, 4)
    for name, values in attributes.items():
        from_disturbance = pd.array(values, dtype="string")
        if name in columns:
            from_parcel = pd.Series(columns[name]).astype("string").array
            missing = from_disturbance.isna()
            from_disturbance[missing] = from_parcel[missing]
        columns[name] = from_disturbance
    return geo_frame(columns, parcels.geoms, frame.crs, frame.index)


def warn_removed_cover(table: gpd.GeoDataFrame, touched: np.ndarray, reader: LayerReader) -> None:
    """Warn where a project lot keeps no impervious cover: often a partial proposed layer."""
    existing = table["impervious_existing_sqft"].to_numpy(dtype=float)
    proposed = table["impervious_proposed_sqft"].to_numpy(dtype=float)
    removed = touched & (existing > 0) & (proposed == 0)
    if removed.any():
        ids = table["parcel_id"].to_numpy(dtype=object)[removed]
        shown = ", ".join(str(i) for i in ids[:10]) + (" ..." if len(ids) > 10 else "")
        reader.warn(
            f"{int(removed.sum())} project lot(s) have existing impervious cover and none proposed "
            f"({shown}): read as all cover removed. The proposed layer must hold the complete "
            "post-construction cover of each project lot."
        )


class FlagCollector:
    """Gathers flag geometries per lot and kind."""

    def __init__(self, ids: np.ndarray) -> None:
        self.ids = ids
        self.parts: list[tuple[str, np.ndarray, np.ndarray]] = []

    def add(self, kind: str, geoms: np.ndarray, sqft_per_unit2: float) -> None:
        areas = shapely.area(geoms) * sqft_per_unit2
        keep = np.flatnonzero(areas >= 0.005)  # below rounding to 0.01 sq ft: nothing to show
        self.parts.append((kind, keep, geoms[keep]))

    def frame(self, working: WorkingCRS) -> gpd.GeoDataFrame:
        rows_kind: list[str] = []
        rows_lot: list[np.ndarray] = []
        rows_geom: list[np.ndarray] = []
        for kind, lots, geoms in self.parts:
            rows_kind.extend([kind] * len(lots))
            rows_lot.append(lots)
            rows_geom.append(geoms)
        lots = np.concatenate(rows_lot) if rows_lot else np.empty(0, dtype=np.int64)
        geoms = np.concatenate(rows_geom) if rows_geom else np.empty(0, dtype=object)
        geoms = shapely.force_2d(geoms) if len(geoms) else geoms
        data = {
            "parcel_id": pd.array(self.ids[lots], dtype="string"),
            "kind": pd.array(rows_kind, dtype="string"),
            "area_sqft": np.round(shapely.area(geoms) * working.sqft_per_unit2, AREA_DECIMALS),
        }
        return geo_frame(data, _as_multipolygons(geoms), working.crs)


def _as_multipolygons(geoms: np.ndarray) -> np.ndarray:
    """MultiPolygons throughout, so the flags layer has one geometry type."""
    out = np.empty(len(geoms), dtype=object)
    for i, geom in enumerate(polygonal(geoms)):
        out[i] = (
            geom
            if shapely.get_type_id(geom) == MULTIPOLYGON
            else shapely.MultiPolygon(list(shapely.get_parts(geom)))
        )
    return out
