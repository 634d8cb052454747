"""The margins of many parcels at once: what :func:`sitecheck.rules.margins.nearest_margins`
finds for one parcel (every area's nearest threshold), or only the first of them.

One parcel's search moves each redesignable area onto and past the thresholds
the pack compares it with, nearest first, and keeps the first move that changes
a rule's outcome. Here each move (an area set to a threshold, a step
under or a step over) is tried on every parcel of the pack together
(:meth:`ValueTable.with_value`): only the conditions naming the area are decided
again, and each parcel keeps the nearest move that changes one of its outcomes.
``tests/engine/test_margins.py`` compares the margins with the one-parcel search.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence

import numpy as np

from sitecheck.io.progress import Progress
from sitecheck.rules.columnar import ValueTable
from sitecheck.rules.margins import (
    STEP_SQFT,
    Change,
    Margin,
    affected_rules,
    nearest_margins,
    pack_thresholds,
)
from sitecheck.rules.pack_model import Pack, Rule
from sitecheck.rules.pack_rows import OUTCOMES, exempted_codes, rule_outcomes

STAGE = "finding each parcel's nearest thresholds"


def nearest_margin_rows(
    pack: Pack, rows: Sequence[Mapping[str, object]], progress: Progress | None = None
) -> list[Margin | None]:
    """Each parcel's nearest threshold of any redesignable area that changes a rule's
    outcome: the first of :func:`sitecheck.rules.margins.nearest_margins` of every row
    (None where no move changes one), what the compact JSON and the terminal show.

    Parameters
    ----------
    pack : Pack
    rows : sequence of mapping
        Each parcel's metric and attribute values.
    progress : Progress, optional
        Moved as the thresholds are tried.
    """
    search = _Search(pack, rows)
    for metric, threshold, _ in _thresholds_in_order(pack, progress):
        search.threshold(metric, threshold)
    return search.nearest


FEWEST_MARGINS_IN_COLUMNS = 32
"""The fewest parcels of a pack whose every margin :func:`margin_rows` searches in columns;
fewer are searched one by one. The columns cost a few ms whatever the count: on the 3k
bench village's Scarsdale lots, 1 parcel took 7.4 ms in columns and 1.0 ms alone, 16
took 15.3 and 7.7 ms, 32 took 17.4 and 16.8 ms, 128 took 23.4 and 58.5 ms (2026-12-07).
The panel asks for one parcel's."""


def margin_rows(
    pack: Pack, rows: Sequence[Mapping[str, object]], progress: Progress | None = None
) -> list[list[Margin]]:
    """Each parcel's margins: per redesignable area, the nearest threshold that changes a
    rule's outcome, nearest first, as :func:`sitecheck.rules.margins.nearest_margins` gives
    each row (the full JSON and the report's sections list them all); a pack's rows are
    searched one by one where they are fewer than :data:`FEWEST_MARGINS_IN_COLUMNS`.

    Parameters
    ----------
    pack : Pack
    rows : sequence of mapping
        Each parcel's metric and attribute values.
    progress : Progress, optional
        Moved as the thresholds are tried.
    """
    if len(rows) < FEWEST_MARGINS_IN_COLUMNS:
        return [nearest_margins(pack, values) for values in rows]
    search = _Search(pack, rows)
    found: list[list[Margin]] = [[] for _ in rows]
    for metric, threshold, last_of_area in _thresholds_in_order(pack, progress):
        search.threshold(metric, threshold)
        if last_of_area:  # each row's nearest move so far is its margin of this area
            for row, margin in enumerate(search.nearest):
                if margin is not None:
                    found[row].append(margin)
            search.start_again()
    # Areas in the pack's order, then nearest first, as the one-parcel search sorts them.
    return [sorted(margins, key=lambda margin: margin.distance_sqft) for margins in found]


def _thresholds_in_order(
    pack: Pack, progress: Progress | None
) -> Iterator[tuple[str, float, bool]]:
    """Each area and threshold to try, with whether it is the area's last, the bar moving:
    in the order the one-parcel search sorts its ties (area, threshold, move), so a later
    move wins a parcel only when it is strictly nearer."""
    pairs = [(m, t) for m, thresholds in pack_thresholds(pack).items() for t in thresholds]
    progress = progress or Progress(quiet=True)
    for position in progress.counted(STAGE, len(pairs)):
        metric, threshold = pairs[position]
        yield metric, threshold, position + 1 == len(pairs) or pairs[position + 1][0] != metric


class _Search:
    """The nearest move found so far for each row of a pack, and how far it is."""

    def __init__(self, pack: Pack, rows: Sequence[Mapping[str, object]]) -> None:
        self.pack, self.rows = pack, rows
        self.table = ValueTable(rows)
        self.first = {r.id: rule_outcomes(pack, r, self.table, 0.0) for r in pack.rules}
        self.before = exempted_codes(pack.rules, self.first)
        self.nearest: list[Margin | None] = [None] * len(rows)
        self.distance_found = np.full(len(rows), np.inf)
        self._metric: tuple[str, np.ndarray, np.ndarray, tuple[Rule, ...]] | None = None

    def start_again(self) -> None:
        """Forget the moves found, keeping the rows' outcomes: the search of another area."""
        self.nearest = [None] * len(self.rows)
        self.distance_found = np.full(len(self.rows), np.inf)

    def _column(self, metric: str) -> tuple[np.ndarray, np.ndarray, tuple[Rule, ...]]:
        """The metric's values, which rows hold a plain number, and the rules it can change."""
        if self._metric is None or self._metric[0] != metric:
            affected = affected_rules(self.pack, metric)
            rules = tuple(rule for rule in self.pack.rules if rule.id in affected)
            self._metric = (metric, *_plain_numbers(self.rows, metric), rules)
        return self._metric[1:]

    def threshold(self, metric: str, threshold: float) -> None:
        """Try the moves onto and past one threshold of one area on every row nearer to
        it than its nearest move so far."""
        values, usable, rules = self._column(metric)
        distance = np.abs(values - threshold)
        nearer = usable & (distance < self.distance_found) & ~((values == 0) & (threshold == 0))
        for moved, rows in _moves(values, threshold, nearer):
            trial = self.table.with_value(metric, moved)
            tried = {rule.id: rule_outcomes(self.pack, rule, trial, 0.0) for rule in rules}
            after = exempted_codes(rules, {**self.first, **tried})
            changed = np.any([after[r.id] != self.before[r.id] for r in rules], axis=0)
            wins = rows & changed & (distance < self.distance_found)
            winners = np.flatnonzero(wins)
            changes = _changes(rules, self.before, after, winners)
            for row, value, changed_rules in zip(
                winners.tolist(), values[winners].tolist(), changes, strict=True
            ):
                self.nearest[row] = Margin(metric, value, threshold, moved, changed_rules)
            self.distance_found[wins] = distance[wins]


def _plain_numbers(
    rows: Sequence[Mapping[str, object]], metric: str
) -> tuple[np.ndarray, np.ndarray]:
    """The metric's values and which rows hold a plain number (not a range, not missing)."""
    values = np.zeros(len(rows))
    usable = np.zeros(len(rows), dtype=bool)
    for row, parcel in enumerate(rows):
        value = parcel.get(metric)
        if isinstance(value, int | float) and not isinstance(value, bool) and value == value:
            values[row], usable[row] = float(value), True
    return values, usable


def _moves(
    values: np.ndarray, threshold: float, rows: np.ndarray
) -> list[tuple[float, np.ndarray]]:
    """Each value a threshold's search moves an area to, and the rows it is tried on, in
    the order :func:`sitecheck.rules.margins._across` tries them: a value over the
    threshold goes a step under it (onto it, below one step); a value under it goes
    onto it, then a step over; a value on it goes a step under, then a step over."""
    over, under, on = values > threshold, values < threshold, values == threshold
    step_under = threshold - STEP_SQFT if threshold >= STEP_SQFT else None
    moves = [
        (step_under, (over | on) if step_under is not None else np.zeros_like(over)),
        (threshold, under | (over if step_under is None else np.zeros_like(over))),
        (threshold + STEP_SQFT, under | on),
    ]
    return [
        (float(moved), rows & tried)
        for moved, tried in moves
        if moved is not None and moved >= 0 and (rows & tried).any()
    ]


def _changes(
    rules: tuple[Rule, ...],
    before: dict[str, np.ndarray],
    after: dict[str, np.ndarray],
    rows: np.ndarray,
) -> list[tuple[Change, ...]]:
    """For each of ``rows``, the rules whose outcome the move changes, in the pack's order
    (read from the codes of all the rows at once: a county has ~100,000 winning rows)."""
    if not rules or not len(rows):
        return [() for _ in rows]
    was = np.stack([before[rule.id][rows] for rule in rules], axis=1).tolist()
    now = np.stack([after[rule.id][rows] for rule in rules], axis=1).tolist()
    made: dict[tuple[int, int, int], Change] = {}  # the same change is one object

    def change(at: int, old: int, new: int) -> Change:
        key = (at, old, new)
        if key not in made:
            rule = rules[at]
            made[key] = Change(rule.id, rule.citation, rule.title, OUTCOMES[old], OUTCOMES[new])
        return made[key]

    # Rows moving the same rules between the same outcomes share one tuple: the 30k
    # bench village's 12,988 winning rows fall into 82 such patterns.
    by_pattern: dict[tuple[tuple[int, ...], tuple[int, ...]], tuple[Change, ...]] = {}
    found = []
    for was_row, now_row in zip(was, now, strict=True):
        pattern = (tuple(was_row), tuple(now_row))
        if pattern not in by_pattern:
            by_pattern[pattern] = tuple(
                change(at, old, new)
                for at, (old, new) in enumerate(zip(was_row, now_row, strict=True))
                if old != new
            )
        found.append(by_pattern[pattern])
    return found
