"""One partition's task: measure and check its parcels from a window of every layer.

The window is the extent of the partition's lots, grown to hold the whole of
any drawn feature on them, plus a halo wider than any measure reaches (the
wetland adjacent area, watercourse buffers, the adjoining property buffer).
Every layer is read through its spatial index for that window only; parcels
and drawn features are read whole, while constraint polygons are cut to the
window, so a county-wide floodplain polygon costs each task only its tile.
Neighbouring lots in the halo are measured for context and reported by their
own partitions.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cache
from typing import cast

import geopandas as gpd
import numpy as np
import pandas as pd
import pyproj
import shapely

from sitecheck.collector import batch_collection
from sitecheck.distributed.plan import Partition
from sitecheck.geometry.parallel import set_workers
from sitecheck.io import vector_source
from sitecheck.io.readers import LayerReader, LayerRequest, read_layer
from sitecheck.pipeline.run import screen
from sitecheck.pipeline.spec import RunSpec
from sitecheck.reports.compact import FULL, compact_columns
from sitecheck.reports.document import METRIC_KEYS, check_document
from sitecheck.schema.roles import DRAWN_ROLES, ROLES
from sitecheck.screening.check import Projects
from sitecheck.screening.packs import PackChoice
from sitecheck.screening.runoff_result import RUNOFF_NOTE

WHOLE_ROLES = DRAWN_ROLES
"""Drawn layers are read whole for every lot of the window (a feature may reach far)."""
TILED_ROLES = frozenset(
    role.key
    for role in ROLES
    if role.geometry != "raster" and not role.drawn and role.key != "parcels"
)
"""Constraint layers (and soils, jurisdictions) are cut to the window."""


@dataclass(frozen=True)
class TaskSpec:
    """Everything a partition task needs; sent to every worker once per task.

    Attributes
    ----------
    run : RunSpec
        The run, as a single-process ``check`` takes it.
    all_parcels : bool
        The JSON lists every parcel, not only those with work.
    runoff_columns : tuple of str
        The runoff columns every partition writes, in one order.
    threads : int
        Geometry threads in each task.
    json_layouts : tuple of str
        The layouts of the JSON entries tasks return (none when the run writes no
        JSON; ``compact`` for the newline-delimited lines too).
    packs : PackChoice or None
        The packs the driver chose, so no task loads them again.
    """

    run: RunSpec
    all_parcels: bool
    runoff_columns: tuple[str, ...]
    threads: int = 1
    json_layouts: tuple[str, ...] = (FULL,)
    packs: PackChoice | None = None

    @property
    def metric_columns(self) -> list[str]:
        """The compact layout's metric columns: the same for every partition."""
        return compact_columns([*METRIC_KEYS, *self.runoff_columns])

    @property
    def halo_ft(self) -> float:
        return self.run.settings.reach_ft()


@dataclass
class PartitionOutput:
    """What one task sends back: its own parcels only."""

    index: int
    parcels: gpd.GeoDataFrame
    flags: gpd.GeoDataFrame
    entries: dict[str, list[dict]]
    warnings: list[str] = field(default_factory=list)
    parcels_with_work: int = 0
    runoff_facts: pd.DataFrame = field(default_factory=pd.DataFrame)
    unassigned: list[dict[str, object]] = field(default_factory=list)
    assigned: set[tuple[str, int]] = field(default_factory=set)
    project_lots: dict[str, list[str]] = field(default_factory=dict)  # own lots a project has


class WindowReader(LayerReader):
    """Reads each layer for one window (working CRS), cutting constraint polygons to it."""

    def __init__(self, window: shapely.Polygon, working_crs: pyproj.CRS) -> None:
        super().__init__(partial_view=True)
        self.window = window
        self.working_crs = working_crs

    def serve(self, request: LayerRequest) -> gpd.GeoDataFrame:
        if request.around:
            return super().serve(request)
        source = request.source
        bbox = _bbox_in(self.window.bounds, self.working_crs, layer_crs(source.path, source.layer))
        frame = read_layer(replace(request, within=None), self, bbox)  # the window decides
        if source.role in TILED_ROLES and len(frame):
            frame = _cut_to(frame, self.window, self.working_crs)
        return frame

    keeps_audit = False  # the driver hashes each input once for the whole run


def screen_partition(partition: Partition, spec: TaskSpec) -> PartitionOutput:
    """Measure and check one partition; return its own parcels' rows, flags and JSON entries
    (collecting reference cycles as a batch run does, the worker's own setting put back)."""
    with batch_collection():
        return _screened(partition, spec)


def _screened(partition: Partition, spec: TaskSpec) -> PartitionOutput:
    set_workers(spec.threads)
    run = spec.run
    working = pyproj.CRS.from_user_input(run.settings.crs) if run.settings.crs else None
    parcel_crs = layer_crs(run.inputs.parcels.path, run.inputs.parcels.layer)
    working_crs = working or parcel_crs
    core = shapely.box(*_bbox_in(partition.bounds, parcel_crs, working_crs))
    window = _grown(core, run, working_crs).buffer(
        spec.halo_ft / _feet_per_unit(working_crs), join_style="mitre"
    )
    result = screen(
        run, reader=WindowReader(window, working_crs), packs=spec.packs, project_sites=False
    )
    measured = result.measured
    own = set(partition.parcel_ids)
    table = result.parcels_with_triggers()
    mine = table["parcel_id"].astype(str).isin(own).to_numpy()
    parcels = _with_runoff_columns(table[mine], spec.runoff_columns)
    flags = measured.flags[measured.flags["parcel_id"].astype(str).isin(own).to_numpy()]
    entries = {}
    for layout in spec.json_layouts:
        document = check_document(
            result, spec.all_parcels, own, layout, metric_columns=spec.metric_columns
        )
        entries[layout] = [
            _with_runoff_metrics(entry, spec.runoff_columns) if layout == FULL else entry
            for entry in cast(list[dict], document["parcels"])
            if str(entry["parcel_id"]) in own
        ]
    facts = pd.DataFrame()
    if result.runoff is not None:
        facts = result.runoff.facts
        facts = facts[facts.index.isin(np.flatnonzero(mine))]
    return PartitionOutput(
        index=partition.index,
        parcels=parcels.reset_index(drop=True),
        flags=flags.reset_index(drop=True),
        entries=entries,
        warnings=list(measured.log.warnings),
        parcels_with_work=int(measured.touched[mine].sum()),
        runoff_facts=facts.reset_index(drop=True),
        unassigned=list(measured.log.unassigned),
        assigned=set(measured.log.assigned),
        project_lots=_own_project_lots(result.projects, own),
    )


def _own_project_lots(projects: Projects | None, own: set[str]) -> dict[str, list[str]]:
    """Each project's lots among the partition's own: the driver joins the partitions' to
    tell a project of one lot from one it must check on its site."""
    if projects is None or not projects.named:
        return {}
    found = {
        project: [lot for lot in lots if lot in own]
        for project, lots in zip(projects.ids, projects.lots, strict=True)
    }
    return {project: lots for project, lots in found.items() if lots}


@cache
def layer_crs(path: str, layer: str | None) -> pyproj.CRS:
    """The CRS of a layer, read once per worker."""
    return pyproj.CRS.from_user_input(vector_source.read_info(path, layer)["crs"])


def _grown(core: shapely.Polygon, run: RunSpec, working_crs: pyproj.CRS) -> shapely.Polygon:
    """The core extent grown to hold every drawn feature that meets it, whole."""
    extents = [core]
    for role in WHOLE_ROLES:
        source = run.inputs.source(role)
        if source is None:
            continue
        crs = layer_crs(source.path, source.layer)
        bounds = vector_source.read_bounds(
            source.path, source.layer, bbox=_bbox_in(core.bounds, working_crs, crs)
        )[1]
        if bounds.size:
            box = (bounds[0].min(), bounds[1].min(), bounds[2].max(), bounds[3].max())
            extents.append(shapely.box(*_bbox_in(box, crs, working_crs)))
    return shapely.box(*shapely.union_all(extents).bounds)


def _bbox_in(
    bounds: tuple[float, float, float, float], from_crs: pyproj.CRS, to_crs: pyproj.CRS
) -> tuple[float, float, float, float]:
    if from_crs.equals(to_crs):
        return tuple(float(v) for v in bounds)  # type: ignore[return-value]
    transformer = pyproj.Transformer.from_crs(from_crs, to_crs, always_xy=True)
    return transformer.transform_bounds(*bounds, densify_pts=21)


def _feet_per_unit(crs: pyproj.CRS) -> float:
    from sitecheck.io.crs import feet_per_unit

    return feet_per_unit(crs)[0]


def _cut_to(
    frame: gpd.GeoDataFrame, window: shapely.Polygon, working: pyproj.CRS
) -> gpd.GeoDataFrame:
    """Constraint features cut to the window; those inside it are left untouched."""
    local = window
    if not frame.crs.equals(working):
        local = gpd.GeoSeries([window], crs=working).to_crs(frame.crs).iloc[0]
    geoms = frame.geometry.to_numpy()
    inside = shapely.covered_by(geoms, local)
    cut = geoms.copy()
    cut[~inside] = shapely.intersection(geoms[~inside], local)
    keep = ~shapely.is_empty(cut)
    kept = frame[keep].copy()
    return kept.set_geometry(gpd.GeoSeries(cut[keep], crs=frame.crs, index=kept.index))


def _with_runoff_columns(table: pd.DataFrame, columns: tuple[str, ...]) -> pd.DataFrame:
    """Every partition's table has the run's runoff columns, in one order."""
    if not columns:
        return table
    table = table.copy()
    for name in columns:
        if name == RUNOFF_NOTE and name not in table.columns:
            table[name] = pd.Series(pd.NA, index=table.index, dtype="string")
        elif name not in table.columns:
            table[name] = np.nan
    others = [c for c in table.columns if c not in columns and c != table.active_geometry_name]
    return table[[*others, *columns, table.geometry.name]]


def _with_runoff_metrics(entry: dict, columns: tuple[str, ...]) -> dict:
    if not columns:
        return entry
    metrics = dict(entry["metrics"])
    for name in columns:
        metrics.setdefault(name, None)
    return {**entry, "metrics": metrics}


def spec_for_worker(spec: TaskSpec, working_crs: pyproj.CRS, parcel_crs: pyproj.CRS) -> TaskSpec:
    """Pin the working CRS the driver chose, so no window chooses its own."""
    run = spec.run
    if run.settings.crs or working_crs.equals(parcel_crs):
        return spec
    return replace(spec, run=replace(run, settings=replace(run.settings, crs=working_crs.to_wkt())))
