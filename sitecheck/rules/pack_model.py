"""What a loaded rule pack is: its header, parameters, rules and runoff table."""

from __future__ import annotations

from dataclasses import dataclass, field

from sitecheck.errors import InputError
from sitecheck.rules.attributes import ATTRIBUTES
from sitecheck.rules.conditions import ListValue, NamedCondition, condition_name_info
from sitecheck.rules.language import NameInfo, Quantity
from sitecheck.rules.syntax import Expression, names_in
from sitecheck.schema.metrics import METRICS
from sitecheck.schema.storms import DesignRainfall


class PackError(InputError):
    """A rule pack that cannot be used; the message names the file, rule and line."""


def refuse_unknown_keys(table: dict, allowed: set[str], where: str) -> None:
    unknown = sorted(set(table) - allowed)
    if unknown:
        raise PackError(
            f"{where}: unknown key(s) {', '.join(unknown)}; allowed: {', '.join(sorted(allowed))}"
        )


ParameterValue = Quantity | str | bool | ListValue


@dataclass
class PackNames:
    """What a pack's conditions may name, filled as the pack is read.

    Attributes
    ----------
    infos : dict of str to NameInfo
        Metrics, attributes, parameters and named conditions, as the checker sees them.
    lists : dict of str to tuple
        List parameters, put in place after ``in`` and in ``unless``.
    conditions : dict of str to Expression
        Named conditions, each already with the lists and conditions it uses put in.
    written : list of NamedCondition
        The named conditions as the pack writes them.
    used : set of str
        Every parameter, list and condition some condition or ``unless`` names.
    """

    infos: dict[str, NameInfo]
    lists: dict[str, ListValue] = field(default_factory=dict)
    conditions: dict[str, Expression] = field(default_factory=dict)
    written: list[NamedCondition] = field(default_factory=list)
    used: set[str] = field(default_factory=set)

    def add_condition(self, entry: NamedCondition, expression: Expression) -> None:
        self.infos[entry.name] = condition_name_info(entry)
        self.conditions[entry.name] = expression
        self.written.append(entry)


@dataclass(frozen=True)
class Review:
    """Where the law is ambiguous at a rule's values: the condition and why (``review_when``)."""

    when_text: str
    when: Expression
    reason: str


@dataclass(frozen=True)
class Rule:
    """One requirement of the law and the condition that triggers it."""

    id: str
    citation: str
    title: str
    requirement: str
    quote: str
    when_text: str
    when: Expression
    severity: str
    requirements: tuple[str, ...] = ()
    design_storms: tuple[int, ...] = ()
    design_storm_years: int | None = None
    reviews: tuple[Review, ...] = ()
    discretion: str | None = None
    unless: tuple[str, ...] = ()
    line: int = 0

    def names(self) -> set[str]:
        """Every name the rule's conditions use."""
        used = names_in(self.when)
        for review in self.reviews:
            used |= names_in(review.when)
        return used

    @property
    def review_when_text(self) -> str | None:
        """The review conditions as written, joined by ``or`` (None without any)."""
        texts = [" ".join(review.when_text.split()) for review in self.reviews]
        return " | or | ".join(texts) if texts else None


@dataclass(frozen=True)
class RunoffSection:
    """What a pack says about the runoff screen (its ``[runoff]`` table).

    Attributes
    ----------
    unimproved_before_when : Expression or None
        Lots for which the "before" condition is the unimproved lot
        (Scarsdale § 254-7: SDA lots), in the rule language.
    unimproved_before_when_text : str or None
    unimproved_before_citation : str
    rainfall : DesignRainfall or None
        Design-storm depths of the pack; None for the bundled table (bundled
        packs) or none at all (then ``--rainfall`` must give them).
    """

    unimproved_before_when: Expression | None = None
    unimproved_before_when_text: str | None = None
    unimproved_before_citation: str = ""
    rainfall: DesignRainfall | None = None


@dataclass(frozen=True)
class MeasuringSection:
    """What a pack says about measuring (its ``[measuring]`` table).

    Attributes
    ----------
    adjoining_buffer_districts : tuple of str or None
        The zoning districts the adjoining property buffer applies in; None when the
        pack names none (then every lot has a buffer).
    adjoining_buffer_label : str
        The list parameter they come from, as the pack labels it.
    """

    adjoining_buffer_districts: tuple[str, ...] | None = None
    adjoining_buffer_label: str = ""


@dataclass(frozen=True)
class NotEvaluated:
    """A requirement of the law the pack does not evaluate, and why (shown to users)."""

    citation: str
    requirement: str
    reason: str

    def to_json(self) -> dict[str, str]:
        return {"citation": self.citation, "requirement": self.requirement, "reason": self.reason}


@dataclass(frozen=True)
class Pack:
    """An ordinance rule pack, checked and ready to evaluate."""

    id: str
    name: str
    chapter: str
    version: str
    amendments: tuple[str, ...]
    path: str
    sha256: str
    names: dict[str, NameInfo]
    rules: tuple[Rule, ...]
    notes: str = ""
    parameters: dict[str, ParameterValue] = field(default_factory=dict)
    runoff: RunoffSection = field(default_factory=RunoffSection)
    measuring: MeasuringSection = field(default_factory=MeasuringSection)
    not_evaluated: tuple[NotEvaluated, ...] = ()
    conditions: tuple[NamedCondition, ...] = ()
    warnings: tuple[str, ...] = ()

    @property
    def design_storms(self) -> tuple[int, ...]:
        """Every storm (years) a rule of the pack names, smallest first."""
        storms: set[int] = set()
        for rule in self.rules:
            storms.update(rule.design_storms)
            if rule.design_storm_years:
                storms.add(rule.design_storm_years)
        return tuple(sorted(storms))

    def audit(self) -> dict[str, object]:
        """What reports say about the pack used."""
        return {
            "id": self.id,
            "name": self.name,
            "chapter": self.chapter,
            "version": self.version,
            "amendments": list(self.amendments),
            "path": self.path,
            "sha256": self.sha256,
            "rule_count": len(self.rules),
            "not_evaluated": [item.to_json() for item in self.not_evaluated],
        }


def base_names() -> dict[str, NameInfo]:
    """Names every pack may use: the metrics and the project attributes."""
    names = {
        metric.name: NameInfo("number" if metric.kind == "share" else metric.kind, metric.label)
        for metric in METRICS
    }
    for attribute in ATTRIBUTES:
        names[attribute.name] = NameInfo(attribute.kind, attribute.label, measured=False)
    return names
