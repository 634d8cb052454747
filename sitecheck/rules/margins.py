"""How far a parcel is from the nearest threshold that would change what the law asks.

A consultant redesigning a plan wants to know: shave 80 sq ft off the
disturbance and the application is § 254-8's, not § 254-9's. For every area a
redesign can change (the disturbance, the work at one time, the impervious
cover, the work in each constraint area), the thresholds the pack compares it
with are collected from the rules' conditions; the nearest one at which the
law's answer changes (evaluated exactly, without the tolerance band) is the
parcel's margin, with the rules it would change.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from sitecheck.rules.evaluate import constant_value
from sitecheck.rules.language import Quantity, RuleLanguageError
from sitecheck.rules.outcome import evaluate_pack
from sitecheck.rules.pack_model import Pack
from sitecheck.rules.syntax import Comparison, Name, names_in, walk
from sitecheck.rules.wording import format_number
from sitecheck.schema.metrics import METRICS

# Areas a redesign changes; the lot's own area is not among them.
REDESIGNABLE: dict[str, str] = {
    metric.name: metric.label
    for metric in METRICS
    if metric.kind == "area" and metric.name not in ("lot_area_sqft", "impervious_existing_sqft")
}
STEP_SQFT = 1.0  # how far past a threshold the counterfactual goes ("at 1,499 sq ft")
MAX_CHANGES_SHOWN = 4
MAX_CITATIONS = 3


@dataclass(frozen=True)
class Change:
    """One rule whose outcome the margin would change."""

    rule_id: str
    citation: str
    title: str
    before: str
    after: str


@dataclass(frozen=True)
class Margin:
    """The nearest threshold of one redesignable area that changes a rule's outcome.

    Attributes
    ----------
    metric : str
    value_sqft, threshold_sqft : float
    moved_to_sqft : float
        The value at which the changes were found (the threshold, or 1 sq ft past it).
    changes : tuple of Change
    """

    metric: str
    value_sqft: float
    threshold_sqft: float
    moved_to_sqft: float
    changes: tuple[Change, ...]

    @property
    def distance_sqft(self) -> float:
        return abs(self.value_sqft - self.threshold_sqft)

    @property
    def direction(self) -> str:
        """``over`` when the value is above the threshold, else ``under`` (``at`` when equal)."""
        if self.value_sqft == self.threshold_sqft:
            return "at"
        return "over" if self.value_sqft > self.threshold_sqft else "under"

    @property
    def text(self) -> str:
        """ "disturbed 1,580 sq ft: 80 sq ft over the 1,500 sq ft of § 254-9; at 1,500 sq ft: ..."."""
        label = REDESIGNABLE.get(self.metric, self.metric)
        cited = list(dict.fromkeys(change.citation for change in self.changes))
        citations = ", ".join(cited[:MAX_CITATIONS]) + (
            f" and {len(cited) - MAX_CITATIONS} more" if len(cited) > MAX_CITATIONS else ""
        )
        head = f"{label} {_sqft(self.value_sqft)}: "
        if self.direction == "at":
            head += f"at the {_sqft(self.threshold_sqft)} of {citations}"
        else:
            head += (
                f"{_sqft(self.distance_sqft)} {self.direction} the "
                f"{_sqft(self.threshold_sqft)} of {citations}"
            )
        shown = [
            f"{c.citation} {c.title}: {c.before.replace('_', ' ')} -> {c.after.replace('_', ' ')}"
            for c in self.changes[:MAX_CHANGES_SHOWN]
        ]
        if len(self.changes) > MAX_CHANGES_SHOWN:
            shown.append(f"and {len(self.changes) - MAX_CHANGES_SHOWN} more")
        return f"{head}; at {_sqft(self.moved_to_sqft)}: {'; '.join(shown)}"

    def to_json(self) -> dict[str, object]:
        return {
            "metric": self.metric,
            "value_sqft": round(self.value_sqft, 2),
            "threshold_sqft": round(self.threshold_sqft, 2),
            "distance_sqft": round(self.distance_sqft, 2),
            "direction": self.direction,
            "moved_to_sqft": round(self.moved_to_sqft, 2),
            "changes": [
                {"rule_id": c.rule_id, "citation": c.citation, "from": c.before, "to": c.after}
                for c in self.changes
            ],
            "text": self.text,
        }


def _sqft(value: float) -> str:
    return f"{format_number(value, 0 if abs(value) >= 10 else 2)} sq ft"


def pack_thresholds(pack: Pack) -> dict[str, list[float]]:
    """Per redesignable area, every constant the pack compares it with (sq ft), sorted."""
    cached = pack.__dict__.get("_thresholds")
    if cached is not None:
        return cached
    found: dict[str, set[float]] = {}
    for rule in pack.rules:
        for condition in (rule.when, *(review.when for review in rule.reviews)):
            for node in walk(condition):
                if not isinstance(node, Comparison):
                    continue
                for side, other in ((node.left, node.right), (node.right, node.left)):
                    if not (isinstance(side, Name) and side.name in REDESIGNABLE):
                        continue
                    if names_in(other) - {n for n, i in pack.names.items() if i.is_constant}:
                        continue  # compared with another measurement, not a threshold
                    try:
                        value = constant_value(other, pack.names)
                    except RuleLanguageError:
                        continue
                    if isinstance(value, Quantity) and value.dimension == "area":
                        found.setdefault(side.name, set()).add(float(value.value))
    thresholds = {name: sorted(values) for name, values in found.items()}
    object.__setattr__(pack, "_thresholds", thresholds)
    return thresholds


def nearest_margins(pack: Pack, values: Mapping[str, object]) -> list[Margin]:
    """Per redesignable area, the nearest threshold that changes a rule's outcome; nearest first.

    An area that is 0 is not held against a threshold of 0 (no work there to
    take out; any work there would count, which its rules already say).

    Parameters
    ----------
    pack : Pack
    values : mapping
        The parcel's metric and attribute values, as :func:`evaluate_pack` takes them.
    """
    baseline = {
        t.rule.id: t.outcome for t in evaluate_pack(pack, values, 0.0, words=False).triggers
    }
    margins = []
    for metric, thresholds in pack_thresholds(pack).items():
        value = values.get(metric)
        if not isinstance(value, int | float) or isinstance(value, bool) or value != value:
            continue
        candidates = sorted(
            (abs(float(value) - t), t) for t in thresholds if not (value == 0 and t == 0)
        )
        margin = _first_change(pack, values, metric, float(value), candidates, baseline)
        if margin is not None:
            margins.append(margin)
    return sorted(margins, key=lambda m: m.distance_sqft)


def _first_change(
    pack: Pack,
    values: Mapping[str, object],
    metric: str,
    value: float,
    candidates: list[tuple[float, float]],
    baseline: dict[str, str],
) -> Margin | None:
    for _, threshold in candidates:
        for moved in _across(value, threshold):
            changes = _changes(pack, values, metric, moved, baseline)
            if changes:
                return Margin(metric, value, threshold, moved, changes)
    return None


def _across(value: float, threshold: float) -> tuple[float, ...]:
    """Where to look past a threshold: going down, a step under it (never below 0); going
    up, at it and then a step over it."""
    if value > threshold:
        # A step under the threshold flips both "> T" and ">= T"; at T only "> T" flips.
        steps: tuple[float, ...] = (
            (threshold - STEP_SQFT,) if threshold >= STEP_SQFT else (threshold,)
        )
    elif value < threshold:
        steps = (threshold, threshold + STEP_SQFT)
    else:
        steps = (threshold - STEP_SQFT, threshold + STEP_SQFT)
    return tuple(step for step in steps if step >= 0)


def affected_rules(pack: Pack, metric: str) -> frozenset[str]:
    """The rules whose outcome a metric can change: those naming it, and those an
    exemption among them can switch off."""
    cache = pack.__dict__.setdefault("_affected", {})
    if metric in cache:
        return cache[metric]
    affected = {rule.id for rule in pack.rules if metric in rule.names()}
    grew = True
    while grew:
        more = {r.id for r in pack.rules if r.id not in affected and set(r.unless) & affected}
        affected |= more
        grew = bool(more)
    cache[metric] = frozenset(affected)
    return cache[metric]


def _changes(
    pack: Pack, values: Mapping[str, object], metric: str, moved: float, baseline: dict[str, str]
) -> tuple[Change, ...]:
    trial = dict(values)
    trial[metric] = moved
    changed = []
    affected = affected_rules(pack, metric)
    for trigger in evaluate_pack(pack, trial, 0.0, affected, words=False).triggers:
        before = baseline[trigger.rule.id]
        if trigger.outcome != before:
            rule = trigger.rule
            changed.append(Change(rule.id, rule.citation, rule.title, before, trigger.outcome))
    return tuple(changed)
