"""A project's site from its lots' figures, where those add up to the site's.

The site pass (:mod:`sitecheck.pipeline.site_checks`) measured each project's site
whole, its work and all: the work was measured twice, once on its lots and once on
its site, and the second took a fifth of a panel's answer on a two-lot project
(issue 30). Where a site's lots hold its work and nothing else, each of the work's
areas on the site (disturbed, outside the lots, in each flood zone, wetland and
buffer, on each slope) is the sum of its lots' (the lots do not overlap, and the work
is split by their lines), so the site takes its lots' figures. What a site is,
whatever its work (its area, zoning, sensitive drainage area, impaired watershed, a
watercourse through it, its parcel fields), is measured on the site alone, with the
site itself as its work; a session keeps that from answer to answer.

Where the sums would not be the site's figures, the site is measured whole, as before:

- a site's work has phases (the largest area disturbed at one time is not a sum);
- a lot of the site holds work of another project, or the project's work meets or
  names a lot outside its site;
- two lots of a site overlap;
- more than one lot of a site has work outside it (two street parts may overlap);
- the slope data cover the work of a site's lots in different shares;
- a plugged constraint kind gives something other than areas.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import geopandas as gpd
import numpy as np
import pandas as pd
import shapely

from sitecheck.geometry.lots import LotMeetings, LotPieces
from sitecheck.io.frames import geo_frame, text_array
from sitecheck.io.parcel_ids import rows_of
from sitecheck.io.parcels import attribute_columns, find_field, named_parcels
from sitecheck.measure.inputs import AREA_DECIMALS, MeasureInputs, MeasureResult
from sitecheck.measure.project_facts import lot_attributes
from sitecheck.schema.kinds import KINDS, ConstraintKind
from sitecheck.schema.metrics import ACRE_METRICS, SQFT_PER_ACRE, acres_name
from sitecheck.screening.project_sites import Grouping, fresh_record

SUMMED = (
    "disturbed_area_sqft",
    "disturbed_outside_parcel_sqft",
    "max_disturbed_at_one_time_sqft",
    "disturbed_in_floodplain_1pct_sqft",
    "disturbed_in_floodplain_0_2pct_sqft",
    "disturbed_in_floodway_sqft",
    "disturbed_in_wetland_sqft",
    "disturbed_in_wetland_adjacent_sqft",
    "disturbed_in_watercourse_buffer_sqft",
    "disturbed_on_slope_over_15pct_sqft",
    "disturbed_on_slope_over_25pct_sqft",
    *(metric.name for kind in KINDS for metric in kind.metrics),
)
"""The work's areas, each a site's the sum of its lots'. The impervious cover and the
adjoining-property buffer are its lots' too, by :func:`~sitecheck.screening.project_sites.
measured_sites`; the lot area and the other facts of a site are its own."""

COVERAGE = "slope_data_coverage"


@dataclass(frozen=True)
class BareSites:
    """The sites measured with each site as its own work (:func:`bare_inputs`): what a site
    is, whatever its work, and its table's columns as arrays, which a session keeps with it
    (reading them from the table took 1 ms of each answer).

    Attributes
    ----------
    measured : MeasureResult
        The sites, then the lots beside them.
    columns : dict of str to array
        The sites' rows of each column of ``measured.parcels`` but the geometry; never
        changed in place.
    """

    measured: MeasureResult
    columns: dict[str, object]

    @classmethod
    def of(cls, measured: MeasureResult, count: int) -> BareSites:
        """The first ``count`` rows of ``measured``: the sites."""
        table = measured.parcels.iloc[:count]
        geometry = table.geometry.name
        return cls(measured, {n: table[n].array for n in table.columns if n != geometry})


def summed_sites(
    grouping: Grouping,
    lot_view: MeasureResult,
    sites: gpd.GeoDataFrame,
    bare_sites: Callable[[], BareSites],
) -> MeasureResult | None:
    """The sites of ``grouping`` with their work's figures summed from their lots; None
    where a sum would not be a site's figure (the module's list), to measure them whole.

    Parameters
    ----------
    grouping : Grouping
        The work by project; its ``on_site`` projects are the sites, in order.
    lot_view : MeasureResult
        The lots, measured one by one.
    sites : GeoDataFrame
        The sites as the site pass reads them, one row per project of ``on_site`` first.
    bare_sites : callable
        The sites' :class:`BareSites` (a session keeps them).
    """
    rows = member_rows(grouping)
    if not _sums_hold(grouping, lot_view, sites, rows):
        return None
    bare = bare_sites()
    count = len(grouping.on_site)
    columns = dict(bare.columns)  # the table made once: a column set into one cost 0.2 ms
    lots = lot_view.parcels
    for name in (*SUMMED, COVERAGE):
        values = lots[name].to_numpy(dtype=float)
        if name == COVERAGE:  # one share for every lot (_sums_hold)
            site_values = [values[members[0]] for members in rows]
        else:
            site_values = [round(float(values[members].sum()), AREA_DECIMALS) for members in rows]
        columns[name] = np.asarray(site_values, dtype=float)
    for name in ACRE_METRICS:
        if name in SUMMED:
            columns[acres_name(name)] = np.round(np.asarray(columns[name]) / SQFT_PER_ACRE, 4)
    work = grouping.work[grouping.work["parcel_id"].isin(grouping.on_site).to_numpy(bool)]
    sqft = lot_view.working.sqft_per_unit2
    columns |= _project_facts(columns, work, grouping.on_site, sqft)
    measured = bare.measured
    shapes = measured.parcels.geometry.to_numpy()[:count]
    return MeasureResult(
        geo_frame(columns, shapes, measured.parcels.crs, pd.RangeIndex(count)),
        _site_flags(lot_view.flags, grouping),
        np.ones(count, dtype=bool),
        measured.working,
        fresh_record(measured.log),  # what checking the sites says is this answer's alone
        measured.settings,
        measured.id_field,
        work,
        LotMeetings(np.empty(0, np.int64), np.empty(0, np.int64), np.empty(0, np.float64)),
    )


def bare_inputs(inputs: MeasureInputs) -> MeasureInputs:
    """What measuring a bare site reads: the layers of what a site is (zoning, sensitive
    drainage areas, impaired watersheds, watercourses), not those its work's figures come
    from, which are its lots' sums."""
    return dataclasses.replace(
        inputs,
        impervious_existing=None,
        impervious_proposed=None,
        floodplain=None,
        wetlands=None,
        adjoining_buffer=None,
        dem=None,
        plugged={},
    )


def areas_only(kinds: Sequence[ConstraintKind]) -> bool:
    """Whether the plugged constraint kinds give areas alone: a sum of lots gives nothing else."""
    return all(metric.kind == "area" for kind in kinds for metric in kind.metrics)


def member_rows(grouping: Grouping) -> list[np.ndarray]:
    """Each site's lots as rows of the lot view, in ``on_site`` order."""
    wanted = (lot for project in grouping.on_site for lot in grouping.members[project])
    row_of = rows_of(grouping.lot_ids, wanted)
    return [
        np.array([row_of[lot] for lot in grouping.members[project]], dtype=np.int64)
        for project in grouping.on_site
    ]


def _sums_hold(
    grouping: Grouping, lot_view: MeasureResult, sites: gpd.GeoDataFrame, rows: list[np.ndarray]
) -> bool:
    """Whether every figure of the work on each site is the sum of its lots' (the module's
    list of when it is not); ``rows``: :func:`member_rows`."""
    if not areas_only(KINDS):
        return False
    # Site by site as numbers, the lots' and the features' as arrays: a county's work
    # meets its lots 45,000 times. A lot two sites share is the first's: the other's work
    # on it is then another's.
    site_of_lot = np.full(len(grouping.lot_ids), -1, dtype=np.int64)
    for index in reversed(range(len(rows))):
        site_of_lot[rows[index]] = index
    site_index = {project: index for index, project in enumerate(grouping.on_site)}
    site_of_feature = grouping.work["parcel_id"].map(site_index).fillna(-1)
    site_of_feature = site_of_feature.to_numpy(dtype=np.int64)
    meeting = lot_view.work_on_lots
    pair_lot, pair_feature = site_of_lot[meeting.lot], site_of_feature[meeting.feature]
    if (pair_lot != pair_feature).any():
        return False  # another's work on a site's lot, or a site's work off its lots
    features = np.flatnonzero(site_of_feature >= 0)
    work = lot_view.work.iloc[features]
    phase = find_field(attribute_columns(work), ["phase"])
    if (
        phase is not None
        and work[phase].astype("string").str.strip().replace("", pd.NA).notna().any()
    ):
        return False
    names = named_parcels(work, lot_view.id_field)
    if names is not None:
        text = names.to_numpy(dtype=object, na_value=None)
        given = np.array([name not in (None, "") for name in text], dtype=bool)
        named = rows_of(grouping.lot_ids, text[given].tolist())
        named_rows = np.array([named[name] for name in text[given]], dtype=np.int64)
        named_sites = np.where(named_rows >= 0, site_of_lot[np.maximum(named_rows, 0)], -1)
        if (named_sites != site_of_feature[features][given]).any():
            return False  # work naming a lot outside its site: its street part is that lot's
    return _lots_hold(lot_view, sites, rows)


def _lots_hold(lot_view: MeasureResult, sites: gpd.GeoDataFrame, rows: list[np.ndarray]) -> bool:
    """Each site's lots do not overlap, at most one has work outside it, and the slope data
    cover the work of each in the same share."""
    lots = lot_view.parcels
    shapes = lots.geometry.to_numpy()
    site_area = shapely.area(sites.geometry.to_numpy()[: len(rows)])
    outside = lots["disturbed_outside_parcel_sqft"].to_numpy(dtype=float)
    coverage = lots[COVERAGE].to_numpy(dtype=float)
    for index, members in enumerate(rows):
        summed = float(shapely.area(shapes[members]).sum())
        if not math.isclose(summed, float(site_area[index]), rel_tol=1e-9, abs_tol=1e-9):
            return False
        if int((outside[members] > 0).sum()) > 1:
            return False
        shares = coverage[members]
        if not (np.isnan(shares).all() or (shares == shares[0]).all()):
            return False
    return True


def _project_facts(
    columns: dict[str, object], work: gpd.GeoDataFrame, ids: list[str], sqft_per_unit2: float
) -> dict[str, object]:
    """Each site's project fields from its project's features, as a lot reads those it owns
    (:func:`~sitecheck.measure.project_facts.lot_attributes`); the site's own value (its
    parcel field) where they give none, as the result table takes it."""
    row_of = {project: row for row, project in enumerate(ids)}
    owner = np.array([row_of[p] for p in work["parcel_id"].tolist()], dtype=np.int64)
    no_pieces = LotPieces(
        np.empty(0, dtype=object), np.empty(0, np.int64), np.empty(0, np.int64), np.empty(0, bool)
    )
    sqft = shapely.area(work.geometry.to_numpy()) * sqft_per_unit2
    facts: dict[str, object] = {}
    for name, values in lot_attributes(work, owner, no_pieces, sqft, len(ids)).items():
        given = text_array(values)
        missing = given.isna()
        if name in columns and missing.any():
            own = text_array(np.asarray(columns[name], dtype=object))
            given[missing] = own[missing]
        facts[name] = given
    return facts


def _site_flags(flags: gpd.GeoDataFrame, grouping: Grouping) -> gpd.GeoDataFrame:
    """The lots' flags, each under its site's id: where the site's work meets each layer."""
    site_of_lot = {lot: p for p in grouping.on_site for lot in grouping.members[p]}
    ids = flags["parcel_id"]
    mine = np.flatnonzero(ids.isin(list(site_of_lot)).to_numpy(dtype=bool))
    lots = ids.to_numpy(dtype=object)[mine]
    columns = {
        "parcel_id": pd.array([site_of_lot[str(lot)] for lot in lots], dtype="string"),
        "kind": flags["kind"].array.take(mine),
        "area_sqft": flags["area_sqft"].to_numpy(dtype=float)[mine],
    }
    return geo_frame(columns, flags.geometry.to_numpy()[mine], flags.crs)
