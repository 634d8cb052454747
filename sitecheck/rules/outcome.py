"""Evaluate a pack's rules for one parcel: triggered, not triggered or needs review.

A rule is ``needs_review`` when an input it needs is missing, when a measured
value lies within the tolerance band of its threshold, or when the law itself
is ambiguous at the parcel's values (the rule's ``review_when``), or when the law
leaves the decision to an officer (the rule's ``discretion``: "may be exempt").
A rule whose ``unless`` names an exemption that applies is not triggered, and
says so; an exemption left to an officer switches nothing off.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cached_property

from sitecheck.rules.attributes import ATTRIBUTES, UNREADABLE, unreadable_words
from sitecheck.rules.decide import decide
from sitecheck.rules.language import Truth, evaluate
from sitecheck.rules.pack_model import Pack, Rule
from sitecheck.rules.syntax import Expression
from sitecheck.rules.truth import Evaluation
from sitecheck.schema.metrics import METRICS
from sitecheck.schema.roles import ROLE_BY_KEY
from sitecheck.schema.severities import SEVERITY_KEYS
from sitecheck.schema.storms import storm_summary

TRIGGERED, NOT_TRIGGERED, NEEDS_REVIEW = "triggered", "not_triggered", "needs_review"


def _missing_phrases() -> dict[str, str]:
    phrases: dict[str, str] = {}
    for metric in METRICS:
        if metric.needs:
            first_input = metric.needs.split("+")[0]
            role = ROLE_BY_KEY.get(first_input)
            words = role.missing if role is not None and role.missing else "not measured"
            phrases[metric.label] = f"{metric.label}: {words}"
    for attribute in ATTRIBUTES:
        phrases[attribute.label] = (
            f"{attribute.label} not given (field '{attribute.name}' on the disturbance or parcel)"
        )
    return phrases


MISSING_PHRASES = _missing_phrases()


def _missing_causes() -> dict[str, str]:
    """The input each missing value comes from, as a review group names it: one cause for
    every metric a layer gives ("no wetlands layer was given")."""
    causes = {label: phrase.split(": ", 1)[-1] for label, phrase in MISSING_PHRASES.items()}
    for attribute in ATTRIBUTES:
        causes[attribute.label] = MISSING_PHRASES[attribute.label]
    return causes


MISSING_CAUSES = _missing_causes()
_ATTRIBUTE_BY_LABEL = {attribute.label: attribute for attribute in ATTRIBUTES}


def _missing_words(label: str, held: Mapping[str, str], phrases: Mapping[str, str]) -> str:
    """Why a value is unknown: what its field held when that is no value the rules know."""
    if label in held and label in _ATTRIBUTE_BY_LABEL:
        return unreadable_words(_ATTRIBUTE_BY_LABEL[label], held[label])
    return phrases.get(label, f"{label} not given")


@dataclass(frozen=True)
class Trigger:
    """The outcome of one rule for one parcel.

    Attributes
    ----------
    rule : Rule
    outcome : str
        ``triggered``, ``not_triggered`` or ``needs_review``.
    facts : tuple of str
        The clauses of the rule's condition that decided it ("disturbed 5,310 sq ft >
        5,000 sq ft"); a parcel's rules share many, which the compact JSON lists once.
    note : str or None
        The reason, where it says more than its facts (a review's question, an
        exemption); without one the reason is the facts joined by "; ".
    causes : tuple of str
        Why a review is needed, shared by rules asking the same.
    """

    rule: Rule
    outcome: str
    facts: tuple[str, ...] = ()
    note: str | None = None
    causes: tuple[str, ...] = ()

    @property
    def reason(self) -> str:
        """Why the rule came out so, in one sentence."""
        return self.note if self.note is not None else "; ".join(self.facts)

    def to_json(self) -> dict[str, object]:
        return {
            "rule_id": self.rule.id,
            "citation": self.rule.citation,
            "title": self.rule.title,
            "outcome": self.outcome,
            "severity": self.rule.severity,
            "reason": self.reason,
            "requirements": list(self.rule.requirements),
            "requirement": self.rule.requirement,
            "quote": self.rule.quote,
            "design_storms": list(self.rule.design_storms),
        }


@dataclass(frozen=True)
class ParcelOutcome:
    """Every rule's outcome for a parcel, and what they add up to."""

    pack: Pack
    triggers: tuple[Trigger, ...]

    def of(self, outcome: str) -> list[Trigger]:
        """The triggers with this outcome, in the pack's order."""
        return list(self._by_outcome.get(outcome, ()))

    @cached_property
    def _by_outcome(self) -> dict[str, tuple[Trigger, ...]]:
        # Grouped once: the GeoPackage columns, the JSON and the report each ask a
        # county's every outcome for its triggered and its review rules, many times.
        grouped: dict[str, list[Trigger]] = {}
        for trigger in self.triggers:
            grouped.setdefault(trigger.outcome, []).append(trigger)
        return {outcome: tuple(triggers) for outcome, triggers in grouped.items()}

    @cached_property
    def highest_severity(self) -> str | None:
        """The most demanding severity among triggered rules (None when none triggered)."""
        triggered = self.of(TRIGGERED)
        if not triggered:
            return None
        return max((t.rule.severity for t in triggered), key=SEVERITY_KEYS.index)

    @cached_property
    def design_storm_years(self) -> int | None:
        """The storm the site must accommodate or offset: the largest a triggered rule names."""
        storms = [
            t.rule.design_storm_years for t in self.of(TRIGGERED) if t.rule.design_storm_years
        ]
        return max(storms) if storms else None

    @cached_property
    def design_storm_review_years(self) -> tuple[int, ...]:
        """Larger storms that rules under review would set (Larchmont § 335-28A over an acre)."""
        governing = self.design_storm_years or 0
        return tuple(
            sorted(
                {
                    t.rule.design_storm_years
                    for t in self.of(NEEDS_REVIEW)
                    if t.rule.design_storm_years and t.rule.design_storm_years > governing
                }
            )
        )

    @property
    def design_storm(self) -> str:
        """The design storm as every output words it: ``"50"``, ``"50, or 100: review"``."""
        return storm_summary(self.design_storm_years, self.design_storm_review_years)

    def summary(self) -> str:
        """One line for an attribute table: triggered citations, then what needs review."""
        if not self.triggers:  # most lots of a county: no work, no rule listed
            return ""
        triggered = [f"{t.rule.citation} {t.rule.title}" for t in self.of(TRIGGERED)]
        review = [f"{t.rule.citation} {t.rule.title}" for t in self.of(NEEDS_REVIEW)]
        parts = []
        if triggered:
            parts.append("; ".join(triggered))
        if review:
            parts.append("REVIEW: " + "; ".join(review))
        return " | ".join(parts)


def evaluate_pack(
    pack: Pack,
    values: Mapping[str, object],
    tolerance: float = 0.02,
    only: frozenset[str] | None = None,
    words: bool = True,
    unlisted_reasons: bool = True,
) -> ParcelOutcome:
    """Evaluate every rule of a pack for one parcel's metrics and attributes.

    Parameters
    ----------
    pack : Pack
    values : mapping
        Metric values (sq ft, percent, booleans, text; None when missing) and
        project attributes.
    tolerance : float
        Relative band around thresholds that gives ``needs_review``.
    only : frozenset of str, optional
        Evaluate these rules only (with the exemptions they name); the outcome
        then lists just them.
    words : bool
        False for the outcomes alone, without their reasons (margins try many values
        and read only the outcomes).
    unlisted_reasons : bool
        False to leave out the reasons of the rules not triggered, which only the full
        JSON layout and a report's detailed sections show: a county's run words
        the listed rules only.
    """
    rules = pack.rules if only is None else tuple(r for r in pack.rules if r.id in only)
    needed = {rule.id for rule in rules} | {other for rule in rules for other in rule.unless}
    memo: dict = {}  # one parcel's values: shared subtrees (named conditions) decided once

    def outcome_of(rule: Rule) -> Trigger:
        if words and unlisted_reasons:
            return worded_trigger(pack, rule, values, tolerance, memo)
        bare = bare_trigger(rule, _decide_rule(pack, rule, values, tolerance, memo))
        if words and bare.outcome != NOT_TRIGGERED:  # a listed rule: worded
            return worded_trigger(pack, rule, values, tolerance, memo)
        return bare

    first = {rule.id: outcome_of(rule) for rule in pack.rules if rule.id in needed}
    return ParcelOutcome(pack, with_exemptions(rules, first))


def with_exemptions(rules: tuple[Rule, ...], first: Mapping[str, Trigger]) -> tuple[Trigger, ...]:
    """Each rule's outcome once the exemptions its ``unless`` names are applied: a rule an
    exemption switches off is not triggered, and says under which."""
    final = []
    for rule in rules:
        trigger = first[rule.id]
        if rule.unless and trigger.outcome != NOT_TRIGGERED:
            exemptions = [first[o] for o in rule.unless if first[o].outcome == TRIGGERED]
            if exemptions:
                cited = ", ".join(f"{e.rule.citation} ({e.rule.title})" for e in exemptions)
                trigger = Trigger(rule, NOT_TRIGGERED, note=f"exempt under {cited}")
        final.append(trigger)
    return tuple(final)


def bare_trigger(rule: Rule, outcome: str) -> Trigger:
    """A rule's outcome without reasons, one object per rule and outcome: a county's run
    holds one for each rule of each parcel with work, most of them not triggered."""
    shared: dict[str, Trigger] = rule.__dict__.setdefault("_bare_triggers", {})
    if outcome not in shared:
        shared[outcome] = Trigger(rule, outcome)
    return shared[outcome]


def _decide_rule(
    pack: Pack, rule: Rule, values: Mapping[str, object], tolerance: float, memo: dict
) -> str:
    """The rule's outcome alone, before exemptions: what :func:`_evaluate_rule` decides,
    without its reasons."""
    for review in rule.reviews:
        if decide(review.when, values, pack.names, 0.0, memo) is Truth.TRUE:
            return NEEDS_REVIEW
    truth = decide(rule.when, values, pack.names, tolerance, memo)
    if truth is Truth.TRUE:
        return NEEDS_REVIEW if rule.discretion else TRIGGERED
    return NOT_TRIGGERED if truth is Truth.FALSE else NEEDS_REVIEW


def worded_trigger(
    pack: Pack,
    rule: Rule,
    values: Mapping[str, object],
    tolerance: float,
    memo: dict | None = None,
) -> Trigger:
    """One rule's outcome for one parcel with its reasons, before exemptions."""
    known_memo: dict = {} if memo is None else memo

    def word(expr: Expression, at_tolerance: float) -> Evaluation:
        return evaluate(expr, values, pack.names, at_tolerance, memo=known_memo)

    return trigger_of(rule, values, tolerance, word, lambda expr: True)


def trigger_of(
    rule: Rule,
    values: Mapping[str, object],
    tolerance: float,
    word: Callable[[Expression, float], Evaluation],
    may_hold: Callable[[Expression], bool],
) -> Trigger:
    """A rule's trigger from its conditions as worded by ``word`` (a condition and the
    tolerance it is decided at); a review whose condition ``may_hold`` says does not
    hold is passed over unworded."""
    for review in rule.reviews:
        if not may_hold(review.when):
            continue
        ambiguity = word(review.when, 0.0)
        if ambiguity.truth is Truth.TRUE:
            facts = "; ".join(ambiguity.reasons)
            return Trigger(
                rule,
                NEEDS_REVIEW,
                tuple(ambiguity.reasons),
                f"{review.reason} ({facts})" if facts else review.reason,
                (review.reason,),
            )
    result = word(rule.when, tolerance)
    if result.truth is Truth.TRUE and rule.discretion:
        # The law leaves it to an officer ("may be exempt"): a question, never a finding,
        # so the rules it would switch off stay listed.
        return Trigger(
            rule,
            NEEDS_REVIEW,
            tuple(result.reasons),
            f"{rule.discretion} ({'; '.join(result.reasons)})",
            (rule.discretion,),
        )
    if result.truth is Truth.TRUE:
        return Trigger(rule, TRIGGERED, tuple(result.reasons))
    if result.truth is Truth.FALSE:
        return Trigger(rule, NOT_TRIGGERED, tuple(result.reasons))
    held = values.get(UNREADABLE) or {}
    assert isinstance(held, dict)
    why = [_missing_words(label, held, MISSING_PHRASES) for label in result.missing]
    why += result.near
    missing = [_missing_words(label, held, MISSING_CAUSES) for label in result.missing]
    causes = tuple(dict.fromkeys([*missing, *result.near])) or (rule.title,)
    if why:
        return Trigger(rule, NEEDS_REVIEW, note="; ".join(why), causes=causes)
    return Trigger(rule, NEEDS_REVIEW, tuple(result.reasons), causes=causes)
