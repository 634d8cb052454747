"""Named projects in a distributed run: checked by the driver, each with all its lots.

A window sees only its own lots, so a project whose lots fall in two windows
would be split. The windows leave projects to the driver, which screens the
lots of the named projects together, in one window drawn around their work
(grown to hold every lot it touches, whole), and writes the ``projects``
layer and JSON key as a single-process run does. Work without a project name
is its lot's project, which the partitions' lot rows already are.
"""

from __future__ import annotations

import geopandas as gpd
import pandas as pd
import pyproj
import shapely

from sitecheck.distributed.window import TaskSpec, WindowReader, _bbox_in, _grown, layer_crs
from sitecheck.io import vector_source
from sitecheck.io.parcels import find_field
from sitecheck.io.readers import POLYGONAL, LayerReader, read_layer
from sitecheck.pipeline.run import screen
from sitecheck.reports.compact import COMPACT, compacted
from sitecheck.reports.document import project_entries
from sitecheck.screening.project_layer import project_layer
from sitecheck.screening.projects import PROJECT_FIELD


def named_projects(
    spec: TaskSpec,
    working_crs: pyproj.CRS,
    lot_rows: gpd.GeoDataFrame,
    lot_entries: dict[str, list[dict[str, object]]],
) -> tuple[gpd.GeoDataFrame, dict[str, list[dict[str, object]]]] | None:
    """The ``projects`` layer rows and JSON entries (by layout) of the projects the work
    names, or None when no feature names one.

    A project that is its lot alone takes the row and entry its partition wrote
    (``lot_rows``, ``lot_entries``), so it reads exactly as the lot does.
    """
    source = spec.run.inputs.disturbance
    frame = read_layer(source, POLYGONAL, LayerReader(), target_crs=working_crs)
    field_name = find_field([c for c in frame.columns if c != frame.geometry.name], [PROJECT_FIELD])
    if field_name is None:
        return None
    named = frame[field_name].astype("string").str.strip().replace("", pd.NA)
    if named.isna().all():
        return None
    names = set(named.dropna())
    core = shapely.box(*frame.geometry[named.notna().to_numpy()].total_bounds)
    window = _with_whole_lots(_grown(core, spec.run, working_crs), spec, working_crs)
    result = screen(spec.run, reader=WindowReader(window, working_crs), packs=spec.packs)
    projects = result.projects
    assert projects is not None
    keep = [i for i, project in enumerate(projects.ids) if project in names]
    layer = project_layer(result, lot_rows).iloc[keep].reset_index(drop=True)
    entries = {}
    for layout in spec.json_layouts:
        listed = project_entries(result, lot_entries.get(layout, []), layout)
        if layout == COMPACT:
            listed = [compacted(entry, spec.metric_columns) for entry in listed]
        entries[layout] = [entry for entry in listed if entry["project_id"] in names]
    return layer, entries


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
