"""Measure every parcel: disturbance, impervious change and constraint overlays.

:func:`measure` reads the layers, measures in one projected CRS in feet and
returns the metrics of :mod:`sitecheck.schema.metrics` per parcel plus the ``flags``:
the geometry of each place where disturbance meets a constraint.
"""

from __future__ import annotations

import numpy as np
import shapely

from sitecheck.allocator import hand_back_free_pages
from sitecheck.io.crs import WorkingCRS
from sitecheck.io.extent import Extent
from sitecheck.io.parcels import read_parcels
from sitecheck.io.progress import Progress
from sitecheck.io.readers import LayerReader
from sitecheck.measure.context import Measuring
from sitecheck.measure.disturbance import Disturbance, measure_disturbance
from sitecheck.measure.impervious import measure_impervious
from sitecheck.measure.inputs import MeasureInputs, MeasureResult, MeasureSettings
from sitecheck.measure.overlays import (
    impaired_watershed_flags,
    lot_flag_layer,
    measure_adjoining,
    measure_floodplain,
    measure_watercourses,
    measure_wetlands,
    parcel_flag_field,
    zoning_districts,
)
from sitecheck.measure.slopes import measure_slope_metrics
from sitecheck.measure.table import FlagCollector, result_table, warn_removed_cover
from sitecheck.schema.fields import SDA_FIELD_CANDIDATES
from sitecheck.schema.kinds import KINDS

HAND_BACK_FROM_LOTS = 10_000
"""A run of this many lots or more gives the system back the heap's free pages once it
has measured (:func:`sitecheck.allocator.hand_back_free_pages`): what measuring freed
would otherwise stay with the process while its rules and outputs take memory of
their own. The panel's few lots are not worth the call."""


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
    # The percents are where each stage began in a measured run (the 30,016-parcel bench
    # village, every layer and the DEM), so the bar moves as the time goes.
    progress.update(0, "reading parcels")
    parcels = read_parcels(
        inputs.parcels, reader, settings.id_field, settings.crs, settings.parcel_fields()
    )
    working, lots = parcels.working, parcels.geoms
    lot_tree = shapely.STRtree(lots)
    metrics: dict[str, np.ndarray] = {"lot_area_sqft": shapely.area(lots) * working.sqft_per_unit2}
    flags = FlagCollector(parcels.ids)

    progress.update(8, "splitting disturbance by lot")
    disturbance = measure_disturbance(inputs.disturbance, parcels, lot_tree, reader, working)
    _disturbance_metrics(disturbance, metrics, flags, working.sqft_per_unit2)
    has_disturbance = metrics["disturbed_area_sqft"] > 0

    progress.update(13, "measuring impervious cover")
    cover, project_lots = measure_impervious(
        inputs, parcels, lot_tree, reader, disturbance.owns_feature, metrics["lot_area_sqft"]
    )
    metrics |= cover
    touched = has_disturbance | project_lots

    progress.update(40, "overlaying constraint layers")
    active = np.flatnonzero(has_disturbance)
    extent = _around_work(lots[active], disturbance.geoms[active], settings, working)
    run = Measuring(
        parcels, lot_tree, reader, settings, disturbance.geoms, active, metrics, flags, extent
    )
    _measure_constraints(run, inputs, progress)

    progress.update(97, "assembling results")
    table = result_table(parcels, metrics, disturbance.attributes)
    warn_removed_cover(table, touched, reader)
    flag_frame = flags.frame(working)
    _let_go_of_measuring(lots)
    progress.update(100, "measured")
    return MeasureResult(
        table,
        flag_frame,
        touched,
        working,
        reader,
        settings,
        parcels.id_field,
        disturbance.frame,
        disturbance.meeting,
        dict(progress.timings),
        disturbance.geoms,
    )


def _let_go_of_measuring(lots: np.ndarray) -> None:
    """What measuring freed, given back: a large run hands the heap's free pages back
    (:data:`HAND_BACK_FROM_LOTS`) before its rules and outputs take memory of their own.

    The lots are not prepared (``shapely.prepare``) for the stages' predicates: at 250k
    parcels their prepared state grew to 384 MB over the impervious cover's split of
    every lot and made the run's peak (1,613-1,661 MB against 1,162-1,209 MB unprepared),
    while no stage ran faster for it (measuring 24.7-25.8 s prepared, 24.3-25.5 s not;
    at 30k 3.8-3.9 s against 3.6-3.7 s; two and three runs, 2026-12-07).
    """
    if len(lots) >= HAND_BACK_FROM_LOTS:
        hand_back_free_pages()


def _around_work(
    lots: np.ndarray, disturbed: np.ndarray, settings: MeasureSettings, working: WorkingCRS
) -> Extent:
    """Where constraint layers are read: the lots with work and their work, grown by the reach."""
    margin = settings.reach_ft() / working.feet_per_unit
    return Extent.around(np.concatenate([lots, disturbed]), margin, working.crs)


def _disturbance_metrics(
    disturbance: Disturbance, metrics: dict[str, np.ndarray], flags: FlagCollector, sqft: float
) -> None:
    """Each lot's disturbed area, inside it, outside it and at one time; the work outside
    every lot is a flag."""
    metrics["disturbed_area_sqft"] = shapely.area(disturbance.geoms) * sqft
    metrics["disturbed_outside_parcel_sqft"] = shapely.area(disturbance.outside) * sqft
    metrics["max_disturbed_at_one_time_sqft"] = disturbance.max_at_one_time
    flags.add("outside_parcel", disturbance.outside, sqft)


def _measure_constraints(run: Measuring, inputs: MeasureInputs, progress: Progress) -> None:
    """The constraint layers over the lots with work, in the order of the bar's stages."""
    measure_floodplain(run, inputs.floodplain)
    measure_wetlands(run, inputs.wetlands)
    measure_watercourses(run, inputs.watercourses)
    for kind in KINDS:
        kind.measurer(run, inputs.source(kind.role.key))

    progress.update(58, "zoning and the adjoining property buffer")
    metrics, parcels = run.metrics, run.parcels
    districts = zoning_districts(inputs.zoning, parcels, run.lot_tree, run.reader, run.settings)
    metrics["zoning_district"] = (
        districts if districts is not None else np.full(len(parcels.geoms), None, dtype=object)
    )
    measure_adjoining(run, inputs.adjoining_buffer, districts)

    progress.update(76, "sensitive drainage areas and impaired watersheds")
    metrics["in_sda"] = (
        lot_flag_layer(run, inputs.sda)
        if inputs.sda is not None
        else parcel_flag_field(parcels, SDA_FIELD_CANDIDATES)
    )
    metrics["in_impaired_watershed"] = impaired_watershed_flags(run, inputs)

    progress.update(81, "measuring slopes")
    if inputs.dem is not None:
        run.reader.record("dem", inputs.dem, None, 0)
    measure_slope_metrics(run, inputs.dem)
