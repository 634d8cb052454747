"""Named projects in a distributed run: each partition says which of its lots a project
has, and the driver checks on its site only a project of several lots (or on a lot
another project shares).

A window sees only its own lots, so a project whose lots fall in two windows
would be split. The driver joins the partitions' lots of each named project:
a project that is its lot alone takes the row and entry its partition wrote;
the others are screened together, in windows drawn around their work only
(grown to hold every lot it touches, whole, and the neighbours a site's
measures read), and written as a single-process run writes them. Work without
a project name is its lot's project, which the partitions' lot rows already are.
"""

from __future__ import annotations

from dataclasses import dataclass

import geopandas as gpd
import pandas as pd
import pyproj
import shapely

from sitecheck.distributed.window import (
    TaskSpec,
    WindowReader,
    _bbox_in,
    _feet_per_unit,
    _grown,
    layer_crs,
)
from sitecheck.io import vector_source
from sitecheck.io.extent import Extent
from sitecheck.io.readers import POLYGONAL, LayerReader, LayerRequest, read_layer
from sitecheck.pipeline.run import screen
from sitecheck.reports.compact import COMPACT, FULL, compacted
from sitecheck.reports.document import project_entries
from sitecheck.screening.project_layer import project_layer, with_project_columns
from sitecheck.screening.project_sites import project_names

Entries = dict[str, list[dict[str, object]]]


def named_projects(
    spec: TaskSpec,
    working_crs: pyproj.CRS,
    lot_rows: gpd.GeoDataFrame,
    lot_entries: Entries,
    project_lots: dict[str, list[str]],
) -> tuple[gpd.GeoDataFrame, Entries] | None:
    """The ``projects`` layer rows and JSON entries (by layout) of the projects the work
    names, or None when no feature names one.

    ``project_lots`` is each project's lots, joined from the partitions. A project that
    is its lot alone takes the row and entry its partition wrote (``lot_rows``,
    ``lot_entries``), so it reads exactly as the lot does.
    """
    source = spec.run.inputs.disturbance
    frame = read_layer(LayerRequest(source, POLYGONAL, working_crs), LayerReader())
    named = project_names(frame)
    if named is None or named.isna().all():
        return None
    ids = [str(p) for p in dict.fromkeys(named.dropna()) if project_lots.get(str(p))]
    sharing: dict[str, int] = {}
    for project in ids:
        for lot in project_lots[project]:
            sharing[lot] = sharing.get(lot, 0) + 1
    on_site = {p for p in ids if len(project_lots[p]) > 1 or sharing[project_lots[p][0]] > 1}
    entries: dict[str, dict[str, dict[str, object]]] = {layout: {} for layout in spec.json_layouts}
    if FULL in entries:
        by_lot = {str(e["parcel_id"]): e for e in lot_entries.get(FULL, [])}
        for project in ids:
            entry = by_lot.get(project_lots[project][0])
            if project not in on_site and entry is not None:
                dropped = ("parcel_id", "projects", "project_note")
                fields = {k: v for k, v in entry.items() if k not in dropped}
                lots = project_lots[project]
                entries[FULL][project] = {"project_id": project, "lots": lots, **fields}
    parts = [_lot_alone_rows([p for p in ids if p not in on_site], project_lots, lot_rows)]
    work = frame.geometry.to_numpy()[named.isin(on_site).fillna(False).to_numpy()]
    sites = _Sites(on_site, lot_rows, lot_entries, entries)
    for window in _site_windows(work, spec, working_crs):
        parts.append(_check_sites(spec, window, working_crs, sites))
    position = {project: index for index, project in enumerate(ids)}
    found = [part for part in parts if len(part)]
    if not found:  # named work on no lot: unassigned, as the warnings say
        return None
    layer = pd.concat(found, ignore_index=True)
    layer = layer.iloc[layer["project_id"].astype(str).map(position).argsort(kind="stable")]
    listed = {layout: [by_id[p] for p in ids if p in by_id] for layout, by_id in entries.items()}
    frame_of = found[0]
    return (
        gpd.GeoDataFrame(
            layer.reset_index(drop=True), geometry=frame_of.geometry.name, crs=frame_of.crs
        ),
        listed,
    )


def _lot_alone_rows(
    alone: list[str], project_lots: dict[str, list[str]], lot_rows: gpd.GeoDataFrame
) -> gpd.GeoDataFrame:
    """The ``projects`` rows of the projects that are their lot alone: their lots' rows,
    as the partitions wrote them."""
    if not len(lot_rows) or not alone:
        return gpd.GeoDataFrame()
    by_lot = lot_rows.set_index(lot_rows["parcel_id"].astype(str), drop=False)
    alone = [p for p in alone if project_lots[p][0] in by_lot.index]
    lots = [project_lots[p][0] for p in alone]
    rows = by_lot.loc[lots].reset_index(drop=True)
    return with_project_columns(rows, alone, [[lot] for lot in lots])


def _site_windows(work: object, spec: TaskSpec, working_crs: pyproj.CRS) -> list[shapely.Polygon]:
    """Windows around the work of the projects checked on their sites: one per cluster of
    projects whose grown extents meet, each holding their lots whole and their neighbours."""
    if not len(work):  # type: ignore[arg-type]
        return []
    halo = spec.halo_ft / _feet_per_unit(working_crs)
    clusters = Extent.around(work, halo, working_crs).boxes  # type: ignore[arg-type]
    return [
        _with_whole_lots(_grown(shapely.box(*box), spec.run, working_crs), spec, working_crs)
        for box in clusters
    ]


@dataclass(frozen=True)
class _Sites:
    """The projects checked on their sites and what their windows are checked with.

    Attributes
    ----------
    on_site : set of str
        The projects checked on their sites (several lots, or a lot shared).
    lot_rows : GeoDataFrame
        The lot results the partitions wrote.
    lot_entries : Entries
        The lots' JSON entries, by layout.
    entries : dict
        By layout, each project's entry, filled in as windows are checked.
    """

    on_site: set[str]
    lot_rows: gpd.GeoDataFrame
    lot_entries: Entries
    entries: dict[str, dict[str, dict[str, object]]]


def _check_sites(
    spec: TaskSpec, window: shapely.Polygon, working_crs: pyproj.CRS, sites: _Sites
) -> gpd.GeoDataFrame:
    """Screen one window's projects on their sites: the rows of those the driver checks
    there; their entries added to ``sites.entries``."""
    result = screen(spec.run, reader=WindowReader(window, working_crs), packs=spec.packs)
    projects = result.projects
    assert projects is not None
    mine = [i for i, project in enumerate(projects.ids) if project in sites.on_site]
    layer = project_layer(result, sites.lot_rows if len(sites.lot_rows) else None)
    for layout, by_id in sites.entries.items():
        listed = project_entries(result, sites.lot_entries.get(layout, []), layout)
        for entry in listed:
            if entry["project_id"] in sites.on_site:
                if layout == COMPACT:
                    entry = compacted(entry, spec.metric_columns)
                by_id[str(entry["project_id"])] = entry
    return layer.iloc[mine].reset_index(drop=True)


def _with_whole_lots(
    window: shapely.Polygon, spec: TaskSpec, working_crs: pyproj.CRS
) -> shapely.Polygon:
    """The window grown to hold every lot it meets, whole: a site's cover counts in full."""
    parcels = spec.run.inputs.parcels
    crs = layer_crs(parcels.path, parcels.layer)
    bounds = vector_source.read_bounds(
        parcels.path, parcels.layer, bbox=_bbox_in(window.bounds, working_crs, crs)
    )[1]
    if not bounds.size:
        return window
    box = (bounds[0].min(), bounds[1].min(), bounds[2].max(), bounds[3].max())
    grown = shapely.union(window, shapely.box(*_bbox_in(box, crs, working_crs)))
    return shapely.box(*grown.bounds)
