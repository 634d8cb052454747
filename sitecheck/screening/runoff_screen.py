"""The runoff screen of a check run: soils, design storms and rainfall from the packs.

:mod:`sitecheck.runoff` computes runoff from plain arrays; this module feeds it
from a checked run. Per lot with work:

- the hydrologic soil groups come from a soils layer (each lot's area in each
  group, by overlay) or from one group the user sets (``--default-hsg``), which
  also fills the part of a lot the soils layer leaves unmapped;
- the storms are those the lot's pack names (every ``design_storms`` and
  ``design_storm_years`` of its rules); their 24-hour depths are the pack's
  (bundled packs: ``sitecheck/data/rainfall.toml``), each replaceable per run
  with ``--rainfall``;
- the governing storm, whose runoff increase sets the retention, is the
  largest ``design_storm_years`` among the rules the lot triggers; a lot that
  triggers none has no retention figure;
- where a rule under review names a larger storm (the parcel's design storm
  reads "50, or 100: review"), the retention for that storm is given beside
  (``retention_review_storm_yr``, ``retention_review_cuft``);
- the "before" condition is the unimproved lot where the pack's
  ``[runoff] unimproved_before_when`` holds (Scarsdale: SDA lots).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import pandas as pd

from sitecheck.io.kept import KeptByIdentity
from sitecheck.rules.columnar import TRUE, UNKNOWN, ValueTable, decide_rows
from sitecheck.rules.outcome import ParcelOutcome
from sitecheck.rules.pack_model import Pack
from sitecheck.rules.syntax import names_of
from sitecheck.runoff import parcel_runoff
from sitecheck.runoff.settings import RunoffSettings
from sitecheck.screening.check import CheckResult
from sitecheck.screening.lot_soils import soil_areas_by_group
from sitecheck.screening.runoff_notes import lot_notes
from sitecheck.screening.runoff_result import (
    FACT_COLUMNS,
    UNMAPPED_TOLERANCE_SQFT,
    RunoffOptions,
    RunoffScreen,
    StormDepths,
    runoff_metric_names,
    screen_assumptions,
    storm_depths,
)
from sitecheck.screening.values import parcel_value_rows


def screen_runoff(result: CheckResult, options: RunoffOptions) -> RunoffScreen:
    """Screen the runoff of every lot with work that a pack applies to.

    Raises
    ------
    InputError
        On a soils layer without a soil-group field or with an unknown group,
        or a storm a pack names without any depth for it.
    """
    measured = result.measured
    rows = np.array(
        [row for row, outcome in enumerate(result.outcomes) if outcome and measured.touched[row]],
        dtype=int,
    )
    soils = soil_areas_by_group(measured, rows, options)
    if options.rainfall_file:
        measured.log.record("rainfall_file", options.rainfall_file, None, 0)
    tables = []
    facts = []
    storms: dict[str, StormDepths] = {}
    for pack_id, pack in result.packs.items():
        in_pack = np.array(
            [i for i, row in enumerate(rows) if _pack_of(result.outcomes[row]) == pack_id],
            dtype=int,
        )
        if not len(in_pack):
            continue
        depths = storm_depths(pack, options)
        storms[pack_id] = depths
        table, pack_facts = _screen_pack(
            result,
            pack,
            rows[in_pack],
            {k: v[in_pack] for k, v in soils.by_group.items()},
            depths,
            options,
        )
        pack_facts["partly_unmapped"] = soils.unmapped[in_pack] > UNMAPPED_TOLERANCE_SQFT
        table["runoff_note"] = lot_notes(table, pack_facts, soils, in_pack, measured, options)
        tables.append(table)
        facts.append(pack_facts)
    table = pd.concat(tables) if tables else pd.DataFrame(index=pd.Index([], dtype=int))
    table = table[runoff_metric_names(table.columns)] if tables else table
    all_facts = pd.concat(facts) if facts else pd.DataFrame(columns=list(FACT_COLUMNS))
    packs = {pack_id: result.packs[pack_id] for pack_id in storms}
    return RunoffScreen(
        table, storms, screen_assumptions(all_facts, storms, packs, options), options, all_facts
    )


def _pack_of(outcome: ParcelOutcome | None) -> str | None:
    return outcome.pack.id if outcome else None


def _screen_pack(
    result: CheckResult,
    pack: Pack,
    rows: np.ndarray,
    soil_areas: Mapping[str, np.ndarray],
    depths: StormDepths,
    options: RunoffOptions,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """One pack's lots: their runoff metrics and the facts the assumptions count."""
    parcels = result.measured.parcels  # three columns at the rows, not the table's rows

    def column(name: str) -> np.ndarray:
        return parcels[name].to_numpy(dtype=float)[rows]

    lot = column("lot_area_sqft")
    existing = np.minimum(column("impervious_existing_sqft"), lot)
    proposed = np.minimum(column("impervious_proposed_sqft"), lot)
    governing = np.array(
        [
            np.nan if (years := _governing(result.outcomes[row], depths)) is None else years
            for row in rows
        ],
        dtype=float,
    )
    under_review = np.array(
        [_under_review(result.outcomes[row], depths) for row in rows], dtype=float
    )
    unimproved, undecided = _unimproved_before(result, pack, rows)
    # No soils layer: every lot is the one group the run gives. A layer with no group
    # under any screened lot, and no --default-hsg: areas of no group, so null numbers.
    soil = soil_areas if soil_areas or not options.default_hsg else str(options.default_hsg)

    kept = result.measured.log.kept

    def screen(storm: np.ndarray) -> pd.DataFrame:
        numbers = _RunoffNumbers(lot, existing, proposed, storm, unimproved)
        return _runoff_table(kept, numbers, soil, depths, options.settings)

    screened = screen(governing)
    screened["retention_review_storm_yr"] = under_review
    screened["retention_review_cuft"] = (
        screen(under_review)["retention_required_cuft"].to_numpy()
        if not np.isnan(under_review).all()
        else np.nan
    )
    table = screened.drop(columns=["unimproved_pre", "c_pre", "c_post"])
    table.index = pd.Index(rows, dtype=int)
    missing_cover = np.isnan(existing) | np.isnan(proposed)
    facts = pd.DataFrame(
        {
            "pack": pack.id,
            "governing_yr": governing,
            "unimproved": unimproved,
            "undecided": undecided,
            "no_soil": np.isnan(table["cn_post"].to_numpy()) & ~missing_cover,
            "missing_cover": missing_cover,
        },
        index=table.index,
    )
    return table, facts


@dataclass(frozen=True)
class _RunoffNumbers:
    """What the runoff of a pack's lots is computed from, lot by lot."""

    lot: np.ndarray
    existing: np.ndarray
    proposed: np.ndarray
    storm: np.ndarray
    unimproved: np.ndarray


def _runoff_table(
    kept: KeptByIdentity | None,
    numbers: _RunoffNumbers,
    soil: Mapping[str, np.ndarray] | str,
    depths: StormDepths,
    settings: RunoffSettings,
) -> pd.DataFrame:
    """The runoff screen of the lots' numbers (:func:`parcel_runoff`).

    An edit to a session's work seldom moves a lot's runoff numbers (its cover, soils
    and storm): there the screen of the same numbers is kept (3 ms of a panel's
    answer). A copy: the caller adds columns.
    """

    def made() -> pd.DataFrame:
        return parcel_runoff(
            numbers.lot,
            numbers.existing,
            numbers.proposed,
            soil,
            depths.depths_in,
            numbers.storm,
            numbers.unimproved,
            settings=settings,
        ).table

    if kept is None:
        return made()
    arrays = (numbers.lot, numbers.existing, numbers.proposed, numbers.storm, numbers.unimproved)
    soils = soil if isinstance(soil, str) else tuple((k, v.tobytes()) for k, v in soil.items())
    how = (
        "runoff",
        tuple(values.tobytes() for values in arrays),
        soils,
        tuple(depths.depths_in.items()),
        settings,
    )
    return kept.value([], how, made).copy()


def _governing(outcome: ParcelOutcome | None, depths: StormDepths) -> int | None:
    years = outcome.design_storm_years if outcome else None
    return years if years in depths.depths_in else None


def _under_review(outcome: ParcelOutcome | None, depths: StormDepths) -> float:
    """The largest storm a rule under review would set, where the pack gives its depth."""
    storms = [
        y for y in (outcome.design_storm_review_years if outcome else ()) if y in depths.depths_in
    ]
    return float(max(storms)) if storms else np.nan


def _unimproved_before(
    result: CheckResult, pack: Pack, rows: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Which lots are measured against unimproved land, and which could not be told."""
    condition = pack.runoff.unimproved_before_when
    if condition is None:
        return np.zeros(len(rows), dtype=bool), np.zeros(len(rows), dtype=bool)
    # Only the values the condition reads, decided over all the lots at once.
    values = parcel_value_rows(
        result.measured, [int(row) for row in rows], warn=False, names=names_of(condition)
    )
    codes = decide_rows(condition, ValueTable(values), pack.names, 0.0)
    return codes == TRUE, codes == UNKNOWN
