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
- the "before" condition is the unimproved lot where the pack's
  ``[runoff] unimproved_before_when`` holds (Scarsdale: SDA lots).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd
import shapely

from sitecheck.errors import InputError
from sitecheck.overlay import intersect_pairs
from sitecheck.parcels import find_field
from sitecheck.readers import POLYGONAL, LayerSource
from sitecheck.rules.evaluate import evaluate
from sitecheck.rules.outcome import ParcelOutcome
from sitecheck.rules.pack import Pack
from sitecheck.rules.truth import Truth
from sitecheck.runoff import RunoffSettings, parcel_runoff
from sitecheck.runoff.parcels import runoff_assumptions
from sitecheck.runoff.rainfall import DesignRainfall, user_rainfall, village_rainfall
from sitecheck.runoff.soils import hsg_from_value

if TYPE_CHECKING:
    from sitecheck.check import CheckResult
    from sitecheck.measure import MeasureResult

SOIL_FIELD_CANDIDATES: tuple[str, ...] = ("hydgrp", "hydgrpdcd", "HSG", "hsg_code")
BUNDLED_RAINFALL: tuple[str, ...] = ("larchmont", "homer", "scarsdale")
UNMAPPED_TOLERANCE_SQFT = 1.0
"""Lots whose soils layer leaves less than this unmapped count as fully mapped."""


@dataclass(frozen=True)
class RunoffOptions:
    """What a run says about the runoff screen.

    Attributes
    ----------
    soils : LayerSource or None
        Soil-survey polygons with a hydrologic soil group field.
    soil_field : str or None
        That field (default: the first present of ``hydgrp``, ``hydgrpdcd``, ``HSG``).
    default_hsg : str or None
        Soil group of lots (or the parts of lots) the soils layer does not map.
    rainfall : str or None
        ``--rainfall`` text, e.g. ``"25=6.2,100=8.0"``; replaces pack depths storm by storm.
    settings : RunoffSettings
    """

    soils: LayerSource | None = None
    soil_field: str | None = None
    default_hsg: str | None = None
    rainfall: str | None = None
    settings: RunoffSettings = field(default_factory=RunoffSettings)

    @property
    def requested(self) -> bool:
        """The screen runs when the run says where the soil groups come from."""
        return self.soils is not None or self.default_hsg is not None

    def check(self) -> None:
        """Fail early, naming the option, on values that can never work."""
        if self.default_hsg is not None:
            hsg_from_value(self.default_hsg, self.settings.dual_hsg)
        if self.rainfall is not None:
            user_rainfall(self.rainfall)
        if self.settings.wqv_rainfall_in <= 0:
            raise InputError("--wqv-rainfall: give a positive depth in inches, e.g. 1.5")

    def to_json(self) -> dict[str, object]:
        return {
            "soils": self.soils.label() if self.soils else None,
            "soil_field": self.soil_field,
            "default_hsg": self.default_hsg,
            "rainfall": self.rainfall,
            **self.settings.to_json(),
        }


@dataclass(frozen=True)
class StormDepths:
    """The 24-hour depths one pack's lots were screened with, and where each came from."""

    pack_id: str
    depths_in: dict[int, float]
    given_by_user: tuple[int, ...]
    pack_rainfall: DesignRainfall | None

    @property
    def pack_defaults(self) -> tuple[int, ...]:
        return tuple(years for years in self.depths_in if years not in self.given_by_user)

    def confirm_note(self) -> str | None:
        """The sentence a report prints when any depth is a pack default."""
        defaults = self.pack_defaults
        if not defaults or self.pack_rainfall is None:
            return None
        storms = ", ".join(f"{years}-year" for years in defaults)
        status = (
            "placeholders NOT yet copied from that source"
            if not self.pack_rainfall.confirmed
            else "regional values"
        )
        return (
            f"{self.pack_id}: the {storms} 24-hour depths are pack defaults "
            f"({self.pack_rainfall.source}; {status}): confirm them for the site "
            "(NOAA Atlas 14 at hdsc.nws.noaa.gov/pfds, or the NRCC tables) and give the "
            "site's values with --rainfall."
        )

    def to_json(self) -> dict[str, object]:
        pack = self.pack_rainfall
        return {
            "pack": self.pack_id,
            "depths_in": {str(years): depth for years, depth in self.depths_in.items()},
            "duration_hr": 24,
            "given_by_user": list(self.given_by_user),
            "pack_defaults": list(self.pack_defaults),
            "pack_source": pack.source if pack else None,
            "pack_depths_confirmed": pack.confirmed if pack else None,
            "pack_note": pack.note if pack else None,
            "confirm": self.confirm_note(),
        }


@dataclass
class RunoffScreen:
    """Runoff of every screened lot, with what the numbers rest on.

    Attributes
    ----------
    table : pandas.DataFrame
        Indexed by parcel row; columns are the runoff metrics (see
        :func:`runoff_metric_names`).
    storms : dict of str to StormDepths
        By pack id.
    assumptions : list of str
        Sentences every report prints with the numbers.
    options : RunoffOptions
    facts : pandas.DataFrame
        Per screened lot, what the assumptions count (see :data:`FACT_COLUMNS`);
        a distributed run joins its partitions' facts to word the same sentences.
    """

    table: pd.DataFrame
    storms: dict[str, StormDepths]
    assumptions: list[str]
    options: RunoffOptions
    facts: pd.DataFrame = field(default_factory=pd.DataFrame)

    def to_json(self) -> dict[str, object]:
        notes = [note for depths in self.storms.values() if (note := depths.confirm_note())]
        return {
            "method": "TR-55 curve number (volumes), Rational method (peaks), NYS WQv",
            "units": {"volume": "cu ft", "peak": "cfs", "rainfall": "in, 24-hour"},
            "settings": self.options.to_json(),
            "rainfall": [depths.to_json() for depths in self.storms.values()],
            "confirm": notes,
            "assumptions": list(self.assumptions),
        }

    def metrics_of(self, row: int) -> dict[str, float | None]:
        """One parcel's runoff metrics (None where not computed)."""
        names = runoff_metric_names(self.table.columns)
        if row not in self.table.index:
            return dict.fromkeys(names)
        record = self.table.loc[row]
        metrics: dict[str, float | None] = {
            name: None if pd.isna(record[name]) else float(record[name]) for name in names
        }
        storm = metrics["retention_storm_yr"]
        metrics["retention_storm_yr"] = None if storm is None else int(storm)
        return metrics


def runoff_metric_names(columns: pd.Index | list[str]) -> list[str]:
    """The metric columns of a runoff table, in report order."""
    columns = list(columns)

    def storms(prefix: str) -> list[str]:
        found = [c for c in columns if c.startswith(prefix)]
        return sorted(found, key=lambda name: int(name.removeprefix(prefix).removesuffix("yr")))

    return [
        "cn_pre",
        "cn_post",
        *[name for pre in storms("runoff_pre_cuft_") for name in (pre, pre.replace("pre", "post"))],
        "retention_storm_yr",
        "retention_required_cuft",
        "wqv_cuft",
        *[name for pre in storms("peak_pre_cfs_") for name in (pre, pre.replace("pre", "post"))],
    ]


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
        depths = storm_depths(pack, options.rainfall)
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


FACT_COLUMNS: tuple[str, ...] = (
    "pack",
    "governing_yr",
    "unimproved",
    "undecided",
    "no_soil",
    "missing_cover",
    "partly_unmapped",
)


def screen_assumptions(
    facts: pd.DataFrame,
    storms: Mapping[str, StormDepths],
    packs: Mapping[str, Pack],
    options: RunoffOptions,
) -> list[str]:
    """Every sentence the reports print with the runoff numbers, from per-lot facts.

    Parameters
    ----------
    facts : pandas.DataFrame
        One row per screened lot, columns :data:`FACT_COLUMNS`.
    storms : mapping of str to StormDepths
        By pack id, the depths its lots were screened with.
    packs : mapping of str to Pack
    options : RunoffOptions
    """
    lines: list[str] = []
    for pack_id, depths in storms.items():
        mine = facts[facts["pack"] == pack_id]
        pack = packs[pack_id]
        prefix = f"{pack.name}: " if len(storms) > 1 else ""
        pack_lines = runoff_assumptions(
            options.settings,
            depths.depths_in,
            mine["governing_yr"].to_numpy(dtype=float),
            int(mine["unimproved"].sum()),
            int(mine["no_soil"].sum()),
            False,
        )
        if note := depths.confirm_note():
            pack_lines.insert(1, note)
        undecided = int(mine["undecided"].sum())
        if pack.runoff.unimproved_before_when_text and undecided:
            pack_lines.append(
                f"{undecided} lot(s): whether '{pack.runoff.unimproved_before_when_text}' holds "
                f"({pack.runoff.unimproved_before_citation}) is unknown (a layer is missing), so "
                "their before condition is the existing cover; give the layer to apply it."
            )
        no_storm = int(mine["governing_yr"].isna().sum())
        if no_storm:
            pack_lines.append(
                f"{no_storm} lot(s) trigger no rule naming a design storm: no retention figure."
            )
        missing_cover = int(mine["missing_cover"].sum())
        if missing_cover:
            pack_lines.append(
                f"{missing_cover} lot(s) without existing or proposed impervious cover measured: "
                "runoff left null (give both impervious layers)."
            )
        lines.extend(prefix + line for line in pack_lines)
    partly = int(facts["partly_unmapped"].sum()) if len(facts) else 0
    if options.soils is not None and partly:
        filler = (
            f"taken as group {options.default_hsg} (--default-hsg)"
            if options.default_hsg
            else "left out (soil shares from the mapped part)"
        )
        lines.append(
            f"{options.soils.label()}: {partly} lot(s) partly outside the mapped soil groups; "
            f"the unmapped part {filler}."
        )
    return lines


def storm_depths(pack: Pack, rainfall_text: str | None) -> StormDepths:
    """The depths of every storm a pack names: the user's where given, else the pack's.

    Raises
    ------
    InputError
        When a storm has no depth from either.
    """
    pack_rainfall = pack.runoff.rainfall or (
        village_rainfall(pack.id) if pack.id in BUNDLED_RAINFALL else None
    )
    given = user_rainfall(rainfall_text).depths_in if rainfall_text else {}
    wanted = pack.design_storms or tuple(
        sorted(given or (pack_rainfall.depths_in if pack_rainfall else {}))
    )
    depths: dict[int, float] = {}
    missing = []
    for years in wanted:
        if years in given:
            depths[years] = given[years]
        elif pack_rainfall and years in pack_rainfall.depths_in:
            depths[years] = pack_rainfall.depths_in[years]
        else:
            missing.append(years)
    if missing:
        storms = ",".join(f"{years}=INCHES" for years in missing)
        raise InputError(
            f"rainfall: pack '{pack.id}' names the {', '.join(map(str, missing))}-year storm(s) "
            f'but has no depth for them; give --rainfall "{storms}" (24-hour inches)'
        )
    if not depths:
        raise InputError(
            f"rainfall: pack '{pack.id}' names no design storm and has no rainfall; "
            'give --rainfall, e.g. "25=6.2,100=8.0"'
        )
    return StormDepths(
        pack_id=pack.id,
        depths_in=depths,
        given_by_user=tuple(years for years in depths if years in given),
        pack_rainfall=pack_rainfall,
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
    unimproved, undecided = _unimproved_before(result, pack, rows)
    soil = soil_areas if soil_areas else str(options.default_hsg)
    screened = parcel_runoff(
        lot,
        existing,
        proposed,
        soil,
        depths.depths_in,
        governing,
        unimproved,
        settings=options.settings,
    )
    table = screened.table.drop(columns=["unimproved_pre", "c_pre", "c_post"])
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


def _unimproved_before(
    result: CheckResult, pack: Pack, rows: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Which lots are measured against unimproved land, and which could not be told."""
    from sitecheck.check import parcel_value_rows

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
    frame = measured.log.read(options.soils, POLYGONAL, target_crs=measured.working.crs)
    columns = [c for c in frame.columns if c not in (frame.geometry.name, "_fid")]
    candidates = [options.soil_field] if options.soil_field else list(SOIL_FIELD_CANDIDATES)
    found = find_field(columns, candidates)
    if found is None:
        raise InputError(
            f"{options.soils.label()}: no soil group field "
            f"({', '.join(candidates)}); fields are: {', '.join(columns) or 'none'}"
            + ("" if options.soil_field else "; name it with --soil-field")
        )
    groups = _soil_groups(frame, found, options)
    lots = measured.parcels.geometry.to_numpy()[rows]
    soil_geoms = frame.geometry.to_numpy()
    lot_index, soil_index = shapely.STRtree(soil_geoms).query(lots, predicate="intersects")
    known = groups[soil_index] != ""
    lot_index, soil_index = lot_index[known], soil_index[known]
    areas = shapely.area(intersect_pairs(lots[lot_index], soil_geoms[soil_index]))
    by_group: dict[str, np.ndarray] = {}
    for group in sorted(set(groups[soil_index])):
        chosen = groups[soil_index] == group
        by_group[group] = np.bincount(lot_index[chosen], weights=areas[chosen], minlength=len(rows))
    mapped = sum(by_group.values()) if by_group else np.zeros(len(rows))
    unmapped = np.maximum(shapely.area(lots) - mapped, 0.0)
    if options.default_hsg:
        key = options.default_hsg.strip().upper()
        by_group[key] = by_group.get(key, np.zeros(len(rows))) + unmapped
    return by_group, unmapped


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
