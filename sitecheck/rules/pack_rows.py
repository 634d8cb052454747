"""A pack's rules decided for many parcels at once, each parcel's reasons worded after.

:func:`sitecheck.rules.outcome.evaluate_pack` decides one parcel; a run decides
every parcel of a pack together (:mod:`sitecheck.rules.columnar`): one pass of
array operations per condition, then each parcel's outcome is put together from
the decided codes, with the reasons of the rules that are written from the
leaves that decide them (:mod:`sitecheck.rules.leaf_plans`). A run that words
only the listed rules (the compact JSON, the GeoPackage, a county's report)
words nothing for the rules a parcel does not trigger. A pack with a few parcels
(the panel's lot and its project's site) decides each alone with the evaluator
(:func:`decided_pack`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cached_property

import numpy as np

from sitecheck.rules.columnar import FALSE, TRUE, ValueTable, decide_rows
from sitecheck.rules.leaf_plans import LeafWords
from sitecheck.rules.outcome import (
    NEEDS_REVIEW,
    NOT_TRIGGERED,
    TRIGGERED,
    ParcelOutcome,
    Trigger,
    bare_trigger,
    evaluate_pack,
    trigger_of,
    with_exemptions,
)
from sitecheck.rules.pack_model import Pack, Rule
from sitecheck.rules.syntax import Expression
from sitecheck.rules.truth import Evaluation

OUTCOMES = (NOT_TRIGGERED, TRIGGERED, NEEDS_REVIEW)
"""The outcome of each code :func:`rule_outcomes` gives."""
_NOT_TRIGGERED = OUTCOMES.index(NOT_TRIGGERED)

FEWEST_IN_COLUMNS = 8
"""The fewest parcels of a pack decided in columns; fewer are decided one by one.

Deciding in columns costs a few ms a pack whatever the count (each condition's arrays,
each leaf plan): on the sample village's Scarsdale lots, with every rule worded, one
parcel took 4.7 ms in columns and 1.2 ms alone, four 7.1 and 4.3 ms, eight 10.0 and
10.2 ms. The panel's answer decides one to three.
"""


def rule_outcomes(pack: Pack, rule: Rule, table: ValueTable, tolerance: float) -> np.ndarray:
    """A rule's outcome for every row before exemptions, as codes into :data:`OUTCOMES`:
    needs review where a review question holds or a value is unknown or near its
    threshold, or where the law leaves a triggered rule to an officer."""
    truth = decide_rows(rule.when, table, pack.names, tolerance)
    held = 2 if rule.discretion else 1
    codes = np.where(truth == TRUE, held, np.where(truth == FALSE, 0, 2)).astype(np.int8)
    for review in rule.reviews:
        codes[decide_rows(review.when, table, pack.names, 0.0) == TRUE] = 2
    return codes


def exempted_codes(rules: Sequence[Rule], first: Mapping[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Each rule's outcome codes once its exemptions apply, as :func:`with_exemptions`
    gives them: not triggered where an exemption it names is triggered."""
    final = {}
    for rule in rules:
        codes = first[rule.id]
        exempt = [first[other] == OUTCOMES.index(TRIGGERED) for other in rule.unless]
        if exempt:
            codes = np.where(np.any(exempt, axis=0), OUTCOMES.index(NOT_TRIGGERED), codes)
        final[rule.id] = codes
    return final


class DecidedPack:
    """A pack's every rule decided over the values of many parcels.

    Parameters
    ----------
    pack : Pack
    rows : sequence of mapping
        Each parcel's metric and attribute values.
    tolerance : float
        Relative band around thresholds that gives ``needs_review``.
    """

    def __init__(self, pack: Pack, rows: Sequence[Mapping[str, object]], tolerance: float) -> None:
        self.pack = pack
        self.rows = rows
        self.tolerance = tolerance

    @cached_property
    def table(self) -> ValueTable:
        """The parcels' values in columns, with each condition's codes once decided."""
        return ValueTable(self.rows)

    @cached_property
    def codes(self) -> dict[str, np.ndarray]:
        """Each rule's outcome codes, decided on first need: a run wording every rule
        (the full JSON, the panel) reads none."""
        return {
            rule.id: rule_outcomes(self.pack, rule, self.table, self.tolerance)
            for rule in self.pack.rules
        }

    @cached_property
    def words(self) -> LeafWords:
        """The conditions worded from the leaves that decide them, row by row."""
        return LeafWords(self.table, self.pack.names)

    def outcome(
        self, position: int, unlisted_reasons: bool = True, words: bool = True
    ) -> ParcelOutcome:
        """The outcome of the parcel at ``position``, as ``evaluate_pack`` gives it.

        ``unlisted_reasons=False`` leaves the rules not triggered unworded, as a run
        that shows only the listed rules asks; ``words=False`` leaves every rule
        unworded (a parcel whose outcome is read, not shown).
        """
        if not words:
            listed = self._listed[position]
            return ParcelOutcome(
                self.pack,
                with_exemptions(
                    self.pack.rules,
                    {
                        rule.id: bare_trigger(rule, OUTCOMES[code])
                        for rule, code in zip(self.pack.rules, listed, strict=True)
                    },
                ),
            )
        values = self.rows[position]
        memo: dict = {}  # the parcel's values read once for all its rules
        leaf_words, table, names = self.words, self.table, self.pack.names

        def word(expr: Expression, tolerance: float) -> Evaluation:
            return leaf_words.evaluation(expr, tolerance, position, memo)

        def may_hold(expr: Expression) -> bool:
            return bool(decide_rows(expr, table, names, 0.0)[position] == TRUE)

        first: dict[str, Trigger] = {}
        listed = self._listed[position]
        for rule, code in zip(self.pack.rules, listed, strict=True):
            if unlisted_reasons or code != _NOT_TRIGGERED:
                first[rule.id] = trigger_of(rule, values, self.tolerance, word, may_hold)
            else:
                first[rule.id] = bare_trigger(rule, NOT_TRIGGERED)
        return ParcelOutcome(self.pack, with_exemptions(self.pack.rules, first))

    @cached_property
    def _listed(self) -> list[list[int]]:
        """Each row's code of every rule before exemptions, in the pack's order, as plain
        ints: read a row at a time (a rule's array indexed for each row took a tenth of
        the wording of 37,513 lots)."""
        codes = [self.codes[rule.id] for rule in self.pack.rules]
        if not codes:
            return [[] for _ in range(len(self.rows))]
        return np.stack(codes, axis=1).tolist()

    def unworded(self) -> list[dict[str, str]]:
        """Each parcel's outcome of every rule, exemptions applied, without reasons."""
        codes = exempted_codes(self.pack.rules, self.codes)
        return [
            {rule: OUTCOMES[found[row]] for rule, found in codes.items()}
            for row in range(len(self.rows))
        ]


class ParcelsAlone:
    """A pack's few parcels, each decided by the evaluator on its own
    (:data:`FEWEST_IN_COLUMNS`); read as :class:`DecidedPack` is."""

    def __init__(self, pack: Pack, rows: Sequence[Mapping[str, object]], tolerance: float) -> None:
        self.pack = pack
        self.rows = rows
        self.tolerance = tolerance

    def outcome(
        self, position: int, unlisted_reasons: bool = True, words: bool = True
    ) -> ParcelOutcome:
        """The outcome of the parcel at ``position`` (:meth:`DecidedPack.outcome`)."""
        return evaluate_pack(
            self.pack,
            self.rows[position],
            self.tolerance,
            words=words,
            unlisted_reasons=unlisted_reasons,
        )

    def unworded(self) -> list[dict[str, str]]:
        """Each parcel's outcome of every rule, exemptions applied, without reasons
        (:meth:`DecidedPack.unworded`)."""
        return [
            {
                trigger.rule.id: trigger.outcome
                for trigger in evaluate_pack(
                    self.pack, values, self.tolerance, words=False
                ).triggers
            }
            for values in self.rows
        ]


def decided_pack(
    pack: Pack, rows: Sequence[Mapping[str, object]], tolerance: float
) -> DecidedPack | ParcelsAlone:
    """The pack's rules for these parcels: in columns, or one parcel at a time where
    there are fewer than :data:`FEWEST_IN_COLUMNS`."""
    if len(rows) < FEWEST_IN_COLUMNS:
        return ParcelsAlone(pack, rows, tolerance)
    return DecidedPack(pack, rows, tolerance)
