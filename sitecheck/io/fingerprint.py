"""What identifies an input in the audit: a hash of its features, and where QGIS had them.

A file's hash says whether the file changed, not whether the data did: a
GeoPackage QGIS exports for the engine differs byte by byte on every run, and
its layers share one file. :func:`features_sha256` hashes the features as read
(geometry and the fields read, in FID order), the same for the same data on
every run. :func:`layer_origin` reads where a layer came from, when the plugin
wrote it into the exported layer's description.
"""

from __future__ import annotations

import hashlib
import json

import geopandas as gpd
import numpy as np
import pandas as pd
import pyogrio
import shapely

from sitecheck.io import conninfo

ORIGIN_KEY = "sitecheck_origin"
"""Key of the origin in an exported layer's description (a JSON object)."""


def features_sha256(frame: gpd.GeoDataFrame) -> str:
    """SHA-256 of the features read: field names, then each feature's fields and geometry.

    Features are taken in FID order (the frame's index); geometry as ISO WKB,
    little-endian; field values through pandas' fixed-key row hash, so the
    digest is the same on every run and machine for the same data.
    """
    order = np.argsort(np.asarray(frame.index, dtype=np.int64), kind="stable")
    geometry = frame.geometry.name
    table = frame.drop(columns=geometry).iloc[order]
    digest = hashlib.sha256()
    digest.update(json.dumps([str(c) for c in table.columns]).encode("utf-8"))
    if len(table.columns):
        rows = pd.util.hash_pandas_object(table, index=False).to_numpy(dtype=np.uint64)
        digest.update(rows.astype("<u8").tobytes())
    shapes = shapely.to_wkb(frame[geometry].to_numpy()[order], byte_order=1, flavor="iso")
    digest.update(b"".join(b"\0" if shape is None else shape for shape in shapes))
    return digest.hexdigest()


def layer_origin(path: str, layer: str | None) -> dict[str, object] | None:
    """Where a layer exported by the plugin came from (provider, source, filter), else None."""
    if not str(path).lower().endswith(".gpkg"):
        return None
    try:
        metadata = pyogrio.read_info(path, layer=layer).get("layer_metadata") or {}
        described = json.loads(metadata.get("DESCRIPTION") or "{}")
    except (ValueError, TypeError, pyogrio.errors.DataSourceError, pyogrio.errors.DataLayerError):
        return None
    origin = described.get(ORIGIN_KEY) if isinstance(described, dict) else None
    if not isinstance(origin, dict):
        return None
    if isinstance(origin.get("uri"), str):
        origin = {**origin, "uri": conninfo.shown_source(origin["uri"])}
    return origin
