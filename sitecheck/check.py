"""Apply ordinance rule packs to measured parcels.

One pack for the whole run (``--ordinance``), or each parcel's own pack from a
jurisdiction layer (``--jurisdictions``): the jurisdiction holding most of the
lot names the pack by its id ("scarsdale") or the village's name ("Village of
Scarsdale").
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
import shapely

from sitecheck.constraints import district_by_lot
from sitecheck.errors import InputError
from sitecheck.measure import MeasureResult
from sitecheck.metrics import METRICS
from sitecheck.parcels import find_field
from sitecheck.readers import POLYGONAL, LayerSource
from sitecheck.rules.attributes import ATTRIBUTES, attribute_value
from sitecheck.rules.outcome import NEEDS_REVIEW, TRIGGERED, ParcelOutcome, evaluate_pack
from sitecheck.rules.pack import BUNDLED, Pack, load_pack
from sitecheck.runoff_screen import RunoffOptions, RunoffScreen, runoff_metric_names, screen_runoff

DEFAULT_TOLERANCE = 0.02


@dataclass
class CheckResult:
    """The measured run with each parcel's outcome (None where no pack applies)."""

    measured: MeasureResult
    outcomes: list[ParcelOutcome | None]
    packs: dict[str, Pack]
    tolerance: float
    runoff: RunoffScreen | None = None

    def parcels_with_triggers(self) -> pd.DataFrame:
        """The parcel table with the trigger columns added for the GeoPackage."""
        table = self.measured.parcels.copy()
        table["jurisdiction"] = pd.array(
            [o.pack.id if o else None for o in self.outcomes], dtype="string"
        )
        table["highest_severity"] = pd.array(
            [o.highest_severity if o else None for o in self.outcomes], dtype="string"
        )
        table["trigger_count"] = [len(o.of(TRIGGERED)) if o else 0 for o in self.outcomes]
        table["review_count"] = [len(o.of(NEEDS_REVIEW)) if o else 0 for o in self.outcomes]
        table["design_storm_years"] = pd.array(
            [o.design_storm_years if o else None for o in self.outcomes], dtype="Int64"
        )
        table["triggers_summary"] = pd.array(
            [o.summary() if o else None for o in self.outcomes], dtype="string"
        )
        if self.runoff is not None:
            runoff = self.runoff.table
            for name in runoff_metric_names(runoff.columns):
                column = np.full(len(table), np.nan)
                if name in runoff.columns:  # absent when no lot was screened
                    column[runoff.index.to_numpy()] = runoff[name].to_numpy(dtype=float)
                table[name] = column
        return table


def pack_key(text: str) -> str:
    """Normalise a jurisdiction value for matching: 'Village of Scarsdale' -> 'scarsdale'."""
    key = re.sub(r"[^a-z0-9]+", " ", text.lower()).strip()
    key = re.sub(r"^(the )?(village|town|city) of ", "", key)
    return key.replace(" ", "_")


def parcel_values(measured: MeasureResult, row: int) -> dict[str, object]:
    """The metric and attribute values of one parcel, as the rule language takes them."""
    return parcel_value_rows(measured, [row])[0]


def parcel_value_rows(measured: MeasureResult, rows: Sequence[int]) -> list[dict[str, object]]:
    """:func:`parcel_values` of many parcels, reading each column once."""
    picked = measured.parcels.iloc[list(rows)]
    columns: dict[str, list[object]] = {}
    for metric in METRICS:
        columns[metric.name] = [_metric_value(metric.kind, v) for v in picked[metric.name]]
    for attribute in ATTRIBUTES:
        if attribute.name in picked.columns:
            columns[attribute.name] = [
                attribute_value(attribute, v) for v in picked[attribute.name].tolist()
            ]
    return [
        dict(zip(columns, values, strict=True)) for values in zip(*columns.values(), strict=True)
    ]


def _metric_value(kind: str, value: object) -> object:
    if pd.isna(value):
        return None
    if kind == "boolean":
        return bool(value)
    return value if kind == "text" else float(value)  # type: ignore[arg-type]


def check_parcels(
    measured: MeasureResult,
    ordinance: str | None,
    tolerance: float = DEFAULT_TOLERANCE,
    jurisdictions: LayerSource | None = None,
    jurisdiction_field: str | None = None,
    runoff: RunoffOptions | None = None,
) -> CheckResult:
    """Evaluate the rules of the applicable pack for every parcel.

    Parameters
    ----------
    measured : MeasureResult
    ordinance : str, optional
        Pack id or file for the whole run; with ``jurisdictions`` it adds a
        custom pack to those the jurisdiction values may name.
    tolerance : float
        Relative band around thresholds that gives ``needs_review``.
    jurisdictions, jurisdiction_field
        A polygon layer and its field naming each area's pack.
    runoff : RunoffOptions, optional
        Screen runoff too when it says where soil groups come from.
    """
    if not 0 <= tolerance < 0.5:
        raise InputError(f"--tolerance: give a share between 0 and 0.5 (got {tolerance})")
    if jurisdictions is None:
        if ordinance is None:
            raise InputError(
                "give --ordinance larchmont|homer|scarsdale|PACK.toml, or --jurisdictions"
            )
        pack = load_pack(ordinance)
        chosen: list[Pack | None] = [pack] * len(measured.parcels)
        packs = {pack.id: pack}
    else:
        chosen, packs = _packs_by_jurisdiction(
            measured, ordinance, jurisdictions, jurisdiction_field
        )
    evaluated = [
        row
        for row, parcel_pack in enumerate(chosen)
        if parcel_pack is not None and measured.touched[row]
    ]
    values_of = dict(zip(evaluated, parcel_value_rows(measured, evaluated), strict=True))
    outcomes: list[ParcelOutcome | None] = []
    for row, parcel_pack in enumerate(chosen):
        if parcel_pack is None:
            outcomes.append(None)
        elif row in values_of:
            outcomes.append(evaluate_pack(parcel_pack, values_of[row], tolerance))
        else:
            outcomes.append(_untouched(parcel_pack))
    result = CheckResult(measured, outcomes, packs, tolerance)
    if runoff is not None and runoff.requested:
        result.runoff = screen_runoff(result, runoff)
    return result


def _untouched(pack: Pack) -> ParcelOutcome:
    """A parcel without work: no rule is evaluated, so none is listed."""
    return ParcelOutcome(pack, ())


def jurisdiction_packs(
    values: Iterable[str], ordinance: str | None, source: LayerSource, field_name: str
) -> dict[str, Pack]:
    """The pack each jurisdiction value names ('Village of Scarsdale' -> the scarsdale pack).

    Raises
    ------
    InputError
        When a value names no pack; the message lists the known packs.
    """
    available = {pack_id: pack_id for pack_id in BUNDLED}
    custom: Pack | None = load_pack(ordinance) if ordinance else None
    if custom is not None:
        available[pack_key(custom.id)] = custom.id
        available[pack_key(custom.name)] = custom.id
    distinct = sorted({str(v) for v in values if v})
    unknown = [v for v in distinct if pack_key(v) not in available]
    if unknown:
        raise InputError(
            f"{source.label()}: field '{field_name}' names jurisdictions with no pack: "
            f"{', '.join(unknown)}; "
            f"known packs: {', '.join(sorted(set(available.values())))}"
        )
    loaded: dict[str, Pack] = {}
    by_value: dict[str, Pack] = {}
    for value in distinct:
        pack_id = available[pack_key(value)]
        if pack_id not in loaded:
            loaded[pack_id] = (
                custom if custom is not None and custom.id == pack_id else load_pack(pack_id)
            )
        by_value[value] = loaded[pack_id]
    return by_value


def _packs_by_jurisdiction(
    measured: MeasureResult, ordinance: str | None, source: LayerSource, field_name: str | None
) -> tuple[list[Pack | None], dict[str, Pack]]:
    if not field_name:
        raise InputError("--jurisdictions needs --jurisdiction-field NAME")
    frame = measured.log.read(source, POLYGONAL, target_crs=measured.working.crs)
    columns = [c for c in frame.columns if c not in (frame.geometry.name, "_fid")]
    found = find_field(columns, [field_name])
    if found is None:
        raise InputError(
            f"{source.label()}: no field '{field_name}'; fields are: {', '.join(columns)}"
        )
    values = frame[found].astype("string").fillna("")
    by_value = jurisdiction_packs(values, ordinance, source, found)
    lots = measured.parcels.geometry.to_numpy()
    names = district_by_lot(lots, frame, found, shapely.STRtree(lots))
    chosen: list[Pack | None] = [by_value[str(name)] if name else None for name in names]
    loaded = {pack.id: pack for pack in chosen if pack is not None}
    outside = int(sum(p is None for p in chosen))
    if outside:
        measured.log.warn(
            f"{source.label()}: {outside} parcel(s) lie in no jurisdiction; no rules applied"
        )
    return chosen, loaded
