"""Three-valued truth (Kleene logic) and the explained outcome of a condition."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import Enum


class Truth(Enum):
    """Whether a condition holds; UNKNOWN when a value is missing or too near a threshold."""

    FALSE = "false"
    UNKNOWN = "unknown"
    TRUE = "true"

    @classmethod
    def of(cls, value: bool) -> Truth:
        return cls.TRUE if value else cls.FALSE


# Kleene logic: 'and' is the minimum and 'or' the maximum in this order.
RANK = {Truth.FALSE: 0, Truth.UNKNOWN: 1, Truth.TRUE: 2}


def all_of(truths: Iterable[Truth]) -> Truth:
    """Kleene 'and': FALSE if any is FALSE, else UNKNOWN if any is UNKNOWN, else TRUE."""
    return min(truths, key=RANK.__getitem__, default=Truth.TRUE)


def any_of(truths: Iterable[Truth]) -> Truth:
    """Kleene 'or': TRUE if any is TRUE, else UNKNOWN if any is UNKNOWN, else FALSE."""
    return max(truths, key=RANK.__getitem__, default=Truth.FALSE)


def negated(truth: Truth) -> Truth:
    """Kleene 'not': swaps TRUE and FALSE, keeps UNKNOWN."""
    return {Truth.TRUE: Truth.FALSE, Truth.FALSE: Truth.TRUE}.get(truth, Truth.UNKNOWN)


@dataclass
class Evaluation:
    """The outcome of a condition for one parcel, and why.

    Attributes
    ----------
    truth : Truth
    reasons : list of str
        Sentences for the comparisons that decided the outcome.
    missing : list of str
        Labels of values that were null and left the outcome UNKNOWN.
    near : list of str
        Sentences for comparisons within the tolerance band of a threshold.
    """

    truth: Truth
    reasons: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    near: list[str] = field(default_factory=list)

    def negated(self) -> Evaluation:
        """``not``: the truth flips, and the facts behind it stay."""
        return Evaluation(
            negated(self.truth), list(self.reasons), list(self.missing), list(self.near)
        )


def combine(op: str, parts: list[Evaluation]) -> Evaluation:
    """Join ``and`` / ``or`` operands, keeping the explanations of those that decided.

    The deciding operands are those whose truth equals the result: every
    operand of a TRUE ``and`` or a FALSE ``or``, the FALSE ones of a FALSE
    ``and``, the TRUE ones of a TRUE ``or``, and the UNKNOWN ones otherwise.
    """
    truths = [part.truth for part in parts]
    truth = all_of(truths) if op == "and" else any_of(truths)
    deciding = [part for part in parts if part.truth is truth]
    return Evaluation(
        truth,
        _unique(reason for part in deciding for reason in part.reasons),
        _unique(label for part in deciding for label in part.missing),
        _unique(sentence for part in deciding for sentence in part.near),
    )


def _unique(items: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(items))
