"""A site of several lots: the rules whose outcome turns on which lot area the law means.

A project's site is measured as one lot, the union of its lots; a lot-size tier
of a rule then reads the site's area. Whether the law's "lot" is the site or
each tax lot is not said: where reading the area of the smallest or of the
largest lot instead gives a rule another outcome, the rule needs review and
says which area was used.
"""

from __future__ import annotations

import pandas as pd

from sitecheck.io.parcel_ids import rows_of
from sitecheck.measure.inputs import MeasureResult
from sitecheck.rules.outcome import NEEDS_REVIEW, ParcelOutcome, Trigger
from sitecheck.rules.pack_model import Pack
from sitecheck.rules.pack_rows import decided_pack
from sitecheck.screening.check import CheckResult
from sitecheck.screening.values import parcel_value_rows

LOT_AREA = "lot_area_sqft"


def ask_which_lot(
    result: CheckResult,
    members: dict[str, list[str]],
    ids: list[str],
    lot_view: MeasureResult,
    lot_ids: pd.Index,
) -> None:
    """Put the lot question to every rule of a multi-lot site that it changes.

    Parameters
    ----------
    result : CheckResult
        The sites, checked; their outcomes are replaced.
    members : dict of str to list of str
        Each project's lots.
    ids : list of str
        The project of each site row.
    lot_view : MeasureResult
        The lots, measured one by one.
    lot_ids : pandas.Index of str
        The lot view's parcel ids as text, row by row.
    """
    rows = [
        row
        for row, project in enumerate(ids)
        if len(members[project]) > 1 and result.outcomes[row] is not None
    ]
    wanted = rows_of(lot_ids, (lot for row in rows for lot in members[ids[row]]))
    every_area = lot_view.parcels[LOT_AREA].to_numpy(dtype=float)
    lot_area = {lot: float(every_area[at]) for lot, at in wanted.items()}
    values = parcel_value_rows(result.measured, rows, warn=False)
    areas = [[lot_area[lot] for lot in members[ids[row]]] for row in rows]
    readings = _read_with_lot_areas(result, rows, values, areas)
    for row, row_values, row_areas, variants in zip(rows, values, areas, readings, strict=True):
        outcome = result.outcomes[row]
        assert outcome is not None
        site = float(row_values[LOT_AREA])  # type: ignore[arg-type]
        result.outcomes[row] = _with_lot_questions(outcome, variants, site, row_areas)


def _read_with_lot_areas(
    result: CheckResult,
    rows: list[int],
    values: list[dict[str, object]],
    areas: list[list[float]],
) -> list[list[dict[str, str]]]:
    """Each site's rule outcomes read with its smallest and with its largest lot's area:
    the outcomes alone, decided for a pack's sites at once (a site's reasons stay those
    of its own area)."""
    by_pack: dict[str, tuple[Pack, list[int]]] = {}
    for position, row in enumerate(rows):
        outcome = result.outcomes[row]
        assert outcome is not None
        by_pack.setdefault(outcome.pack.id, (outcome.pack, []))[1].append(position)
    readings: list[list[dict[str, str]]] = [[] for _ in rows]
    for pack, positions in by_pack.values():
        variants = [
            {**values[position], LOT_AREA: area}
            for position in positions
            for area in (min(areas[position]), max(areas[position]))
        ]
        outcomes = decided_pack(pack, variants, result.tolerance).unworded()
        for number, position in enumerate(positions):
            readings[position] = [outcomes[2 * number + side] for side in (0, 1)]
    return readings


def _with_lot_questions(
    outcome: ParcelOutcome, variants: list[dict[str, str]], site: float, areas: list[float]
) -> ParcelOutcome:
    cause = (
        f"the site is {len(areas)} lots ({site:,.0f} sq ft together; the lots "
        f"{min(areas):,.0f} to {max(areas):,.0f} sq ft): is the law's lot the site or each lot?"
    )
    triggers = []
    for trigger in outcome.triggers:
        differs = any(v.get(trigger.rule.id, trigger.outcome) != trigger.outcome for v in variants)
        if differs and trigger.outcome != NEEDS_REVIEW:
            read = trigger.outcome.replace("_", " ")
            reason = f"{cause} Read with the site's area it is {read} ({trigger.reason})"
            trigger = Trigger(trigger.rule, NEEDS_REVIEW, trigger.facts, reason, (cause,))
        triggers.append(trigger)
    return ParcelOutcome(outcome.pack, tuple(triggers))
