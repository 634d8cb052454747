"""Where a layer comes from, and what its metadata say: its layer, CRS and fields.

A layer is given as ``path`` or ``path:layer`` (any format OGR reads), or as a
PostGIS table ``PG:<connection> tables=schema.table``. A source of several layers
must name one; a CRS must place the layer on the ground.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace

import pyproj

from sitecheck.errors import InputError, no_crs
from sitecheck.io import postgis, vector_source
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
        if postgis.is_uri(spec):
            spec = postgis.PREFIX + spec
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
        except InputError as error:
            raise self.named(error) from None
        except Exception:
            return self  # not a vector source; reading it says why
        if len(layers) == 1:
            return replace(self, layer=layers[0][0])
        usable = [name for name, kind in layers if _usable_geometry(kind, self.role)]
        if len(usable) == 1:
            return replace(self, layer=usable[0])
        raise InputError(
            f"{self.label()}: holds {_layers_in_words(layers, self.role)}; "
            f"name the one to read, as {postgis.shown(self.path)}:LAYER"
        )

    def named(self, error: InputError) -> InputError:
        """``error`` with this layer's role in front, unless its words already start so."""
        if str(error).startswith(self.role):
            return error
        return InputError(f"{self.role} layer: {error}")

    def label(self) -> str:
        """Name the layer in messages: ``floodplain (flood.gpkg:S_FLD_HAZ_AR)``; a
        database's password is not shown."""
        path = postgis.shown(self.path)
        where = path if self.layer is None else f"{path}:{self.layer}"
        return f"{self.role} layer ({where})"


def _layers_in_words(layers: list[tuple[str, str | None]], role: str, most: int = 10) -> str:
    """The layers of a source for a refusal: those the role can use first, the rest
    counted (a gSSURGO database has some 70 tables beside its few map layers)."""

    def listed(chosen: list[tuple[str, str | None]]) -> str:
        words = ", ".join(f"{name} ({kind or 'no geometry'})" for name, kind in chosen[:most])
        return words + (f", and {len(chosen) - most} more" if len(chosen) > most else "")

    usable = [(name, kind) for name, kind in layers if _usable_geometry(kind, role)]
    others = len(layers) - len(usable)
    if not others:
        return f"{len(layers)} layers ({listed(usable)})"
    if not usable:
        return f"{len(layers)} layers, none of a geometry it can use ({listed(layers)})"
    return (
        f"{len(layers)} layers: {len(usable)} of a geometry it can use ({listed(usable)}) "
        f"and {others} other(s), tables or of another geometry"
    )


def _usable_geometry(kind: object, role: str) -> bool:
    """Whether a layer of this OGR geometry type can serve the role (unknown types can)."""
    if not kind:
        return False
    text = str(kind).upper()
    if any(word in text for word in ("UNKNOWN", "POLYGON", "SURFACE", "COLLECTION")):
        return True
    known = ROLE_BY_KEY.get(role)
    lines_too = known is not None and known.geometry == "line_or_polygon"
    return lines_too and ("LINE" in text or "CURVE" in text)


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
    except InputError as error:
        raise source.named(error) from None
    except Exception as error:
        raise InputError(f"{source.label()}: cannot read: {error}") from error
    return source_crs(crs, source)


def layer_fields(source: LayerSource) -> list[str]:
    """The attribute field names of a layer, without reading its features."""
    try:
        info = vector_source.read_info(source.path, source.layer)
    except InputError as error:
        raise source.named(error) from None
    except Exception as error:
        raise InputError(f"{source.label()}: cannot read: {error}") from error
    return [str(name) for name in info["fields"]]
