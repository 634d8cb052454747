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

import numpy as np
import pandas as pd
import shapely

from sitecheck.errors import InputError
from sitecheck.geometry.overlay import intersect_pairs
from sitecheck.io.extent import Extent
from sitecheck.io.parcels import find_field
from sitecheck.io.readers import POLYGONAL
from sitecheck.io.soil_groups import group_table, mukey_field
from sitecheck.measure.inputs import MeasureResult
from sitecheck.rules.evaluate import evaluate
from sitecheck.rules.outcome import ParcelOutcome
from sitecheck.rules.pack_model import Pack
from sitecheck.rules.truth import Truth
from sitecheck.runoff import parcel_runoff
from sitecheck.runoff.soils import hsg_from_value
from sitecheck.schema.fields import SOIL_FIELD_CANDIDATES
from sitecheck.screening.check import CheckResult
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
    soil_areas, unmapped = _soil_areas(measured, rows, options)
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
            {k: v[in_pack] for k, v in soil_areas.items()},
            depths,
            options,
        )
        pack_facts["partly_unmapped"] = unmapped[in_pack] > UNMAPPED_TOLERANCE_SQFT
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
    parcels = result.measured.parcels.iloc[rows]
    lot = parcels["lot_area_sqft"].to_numpy(dtype=float)
    existing = np.minimum(parcels["impervious_existing_sqft"].to_numpy(dtype=float), lot)
    proposed = np.minimum(parcels["impervious_proposed_sqft"].to_numpy(dtype=float), lot)
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
    soil = soil_areas if soil_areas else str(options.default_hsg)

    def screen(storm: np.ndarray) -> pd.DataFrame:
        return parcel_runoff(
            lot,
            existing,
            proposed,
            soil,
            depths.depths_in,
            storm,
            unimproved,
            settings=options.settings,
        ).table

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
    unimproved = np.zeros(len(rows), dtype=bool)
    undecided = np.zeros(len(rows), dtype=bool)
    if condition is None:
        return unimproved, undecided
    every_values = parcel_value_rows(result.measured, [int(row) for row in rows])
    for position, values in enumerate(every_values):
        truth = evaluate(condition, values, pack.names, 0.0).truth
        unimproved[position] = truth is Truth.TRUE
        undecided[position] = truth is Truth.UNKNOWN
    return unimproved, undecided


def _soil_areas(
    measured: MeasureResult, rows: np.ndarray, options: RunoffOptions
) -> tuple[dict[str, np.ndarray], np.ndarray]:
    """Each screened lot's area (sq ft) in each soil group value, and its unmapped area."""
    if options.soils is None:
        return {}, np.zeros(len(rows))
    lots = measured.parcels.geometry.to_numpy()[rows]
    # Soils under the screened lots only: a county's map units are not read whole.
    within = Extent.around(lots, 0.0, measured.working.crs)
    frame = measured.log.read(
        options.soils, POLYGONAL, target_crs=measured.working.crs, within=within
    )
    columns = [c for c in frame.columns if c not in (frame.geometry.name, "_fid")]
    groups = _polygon_groups(frame, columns, options, measured)
    soil_geoms = frame.geometry.to_numpy()
    lot_index, soil_index = shapely.STRtree(soil_geoms).query(lots, predicate="intersects")
    areas = shapely.area(intersect_pairs(lots[lot_index], soil_geoms[soil_index]))
    by_group: dict[str, np.ndarray] = {}
    for group in sorted(set(groups[soil_index])):
        chosen = groups[soil_index] == group
        by_group[group] = np.bincount(lot_index[chosen], weights=areas[chosen], minlength=len(rows))
    no_group = by_group.pop("", np.zeros(len(rows)))
    mapped = sum(by_group.values()) if by_group else np.zeros(len(rows))
    unmapped = np.maximum(shapely.area(lots) - mapped - no_group, 0.0)
    partly = int((no_group * measured.working.sqft_per_unit2 > UNMAPPED_TOLERANCE_SQFT).sum())
    if partly:
        filler = (
            f"taken as group {options.default_hsg} (--default-hsg)"
            if options.default_hsg
            else "left out, the soil shares coming from the rest (give --default-hsg to choose)"
        )
        # No count: a run split in windows must give the same words.
        measured.log.warn(
            f"{options.soils.label()}: lots partly on map units with no hydrologic soil "
            f"group (Urban land, water, pits): not unmapped, but without a group; that "
            f"part {filler}"
        )
    if options.default_hsg:
        key = options.default_hsg.strip().upper()
        by_group[key] = by_group.get(key, np.zeros(len(rows))) + unmapped + no_group
    return by_group, unmapped


def _polygon_groups(
    frame: pd.DataFrame, columns: list[str], options: RunoffOptions, measured: MeasureResult
) -> np.ndarray:
    """Each soil polygon's group: its own field, else its map unit's in the SSURGO tables."""
    assert options.soils is not None
    candidates = [options.soil_field] if options.soil_field else list(SOIL_FIELD_CANDIDATES)
    found = find_field(columns, candidates)
    if found is not None:
        return _soil_groups(frame, found, options)
    mukey = None if options.soil_field else mukey_field(columns)
    if mukey is None:
        raise InputError(
            f"{options.soils.label()}: no soil group field "
            f"({', '.join(candidates)}); fields are: {', '.join(columns) or 'none'}"
            + ("" if options.soil_field else "; name it with --soil-field")
        )
    table = group_table(options.soils, options.soil_table)
    keys = frame[mukey].astype("string").str.strip().str.replace(r"\.0$", "", regex=True)
    looked_up = keys.map(table.group_of)
    missing = sorted(set(keys[looked_up.isna()].dropna()))
    if missing:
        measured.log.warn(
            f"{options.soils.label()}: {len(missing)} MUKEY value(s) not in "
            f"{table.origin} ({', '.join(missing[:5])}): read as no hydrologic group"
        )
    measured.log.warn(
        f"{options.soils.label()}: hydrologic soil groups from {table.origin}, joined on {mukey}"
    )
    joined = frame.assign(_hsg=looked_up.fillna("").to_numpy())
    return _soil_groups(joined, "_hsg", options)


def _soil_groups(frame: pd.DataFrame, field_name: str, options: RunoffOptions) -> np.ndarray:
    """The normalised group of each soil polygon; '' where the survey gives none."""
    raw = frame[field_name].astype("string").fillna("").str.strip().str.upper()
    for value in sorted(set(raw) - {""}):
        try:
            hsg_from_value(value, options.settings.dual_hsg)
        except InputError:
            ids = frame["_fid"] if "_fid" in frame.columns else frame.index.to_series()
            feature = ids[(raw == value).to_numpy()].iloc[0]
            raise InputError(
                f"{options.soils.label() if options.soils else 'soils'}: field '{field_name}' "
                f"has '{value}' (feature {feature}), not a hydrologic soil group "
                "(A, B, C, D, A/D, B/D or C/D)"
            ) from None
    return raw.to_numpy(dtype=object)
