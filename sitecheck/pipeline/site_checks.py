"""Checking a run's projects: each named project of several lots on its site.

The grouping (:mod:`sitecheck.screening.project_sites`) says which projects need a
site; this step measures and checks those sites with the run's own engine, as
the lot view was.
"""

from __future__ import annotations

import dataclasses

from sitecheck.io.kept import kept_value
from sitecheck.io.readers import LayerReader
from sitecheck.measure.driver import measure
from sitecheck.measure.inputs import MeasureInputs
from sitecheck.screening.check import CheckResult, Projects, check_parcels
from sitecheck.screening.packs import PackChoice
from sitecheck.screening.project_sites import (
    checked_sites,
    group_projects,
    lot_projects,
    measured_sites,
    site_layers,
)
from sitecheck.screening.site_sums import BareSites, bare_inputs, summed_sites
from sitecheck.screening.values import FEATURES_DIFFER


def screen_projects(
    lot_result: CheckResult,
    inputs: MeasureInputs,
    packs: PackChoice,
    tolerance: float,
    reader: LayerReader | None = None,
    check_sites: bool = True,
    word_sites: bool = True,
) -> Projects:
    """Group the work by its ``project`` field and check each project of several lots (or
    on a shared lot) on its site; without the field every lot is its own project.

    Parameters
    ----------
    lot_result : CheckResult
        The lot view, already checked.
    inputs : MeasureInputs
    packs : PackChoice
    tolerance : float
    reader : LayerReader, optional
        Where the lot view read its layers.
    check_sites : bool
        False to group only (a Dask window: its driver checks the named projects
        with all their lots).
    word_sites : bool
        False to decide the sites' rules without their reasons (the panel shows a
        project's outcome and numbers, not its reasons).
    """
    grouping = group_projects(lot_result, reader)
    if grouping is None:
        return lot_projects(lot_result)
    if not grouping.on_site or not check_sites:
        return grouping.projects
    lot_view = lot_result.measured
    site_reader, settings = site_layers(grouping, lot_view)
    # A site's impervious cover is its lots' (measured_sites): reading it again around the
    # sites took 2 ms of a panel's answer on a site, for a figure then replaced.
    site_inputs = dataclasses.replace(inputs, impervious_existing=None, impervious_proposed=None)

    def bare_sites() -> BareSites:
        def made() -> BareSites:
            bare = measure(bare_inputs(site_inputs), settings, reader=site_reader.bare())
            return BareSites.of(bare, len(grouping.on_site))

        return kept_value(grouping.reader.kept, [site_reader.sites], "bare sites", made)

    sites = summed_sites(grouping, lot_view, site_reader.sites, bare_sites)
    if sites is None:
        sites = measure(site_inputs, settings, reader=site_reader)
    measured_sites(sites, grouping, lot_view)
    result = check_parcels(sites, packs, tolerance, worded_ids=None if word_sites else frozenset())
    checked_sites(result, grouping, lot_view)
    for warning in result.measured.log.warnings:  # the site pass keeps its own record
        if FEATURES_DIFFER in warning and warning not in lot_view.log.warnings:
            lot_view.log.warn(warning)
    grouping.projects.site_result = result
    return grouping.projects
