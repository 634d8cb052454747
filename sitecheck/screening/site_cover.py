"""A project site's impervious cover, from the lots it is made of.

A site is measured whole by the same engine as a lot (:mod:`sitecheck.screening.project_sites`);
its impervious cover and change are its lots' instead, as the lot view measured them.
"""

from __future__ import annotations

import math

import numpy as np

from sitecheck.measure.inputs import AREA_DECIMALS, MeasureResult
from sitecheck.schema.metrics import SQFT_PER_ACRE, acres_name

COVER = ("impervious_existing_sqft", "impervious_proposed_sqft")


def cover_of_lots(
    sites: MeasureResult, ids: list[str], members: dict[str, list[str]], lot_view: MeasureResult
) -> None:
    """A site's impervious cover and its change, summed over its lots as the lot view has them.

    The proposed layer holds the post-construction cover of the lots the work belongs to;
    a lot the work only spills onto keeps its existing cover
    (:func:`~sitecheck.measure.impervious.measure_impervious`). Measured whole, a site
    read the proposed layer over such a lot too, found none there and counted the lot's
    cover as removed: a pool over the side line made its project's change negative.

    Parameters
    ----------
    sites : MeasureResult
        The sites measured whole, one row per project of ``ids`` in order, then the lots
        around them; its cover columns are replaced in the sites' rows.
    ids : list of str
        The projects checked on their sites.
    members : dict of str to list of str
        Each project's lots. A lot two projects share is counted with the first of them
        only, as the grouping's note says.
    lot_view : MeasureResult
        The lots, measured one by one. A cover it could not measure (no such layer)
        stays unknown on the site.
    """
    table = sites.parcels
    lots = lot_view.parcels
    ids_of = lots["parcel_id"].astype(str)
    by_lot = {
        name: dict(zip(ids_of, lots[name].to_numpy(dtype=float), strict=True)) for name in COVER
    }
    cover = {name: table[name].to_numpy(dtype=float).copy() for name in COVER}
    counted: set[str] = set()
    for row, project in enumerate(ids):
        own = [lot for lot in members[project] if lot not in counted]
        counted.update(members[project])
        for name, of_lot in by_lot.items():
            known = not all(math.isnan(of_lot[lot]) for lot in members[project])
            total = sum(of_lot[lot] for lot in own) if known else math.nan
            cover[name][row] = round(total, AREA_DECIMALS)  # as the table rounds its areas
    rows = slice(0, len(ids))  # the sites; the lots around them after are no project's
    proposed = cover[COVER[1]][rows]
    change = proposed - cover[COVER[0]][rows]
    net = table["impervious_net_change_sqft"].to_numpy(dtype=float).copy()
    share = table["impervious_proposed_pct"].to_numpy(dtype=float).copy()
    acres = table[acres_name("impervious_net_change_sqft")].to_numpy(dtype=float).copy()
    net[rows] = np.round(change, AREA_DECIMALS)
    acres[rows] = np.round(change / SQFT_PER_ACRE, 4)
    with np.errstate(divide="ignore", invalid="ignore"):
        area = table["lot_area_sqft"].to_numpy(dtype=float)[rows]
        share[rows] = np.round(100.0 * proposed / area, AREA_DECIMALS)
    table[COVER[0]], table[COVER[1]] = cover[COVER[0]], cover[COVER[1]]
    table["impervious_net_change_sqft"] = net
    table["impervious_proposed_pct"] = share
    table[acres_name("impervious_net_change_sqft")] = acres
