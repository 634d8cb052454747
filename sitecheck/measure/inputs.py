"""What a measurement takes and gives: its layers, its settings, its result."""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime, timezone

import geopandas as gpd
import numpy as np

from sitecheck.constraints.adjoining import AdjoiningSettings
from sitecheck.geometry.lots import LotMeetings
from sitecheck.io.crs import WorkingCRS
from sitecheck.io.readers import LayerReader, LayerSource
from sitecheck.schema.fields import SDA_FIELD_CANDIDATES, ZONING_FIELD_CANDIDATES
from sitecheck.schema.kinds import KINDS
from sitecheck.schema.reach import reach_ft
from sitecheck.schema.roles import VECTOR_ROLES
from sitecheck.schema.wetlands import DEFAULT_NWI_CLASSES, WETLAND_ADJACENT_FT
from sitecheck.terrain.dem import SlopeSettings

AREA_DECIMALS = 2


@dataclass(frozen=True)
class MeasureInputs:
    """The layers of one run. Only parcels and disturbance are required."""

    parcels: LayerSource
    disturbance: LayerSource
    impervious_existing: LayerSource | None = None
    impervious_proposed: LayerSource | None = None
    floodplain: LayerSource | None = None
    wetlands: LayerSource | None = None
    watercourses: LayerSource | None = None
    sda: LayerSource | None = None
    zoning: LayerSource | None = None
    impaired_watersheds: LayerSource | None = None
    watersheds: LayerSource | None = None
    adjoining_buffer: LayerSource | None = None
    dem: str | None = None
    plugged: Mapping[str, LayerSource] = field(default_factory=dict)

    @classmethod
    def of(cls, sources: Mapping[str, LayerSource | None], dem: str | None) -> MeasureInputs:
        """The inputs from sources by role (every role of ``VECTOR_ROLES`` may be given)."""
        built_in = {role: source for role, source in sources.items() if role not in _PLUGGED}
        plugged = {role: source for role, source in sources.items() if role in _PLUGGED and source}
        return cls(dem=dem, plugged=plugged, **built_in)  # type: ignore[arg-type]

    def source(self, role: str) -> LayerSource | None:
        """The layer given for a role, or None."""
        return self.plugged.get(role) if role in _PLUGGED else getattr(self, role)

    def layers(self) -> list[LayerSource]:
        """The vector layers given, in role order."""
        return [source for role in VECTOR_ROLES if (source := self.source(role)) is not None]


_PLUGGED = frozenset(kind.role.key for kind in KINDS)


@dataclass(frozen=True)
class MeasureSettings:
    """What users may change about a run.

    Attributes
    ----------
    id_field : str, optional
        Parcel id field (default: first of parcel_id, SBL, PRINT_KEY, else FID).
    zoning_field : str, optional
        District code field of the zoning layer or the parcels.
    wetland_adjacent_ft : float
        Width of the regulated adjacent area around wetlands (NYS: 100 ft,
        :data:`~sitecheck.schema.wetlands.WETLAND_ADJACENT_FT`).
    nwi_classes : tuple of str
        The NWI wetland types counted as wetlands in an NWI layer.
    impaired_flag : str, optional
        The listed flag field of the impaired-watershed layer, or ``all``.
    watercourse_buffer_ft : float
        Buffer around watercourse lines or polygons.
    slope : SlopeSettings
    adjoining : AdjoiningSettings
    crs : str, optional
        Projected CRS to measure in instead of the parcel layer's.
    tile_size_ft : float
        Side of the tiles large constraint polygons are cut into.
    kind_options : mapping of str to object
        The options of the plug-in constraint kinds (``schema.kinds``), by name.
    """

    id_field: str | None = None
    zoning_field: str | None = None
    wetland_adjacent_ft: float = WETLAND_ADJACENT_FT
    nwi_classes: tuple[str, ...] = DEFAULT_NWI_CLASSES
    impaired_flag: str | None = None
    watercourse_buffer_ft: float = 100.0
    slope: SlopeSettings = field(default_factory=SlopeSettings)
    adjoining: AdjoiningSettings = field(default_factory=AdjoiningSettings)
    crs: str | None = None
    tile_size_ft: float = 2000.0
    kind_options: Mapping[str, object] = field(default_factory=dict)

    def reach_ft(self) -> float:
        """How far around a lot a run with these settings reaches, feet (see ``schema.reach``)."""
        adjoining = self.adjoining
        return reach_ft(
            self.wetland_adjacent_ft,
            self.watercourse_buffer_ft,
            adjoining.rear_setback_ft,
            adjoining.default_side_setback_ft,
            *adjoining.side_setbacks_ft.values(),
            *(
                float(self.kind_options[name])  # type: ignore[arg-type]  # a checked number
                for kind in KINDS
                for name in kind.reach_options
            ),
        )

    def parcel_fields(self) -> list[str]:
        """Parcel fields a run reads besides the id and pass-through ones: district and SDA."""
        zoning = [self.zoning_field] if self.zoning_field else list(ZONING_FIELD_CANDIDATES)
        return [*zoning, *SDA_FIELD_CANDIDATES]

    def to_json(self) -> dict[str, object]:
        return {
            "id_field": self.id_field,
            "zoning_field": self.zoning_field,
            "wetland_adjacent_ft": self.wetland_adjacent_ft,
            "nwi_classes": list(self.nwi_classes),
            "impaired_flag": self.impaired_flag,
            "watercourse_buffer_ft": self.watercourse_buffer_ft,
            "slope_thresholds_pct": list(self.slope.thresholds_pct),
            "dem_z_units": self.slope.z_units or "same as horizontal",
            "adjoining_buffer": self.adjoining.to_json(),
            "crs": self.crs,
            **self.kind_options,
        }


def run_stamp() -> dict[str, str]:
    """A new run's id and time (UTC), written into each of its outputs alike.

    Outputs that belong together carry the same ``run_id``; files of another
    run, or a mix of two, can be told apart.
    """
    return {
        "run_id": uuid.uuid4().hex,
        "generated": datetime.now(timezone.utc).isoformat(timespec="seconds"),
    }


@dataclass
class MeasureResult:
    """Metrics per parcel, flags and what the run read.

    Attributes
    ----------
    parcels : geopandas.GeoDataFrame
        One row per parcel: ``parcel_id``, pass-through fields, every metric and
        the acre columns, geometry in the working CRS.
    flags : geopandas.GeoDataFrame
        ``parcel_id``, ``kind``, ``area_sqft``, geometry.
    touched : ndarray of bool
        Parcels with disturbance or a proposed change of impervious cover.
    working : WorkingCRS
    log : LayerReader
        What was read (inputs with their hashes) and the warnings raised.
    settings : MeasureSettings
    id_field : str
    work : geopandas.GeoDataFrame
        The disturbance layer as the run read it (the work's features and fields):
        grouping the work by project reads it here rather than again.
    work_on_lots : LotMeetings
        Each work feature's area on each lot it meets (square CRS units), as the work
        was split by lot: grouping the work by project finds its lots here rather than
        overlaying them again.
    """

    parcels: gpd.GeoDataFrame
    flags: gpd.GeoDataFrame
    touched: np.ndarray
    working: WorkingCRS
    log: LayerReader
    settings: MeasureSettings
    id_field: str
    work: gpd.GeoDataFrame  # the disturbance layer as read: each feature with its fields
    work_on_lots: LotMeetings  # each work feature's area on each lot it meets
    timings: dict[str, float] = field(default_factory=dict)  # seconds per stage
    disturbed: np.ndarray | None = None  # per parcel, its disturbance (working CRS)
    stamp: dict[str, str] = field(default_factory=run_stamp)  # every output of the run says it
