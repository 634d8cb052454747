"""Apply the chosen rule packs to measured parcels: every rule's outcome per parcel."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
import shapely

from sitecheck.constraints.layers import district_by_lot
from sitecheck.io.readers import POLYGONAL
from sitecheck.measure.inputs import MeasureResult
from sitecheck.rules.margins import Margin, nearest_margins
from sitecheck.rules.outcome import NEEDS_REVIEW, TRIGGERED, ParcelOutcome, evaluate_pack
from sitecheck.rules.pack_model import Pack
from sitecheck.schema.options import option
from sitecheck.screening.packs import PackChoice
from sitecheck.screening.runoff_result import RunoffScreen, runoff_metric_names
from sitecheck.screening.values import parcel_value_rows

DEFAULT_TOLERANCE = float(option("tolerance").default)  # type: ignore[arg-type]


@dataclass
class CheckResult:
    """The measured run with each parcel's outcome (None where no pack applies)."""

    measured: MeasureResult
    outcomes: list[ParcelOutcome | None]
    packs: dict[str, Pack]
    tolerance: float
    runoff: RunoffScreen | None = None

    def margins(self, rows: list[int]) -> dict[int, list[Margin]]:
        """Each row's nearest thresholds that change a rule's outcome, one per redesignable
        area, nearest first (rows with work only; empty for the others)."""
        wanted = [
            row for row in rows if self.outcomes[row] is not None and self.measured.touched[row]
        ]
        values = parcel_value_rows(self.measured, wanted, warn=False) if wanted else []
        found: dict[int, list[Margin]] = {row: [] for row in rows}
        for row, parcel_values in zip(wanted, values, strict=True):
            outcome = self.outcomes[row]
            assert outcome is not None
            found[row] = nearest_margins(outcome.pack, parcel_values)
        return found

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
        table["design_storm_review_years"] = pd.array(
            [max(o.design_storm_review_years, default=None) if o else None for o in self.outcomes],
            dtype="Int64",
        )
        table["design_storm"] = pd.array(
            [o.design_storm if o and o.triggers else None for o in self.outcomes], dtype="string"
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


def check_parcels(
    measured: MeasureResult, choice: PackChoice, tolerance: float = DEFAULT_TOLERANCE
) -> CheckResult:
    """Evaluate the rules of each parcel's pack for every parcel with work.

    Parameters
    ----------
    measured : MeasureResult
    choice : PackChoice
        The run's packs (:func:`sitecheck.screening.packs.choose_packs`).
    tolerance : float
        Relative band around thresholds that gives ``needs_review``.
    """
    option("tolerance").check(tolerance)
    if choice.single is not None:
        chosen: list[Pack | None] = [choice.single] * len(measured.parcels)
        packs = choice.packs
    else:
        chosen, packs = _packs_by_jurisdiction(measured, choice)
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
            outcomes.append(ParcelOutcome(parcel_pack, ()))  # no work: no rule is listed
    return CheckResult(measured, outcomes, packs, tolerance)


def _packs_by_jurisdiction(
    measured: MeasureResult, choice: PackChoice
) -> tuple[list[Pack | None], dict[str, Pack]]:
    """Each lot's pack: the jurisdiction holding most of it; the packs of the lots present."""
    assert choice.jurisdictions is not None and choice.field_name is not None
    source = choice.jurisdictions
    frame = measured.log.read(source, POLYGONAL, target_crs=measured.working.crs)
    lots = measured.parcels.geometry.to_numpy()
    names = district_by_lot(lots, frame, choice.field_name, shapely.STRtree(lots))
    chosen: list[Pack | None] = [choice.by_value[str(name)] if name else None for name in names]
    loaded = {pack.id: pack for pack in chosen if pack is not None}
    outside = int(sum(p is None for p in chosen))
    if outside:
        measured.log.warn(
            f"{source.label()}: {outside} parcel(s) lie in no jurisdiction; no rules applied"
        )
    return chosen, loaded
