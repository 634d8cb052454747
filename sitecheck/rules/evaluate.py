"""Evaluate a checked condition for one parcel, with reasons.

Values are three-valued: a null input makes the comparisons that use it
UNKNOWN, and so does a measured value within the tolerance band of the value
it is compared with. A value of the wrong type or a division by zero also
gives UNKNOWN with a reason, never an exception, so one odd parcel cannot stop
a run.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import cast

from sitecheck.rules import operations
from sitecheck.rules import syntax as node
from sitecheck.rules.errors import RuleLanguageError
from sitecheck.rules.names import NameInfo, is_null
from sitecheck.rules.operations import Gap, Result, Value, known, shown
from sitecheck.rules.ranges import HOLDS, OPERATOR_WORDS, SAME, at_end, deciding_ends, same_value
from sitecheck.rules.ranges import relation as relation_of
from sitecheck.rules.syntax import Expression, names_of
from sitecheck.rules.truth import Evaluation, Truth, combine
from sitecheck.rules.units import Quantity
from sitecheck.rules.wording import format_pair, format_share, margin_words, plain_value, side_words
from sitecheck.schema.metrics import SQFT_PER_ACRE


def evaluate(
    expr: Expression,
    values: Mapping[str, object],
    names: Mapping[str, NameInfo],
    tolerance: float = 0.02,
    words: bool = True,
    memo: dict | None = None,
) -> Evaluation:
    """Evaluate a condition for one parcel.

    Parameters
    ----------
    expr : Expression
        A condition that passed :func:`sitecheck.rules.checker.check`.
    values : mapping
        Metric and attribute values: floats in base units (sq ft, ft, percent
        points, inches), str, bool, or None when missing. Absent names are missing.
    names : mapping of str to NameInfo
        Kinds and labels; pack parameters carry their value as ``constant``.
    tolerance : float
        Relative half-width of the band around a threshold within which a
        measured value gives UNKNOWN. 0 disables the band.
    words : bool
        False to decide only the truth, without the sentences of the reasons
        (margins try many values and read no reason).
    memo : dict, optional
        Shared by the conditions of one parcel's evaluation: a named condition
        used by many rules is the same subtree, evaluated once per parcel.
    """
    return _Evaluator(values, names, tolerance, words, memo).truth_of(expr)


def constant_value(expr: Expression, names: Mapping[str, NameInfo]) -> Value:
    """The value of an expression that needs no parcel, such as ``1/2 acre``.

    Raises
    ------
    RuleLanguageError
        When the value cannot be had, as for ``1 / 0``.
    """
    result = _Evaluator({}, names, 0.0).value_of(expr)
    if isinstance(result, Gap):
        raise RuleLanguageError("; ".join(result.reasons or result.missing), expr.start)
    return result


@dataclass
class _Side:
    """Facts of an expression that depend on the pack only; a constant's value once known."""

    constant: bool
    measured: bool
    label: str | None
    value: Result | None = None


_ONE_ACRE_AT_LEAST = SQFT_PER_ACRE * (1 - SAME)


def _shows_acres(sides: tuple[_Side, _Side], values: tuple[Quantity, Quantity]) -> bool:
    """Whether a constant side was written in acres and is at least one acre (a loop, not
    any() over a generator: a county's run asks it of every comparison it words)."""
    for side, value in zip(sides, values, strict=True):
        if side.constant and value.unit == "acre" and abs(value.value) >= _ONE_ACRE_AT_LEAST:
            return True
    return False


def _unknown(gap: Gap) -> Evaluation:
    return Evaluation(Truth.UNKNOWN, list(gap.reasons), list(gap.missing))


class _Evaluator:
    def __init__(
        self,
        values: Mapping[str, object],
        names: Mapping[str, NameInfo],
        tolerance: float,
        words: bool = True,
        memo: dict | None = None,
    ) -> None:
        self.values = values
        self.names = names
        self.tolerance = tolerance
        self.words = words
        self.memo = memo

    def truth_of(self, expr: Expression) -> Evaluation:
        if self.memo is None or not isinstance(expr, node.Logic | node.Comparison):
            return self.decide(expr)
        key = (id(expr), self.tolerance, self.words)
        found = self.memo.get(key)
        if found is None:
            found = self.memo[key] = (expr, self.decide(expr))  # the node kept: ids stay unique
        return cast(Evaluation, found[1])

    def decide(self, expr: Expression) -> Evaluation:
        match expr:
            case node.Logic():
                return combine(expr.op, [self.truth_of(operand) for operand in expr.operands])
            case node.Not():
                return self.truth_of(expr.operand).negated()
            case node.Comparison():
                return self.comparison(expr)
            case node.Membership():
                return self.membership(expr)
            case node.NullTest():
                return self.null_test(expr)
            case node.Name():
                return self.boolean_name(expr)
        value = self.value_of(expr)
        if isinstance(value, Gap):
            return _unknown(value)
        if isinstance(value, bool):
            return Evaluation(Truth.of(value))
        return Evaluation(Truth.UNKNOWN, [f"{expr.text} is {shown(value)}, not true or false"])

    def value_of(self, expr: Expression) -> Result:
        side = self.side(expr)
        if side.constant:
            if side.value is None:
                side.value = self.compute(expr)
            return side.value
        return self.compute(expr)

    def compute(self, expr: Expression) -> Result:
        match expr:
            case node.Number():
                return Quantity(expr.value)
            case node.Text() | node.Boolean():
                return expr.value
            case node.Name():
                return self.lookup(expr)
            case node.Measure():
                return operations.with_unit(self.value_of(expr.operand), expr.unit, expr.text)
            case node.Negate():
                return operations.negative(self.value_of(expr.operand), expr.text)
            case node.Arithmetic():
                operands = [self.value_of(expr.left), self.value_of(expr.right)]
                return operations.arithmetic(expr.op, operands, expr.text)
            case node.Call():
                args = [self.value_of(arg) for arg in expr.args]
                return operations.call(expr.function, args, expr.text)
        outcome = self.truth_of(expr)
        if outcome.truth is Truth.UNKNOWN:
            return Gap(tuple(outcome.missing), tuple(outcome.reasons))
        return outcome.truth is Truth.TRUE

    def lookup(self, expr: node.Name) -> Result:
        if self.memo is None:
            return self.read(expr)
        key = ("name", expr.name)
        if key not in self.memo:
            self.memo[key] = self.read(expr)
        return cast(Result, self.memo[key])

    def read(self, expr: node.Name) -> Result:
        info = self.names.get(expr.name)
        if info is None:
            return operations.problem(f"unknown name {expr.name}")
        raw = info.constant if info.is_constant else self.values.get(expr.name)
        if is_null(raw):
            return Gap(missing=(info.label,), reasons=(f"{info.label}: no value",))
        return operations.coerce(raw, info)

    def describe(self, expr: Expression) -> str:
        """A name's label, or an expression's source text."""
        if isinstance(expr, node.Name) and expr.name in self.names:
            return self.names[expr.name].label
        return expr.text

    def label(self, expr: Expression) -> str | None:
        """How a comparison side is named; None for a constant, shown by value alone."""
        return self.side(expr).label

    def is_constant(self, expr: Expression) -> bool:
        return self.side(expr).constant

    def side(self, expr: Expression) -> _Side:
        """What the pack's names say of an expression, remembered on the node.

        These facts depend on the node and the pack's names only, and large
        runs ask them of the same nodes for every parcel.
        """
        cached = expr.__dict__.get("_side")
        if cached is not None and cached[0] is self.names:
            return cast(_Side, cached[1])
        used = names_of(expr)
        constant = all(name in self.names and self.names[name].is_constant for name in used)
        measured = any(
            name not in self.names
            or (not self.names[name].is_constant and self.names[name].measured)
            for name in used
        )
        side = _Side(constant, measured, None if constant else self.describe(expr))
        object.__setattr__(expr, "_side", (self.names, side))
        return side

    def boolean_name(self, expr: node.Name) -> Evaluation:
        value = self.lookup(expr)
        if isinstance(value, Gap):
            return _unknown(value)
        if not isinstance(value, bool):
            sentence = f"{self.describe(expr)} is {shown(value)}, not true or false"
            return Evaluation(Truth.UNKNOWN, [sentence])
        label = self.describe(expr)
        return Evaluation(Truth.of(value), [label if value else f"not {label}"])

    def null_test(self, expr: node.NullTest) -> Evaluation:
        value = self.value_of(expr.operand)
        null = isinstance(value, Gap) and bool(value.missing)
        label = self.describe(expr.operand)
        sentence = f"{label}: no value" if null else f"{label} has a value"
        return Evaluation(Truth.of(null != expr.negated), [sentence])

    def membership(self, expr: node.Membership) -> Evaluation:
        results = [self.value_of(expr.item), *(self.value_of(choice) for choice in expr.choices)]
        values = known(results)
        if isinstance(values, Gap):
            return _unknown(values)
        item, *choices = values
        found = any(same_value(item, choice) for choice in choices)
        label = self.label(expr.item)
        if found:
            sentence = f"{label} is {shown(item)}" if label else f"{shown(item)} is listed"
        else:
            subject = shown(item) if label is None else f"{label} {shown(item)}"
            listed = ", ".join(plain_value(choice) for choice in choices)
            sentence = f"{subject} is not one of {listed}"
        return Evaluation(Truth.of(found != expr.negated), [sentence])

    def comparison(self, expr: node.Comparison) -> Evaluation:
        values = known([self.value_of(expr.left), self.value_of(expr.right)])
        if isinstance(values, Gap):
            return _unknown(values)
        left, right = values
        if isinstance(left, Quantity) and isinstance(right, Quantity):
            if left.dimension == right.dimension:
                return self.compare_quantities(expr, left, right)
        elif type(left) is type(right) and expr.op in ("==", "!="):
            return self.compare_equality(expr, left, right)
        sentence = f"cannot compare {shown(left)} with {shown(right)} in {expr.text}"
        return Evaluation(Truth.UNKNOWN, [sentence])

    def compare_ranges(self, expr: node.Comparison, left: Quantity, right: Quantity) -> Evaluation:
        """A comparison with a side measured on part of its data.

        It is decided only when it comes out the same wherever in their ranges
        the two sides lie; it is then worded with the deciding ends ("at most
        1,200 sq ft < 5,000 sq ft") and why the range ("the DEM covers 40% of
        the disturbance"). Otherwise it is UNKNOWN and says the range.
        """
        ends = deciding_ends(expr.op, left, right)
        why = "; ".join(dict.fromkeys(q.why for q in (left, right) if q.ranged and q.why))
        if ends is None:
            sentence = self.undecided_range(expr, left, right, why)
            return Evaluation(Truth.UNKNOWN, [sentence], near=[sentence])
        (left_end, left_words), (right_end, right_words) = (
            at_end(q, end) for q, end in zip((left, right), ends, strict=True)
        )
        result = self.compare_quantities(expr, left_end, right_end, (left_words, right_words))
        suffix = f" ({why})" if why else ""
        return Evaluation(
            result.truth,
            [reason + suffix for reason in result.reasons],
            result.missing,
            [sentence + suffix for sentence in result.near],
        )

    def undecided_range(
        self, expr: node.Comparison, left: Quantity, right: Quantity, why: str
    ) -> str:
        """The sentence of a comparison its ranges leave open."""
        sides = (self.side(expr.left), self.side(expr.right))
        left_words, right_words = (
            shown(q) if side.label is None else f"{side.label}{joint}{shown(q)}"
            for side, q, joint in zip(sides, (left, right), (" is ", " "), strict=True)
        )
        because = f" ({why})" if why else ""
        if left.ranged and sides[0].label is not None:
            return (
                f"{left_words}{because}, so whether it is {OPERATOR_WORDS[expr.op]} "
                f"{right_words} is not known"
            )
        return f"whether {left_words} {expr.op} {right_words} is not known{because}"

    def compare_quantities(
        self,
        expr: node.Comparison,
        left: Quantity,
        right: Quantity,
        bounds: tuple[str, str] = ("", ""),
    ) -> Evaluation:
        if left.ranged or right.ranged:
            return self.compare_ranges(expr, left, right)
        sides = (self.side(expr.left), self.side(expr.right))
        relation = relation_of(left.value, right.value)
        if not self.words:
            if self.is_near(sides, left.value, right.value):
                return Evaluation(Truth.UNKNOWN, near=[expr.text])
            return Evaluation(Truth.of(relation in HOLDS[expr.op]))
        acres = _shows_acres(sides, (left, right))
        left_number, right_number = format_pair(left, right, relation == "=", acres)
        left_words = side_words(sides[0].label, bounds[0], left_number)
        right_words = side_words(sides[1].label, bounds[1], right_number)
        if self.is_near(sides, left.value, right.value):
            first, second = left_words, right_words
            if not sides[0].measured:
                first, second = right_words, left_words
            sentence = f"{first} is within {format_share(self.tolerance)} of {second}"
            return Evaluation(Truth.UNKNOWN, [sentence], near=[sentence])
        truth = Truth.of(relation in HOLDS[expr.op])
        margin = margin_words(
            (sides[0].measured, sides[1].measured),
            (sides[0].constant, sides[1].constant),
            left,
            right,
        )
        return Evaluation(truth, [f"{left_words} {relation} {right_words}{margin}"])

    def is_near(self, sides: tuple[_Side, _Side], left: float, right: float) -> bool:
        """Whether a measured side is within the tolerance band of the other side.

        Against a constant the band is ``tolerance * |constant|``; between two
        measured sides it is ``tolerance * max(|left|, |right|)``. An empty band
        (tolerance 0, or a zero threshold) leaves exact comparison, so a
        measured 0 sq ft is simply not greater than 0 sq ft.
        """
        left_measured, right_measured = sides[0].measured, sides[1].measured
        if left_measured and right_measured:
            band = self.tolerance * max(abs(left), abs(right))
        elif left_measured:
            band = self.tolerance * abs(right)
        elif right_measured:
            band = self.tolerance * abs(left)
        else:
            return False
        return band > 0 and abs(left - right) <= band * (1 + SAME)

    def compare_equality(self, expr: node.Comparison, left: Value, right: Value) -> Evaluation:
        equal = left == right
        truth = Truth.of(equal == (expr.op == "=="))
        if isinstance(left, bool):
            facts = [
                self.describe(side) if value else f"not {self.describe(side)}"
                for side, value in ((expr.left, left), (expr.right, right))
                if not isinstance(side, node.Boolean)
            ]
            literal = f"{shown(left)} {'=' if equal else '≠'} {shown(right)}"
            return Evaluation(truth, facts or [literal])
        return Evaluation(truth, [self.text_sentence(expr, left, right, equal)])

    def text_sentence(self, expr: node.Comparison, left: Value, right: Value, equal: bool) -> str:
        subject, value, other, other_value = expr.left, left, expr.right, right
        if self.label(subject) is None and self.label(other) is not None:
            subject, value, other, other_value = other, right, subject, left
        subject_label, other_label = self.label(subject), self.label(other)
        other_words = shown(other_value)
        if other_label is not None:
            other_words = f"{other_label} {other_words}"
        if subject_label is None:
            return f"{shown(value)} {'=' if equal else '≠'} {other_words}"
        if equal:
            return f"{subject_label} is {shown(value)}"
        return f"{subject_label} is {shown(value)}, not {other_words}"
