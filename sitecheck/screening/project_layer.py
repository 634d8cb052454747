"""The GeoPackage's ``projects`` layer and the lot view's ``projects`` column."""

from __future__ import annotations

import geopandas as gpd
import pandas as pd

from sitecheck.screening.check import CheckResult


def project_layer(
    result: CheckResult,
    lot_rows: gpd.GeoDataFrame | None = None,
    lots_table: gpd.GeoDataFrame | None = None,
) -> gpd.GeoDataFrame:
    """One row per project: its site, lots, metrics and trigger columns.

    A project checked on its site has the site's row; a project that is its lot
    alone has the lot's row (from ``lot_rows``, the lot view's rows by
    ``parcel_id``, when given: a Dask driver passes those its partitions wrote).
    ``lots_table``: the run's :meth:`CheckResult.parcels_with_triggers`, when the
    caller has it (a county's takes seconds to build again).
    """
    projects = result.projects
    assert projects is not None
    if lots_table is None:
        lots_table = result.parcels_with_triggers()
    lot_source = lots_table
    lot_positions = [row for row in projects.lot_rows if row >= 0]
    if lot_rows is not None and len(lot_rows):
        # A Dask driver's rows, as the partitions wrote them, in the lot view's order.
        wanted = lots_table["parcel_id"].iloc[lot_positions].astype(str)
        lot_source = lot_rows.set_index(lot_rows["parcel_id"].astype(str), drop=False)
        lot_part = lot_source.loc[wanted.to_list()].reset_index(drop=True)
    else:
        lot_part = lots_table.iloc[lot_positions].reset_index(drop=True)
    site_positions = [row for row in projects.site_rows if row >= 0]
    parts = [lot_part.assign(_order=[i for i, r in enumerate(projects.lot_rows) if r >= 0])]
    if site_positions:
        assert projects.site_result is not None
        sites = projects.site_result.parcels_with_triggers().iloc[site_positions]
        parts.append(
            sites.reset_index(drop=True).assign(
                _order=[i for i, r in enumerate(projects.site_rows) if r >= 0]
            )
        )
    table = pd.concat(parts, ignore_index=True).sort_values("_order").drop(columns="_order")
    table = with_project_columns(table.reset_index(drop=True), projects.ids, projects.lots)
    return gpd.GeoDataFrame(table, geometry=lots_table.geometry.name, crs=lots_table.crs)


def with_project_columns(
    table: pd.DataFrame, ids: list[str], lots: list[list[str]]
) -> pd.DataFrame:
    """Rows of lots or sites as ``projects`` rows: the project's id, lots and their count
    first, the lot's own id and projects left out."""
    table = table.drop(columns=[c for c in ("parcel_id", "projects") if c in table.columns])
    table.insert(0, "project_id", pd.array(ids, dtype="string"))
    table.insert(1, "lots", pd.array([", ".join(each) for each in lots], dtype="string"))
    table.insert(2, "lot_count", [len(each) for each in lots])
    return table
