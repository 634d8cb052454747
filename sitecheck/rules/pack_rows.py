"""A pack's rules decided for many parcels at once, each parcel's reasons worded after.

:func:`sitecheck.rules.outcome.evaluate_pack` decides one parcel; a run decides
every parcel of a pack together (:mod:`sitecheck.rules.columnar`): one pass of
array operations per condition, then each parcel's outcome is put together from
the decided codes, with the reasons of the rules that are written from the
leaves that decide them (:mod:`sitecheck.rules.leaf_plans`). A run that words
only the listed rules (the compact JSON, the GeoPackage, a county's report)
words nothing for the rules a parcel does not trigger.
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
    trigger_of,
    with_exemptions,
)
from sitecheck.rules.pack_model import Pack, Rule
from sitecheck.rules.syntax import Expression
from sitecheck.rules.truth import Evaluation

OUTCOMES = (NOT_TRIGGERED, TRIGGERED, NEEDS_REVIEW)
"""The outcome of each code :func:`rule_outcomes` gives."""


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

    def outcome(self, position: int, unlisted_reasons: bool = True) -> ParcelOutcome:
        """The outcome of the parcel at ``position``, as ``evaluate_pack`` gives it.

        ``unlisted_reasons=False`` leaves the rules not triggered unworded, as a run
        that shows only the listed rules asks.
        """
        values = self.rows[position]
        memo: dict = {}  # the parcel's values read once for all its rules
        words, table, names = self.words, self.table, self.pack.names

        def word(expr: Expression, tolerance: float) -> Evaluation:
            return words.evaluation(expr, tolerance, position, memo)

        def may_hold(expr: Expression) -> bool:
            return bool(decide_rows(expr, table, names, 0.0)[position] == TRUE)

        first: dict[str, Trigger] = {}
        for rule in self.pack.rules:
            if unlisted_reasons or OUTCOMES[self.codes[rule.id][position]] != NOT_TRIGGERED:
                first[rule.id] = trigger_of(rule, values, self.tolerance, word, may_hold)
            else:
                first[rule.id] = bare_trigger(rule, NOT_TRIGGERED)
        return ParcelOutcome(self.pack, with_exemptions(self.pack.rules, first))
