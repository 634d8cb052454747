"""The evaluator with words for the deciding operands only.

:func:`sitecheck.rules.truth.combine` keeps the reasons of the operands of an
``and`` or ``or`` whose truth is the result's; the others are worded for
nothing. Here each operand's truth is found first without words
(:func:`sitecheck.rules.decide.decide`), and only the deciding ones are worded:
the same outcome and reasons as :func:`sitecheck.rules.evaluate.evaluate`, which
stays the reference (``tests/engine/test_columnar.py`` compares the two).
"""

from __future__ import annotations

from collections.abc import Mapping

from sitecheck.rules import syntax as node
from sitecheck.rules.decide import decide
from sitecheck.rules.evaluate import _Evaluator
from sitecheck.rules.names import NameInfo
from sitecheck.rules.truth import Evaluation, all_of, any_of, combine


class _DecidingEvaluator(_Evaluator):
    def decide(self, expr: node.Expression) -> Evaluation:
        if not isinstance(expr, node.Logic):
            return super().decide(expr)
        assert self.memo is not None
        truths = [
            decide(operand, self.values, self.names, self.tolerance, self.memo)
            for operand in expr.operands
        ]
        truth = all_of(truths) if expr.op == "and" else any_of(truths)
        parts = [
            self.truth_of(operand) if alone is truth else Evaluation(alone)
            for operand, alone in zip(expr.operands, truths, strict=True)
        ]
        return combine(expr.op, parts)


def evaluate_deciding(
    expr: node.Expression,
    values: Mapping[str, object],
    names: Mapping[str, NameInfo],
    tolerance: float,
    memo: dict,
) -> Evaluation:
    """:func:`~sitecheck.rules.evaluate.evaluate` with words, wording only the operands
    whose reasons the outcome keeps.

    Parameters
    ----------
    expr : Expression
        A checked condition.
    values : mapping
        One parcel's values.
    names : mapping of str to NameInfo
    tolerance : float
    memo : dict
        Shared by one parcel's conditions.
    """
    return _DecidingEvaluator(values, names, tolerance, True, memo).truth_of(expr)
