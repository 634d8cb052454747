"""Measure every parcel: disturbance, impervious change and constraint overlays.

:func:`measure` reads the layers, measures in one projected CRS in feet and
returns the metrics of :mod:`sitecheck.schema.metrics` per parcel plus the ``flags``:
the geometry of each place where disturbance meets a constraint.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import geopandas as gpd
import numpy as np
import pandas as pd
import shapely

from sitecheck.constraints.adjoining import AdjoiningSettings, disturbance_in_buffer
from sitecheck.constraints.layers import buffered, district_by_lot, flood_surfaces, overlaps_surface
from sitecheck.errors import InputError
from sitecheck.geometry.lots import split_by_lot
from sitecheck.geometry.overlay import (
    Surface,
    area_by_group,
    empty_array,
    polygonal,
    union_by_group,
)
from sitecheck.io.crs import WorkingCRS
from sitecheck.io.parcels import Parcels, find_field, read_parcels
from sitecheck.io.progress import Progress
from sitecheck.io.readers import LINEAR, POLYGONAL, LayerReader, LayerSource
from sitecheck.schema.fields import PROJECT_FIELDS, SDA_FIELD_CANDIDATES, ZONING_FIELD_CANDIDATES
from sitecheck.schema.metrics import ACRE_METRICS, METRICS, SQFT_PER_ACRE, acres_name
from sitecheck.schema.roles import VECTOR_ROLES
from sitecheck.terrain.slope import SlopeSettings, measure_slopes

_TRUE_TEXT = {"1", "T", "TRUE", "Y", "YES"}
_FALSE_TEXT = {"0", "F", "FALSE", "N", "NO"}
MIN_LOT_OVERLAP_SQFT = 1.0  # a lot is "in" the SDA / impaired watershed from this overlap up
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
    adjoining_buffer: LayerSource | None = None
    dem: str | None = None

    def layers(self) -> list[LayerSource]:
        """The vector layers given, in field order."""
        return [source for role in LAYER_ROLES if (source := getattr(self, role)) is not None]


LAYER_ROLES: tuple[str, ...] = VECTOR_ROLES
"""The vector layers a measurement takes, by role (the fields of MeasureInputs but the DEM)."""


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
        Width of the regulated adjacent area around wetlands (NYS: 100 ft).
    watercourse_buffer_ft : float
        Buffer around watercourse lines or polygons.
    slope : SlopeSettings
    adjoining : AdjoiningSettings
    crs : str, optional
        Projected CRS to measure in instead of the parcel layer's.
    tile_size_ft : float
        Side of the tiles large constraint polygons are cut into.
    """

    id_field: str | None = None
    zoning_field: str | None = None
    wetland_adjacent_ft: float = 100.0
    watercourse_buffer_ft: float = 100.0
    slope: SlopeSettings = field(default_factory=SlopeSettings)
    adjoining: AdjoiningSettings = field(default_factory=AdjoiningSettings)
    crs: str | None = None
    tile_size_ft: float = 2000.0

    def to_json(self) -> dict[str, object]:
        return {
            "id_field": self.id_field,
            "zoning_field": self.zoning_field,
            "wetland_adjacent_ft": self.wetland_adjacent_ft,
            "watercourse_buffer_ft": self.watercourse_buffer_ft,
            "slope_thresholds_pct": list(self.slope.thresholds_pct),
            "dem_z_units": self.slope.z_units or "same as horizontal",
            "adjoining_buffer": self.adjoining.to_json(),
            "crs": self.crs,
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
    """

    parcels: gpd.GeoDataFrame
    flags: gpd.GeoDataFrame
    touched: np.ndarray
    working: WorkingCRS
    log: LayerReader
    settings: MeasureSettings
    id_field: str
    timings: dict[str, float] = field(default_factory=dict)  # seconds per stage
    disturbed: np.ndarray | None = None  # per parcel, its disturbance (working CRS)


@dataclass
class _Disturbance:
    geoms: np.ndarray  # per lot, in-lot and street parts together
    outside: np.ndarray  # per lot, street parts only
    max_at_one_time: np.ndarray  # per lot, square feet
    attributes: pd.DataFrame  # per lot, disturbance fields of its largest feature
    owns_feature: (
        np.ndarray
    )  # per lot: a disturbance feature belongs to it (not only spills onto it)


def measure(
    inputs: MeasureInputs,
    settings: MeasureSettings,
    progress: Progress | None = None,
    reader: LayerReader | None = None,
) -> MeasureResult:
    """Measure every parcel of a run.

    Parameters
    ----------
    inputs : MeasureInputs
    settings : MeasureSettings
    progress : Progress, optional
    reader : LayerReader, optional
        Where layers come from; by default read from their files.

    Returns
    -------
    MeasureResult

    Raises
    ------
    InputError
        For any input a user must fix; the message names the layer or field.
    """
    progress = progress or Progress(quiet=True)
    reader = reader or LayerReader()
    progress.update(0, "reading parcels")
    zoning_fields = (
        [settings.zoning_field] if settings.zoning_field else list(ZONING_FIELD_CANDIDATES)
    )
    parcels = read_parcels(
        inputs.parcels,
        reader,
        settings.id_field,
        settings.crs,
        [*zoning_fields, *SDA_FIELD_CANDIDATES],
    )
    working = parcels.working
    lots = parcels.geoms
    shapely.prepare(lots)
    lot_tree = shapely.STRtree(lots)
    n = len(lots)
    sqft = working.sqft_per_unit2
    metrics: dict[str, np.ndarray] = {"lot_area_sqft": shapely.area(lots) * sqft}
    flags = _FlagCollector(parcels.ids)

    progress.update(10, "splitting disturbance by lot")
    disturbance = _measure_disturbance(inputs.disturbance, parcels, lot_tree, reader, working)
    disturbed = disturbance.geoms
    metrics["disturbed_area_sqft"] = shapely.area(disturbed) * sqft
    metrics["disturbed_outside_parcel_sqft"] = shapely.area(disturbance.outside) * sqft
    metrics["max_disturbed_at_one_time_sqft"] = disturbance.max_at_one_time
    flags.add("outside_parcel", disturbance.outside, sqft)
    has_disturbance = metrics["disturbed_area_sqft"] > 0

    progress.update(25, "measuring impervious cover")
    touched = has_disturbance.copy()
    _measure_impervious(
        inputs, parcels, lot_tree, reader, metrics, touched, disturbance.owns_feature
    )

    progress.update(40, "overlaying constraint layers")
    active = np.flatnonzero(has_disturbance)
    tile = settings.tile_size_ft / working.feet_per_unit
    _measure_floodplain(inputs.floodplain, reader, working, disturbed, active, tile, metrics, flags)
    _measure_wetlands(
        inputs.wetlands, reader, working, settings, disturbed, active, tile, metrics, flags
    )
    _measure_watercourses(
        inputs.watercourses, reader, working, settings, disturbed, active, tile, metrics, flags
    )

    progress.update(55, "zoning and the adjoining property buffer")
    districts = zoning_districts(inputs.zoning, parcels, lot_tree, reader, settings)
    metrics["zoning_district"] = (
        districts if districts is not None else np.full(n, None, dtype=object)
    )
    _measure_adjoining(
        inputs.adjoining_buffer,
        parcels,
        reader,
        settings,
        districts,
        disturbed,
        active,
        tile,
        metrics,
        flags,
    )

    progress.update(65, "sensitive drainage areas and impaired watersheds")
    metrics["in_sda"] = (
        _lot_flag_layer(inputs.sda, reader, working, lots, tile)
        if inputs.sda is not None
        else _parcel_flag_field(parcels, SDA_FIELD_CANDIDATES)
    )
    metrics["in_impaired_watershed"] = _lot_flag_layer(
        inputs.impaired_watersheds, reader, working, lots, tile
    )

    progress.update(70, "measuring slopes")
    if inputs.dem is not None:
        reader.record("dem", inputs.dem, None, 0)
    _measure_slopes(inputs.dem, settings, working, disturbed, active, n, metrics, flags)

    progress.update(95, "assembling results")
    table = _result_table(parcels, metrics, disturbance.attributes)
    _warn_removed_cover(table, touched, reader)
    flag_frame = flags.frame(working)
    progress.update(100, "measured")
    return MeasureResult(
        table,
        flag_frame,
        touched,
        working,
        reader,
        settings,
        parcels.id_field,
        dict(progress.timings),
        disturbed,
    )


def _measure_disturbance(
    source: LayerSource,
    parcels: Parcels,
    lot_tree: shapely.STRtree,
    reader: LayerReader,
    working: WorkingCRS,
) -> _Disturbance:
    frame = reader.read(source, POLYGONAL, target_crs=working.crs)
    n = len(parcels.geoms)
    features = frame.geometry.to_numpy()
    hints = _lot_hints(frame, parcels, source, reader)
    pieces, owner = split_by_lot(features, parcels.geoms, lot_tree, hints, keep_outside=True)
    geoms = union_by_group(pieces.geoms, pieces.lot, n)
    outside = union_by_group(pieces.geoms[pieces.outside], pieces.lot[pieces.outside], n)
    phases = _phases(frame, source)
    sqft = working.sqft_per_unit2
    if phases is None:
        max_at_one_time = shapely.area(geoms) * sqft
    else:
        max_at_one_time = _largest_phase(pieces.geoms, pieces.lot, phases[pieces.feature], n) * sqft
    owns_feature = np.zeros(n, dtype=bool)
    owns_feature[owner[owner >= 0]] = True
    return _Disturbance(
        geoms, outside, max_at_one_time, _lot_attributes(frame, owner, n), owns_feature
    )


def _lot_hints(
    frame: gpd.GeoDataFrame, parcels: Parcels, source: LayerSource, reader: LayerReader
) -> np.ndarray | None:
    """Lot index each feature names in its parcel-id field, -1 where none."""
    columns = [c for c in frame.columns if c != frame.geometry.name]
    field_name = find_field(
        columns, ["parcel_id"] if parcels.id_field == "FID" else [parcels.id_field, "parcel_id"]
    )
    if field_name is None:
        return None
    values = frame[field_name].astype("string").str.strip()
    lookup = pd.Series(np.arange(len(parcels.ids)), index=pd.Index(parcels.ids.astype(str)))
    hints = values.map(lookup)
    unknown = values.notna() & (values != "") & hints.isna()
    if unknown.any():
        shown = ", ".join(sorted(set(values[unknown].astype(str)))[:10])
        reader.warn(
            f"{source.label()}: {int(unknown.sum())} feature(s) name parcels "
            "not in the parcel layer "
            f"({shown}); their street parts go to the lot holding most of them"
        )
    return hints.fillna(-1).to_numpy(dtype=np.int64)


def _phases(frame: gpd.GeoDataFrame, source: LayerSource) -> np.ndarray | None:
    """The integer phase of each feature, -1 where empty; None without a phase field."""
    field_name = find_field([c for c in frame.columns if c != frame.geometry.name], ["phase"])
    if field_name is None:
        return None
    raw = frame[field_name]
    numbers = pd.to_numeric(raw, errors="coerce")
    bad = raw.notna() & (numbers.isna() | (numbers != np.floor(numbers)))
    if bad.any():
        first = int(np.flatnonzero(bad.to_numpy())[0])
        raise InputError(
            f"{source.label()}: field '{field_name}' must hold whole numbers; "
            f"found {raw.iloc[first]!r} (FID {frame['_fid'].iloc[first]})"
        )
    if numbers.isna().all():
        return None
    return numbers.fillna(-1).astype(np.int64).to_numpy()


def _largest_phase(geoms: np.ndarray, lots: np.ndarray, phases: np.ndarray, n: int) -> np.ndarray:
    """Per lot, the largest area disturbed in one phase (square CRS units).

    A feature without a phase is disturbed throughout, so it counts in every
    phase of its lot.
    """
    best = np.zeros(n)
    for phase in np.unique(phases[phases >= 0]):
        current = (phases == phase) | (phases < 0)
        area = shapely.area(union_by_group(geoms[current], lots[current], n))
        best = np.maximum(best, area)
    unphased_only = np.zeros(n, dtype=bool)
    unphased_only[np.unique(lots)] = True
    unphased_only[np.unique(lots[phases >= 0])] = False
    if unphased_only.any():
        mask = np.isin(lots, np.flatnonzero(unphased_only))
        area = shapely.area(union_by_group(geoms[mask], lots[mask], n))
        best = np.maximum(best, area)
    return best




def _lot_attributes(frame: gpd.GeoDataFrame, owner: np.ndarray, n: int) -> pd.DataFrame:
    """Project fields of the largest disturbance feature on each lot (null where none)."""
    columns = [c for c in frame.columns if c != frame.geometry.name]
    out = pd.DataFrame(index=range(n))
    area = shapely.area(frame.geometry.to_numpy())
    order = np.lexsort((area, owner))  # largest feature last per lot
    valid = owner[order] >= 0
    for name in PROJECT_FIELDS:
        field_name = find_field(columns, [name])
        column = np.full(n, None, dtype=object)
        if field_name is not None:
            values = frame[field_name].astype("string").to_numpy(dtype=object, na_value=None)
            column[owner[order][valid]] = values[order][valid]
        out[name] = column
    return out


def _measure_impervious(
    inputs: MeasureInputs,
    parcels: Parcels,
    lot_tree: shapely.STRtree,
    reader: LayerReader,
    metrics: dict[str, np.ndarray],
    touched: np.ndarray,
    owns_disturbance: np.ndarray,
) -> None:
    """Existing and proposed impervious cover per lot, and the net change.

    The proposed layer is the complete post-construction cover of the project
    lots: lots a disturbance feature or a proposed feature belongs to (by its
    parcel-id field, else by where most of it lies). Other lots, including a
    neighbour that a project's disturbance only spills onto, keep their
    existing cover.
    """
    n = len(parcels.geoms)
    sqft = parcels.working.sqft_per_unit2
    nulls = np.full(n, np.nan)
    existing = nulls.copy()
    if inputs.impervious_existing is not None:
        existing = _cover_by_lot(inputs.impervious_existing, parcels, lot_tree, reader)[0] * sqft
    metrics["impervious_existing_sqft"] = existing
    if inputs.impervious_proposed is None:
        metrics["impervious_proposed_sqft"] = nulls.copy()
        metrics["impervious_net_change_sqft"] = nulls.copy()
        metrics["impervious_proposed_pct"] = nulls.copy()
        return
    proposed_area, owners = _cover_by_lot(inputs.impervious_proposed, parcels, lot_tree, reader)
    project_lots = owns_disturbance.copy()
    project_lots[owners[owners >= 0]] = True
    proposed = np.where(project_lots, proposed_area * sqft, existing)
    metrics["impervious_proposed_sqft"] = proposed
    metrics["impervious_net_change_sqft"] = proposed - existing
    metrics["impervious_proposed_pct"] = 100.0 * proposed / metrics["lot_area_sqft"]
    touched |= project_lots


def _cover_by_lot(
    source: LayerSource, parcels: Parcels, lot_tree: shapely.STRtree, reader: LayerReader
) -> tuple[np.ndarray, np.ndarray]:
    """Area of a cover layer inside each lot (overlaps once) and each feature's lot."""
    frame = reader.read(source, POLYGONAL, target_crs=parcels.working.crs)
    n = len(parcels.geoms)
    pieces, owner = split_by_lot(
        frame.geometry.to_numpy(), parcels.geoms, lot_tree, keep_outside=False
    )
    return area_by_group(pieces.geoms, pieces.lot, n), owner


def _active_overlap(
    surface: Surface, disturbed: np.ndarray, active: np.ndarray, n: int
) -> tuple[np.ndarray, np.ndarray]:
    """Overlap of the disturbed lots with a surface; zeros and empties elsewhere."""
    areas = np.zeros(n)
    geoms = empty_array(n)
    got_areas, got_geoms = surface.overlap(disturbed[active], want_geometry=True)
    areas[active] = got_areas
    assert got_geoms is not None
    geoms[active] = got_geoms
    return areas, geoms


def _measure_floodplain(
    source: LayerSource | None,
    reader: LayerReader,
    working: WorkingCRS,
    disturbed: np.ndarray,
    active: np.ndarray,
    tile: float,
    metrics: dict[str, np.ndarray],
    flags: _FlagCollector,
) -> None:
    n = len(disturbed)
    names = {
        "one_pct": ("disturbed_in_floodplain_1pct_sqft", "floodplain_1pct"),
        "zero_two_pct": ("disturbed_in_floodplain_0_2pct_sqft", "floodplain_0_2pct"),
        "floodway": ("disturbed_in_floodway_sqft", "floodway"),
    }
    if source is None:
        for metric, _ in names.values():
            metrics[metric] = np.full(n, np.nan)
        return
    frame = reader.read(source, POLYGONAL, target_crs=working.crs)
    surfaces = flood_surfaces(frame, source, tile)
    for attribute, (metric, kind) in names.items():
        areas, geoms = _active_overlap(getattr(surfaces, attribute), disturbed, active, n)
        metrics[metric] = areas * working.sqft_per_unit2
        flags.add(kind, geoms, working.sqft_per_unit2)


def _measure_wetlands(
    source: LayerSource | None,
    reader: LayerReader,
    working: WorkingCRS,
    settings: MeasureSettings,
    disturbed: np.ndarray,
    active: np.ndarray,
    tile: float,
    metrics: dict[str, np.ndarray],
    flags: _FlagCollector,
) -> None:
    n = len(disturbed)
    if source is None:
        metrics["disturbed_in_wetland_sqft"] = np.full(n, np.nan)
        metrics["disturbed_in_wetland_adjacent_sqft"] = np.full(n, np.nan)
        return
    frame = reader.read(source, POLYGONAL, target_crs=working.crs)
    wetlands = frame.geometry.to_numpy()
    width = settings.wetland_adjacent_ft / working.feet_per_unit
    in_wetland, wetland_geoms = _active_overlap(
        Surface.from_polygons(wetlands, tile), disturbed, active, n
    )
    in_zone, zone_geoms = _active_overlap(
        Surface.from_polygons(buffered(wetlands, width), tile), disturbed, active, n
    )
    sqft = working.sqft_per_unit2
    metrics["disturbed_in_wetland_sqft"] = in_wetland * sqft
    metrics["disturbed_in_wetland_adjacent_sqft"] = np.clip(in_zone - in_wetland, 0.0, None) * sqft
    flags.add("wetland", wetland_geoms, sqft)
    flags.add("wetland_adjacent", shapely.difference(zone_geoms, wetland_geoms), sqft)


def _measure_watercourses(
    source: LayerSource | None,
    reader: LayerReader,
    working: WorkingCRS,
    settings: MeasureSettings,
    disturbed: np.ndarray,
    active: np.ndarray,
    tile: float,
    metrics: dict[str, np.ndarray],
    flags: _FlagCollector,
) -> None:
    n = len(disturbed)
    if source is None:
        metrics["disturbed_in_watercourse_buffer_sqft"] = np.full(n, np.nan)
        return
    frame = reader.read(source, POLYGONAL + LINEAR, target_crs=working.crs)
    width = settings.watercourse_buffer_ft / working.feet_per_unit
    surface = Surface.from_polygons(buffered(frame.geometry.to_numpy(), width), tile)
    areas, geoms = _active_overlap(surface, disturbed, active, n)
    metrics["disturbed_in_watercourse_buffer_sqft"] = areas * working.sqft_per_unit2
    flags.add("watercourse_buffer", geoms, working.sqft_per_unit2)


def zoning_districts(
    source: LayerSource | None,
    parcels: Parcels,
    lot_tree: shapely.STRtree,
    reader: LayerReader,
    settings: MeasureSettings,
) -> np.ndarray | None:
    """District code of each lot: from the zoning layer, else a parcel field; None if neither."""
    candidates = [settings.zoning_field] if settings.zoning_field else list(ZONING_FIELD_CANDIDATES)
    if source is not None:
        frame = reader.read(source, POLYGONAL, target_crs=parcels.working.crs)
        columns = [c for c in frame.columns if c not in (frame.geometry.name, "_fid")]
        field_name = find_field(columns, candidates)
        if field_name is None:
            raise InputError(
                f"{source.label()}: no district field ({', '.join(candidates)}); "
                f"name it with --zoning-field; fields are: {', '.join(columns)}"
            )
        return district_by_lot(parcels.geoms, frame, field_name, lot_tree)
    columns = [c for c in parcels.frame.columns if c != parcels.frame.geometry.name]
    field_name = find_field(columns, candidates)
    if field_name is None:
        if settings.zoning_field:
            raise InputError(
                f"parcels layer: no zoning field '{settings.zoning_field}' and no zoning layer"
            )
        return None
    return parcels.frame[field_name].astype("string").to_numpy(dtype=object, na_value=None)


def _measure_adjoining(
    source: LayerSource | None,
    parcels: Parcels,
    reader: LayerReader,
    settings: MeasureSettings,
    districts: np.ndarray | None,
    disturbed: np.ndarray,
    active: np.ndarray,
    tile: float,
    metrics: dict[str, np.ndarray],
    flags: _FlagCollector,
) -> None:
    """Disturbance in the adjoining property buffer: a drawn layer, else derived from the lots."""
    n = len(disturbed)
    working = parcels.working
    if source is not None:
        frame = reader.read(source, POLYGONAL, target_crs=working.crs)
        surface = Surface.from_polygons(frame.geometry.to_numpy(), tile)
        areas, geoms = _active_overlap(surface, disturbed, active, n)
    else:
        geoms = disturbance_in_buffer(
            parcels.geoms, disturbed, districts, settings.adjoining, working.feet_per_unit, active
        )
        areas = shapely.area(geoms)
    metrics["disturbed_in_adjoining_buffer_sqft"] = areas * working.sqft_per_unit2
    flags.add("adjoining_buffer", geoms, working.sqft_per_unit2)


def _lot_flag_layer(
    source: LayerSource | None,
    reader: LayerReader,
    working: WorkingCRS,
    lots: np.ndarray,
    tile: float,
) -> np.ndarray:
    """True where a lot lies (partly) in the layer's polygons; None without the layer."""
    if source is None:
        return np.full(len(lots), None, dtype=object)
    frame = reader.read(source, POLYGONAL, target_crs=working.crs)
    surface = Surface.from_polygons(frame.geometry.to_numpy(), tile)
    min_area = MIN_LOT_OVERLAP_SQFT / working.sqft_per_unit2
    return overlaps_surface(lots, surface, min_area).astype(object)


def _parcel_flag_field(parcels: Parcels, candidates: tuple[str, ...]) -> np.ndarray:
    """A yes/no parcel field (1/0, Y/N, true/false) as booleans; None where absent or empty."""
    columns = [c for c in parcels.frame.columns if c != parcels.frame.geometry.name]
    field_name = find_field(columns, candidates)
    out = np.full(len(parcels.frame), None, dtype=object)
    if field_name is None:
        return out
    text = parcels.frame[field_name].astype("string").str.strip().str.upper()
    out[text.isin(_TRUE_TEXT).to_numpy(dtype=bool)] = True
    out[text.isin(_FALSE_TEXT).to_numpy(dtype=bool)] = False
    return out


def _measure_slopes(
    dem: str | None,
    settings: MeasureSettings,
    working: WorkingCRS,
    disturbed: np.ndarray,
    active: np.ndarray,
    n: int,
    metrics: dict[str, np.ndarray],
    flags: _FlagCollector,
) -> None:
    low, high = settings.slope.thresholds_pct
    if dem is None:
        for name in (
            "disturbed_on_slope_over_15pct_sqft",
            "disturbed_on_slope_over_25pct_sqft",
            "slope_data_coverage",
        ):
            metrics[name] = np.full(n, np.nan)
        return
    result = measure_slopes(dem, disturbed[active], working, settings.slope, want_flags=True)
    coverage = np.full(n, np.nan)
    coverage[active] = result.coverage
    metrics["slope_data_coverage"] = coverage
    for threshold, metric, kind in (
        (low, "disturbed_on_slope_over_15pct_sqft", "slope_over_15pct"),
        (high, "disturbed_on_slope_over_25pct_sqft", "slope_over_25pct"),
    ):
        areas = np.zeros(n)
        areas[active] = result.over_sqft[threshold]
        metrics[metric] = areas
        geoms = empty_array(n)
        if result.flags is not None:
            geoms[active] = result.flags[threshold]
        flags.add(kind, geoms, working.sqft_per_unit2)


def _result_table(
    parcels: Parcels, metrics: Mapping[str, np.ndarray], attributes: pd.DataFrame
) -> gpd.GeoDataFrame:
    """Parcels with pass-through fields, metrics (rounded), acres and project fields."""
    table = parcels.frame.drop(columns=parcels.frame.geometry.name).copy()
    for metric in METRICS:
        values = metrics[metric.name]
        if metric.kind in ("area", "percent"):
            table[metric.name] = np.round(values.astype(float), AREA_DECIMALS)
        elif metric.kind == "share":
            table[metric.name] = np.round(values.astype(float), 4)
        elif metric.kind == "boolean":
            table[metric.name] = pd.array(values, dtype="boolean")
        else:
            table[metric.name] = pd.array(values, dtype="string")
    for name in ACRE_METRICS:
        table[acres_name(name)] = np.round(table[name] / SQFT_PER_ACRE, 4)
    for name in attributes.columns:
        from_disturbance = pd.Series(attributes[name].to_numpy(), index=table.index, dtype="string")
        if name in table.columns:
            from_parcel = table[name].astype("string")
            table[name] = from_disturbance.where(from_disturbance.notna(), from_parcel)
        else:
            table[name] = from_disturbance
    return gpd.GeoDataFrame(
        table, geometry=parcels.frame.geometry.to_numpy(), crs=parcels.frame.crs
    )


def _warn_removed_cover(table: gpd.GeoDataFrame, touched: np.ndarray, reader: LayerReader) -> None:
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


class _FlagCollector:
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
        data = pd.DataFrame(
            {
                "parcel_id": pd.array(self.ids[lots], dtype="string"),
                "kind": pd.array(rows_kind, dtype="string"),
                "area_sqft": np.round(shapely.area(geoms) * working.sqft_per_unit2, AREA_DECIMALS),
            }
        )
        return gpd.GeoDataFrame(data, geometry=_as_multipolygons(geoms), crs=working.crs)


def _as_multipolygons(geoms: np.ndarray) -> np.ndarray:
    """MultiPolygons throughout, so the flags layer has one geometry type."""
    out = np.empty(len(geoms), dtype=object)
    for i, geom in enumerate(polygonal(geoms)):
        out[i] = (
            geom
            if shapely.get_type_id(geom) == 6
            else shapely.MultiPolygon(list(shapely.get_parts(geom)))
        )
    return out
