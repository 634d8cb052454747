"""Projects: the law's "land development activity" on a "site", not the tax lot.

The laws apply their thresholds to a project; SiteCheck measures lots. A
disturbance feature names its project in a ``project`` field; features without
one belong to the project of the lot holding most of them, which is the lot
itself (one project per lot: the lot view). A project's site is the union of the
lots its work is on; the project is measured and checked on that site by the
same engine, so its disturbed area, area at one time and impervious change are
summed over its lots, and lot-size tiers read the site. Where the site is
several lots and a rule's outcome turns on the lot area (is the law's "lot"
the site or each lot?), the rule needs review and says which area it used.
"""

from __future__ import annotations

import copy
import dataclasses
import math
from dataclasses import dataclass

import geopandas as gpd
import numpy as np
import pandas as pd
import shapely

from sitecheck.io.extent import Extent
from sitecheck.io.kept import kept_value
from sitecheck.io.parcel_ids import rows_of
from sitecheck.io.parcels import attribute_columns, find_field
from sitecheck.io.readers import LayerReader, LayerRequest
from sitecheck.measure.inputs import MeasureResult, MeasureSettings
from sitecheck.schema.fields import PROJECT_FIELDS
from sitecheck.schema.metrics import ACRE_METRICS, METRICS, acres_name
from sitecheck.screening.check import CheckResult, Projects
from sitecheck.screening.site_cover import cover_of_lots
from sitecheck.screening.site_lot_area import ask_which_lot

PROJECT_FIELD = "project"
MIN_WORK_SQFT = 1.0  # a lot with less of a project's work is not part of its site


def lot_projects(lot_result: CheckResult, named: bool = False) -> Projects:
    """One project per lot with work: today's lot view."""
    measured = lot_result.measured
    rows = [int(row) for row in np.flatnonzero(measured.touched)]
    ids = [str(measured.parcels["parcel_id"].iat[row]) for row in rows]
    return Projects(ids, [[lot] for lot in ids], named, None, [-1] * len(ids), rows)


@dataclass
class Grouping:
    """The work grouped by project, before any site is checked.

    Attributes
    ----------
    projects : Projects
        Ids, lots and rows (``site_result`` still None).
    on_site : list of str
        The projects to check on their sites, in their site rows' order.
    members : dict of str to list of str
        Each project's lots.
    work : GeoDataFrame
        The disturbance with ``parcel_id`` set to each feature's project.
    reader : LayerReader
        The lot view's layers, with a record of its own.
    lot_ids : pandas.Index of str
        The lot view's parcel ids as text, row by row.
    """

    projects: Projects
    on_site: list[str]
    members: dict[str, list[str]]
    work: gpd.GeoDataFrame
    reader: LayerReader
    lot_ids: pd.Index


def project_names(frame: gpd.GeoDataFrame) -> pd.Series | None:
    """Each feature's project (stripped text, <NA> where it names none); None without a
    ``project`` field."""
    columns = attribute_columns(frame)
    field_name = find_field(columns, [PROJECT_FIELD])
    if field_name is None:
        return None
    return frame[field_name].astype("string").str.strip().replace("", pd.NA)


def group_projects(lot_result: CheckResult, reader: LayerReader | None = None) -> Grouping | None:
    """Group the work by its ``project`` field; None without the field (or with it empty
    everywhere), when every lot is its own project (:func:`lot_projects`).

    Parameters
    ----------
    lot_result : CheckResult
        The lot view, already checked (its work as it read it: ``measured.work``).
    reader : LayerReader, optional
        Where the lot view read its layers (files, a window, the panel's memory).
    """
    measured = lot_result.measured
    own = fresh_record(reader or LayerReader())
    frame = measured.work  # the features as the lot view read them, not read again
    named = project_names(frame)
    if named is None or (named.isna().all() and not own.names_projects):
        return None
    lot_ids = measured.parcels["parcel_id"].astype(str).to_numpy()
    project_of, members = _membership(named, lot_ids, measured)
    ids = [p for p in dict.fromkeys(project_of) if p is not None and members.get(p)]
    sharing: dict[str, int] = {}
    for project in ids:
        for lot in members[project]:
            sharing[lot] = sharing.get(lot, 0) + 1
    # A project of one lot that no other project shares is its lot: the lot view checks it.
    on_site = [p for p in ids if len(members[p]) > 1 or sharing[members[p][0]] > 1]
    site_row = {project: row for row, project in enumerate(on_site)}
    lot_index = pd.Index(lot_ids)
    row_of_lot = rows_of(lot_index, (members[p][0] for p in ids if p not in site_row))
    projects = Projects(
        ids,
        [members[p] for p in ids],
        True,
        None,
        [site_row.get(p, -1) for p in ids],
        [-1 if p in site_row else row_of_lot[members[p][0]] for p in ids],
        _shared_lots(ids, members),
    )
    work = frame.assign(parcel_id=pd.array(project_of, dtype="string"))
    return Grouping(projects, on_site, members, work, own, lot_index)


def site_layers(grouping: Grouping, lot_view: MeasureResult) -> tuple[SiteReader, MeasureSettings]:
    """What measuring the sites reads (the sites as parcels, the work by project, the other
    layers as the lot view read them) and its settings (the lot view's CRS)."""

    around = _lots_met(grouping, lot_view)

    def made() -> gpd.GeoDataFrame:
        sites = _sites(grouping.on_site, grouping.members, lot_view, grouping.lot_ids)
        return _with_lots_met(sites, around, lot_view)

    # A session's lots are the same objects from answer to answer (read_parcels keeps
    # them): the same projects on the same lots make the same sites, which the site
    # pass's own read of them then finds kept too (11 ms of a panel's answer).
    how = (
        "sites",
        tuple(grouping.on_site),
        tuple((project, tuple(lots)) for project, lots in grouping.members.items()),
        tuple(around),
    )
    sites = kept_value(grouping.reader.kept, lot_view.parcels.geometry.to_numpy(), how, made)
    settings = dataclasses.replace(
        lot_view.settings, id_field="parcel_id", crs=lot_view.working.crs.to_string()
    )
    # Only the sites' own work: the rest would stretch the extent every layer is read in
    # over the whole village (the lot view has measured it).
    work = grouping.work[grouping.work["parcel_id"].isin(grouping.on_site).to_numpy(bool)]
    return SiteReader(grouping.reader, sites, work), settings


def measured_sites(sites: MeasureResult, grouping: Grouping, lot_view: MeasureResult) -> None:
    """The site measurements a site cannot take by itself, from its lots (the buffer along
    the lines between them, the impervious cover of each lot)."""
    _lot_line_buffers(sites, grouping.on_site, grouping.members, grouping.work, lot_view)
    cover_of_lots(sites, grouping.on_site, grouping.members, lot_view)


def checked_sites(result: CheckResult, grouping: Grouping, lot_view: MeasureResult) -> None:
    """Multi-lot sites: the rules whose outcome turns on which lot area the law means."""
    ask_which_lot(result, grouping.members, grouping.on_site, lot_view, grouping.lot_ids)


BUFFER_FLAG, BUFFER_METRIC = "adjoining_buffer", "disturbed_in_adjoining_buffer_sqft"


def _lot_line_buffers(
    sites: MeasureResult,
    ids: list[str],
    members: dict[str, list[str]],
    work: gpd.GeoDataFrame,
    lot_view: MeasureResult,
) -> None:
    """A project's work in the adjoining-property buffer, as its lots measure it.

    The buffer follows the lines between properties; a site that joins two
    owners' lots has no line between them, so the site would lose the buffer
    along it (a pool over the side line). Each project takes the lot view's
    buffer under its own work instead: the sites are measured without the lots
    around them, so their own buffer is not kept.
    """
    if BUFFER_METRIC not in sites.parcels.columns:
        return
    # Columns as arrays, each read once: the tables filtered and indexed for each project
    # cost the panel 1.5 ms of an answer on a site.
    flags = lot_view.flags
    is_buffer = flags["kind"].to_numpy(dtype=object) == BUFFER_FLAG
    flag_lots = flags["parcel_id"].astype(str).to_numpy(dtype=object)
    flag_shapes = flags.geometry.to_numpy()
    lot_values = dict(
        zip(
            lot_view.parcels["parcel_id"].astype(str).tolist(),
            lot_view.parcels[BUFFER_METRIC].to_numpy(dtype=float).tolist(),
            strict=True,
        )
    )
    work_projects = work["parcel_id"].to_numpy(dtype=object, na_value=None)
    work_shapes = work.geometry.to_numpy()
    values = sites.parcels[BUFFER_METRIC].to_numpy(dtype=float).copy()
    for row, project in enumerate(ids):
        lots = members[project]
        if all(math.isnan(lot_values.get(lot, math.nan)) for lot in lots):
            values[row] = math.nan  # not measured on its lots: not known on the site
            continue
        mine = flag_shapes[is_buffer & np.isin(flag_lots, lots)]
        features = work_shapes[work_projects == project]
        if not len(mine) or not len(features):
            values[row] = 0.0
            continue
        under = shapely.intersection(shapely.union_all(features), shapely.union_all(mine))
        values[row] = round(shapely.area(under) * lot_view.working.sqft_per_unit2, 2)
    sites.parcels[BUFFER_METRIC] = values


def fresh_record(reader: LayerReader) -> LayerReader:
    """The reader's layers, with its own record: the project pass adds no warnings of its own
    to the lot view's (its counts would be of projects, not lots), and keeps no audit: the
    run's audit is the lot view's, which read every layer first (the sites' pass hashed
    the features it read again and opened each file for its origin, for nothing)."""
    clone = copy.copy(reader)
    clone.inputs, clone.warnings, clone.unassigned = [], [], []
    clone.assigned, clone.dropped = set(), {}
    clone.partial_view = True
    clone.keeps_audit = False
    return clone


def _membership(
    named: pd.Series, lot_ids: np.ndarray, measured: MeasureResult
) -> tuple[list[str | None], dict[str, list[str]]]:
    """Each work feature's project (``named``: its field, else the lot holding most of it)
    and each project's lots (those with at least 1 sq ft of its work), in layer order."""
    # The work on each lot as the lot view split it: overlaying it again took 0.4 s at 250k.
    meeting = measured.work_on_lots
    feature_idx, lot_idx = meeting.feature, meeting.lot
    areas = meeting.area * measured.working.sqft_per_unit2
    largest: dict[int, tuple[float, int]] = {}
    for feature, lot, area in zip(feature_idx, lot_idx, areas, strict=True):
        if area > largest.get(int(feature), (0.0, -1))[0]:
            largest[int(feature)] = (float(area), int(lot))
    project_of: list[str | None] = []
    for index, value in enumerate(named):
        if not pd.isna(value):
            project_of.append(str(value))
        elif index in largest:
            project_of.append(str(lot_ids[largest[index][1]]))
        else:
            project_of.append(None)  # touches no lot: unassigned work, as in the lot view
    on_lots: dict[str, set[int]] = {}
    for feature, lot, area in zip(feature_idx, lot_idx, areas, strict=True):
        project = project_of[int(feature)]
        if project is not None and area >= MIN_WORK_SQFT:
            on_lots.setdefault(project, set()).add(int(lot))
    members = {p: [str(lot_ids[i]) for i in sorted(rows)] for p, rows in on_lots.items()}
    return project_of, members


NEIGHBOUR = "\u0000neighbour:"  # ids of the lots around the sites, never a project's


def _parcel_columns(table: gpd.GeoDataFrame) -> list[str]:
    """The parcel layer's own fields in the lot view (not metrics, acres or project facts)."""
    computed = {m.name for m in METRICS} | {acres_name(n) for n in ACRE_METRICS}
    return [
        c
        for c in table.columns
        if c not in computed and c not in PROJECT_FIELDS and c != table.geometry.name
    ]


def _lots_met(grouping: Grouping, measured: MeasureResult) -> list[int]:
    """The lot view's rows of the lots outside every site that a site's work meets.

    Only a sliver (under :data:`MIN_WORK_SQFT`) of a project's work lies on such a lot,
    or the lot would be in its site. Measured with the sites, the sliver is counted on
    its site as the lot view counts it on its feature's own lot; without the lot it
    would be work outside the site. The other lots around a site change nothing a site
    keeps: its buffer along the lot lines is its lots' (:func:`_lot_line_buffers`).
    """
    meeting = measured.work_on_lots
    # As arrays: a county's work meets its lots 45,000 times.
    of_a_site = grouping.work["parcel_id"].isin(grouping.on_site).to_numpy(dtype=bool)
    met = np.unique(meeting.lot[of_a_site[meeting.feature]]).tolist()
    in_sites = {lot for project in grouping.on_site for lot in grouping.members[project]}
    return [lot for lot in met if grouping.lot_ids[lot] not in in_sites]


def _with_lots_met(
    sites: gpd.GeoDataFrame, rows: list[int], measured: MeasureResult
) -> gpd.GeoDataFrame:
    """The sites, then the lot view's lots at ``rows`` (:func:`_lots_met`)."""
    if not rows:
        return sites
    table = measured.parcels
    around = table.iloc[rows][[*_parcel_columns(table), table.geometry.name]].copy()
    around["parcel_id"] = [f"{NEIGHBOUR}{lot}" for lot in around["parcel_id"]]
    around["_fid"] = np.arange(len(sites), len(sites) + len(around))
    if around.geometry.name != sites.geometry.name:
        around = around.rename_geometry(sites.geometry.name)
    joined = pd.concat([sites, around], ignore_index=True)
    return gpd.GeoDataFrame(joined, geometry=sites.geometry.name, crs=sites.crs)


def _sites(
    ids: list[str], members: dict[str, list[str]], measured: MeasureResult, lot_ids: pd.Index
) -> gpd.GeoDataFrame:
    """One polygon per project, the union of its lots, with the largest lot's parcel fields
    (``lot_ids``: the lot view's ids as text)."""
    table = measured.parcels
    keep = _parcel_columns(table)
    by_id = rows_of(lot_ids, (lot for project in ids for lot in members[project]))
    rows, geoms = [], []
    for project in ids:
        member_rows = [by_id[lot] for lot in members[project]]
        shapes = table.geometry.to_numpy()[member_rows]
        largest = member_rows[int(np.argmax(shapely.area(shapes)))]
        record = table.iloc[largest][keep].to_dict()
        record["parcel_id"] = project
        rows.append(record)
        geoms.append(shapely.union_all(shapes))
    sites = gpd.GeoDataFrame(rows, geometry=geoms, crs=table.crs)
    sites["_fid"] = np.arange(len(sites))
    return sites


class SiteReader(LayerReader):
    """Serves the project sites as the parcels and the work named by project; the other
    layers as the lot view read them, around the sites."""

    def __init__(self, inner: LayerReader, sites: gpd.GeoDataFrame, work: gpd.GeoDataFrame):
        super().__init__(partial_view=True, kept=inner.kept)
        self.inner, self.sites, self.work = inner, sites, work

    def bare(self) -> SiteReader:
        """The same layers with each site as its own work: what measuring finds of a site
        whatever its work (:mod:`sitecheck.screening.site_sums`)."""
        own = ~self.sites["parcel_id"].astype(str).str.startswith(NEIGHBOUR).to_numpy(bool)
        itself = self.sites.loc[own, ["parcel_id", "_fid", self.sites.geometry.name]]
        return SiteReader(self.inner, self.sites, itself.reset_index(drop=True))

    def serve(self, request: LayerRequest) -> gpd.GeoDataFrame:
        served = {"parcels": self.sites, "disturbance": self.work}.get(request.source.role)
        if served is None and request.within is None and not request.around:
            # A layer the lot view reads whole for every lot (impervious cover): the sites
            # need only what meets them.
            around = Extent.around(self.sites.geometry.to_numpy(), 0.0, self.sites.crs)
            return self.inner.serve(dataclasses.replace(request, within=around))
        if served is None or request.around:
            return self.inner.serve(request)
        if request.target_crs is not None and not served.crs.equals(request.target_crs):
            return served.to_crs(request.target_crs)
        return served


def _shared_lots(ids: list[str], members: dict[str, list[str]]) -> list[str]:
    seen: dict[str, str] = {}
    notes = []
    for project in ids:
        for lot in members[project]:
            if lot in seen:
                notes.append(
                    f"projects {seen[lot]} and {project} both have work on lot {lot}: both "
                    f"sites include the lot, and its impervious cover is counted with "
                    f"project {seen[lot]} only"
                )
            else:
                seen[lot] = project
    return notes
