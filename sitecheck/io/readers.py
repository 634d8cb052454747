"""Read vector layers and rasters named on the command line.

A layer is given as ``path`` or ``path:layer`` (any format OGR reads). Reading
checks what the engine relies on and says which layer is wrong when it is not:
a CRS is present, the geometry type is the one the role needs, geometries are
valid (repaired and counted otherwise), two-dimensional and linear.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass, field, replace
from typing import cast

import geopandas as gpd
import numpy as np
import pandas as pd
import pyproj
import shapely

from sitecheck.errors import InputError, no_crs
from sitecheck.io import postgis, vector_source
from sitecheck.io.clean import LINEAR as LINEAR
from sitecheck.io.clean import POLYGONAL as POLYGONAL
from sitecheck.io.clean import clean_geometries, named_features
from sitecheck.io.crs import layer_outliers
from sitecheck.io.extent import MAX_BOXES, Extent
from sitecheck.schema.roles import ROLE_BY_KEY


@dataclass(frozen=True)
class LayerSource:
    """Where a layer comes from.

    Attributes
    ----------
    role : str
        What the layer is for, as users name it (``parcels``, ``floodplain``...).
    path : str
        File or data source path.
    layer : str or None
        Layer name inside a multi-layer source; None for the first layer.
    """

    role: str
    path: str
    layer: str | None = None

    @classmethod
    def parse(cls, role: str, spec: str) -> LayerSource:
        """Split ``path`` or ``path:layer`` into a source.

        A spec naming an existing file is taken whole, so a path that itself
        holds a colon still works; otherwise the text after the last colon is
        the layer name.
        """
        if postgis.is_postgis(spec):
            return cls(role, *postgis.split_spec(spec)).with_layer_chosen()
        if os.path.exists(spec):
            return cls(role, spec, None).with_layer_chosen()
        head, sep, tail = spec.rpartition(":")
        if sep and head and os.path.exists(head):
            return cls(role, head, tail or None).with_layer_chosen()
        raise InputError(f"{role} layer: no such file: {spec}")

    def with_layer_chosen(self) -> LayerSource:
        """The source with its layer named: a source of several layers must name one.

        A source with one layer, or with one layer of a geometry the role can
        use, names that layer; any other multi-layer source without ``:layer``
        is refused with its layers listed, never read by its first layer.
        """
        if self.layer is not None:
            return self
        try:
            layers = vector_source.list_layers(self.path)
        except InputError:
            raise
        except Exception:
            return self  # not a vector source; reading it says why
        if len(layers) == 1:
            return replace(self, layer=layers[0][0])
        usable = [name for name, kind in layers if _usable_geometry(kind, self.role)]
        if len(usable) == 1:
            return replace(self, layer=usable[0])
        listing = ", ".join(f"{name} ({kind or 'no geometry'})" for name, kind in layers)
        raise InputError(
            f"{self.label()}: holds {len(layers)} layers ({listing}); "
            f"name the one to read, as {self.path}:LAYER"
        )

    def label(self) -> str:
        """Name the layer in messages: ``floodplain (flood.gpkg:S_FLD_HAZ_AR)``; a
        database's password is not shown."""
        path = postgis.shown(self.path)
        where = path if self.layer is None else f"{path}:{self.layer}"
        return f"{self.role} layer ({where})"


def _usable_geometry(kind: object, role: str) -> bool:
    """Whether a layer of this OGR geometry type can serve the role (unknown types can)."""
    if not kind:
        return False
    text = str(kind).upper()
    if "UNKNOWN" in text or "POLYGON" in text or "SURFACE" in text:
        return True
    known = ROLE_BY_KEY.get(role)
    lines_too = known is not None and known.geometry == "line_or_polygon"
    return lines_too and ("LINE" in text or "CURVE" in text)


@dataclass
class InputRecord:
    """What the audit block of an output says about one input."""

    name: str
    path: str
    layer: str | None
    sha256: str | None
    feature_count: int

    def to_json(self) -> dict[str, object]:
        return {
            "name": self.name,
            "path": self.path,
            "layer": self.layer,
            "sha256": self.sha256,
            "feature_count": self.feature_count,
        }


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
    """

    inputs: list[InputRecord] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    unassigned: list[dict[str, object]] = field(default_factory=list)
    assigned: set[tuple[str, int]] = field(default_factory=set)
    partial_view: bool = False
    dropped: dict[str, pd.DataFrame] = field(default_factory=dict)

    def warn(self, message: str) -> None:
        """Keep a warning for every output; the same warning twice is kept once."""
        if message not in self.warnings:
            self.warnings.append(message)

    def record(self, role: str, path: str, layer: str | None, feature_count: int) -> None:
        """Note an input read, with the hash of its file for the audit block."""
        shown = postgis.shown(path)
        self.inputs.append(InputRecord(role, shown, layer, file_sha256(path), feature_count))

    def read(
        self,
        source: LayerSource,
        geometry_kinds: tuple[str, ...],
        target_crs: object | None = None,
        columns: list[str] | None = None,
        allow_empty: bool = True,
        within: Extent | None = None,
    ) -> gpd.GeoDataFrame:
        """Read, check and clean a layer (see :func:`read_layer`); only the features
        meeting ``within`` when given."""
        return read_layer(
            source, geometry_kinds, self, columns, target_crs, allow_empty, within=within
        )

    def read_around(
        self,
        source: LayerSource,
        geometry_kinds: tuple[str, ...],
        target_crs: object,
        within: Extent,
    ) -> gpd.GeoDataFrame:
        """The features meeting ``within``, whole, whatever area this reader serves.

        For a layer whose features matter beyond the lots, such as the
        waterbodies anywhere in a lot's watershed.
        """
        return read_layer(source, geometry_kinds, self, None, target_crs, within=within)


def file_sha256(path: str) -> str | None:
    """Hash a file's bytes; None for a directory source such as a FileGDB."""
    if not os.path.isfile(path):
        return None
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


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
        mask = shapely.union_all([shapely.box(*b) for b in boxes])
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
    except InputError:
        raise
    except Exception as error:
        first_line = str(error).strip().splitlines()[0] if str(error).strip() else type(error)
        raise InputError(f"{source.label()}: cannot read: {first_line}") from error


# What GDAL reports for a GeoPackage layer whose srs_id is 0 or -1, the GeoPackage
# standard's "undefined geographic" and "undefined Cartesian" systems: no CRS at all.
_UNDEFINED_CRS_NAMES = ("Undefined geographic SRS", "Undefined Cartesian SRS", "Undefined SRS")


def source_crs(crs: object, source: LayerSource) -> pyproj.CRS:
    """A layer's CRS if areas can be measured from it; else InputError naming the layer.

    No CRS, the GeoPackage's undefined systems (``srs_id`` 0 and -1) and local
    engineering systems (``LOCAL_CS``, whose units and place are unknown) are
    refused, never read as coordinates on the ground.
    """
    if crs is None or crs == "":
        raise no_crs(source.label())
    parsed = crs if isinstance(crs, pyproj.CRS) else pyproj.CRS.from_user_input(crs)
    if parsed.name in _UNDEFINED_CRS_NAMES:
        raise no_crs(source.label())
    if parsed.type_name.startswith("Engineering") or parsed.to_wkt().startswith("ENGCRS"):
        raise InputError(
            f"{source.label()}: has a local engineering CRS ({parsed.name}), whose place on "
            "the ground is unknown; assign its projected CRS (e.g. EPSG:2260) and retry"
        )
    return parsed


def layer_crs_of(source: LayerSource) -> pyproj.CRS:
    """A layer's CRS read from its metadata alone, checked as :func:`source_crs` checks it."""
    try:
        crs = vector_source.read_info(source.path, source.layer)["crs"]
    except InputError:
        raise
    except Exception as error:
        raise InputError(f"{source.label()}: cannot read: {error}") from error
    return source_crs(crs, source)


def layer_fields(source: LayerSource) -> list[str]:
    """The attribute field names of a layer, without reading its features."""
    try:
        info = vector_source.read_info(source.path, source.layer)
    except InputError:
        raise
    except Exception as error:
        raise InputError(f"{source.label()}: cannot read: {error}") from error
    return [str(name) for name in info["fields"]]


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
    source: LayerSource,
    geometry_kinds: tuple[str, ...],
    log: LayerReader,
    columns: list[str] | None = None,
    target_crs: object | None = None,
    allow_empty: bool = True,
    bbox: tuple[float, float, float, float] | None = None,
    within: Extent | None = None,
) -> gpd.GeoDataFrame:
    """Read a vector layer, check it, clean its geometries and reproject it.

    Parameters
    ----------
    source : LayerSource
        The layer to read.
    geometry_kinds : tuple of str
        Accepted geometry families after cleaning, e.g. ``POLYGONAL`` or
        ``POLYGONAL + LINEAR``.
    log : LayerReader
        Receives the input's audit record and any repair warnings.
    columns : list of str, optional
        Attribute fields to read (all when None).
    target_crs : pyproj.CRS-like, optional
        Reproject to this CRS after reading.
    allow_empty : bool
        When False an empty layer is an error.
    bbox : tuple of float, optional
        Read only the features whose extent meets this box, in the layer's CRS.
    within : Extent, optional
        Read only the features meeting its boxes; the audit still counts the
        layer's features.

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
    if within is not None:
        frame, count = _read_within(source, columns, within)
    else:
        frame = _read_frame(source, columns, bbox)
        count = len(frame)
    log.record(source.role, source.path, source.layer, count)
    if not isinstance(frame, gpd.GeoDataFrame) or frame.geometry.name not in frame:
        raise InputError(f"{source.label()}: has no geometry column")
    source_crs(frame.crs, source)
    if len(frame) == 0 and not allow_empty:
        raise InputError(f"{source.label()}: is empty")
    fids = np.asarray(frame.index, dtype=np.int64)
    frame = frame.reset_index(drop=True)
    frame["_fid"] = fids
    geoms, dropped, repaired = clean_geometries(
        frame.geometry.to_numpy(), geometry_kinds, source, fids
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
    if target_crs is not None and not frame.crs.equals(target_crs):
        frame = frame.to_crs(target_crs)
    return frame
