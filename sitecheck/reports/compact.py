"""The compact layout of a check's JSON, and its newline-delimited form.

The full layout describes every rule of the pack under every parcel: its title,
quoted law, requirements and storms, with a sentence for each rule the parcel
does not trigger. At county scale that is tens of kilobytes a parcel, most of it
the same text again. The compact layout says each thing once:

- ``rules`` describes every rule of the packs in use, once (id, pack, citation,
  title, severity, requirement, requirements, quote, design storms);
- ``metric_columns`` names the metrics, and a parcel's ``metrics`` is the list of
  its values in that order (null where not measured);
- a parcel lists under ``triggers`` only the rules it triggers or puts under
  review, each with its rule id, outcome and the indices of the ``facts`` that
  decided it (the parcel's facts are listed once: several rules rest on the same
  "disturbed 1,605 sq ft > 500 sq ft"); ``reason`` is given where the reason says
  more than its facts (a review's question, an exemption), else it is the facts
  joined by "; ". A rule of the parcel's pack that is not listed was evaluated
  and not triggered;
- reviews are grouped by cause as in the full layout, and the nearest threshold
  is ``margin`` (the full layout lists every area's in ``margins``);
- metrics are rounded to what a screening can claim: areas to 0.01 sq ft, runoff
  volumes to the cubic foot, curve numbers to a tenth, peaks to 0.001 cfs; a whole
  number is written without its ".0";
- ``projects`` lists the projects checked on a site of several lots; a project
  that is its lot alone is that lot's entry, whose ``projects`` names it;
- a parcel's design storm is its ``design_storm_years`` (and
  ``design_storm_review_years``); the full layout and the GeoPackage also word it
  (``design_storm``: "50, or 100: review");
- the runoff screen's text metric (``runoff_note``) is a key of the parcel's own,
  not a column: it is null for nearly every parcel;
- keys whose value is null or empty are left out.

The newline-delimited form (``--jsonl``) writes one parcel a line, each line
whole in itself: the run id, metrics by name, and each listed rule's citation
and reason.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from functools import cache

from sitecheck.io.writers import Streamed
from sitecheck.rules.margins import Margin
from sitecheck.rules.outcome import NOT_TRIGGERED, ParcelOutcome
from sitecheck.rules.pack_model import Pack
from sitecheck.rules.review_groups import ReviewGroup
from sitecheck.schema.metrics import RUNOFF_METRICS

COMPACT, FULL = "compact", "full"


def layouts_written(json_layout: str, json: bool, jsonl: bool) -> tuple[str, ...]:
    """The layouts a run builds: the ``--json`` document's, and the compact one the
    ``--jsonl`` lines are made from (each once)."""
    wanted = ((json_layout,) if json else ()) + ((COMPACT,) if jsonl else ())
    return tuple(dict.fromkeys(wanted))


def rule_descriptions(packs: Iterable[Pack]) -> list[dict[str, object]]:
    """Every rule of the packs, described once: the compact layout's ``rules``."""
    return [
        {
            "rule_id": rule.id,
            "pack": pack.id,
            "citation": rule.citation,
            "title": rule.title,
            "severity": rule.severity,
            "requirement": rule.requirement,
            "requirements": list(rule.requirements),
            "quote": rule.quote,
            "design_storms": list(rule.design_storms),
        }
        for pack in packs
        for rule in pack.rules
    ]


def listed_triggers(outcome: ParcelOutcome) -> tuple[list[str], list[dict[str, object]]]:
    """The parcel's facts, each once, and the rules it triggers or puts under review.

    Returns
    -------
    facts : list of str
    triggers : list of dict
        ``rule_id``, ``outcome``, ``facts`` (indices into ``facts``) and, where the
        reason says more than its facts, ``reason``.
    """
    index: dict[str, int] = {}
    listed = []
    for trigger in outcome.triggers:
        if trigger.outcome == NOT_TRIGGERED:
            continue
        entry: dict[str, object] = {
            "rule_id": trigger.rule.id,
            "outcome": trigger.outcome,
            "facts": [index.setdefault(fact, len(index)) for fact in trigger.facts],
        }
        if trigger.note is not None:
            entry["reason"] = trigger.note
        listed.append(entry)
    return list(index), listed


def compact_review(group: ReviewGroup) -> dict[str, object]:
    """A review group without what the rules section already says (citations, the question)."""
    return {
        "cause": group.cause,
        "rule_ids": [trigger.rule.id for trigger in group.triggers],
        "could_raise": list(group.could_raise),
    }


def compact_margin(margin: Margin) -> dict[str, object]:
    """The nearest threshold: the area (its value is the parcel's metric), the threshold, and
    each rule's outcome there."""
    return {
        "metric": margin.metric,
        "threshold_sqft": round(margin.threshold_sqft, 2),
        "direction": margin.direction,
        "changes": {change.rule_id: change.after for change in margin.changes},
    }


def rule_fields(
    outcome: ParcelOutcome, groups: Sequence[ReviewGroup], margins: Sequence[Margin]
) -> dict[str, object]:
    """A parcel's (or project's) compact keys that come from its rules."""
    facts, triggers = listed_triggers(outcome)
    return {
        "facts": facts,
        "triggers": triggers,
        "reviews": [compact_review(group) for group in groups],
        "margin": compact_margin(margins[0]) if margins else None,
    }


@cache
def _decimals(name: str) -> int | None:
    """The decimals the compact layout keeps of a metric (None: a whole number): runoff
    volumes to the cubic foot and curve numbers to a tenth (a screening's precision;
    TR-55 reads its charts no closer), peaks to 0.001 cfs, acres to 0.0001, areas to
    0.01 sq ft (as they are measured)."""
    if "_cuft" in name:  # runoff_pre_cuft_25yr, retention_required_cuft, wqv_cuft
        return None
    if name.startswith("cn_"):
        return 1
    if "_cfs_" in name:
        return 3
    if name.endswith("_acres"):
        return 4
    return 2


@cache
def _column_decimals(columns: tuple[str, ...]) -> tuple[int | None, ...]:
    """The decimals of each of a layout's metric columns (:func:`_decimals`), found once."""
    return tuple(map(_decimals, columns))


def _compact_value(value: object, decimals: int | None) -> object:
    """A metric as the compact layout lists it: a float rounded (:func:`_rounded_float`),
    a whole one, most of a county's (0 sq ft of floodplain), straight to its int."""
    if not isinstance(value, float):
        return value
    if value.is_integer():  # rounding a whole number leaves it as it is
        return int(value)
    return _rounded_float(value, decimals)


def _rounded_float(value: float, decimals: int | None) -> int | float:
    """A metric rounded to its decimals; a whole number without its ".0" (most areas of a
    lot without constraints are 0)."""
    if decimals is None:
        return round(value)
    kept = round(value, decimals)
    return int(kept) if kept.is_integer() else kept


TEXT_METRICS = tuple(metric.name for metric in RUNOFF_METRICS if metric.kind == "text")
"""The runoff screen's notes: keys of the parcel's own in the compact layout, where not null
(a column would be null for nearly every parcel)."""


def compact_columns(columns: Sequence[str]) -> list[str]:
    """The compact layout's ``metric_columns`` of a run's metrics: all but the text ones."""
    return [name for name in columns if name not in TEXT_METRICS]


def compacted(entry: dict[str, object], columns: Sequence[str]) -> dict[str, object]:
    """An entry with its metrics as a list in ``columns`` order (its text metrics as keys of
    their own) and its empty keys left out."""
    metrics = entry.get("metrics") or {}
    assert isinstance(metrics, dict)
    out: dict[str, object] = {}
    for key, value in entry.items():
        if key == "metrics":
            out[key] = list(
                map(_compact_value, map(metrics.get, columns), _column_decimals(tuple(columns)))
            )
            for name in TEXT_METRICS:
                if metrics.get(name) is not None:
                    out[name] = metrics[name]
        elif key == "attributes" and isinstance(value, dict):
            kept = {name: held for name, held in value.items() if held is not None}
            if kept:
                out[key] = kept
        elif value is not None and value != [] and value != {}:
            out[key] = value
    return out


def line_record(
    entry: dict[str, object], columns: Sequence[str], citations: dict[str, str], run_id: str
) -> dict[str, object]:
    """A compact entry as one line of ``--jsonl``: whole in itself, metrics by name, and each
    listed rule with its citation and reason."""
    values = entry.get("metrics")
    assert isinstance(values, list)
    facts = entry.get("facts", [])
    assert isinstance(facts, list)
    record: dict[str, object] = {"run_id": run_id}
    for key, value in entry.items():
        if key == "metrics":
            record[key] = {
                name: v for name, v in zip(columns, values, strict=True) if v is not None
            }
        elif key == "triggers":
            assert isinstance(value, list)
            record[key] = [_with_reason(trigger, facts, citations) for trigger in value]
        elif key != "facts":
            record[key] = value
    return record


def _with_reason(
    trigger: dict[str, object], facts: list[str], citations: dict[str, str]
) -> dict[str, object]:
    rule_id = str(trigger["rule_id"])
    return {
        "rule_id": rule_id,
        "citation": citations.get(rule_id),
        "outcome": trigger["outcome"],
        "reason": reason_of(trigger, facts),
    }


def reason_of(trigger: dict[str, object], facts: Sequence[str]) -> str:
    """A compact trigger's reason: its own, else its facts joined by "; "."""
    indices = trigger.get("facts", [])
    assert isinstance(indices, list)
    given = trigger.get("reason")
    return str(given) if given else "; ".join(facts[i] for i in indices)


def line_records(document: dict[str, object]) -> Iterator[dict[str, object]]:
    """The ``--jsonl`` lines of a compact document: each parcel, then each project checked on
    a site of several lots (a project that is its lot alone is that lot's line)."""
    columns = document["metric_columns"]
    assert isinstance(columns, list)
    rules = document.get("rules") or []
    assert isinstance(rules, list)
    citations = rule_citations(rules)
    run_id = str(document["run_id"])
    for key in ("parcels", "projects"):
        entries = document.get(key) or []
        assert isinstance(entries, list | Streamed)  # Streamed: made as they are written
        for entry in entries:
            yield line_record(entry, columns, citations, run_id)


def rule_citations(rules: Sequence[dict[str, object]]) -> dict[str, str]:
    """Each described rule's citation, by rule id."""
    return {str(rule["rule_id"]): str(rule["citation"]) for rule in rules}
