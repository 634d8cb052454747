"""A parcel's reviews grouped by their cause, the most consequential first.

One missing field can put eight exemptions under review; listed rule by rule,
the question that changes what must be built (is a building permit sought?)
drowns among them. Grouped, each cause is asked once with the rules it decides,
and a cause that could raise the parcel's highest severity or its design storm
comes first.
"""

from __future__ import annotations

from dataclasses import dataclass

from sitecheck.rules.outcome import NEEDS_REVIEW, ParcelOutcome, Trigger
from sitecheck.schema.severities import SEVERITY_KEYS

RAISES_STORM, ADDS_STORM_RULE, RAISES_SEVERITY = (
    "design_storm",
    "storm_requirement",
    "highest_severity",
)


@dataclass(frozen=True)
class ReviewGroup:
    """One cause of review and the rules it decides.

    Attributes
    ----------
    cause : str
        What is missing or ambiguous ("activity not given (field 'activity' ...)").
    triggers : tuple of Trigger
        The rules under review for it, in pack order.
    could_raise : tuple of str
        What answering it could change: ``design_storm`` (a larger storm),
        ``storm_requirement`` (a rule sizing for a storm, such as an on-site
        retention offset, even of the same storm) and ``highest_severity``.
    """

    cause: str
    triggers: tuple[Trigger, ...]
    could_raise: tuple[str, ...]

    @property
    def citations(self) -> list[str]:
        return list(dict.fromkeys(t.rule.citation for t in self.triggers))

    @property
    def question(self) -> str:
        """One line: the cause and what it decides."""
        count = len(self.triggers)
        decides = f"decides {count} rule{'s' if count > 1 else ''}: {', '.join(self.citations)}"
        raised = {
            RAISES_STORM: "could raise the design storm",
            ADDS_STORM_RULE: "could add a design-storm requirement",
            RAISES_SEVERITY: "could raise the highest severity",
        }
        consequence = "; ".join(raised[key] for key in self.could_raise)
        return f"{self.cause}: {decides}" + (f" ({consequence})" if consequence else "")

    def to_json(self) -> dict[str, object]:
        return {
            "cause": self.cause,
            "question": self.question,
            "rule_ids": [t.rule.id for t in self.triggers],
            "citations": self.citations,
            "could_raise": list(self.could_raise),
        }


def review_groups(outcome: ParcelOutcome) -> list[ReviewGroup]:
    """The parcel's reviews by cause: first those that could raise the design storm (or add
    a rule sizing for one), then those that could raise the highest severity, then by the
    most demanding rule they decide, then by how many."""
    by_cause: dict[str, list[Trigger]] = {}
    for trigger in outcome.of(NEEDS_REVIEW):
        # A rule waiting on two inputs is listed under each: either answer may decide it.
        for cause in trigger.causes or (trigger.reason,):
            by_cause.setdefault(cause, []).append(trigger)
    highest = SEVERITY_KEYS.index(outcome.highest_severity) if outcome.highest_severity else -1
    storm = outcome.design_storm_years or 0
    groups = []
    for cause, triggers in by_cause.items():
        could_raise = []
        if any((t.rule.design_storm_years or 0) > storm for t in triggers):
            could_raise.append(RAISES_STORM)
        elif any(t.rule.design_storm_years for t in triggers):
            could_raise.append(ADDS_STORM_RULE)
        if any(SEVERITY_KEYS.index(t.rule.severity) > highest for t in triggers):
            could_raise.append(RAISES_SEVERITY)
        groups.append(ReviewGroup(cause, tuple(triggers), tuple(could_raise)))

    def consequence(group: ReviewGroup) -> tuple[bool, bool, int, int]:
        demanding = max(SEVERITY_KEYS.index(t.rule.severity) for t in group.triggers)
        return (
            RAISES_STORM not in group.could_raise and ADDS_STORM_RULE not in group.could_raise,
            RAISES_SEVERITY not in group.could_raise,
            -demanding,
            -len(group.triggers),
        )

    return sorted(groups, key=consequence)
