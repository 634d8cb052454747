"""Read the vector layers named on the command line, and record what was read.

Reading checks what the engine relies on and says which layer is wrong when it
is not: a CRS is present, the coordinates can be in it, the geometry type is the
one the role needs, geometries are valid (repaired and counted otherwise),
two-dimensional and linear. Where a layer comes from and what its metadata say
is :mod:`sitecheck.io.layer_source`.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import cast

import geopandas as gpd
import numpy as np
import pandas as pd
import pyproj
import shapely

from sitecheck.errors import InputError
from sitecheck.io import conninfo, postgis, vector_source
from sitecheck.io.clean import LINEAR as LINEAR
from sitecheck.io.clean import POLYGONAL as POLYGONAL
from sitecheck.io.clean import clean_geometries, named_features
from sitecheck.io.crs import layer_outliers
from sitecheck.io.extent import MAX_BOXES, Extent
from sitecheck.io.fingerprint import features_sha256, file_sha256, layer_origin
from sitecheck.io.kept import KeptByIdentity
from sitecheck.io.layer_source import LayerSource as LayerSource
from sitecheck.io.layer_source import source_crs


@dataclass
class InputRecord:
    """What the audit block of an output says about one input."""

    name: str
    path: str
    layer: str | None
    sha256: str | None
    feature_count: int
    features_sha256: str | None = None  # of the features read: the same data, the same hash
    origin: dict[str, object] | None = None  # where QGIS had the layer, for exported layers

    def to_json(self) -> dict[str, object]:
        return {
            "name": self.name,
            "path": self.path,
            "layer": self.layer,
            "sha256": self.sha256,
            "feature_count": self.feature_count,
            "features_sha256": self.features_sha256,
            "origin": self.origin,
        }


@dataclass(frozen=True)
class LayerRequest:
    """What a reader is asked for.

    Attributes
    ----------
    source : LayerSource
        The layer.
    geometry_kinds : tuple of str
        Accepted geometry families after cleaning, e.g. ``POLYGONAL`` or
        ``POLYGONAL + LINEAR``.
    target_crs : pyproj.CRS-like, optional
        Reproject to this CRS after reading.
    columns : list of str, optional
        Attribute fields to read (all when None).
    allow_empty : bool
        When False an empty layer is an error.
    within : Extent, optional
        Only the features meeting its boxes; the audit still counts the layer's features.
    around : bool
        The features meeting ``within``, whole, whatever area the reader serves: for a layer
        whose features matter beyond the lots, such as the waterbodies of a lot's watershed.
    """

    source: LayerSource
    geometry_kinds: tuple[str, ...]
    target_crs: object | None = None
    columns: list[str] | None = None
    allow_empty: bool = True
    within: Extent | None = None
    around: bool = False


@dataclass
class LayerReader:
    """Reads a run's layers and records what it read and the warnings raised.

    The record feeds the audit block of every output. A subclass may serve
    layers from memory instead of files (the dock panel's worker does).

    Attributes
    ----------
    inputs : list of InputRecord
    warnings : list of str
    unassigned : list of dict
        Drawn features that belong to no lot (``layer``, ``fid``, ``area_sqft``).
    assigned : set of tuple
        ``(role, fid)`` of the drawn features that do belong to a lot.
    partial_view : bool
        True for a reader of one window of a larger run, whose driver words
        the run-wide warnings (ids, unassigned work) itself.
    dropped : dict of str to DataFrame
        Per role, the attribute rows of the features left out for having no
        usable geometry.
    names_projects : bool or None
        Whether the whole disturbance layer names a project, where the reader serves
        part of it (the panel's work on one parcel); None: as the features read say.
    kept : KeptByIdentity or None
        What a session keeps between its answers (the panel's worker: what it makes of
        the layers it holds, while they are the same objects); None: nothing is kept.
    """

    inputs: list[InputRecord] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    unassigned: list[dict[str, object]] = field(default_factory=list)
    assigned: set[tuple[str, int]] = field(default_factory=set)
    partial_view: bool = False
    dropped: dict[str, pd.DataFrame] = field(default_factory=dict)
    file_hashes: dict[str, str | None] = field(default_factory=dict)
    names_projects: bool | None = None
    kept: KeptByIdentity | None = None  # a session's values kept between its answers
    keeps_audit = True  # False: a reader of one window of a run leaves the audit to its driver

    def warn(self, message: str) -> None:
        """Keep a warning for every output, without a secret; the same warning twice once."""
        message = conninfo.redacted(message)
        if message not in self.warnings:
            self.warnings.append(message)

    def record(
        self,
        role: str,
        path: str,
        layer: str | None,
        feature_count: int,
        features: str | None = None,
    ) -> None:
        """Note an input read for the audit block: its file's hash, its features' hash
        (``features``) and, for a layer the plugin exported, where QGIS had it.

        A layer read again (the parcels, for their ids and then their shapes) is
        recorded once; each file is hashed once, however many of its layers are read.
        Nothing is recorded by a reader that does not keep the audit.
        """
        if not self.keeps_audit:
            return
        shown = postgis.shown(path)
        for index, kept in enumerate(self.inputs):
            if (kept.name, kept.path, kept.layer) == (role, shown, layer):
                # Read again: the new count, the hash of the features read last, and the
                # file's hash and origin as they were (neither file nor layer is opened again).
                self.inputs[index] = replace(
                    kept,
                    feature_count=feature_count,
                    features_sha256=features or kept.features_sha256,
                )
                return
        if path not in self.file_hashes:
            self.file_hashes[path] = file_sha256(path)
        self.inputs.append(
            InputRecord(
                role,
                shown,
                layer,
                self.file_hashes[path],
                feature_count,
                features,
                layer_origin(path, layer),
            )
        )

    def read(
        self,
        source: LayerSource,
        geometry_kinds: tuple[str, ...],
        target_crs: object | None = None,
        columns: list[str] | None = None,
        allow_empty: bool = True,
        within: Extent | None = None,
    ) -> gpd.GeoDataFrame:
        """Read, check and clean a layer (see :class:`LayerRequest`)."""
        return self.serve(
            LayerRequest(source, geometry_kinds, target_crs, columns, allow_empty, within)
        )

    def read_around(
        self,
        source: LayerSource,
        geometry_kinds: tuple[str, ...],
        target_crs: object,
        within: Extent,
    ) -> gpd.GeoDataFrame:
        """The features meeting ``within``, whole, whatever area this reader serves."""
        return self.serve(
            LayerRequest(source, geometry_kinds, target_crs, within=within, around=True)
        )

    def serve(self, request: LayerRequest) -> gpd.GeoDataFrame:
        """Answer a request; a reader of a part of a run (a window, the panel's memory, a
        project's site) serves it its own way."""
        return read_layer(request, self)


def _read_within(
    source: LayerSource, columns: list[str] | None, within: Extent
) -> tuple[gpd.GeoDataFrame, int]:
    """The features meeting the extent's boxes, each once, and the layer's feature count."""
    try:
        info = vector_source.read_info(source.path, source.layer, count=True)
    except InputError:
        raise
    except Exception as error:
        raise InputError(f"{source.label()}: cannot read: {error}") from error
    crs = source_crs(info["crs"], source)
    count = int(info["features"])
    boxes = within.in_crs(crs)
    if boxes is None:
        return _read_frame(source, columns), count
    if not boxes:
        return _read_frame(source, columns, bbox=(0.0, 0.0, 0.0, 0.0)).iloc[0:0], count
    if len(boxes) > MAX_BOXES:
        squares = shapely.box(*np.array(boxes).T)
        # An extent's own boxes never meet, so together they are a valid multipolygon;
        # moved into another CRS they may overlap, and are unioned (seconds for a county).
        unmoved = boxes == list(within.boxes)
        mask = shapely.multipolygons(squares) if unmoved else shapely.union_all(squares)
        return _read_frame(source, columns, mask=mask), count
    frames = [_read_frame(source, columns, bbox=b) for b in boxes]
    frame = pd.concat(frames) if len(frames) > 1 else frames[0]
    frame = frame[~frame.index.duplicated(keep="first")].sort_index()
    return gpd.GeoDataFrame(frame, geometry=frames[0].geometry.name, crs=frames[0].crs), count


def _read_frame(
    source: LayerSource,
    columns: list[str] | None,
    bbox: tuple[float, float, float, float] | None = None,
    mask: shapely.Geometry | None = None,
) -> gpd.GeoDataFrame:
    """Read a layer's features, or say in one line which layer could not be read.

    ``bbox`` (in the layer's CRS) keeps the features whose extent meets it,
    through the layer's spatial index.
    """
    try:
        frame = vector_source.read_dataframe(source.path, source.layer, columns, bbox, mask)
        return cast(gpd.GeoDataFrame, frame)
    except InputError as error:
        raise source.named(error) from None
    except Exception as error:
        first_line = str(error).strip().splitlines()[0] if str(error).strip() else type(error)
        raise InputError(f"{source.label()}: cannot read: {first_line}") from error


def refuse_outliers(source: LayerSource, bounds: np.ndarray, fids: object, crs: object) -> None:
    """Refuse a layer with features whose coordinates cannot be in its CRS, naming them.

    ``bounds`` holds rows of ``minx, miny, maxx, maxy``; see
    :func:`sitecheck.io.crs.layer_outliers` for what cannot be.
    """
    if not len(bounds):
        return
    parsed = crs if isinstance(crs, pyproj.CRS) else pyproj.CRS.from_user_input(crs)
    outside = layer_outliers(np.asarray(bounds, dtype=float), parsed)
    if outside.any():
        area = parsed.area_of_use
        where = f" ({area.name.split(' - ')[0].rstrip('.')})" if area is not None else ""
        raise InputError(
            f"{source.label()}: {named_features(np.asarray(fids)[outside])} lie outside the "
            f"area where {parsed.name}{where} is defined; their coordinates are not in this "
            "CRS: check the layer's CRS, or these features"
        )


def read_layer(
    request: LayerRequest,
    log: LayerReader,
    bbox: tuple[float, float, float, float] | None = None,
) -> gpd.GeoDataFrame:
    """Read a vector layer, check it, clean its geometries and reproject it.

    Parameters
    ----------
    request : LayerRequest
        The layer and what is wanted of it.
    log : LayerReader
        Receives the input's audit record and any repair warnings.
    bbox : tuple of float, optional
        Read only the features whose extent meets this box, in the layer's CRS.

    Returns
    -------
    geopandas.GeoDataFrame
        Two-dimensional, valid, non-empty geometries of the accepted kinds, with
        the source feature id (OGR FID) in the column ``_fid``.

    Raises
    ------
    InputError
        When the layer cannot be read, has no CRS, holds the wrong geometry type
        or is empty while ``allow_empty`` is False.
    """
    source, allow_empty = request.source, request.allow_empty
    if request.within is not None:
        frame, count = _read_within(source, request.columns, request.within)
    else:
        frame = _read_frame(source, request.columns, bbox)
        count = len(frame)
    if not isinstance(frame, gpd.GeoDataFrame) or frame.geometry.name not in frame:
        raise InputError(f"{source.label()}: has no geometry column")
    features = features_sha256(frame) if log.keeps_audit else None
    log.record(source.role, source.path, source.layer, count, features)
    source_crs(frame.crs, source)
    if len(frame) == 0 and not allow_empty:
        raise InputError(f"{source.label()}: is empty")
    fids = np.asarray(frame.index, dtype=np.int64)
    frame = frame.reset_index(drop=True)
    frame["_fid"] = fids
    geoms, dropped, repaired = clean_geometries(
        frame.geometry.to_numpy(), request.geometry_kinds, source, fids
    )
    if len(repaired):
        log.warn(
            f"{source.label()}: repaired {len(repaired)} invalid "
            f"geometr{'y' if len(repaired) == 1 else 'ies'} ({named_features(fids[repaired])})"
        )
    if len(dropped):
        log.warn(
            f"{source.label()}: ignored {len(dropped)} empty, null or zero-area "
            f"geometr{'y' if len(dropped) == 1 else 'ies'} ({named_features(fids[dropped])})"
        )
    log.dropped[source.role] = pd.DataFrame(frame.iloc[dropped].drop(columns=frame.geometry.name))
    frame = frame.set_geometry(gpd.GeoSeries(geoms, crs=frame.crs, index=frame.index))
    frame = frame[~shapely.is_empty(geoms) & ~shapely.is_missing(geoms)]
    refuse_outliers(source, shapely.bounds(frame.geometry.to_numpy()), frame["_fid"], frame.crs)
    if len(frame) == 0 and not allow_empty:
        raise InputError(f"{source.label()}: has no usable geometries")
    if request.target_crs is not None and not frame.crs.equals(request.target_crs):
        frame = frame.to_crs(request.target_crs)
    return frame
