"""Which leaves of a condition word its outcome, found for many parcels at once.

An ``and`` or ``or`` keeps the reasons of the operands whose truth is its own
(:func:`sitecheck.rules.truth.combine`), and a ``not`` keeps its operand's. A
condition's reasons are therefore those of its leaves (a comparison, a
membership, a true/false name, a null test) reached from the root through
deciding operands, in the order they are written, each sentence once. With the
truth of every node decided in columns (:mod:`sitecheck.rules.columnar`), those
leaves are found for every row at once; rows reached by the same leaves share
one tuple of them, and a row then words its leaves alone with the evaluator
(:class:`LeafWords`), instead of walking the condition again for each rule it
lists. ``tests/engine/test_columnar.py`` compares the outcomes with
:func:`sitecheck.rules.outcome.evaluate_pack` on every condition of the packs.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd

from sitecheck.rules import syntax as node
from sitecheck.rules.columnar import TRUTH_OF_CODE, ValueTable, decide_rows
from sitecheck.rules.evaluate import evaluate
from sitecheck.rules.names import NameInfo
from sitecheck.rules.syntax import names_of
from sitecheck.rules.truth import Evaluation

LeafPlan = tuple[np.ndarray, list[tuple[node.Expression, ...]]]
"""Per row an index into a list of leaf tuples, and that list."""


def deciding_leaves(
    expr: node.Expression, table: ValueTable, names: Mapping[str, NameInfo], tolerance: float
) -> LeafPlan:
    """The leaves whose reasons each row's outcome of ``expr`` keeps, in written order.

    Parameters
    ----------
    expr : Expression
        A checked condition.
    table : ValueTable
        The rows, whose codes of every node of ``expr`` are decided here when not yet.
    names : mapping of str to NameInfo
    tolerance : float

    Returns
    -------
    LeafPlan
        ``(index, tuples)``: row ``r`` is worded by the leaves ``tuples[index[r]]``.
    """
    leaves: list[node.Expression] = []
    reached: list[np.ndarray] = []

    def visit(part: node.Expression, wanted: np.ndarray) -> None:
        if isinstance(part, node.Logic):
            truth = decide_rows(part, table, names, tolerance)
            for operand in part.operands:
                deciding = decide_rows(operand, table, names, tolerance) == truth
                visit(operand, wanted & deciding)
        elif isinstance(part, node.Not):
            visit(part.operand, wanted)
        else:
            leaves.append(part)
            reached.append(wanted)

    visit(expr, np.ones(table.count, dtype=bool))
    patterns, index = distinct_rows(np.stack(reached, axis=1))
    tuples = [
        tuple(leaf for leaf, used in zip(leaves, pattern.tolist(), strict=True) if used)
        for pattern in patterns
    ]
    return index, tuples


def distinct_rows(flags: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct rows of a boolean matrix, and each row's index among them.

    What ``np.unique(flags, axis=0, return_inverse=True)`` gives but for the order of
    the distinct rows: each row's flags packed into bytes and compared as one value,
    instead of sorted column by column (37,513 rows of 12 random flags: 74 ms against 6).
    """
    packed = np.ascontiguousarray(np.packbits(flags, axis=1))
    keys = packed.view(np.dtype((np.void, packed.shape[1]))).reshape(-1)
    _, first, index = np.unique(keys, return_index=True, return_inverse=True)
    return flags[first], index.reshape(-1)


_Read = tuple[node.Expression, tuple[str, ...], list[int] | None, list]
"""A leaf, the names whose values its words depend on, and where the leaf has one such
name whose values could be grouped: each row's group of that name's values and the
leaf's words for each group (None until worded)."""


class LeafWords:
    """The worded outcome of conditions for the rows of a table, from their leaves.

    A leaf's words depend only on the values it reads, so rows reading the same
    values (most lots have no floodplain, no wetland, the same zone) share them.
    Nearly every leaf reads one name: each name's values are grouped once for all
    rows, and a row finds its leaf's words by its group, without a key of its own
    (a key built per row and leaf took a seventh of the wording of 37,513 lots).

    Parameters
    ----------
    table : ValueTable
    names : mapping of str to NameInfo
    """

    def __init__(self, table: ValueTable, names: Mapping[str, NameInfo]) -> None:
        self.table = table
        self.names = names
        self._plans: dict[tuple[int, float], tuple] = {}
        self._worded: dict[tuple, Evaluation] = {}
        self._groups: dict[str, tuple[list[int], int] | None] = {}
        self._slots: dict[tuple[int, float], tuple[node.Expression, list]] = {}

    def evaluation(
        self, expr: node.Expression, tolerance: float, row: int, memo: dict
    ) -> Evaluation:
        """What :func:`sitecheck.rules.evaluate.evaluate` gives ``expr`` on ``row``: its
        truth as decided in columns, with the reasons of its deciding leaves.

        ``memo`` is the row's, shared by its conditions.
        """
        index, tuples, codes = self._plan(expr, tolerance)
        values = self.table.rows[row]
        reasons: list[str] = []
        missing: list[str] = []
        near: list[str] = []
        for leaf, read, groups, slots in tuples[index[row]]:
            if groups is not None:
                found = slots[groups[row]]
                if found is None:
                    found = evaluate(leaf, values, self.names, tolerance, memo=memo)
                    slots[groups[row]] = found
            else:
                found = self._keyed(leaf, read, values, tolerance, memo)
            reasons += found.reasons
            missing += found.missing
            near += found.near
        return Evaluation(
            TRUTH_OF_CODE[codes[row]],
            list(dict.fromkeys(reasons)),
            list(dict.fromkeys(missing)),
            list(dict.fromkeys(near)),
        )

    def _keyed(
        self,
        leaf: node.Expression,
        read: tuple[str, ...],
        values: Mapping[str, object],
        tolerance: float,
        memo: dict,
    ) -> Evaluation:
        """A leaf's words kept under the values it reads, each with its type (0, 0.0 and
        False read differently)."""
        key = (id(leaf), tolerance, *[(type(v), v) for v in map(values.get, read)])
        try:
            found = self._worded.get(key)
            kept = True
        except TypeError:  # a value that cannot be a key: worded, not kept
            found, kept = None, False
        if found is None:
            found = evaluate(leaf, values, self.names, tolerance, memo=memo)
            if kept:
                self._worded[key] = found
        return found

    def _plan(
        self, expr: node.Expression, tolerance: float
    ) -> tuple[list[int], list[tuple[_Read, ...]], list[int]]:
        """Each row's index into the tuples of leaves that word it, and each row's code."""
        key = (id(expr), tolerance)
        found = self._plans.get(key)
        if found is None or found[0] is not expr:
            index, tuples = deciding_leaves(expr, self.table, self.names, tolerance)
            codes = decide_rows(expr, self.table, self.names, tolerance)
            read = [tuple(self._read(leaf, tolerance) for leaf in leaves) for leaves in tuples]
            found = self._plans[key] = (expr, (index.tolist(), read, codes.tolist()))
        return found[1]

    def _read(self, leaf: node.Expression, tolerance: float) -> _Read:
        """A leaf with the names it reads, and its words by group where it reads one."""
        names = self._reads(leaf)
        grouped = self._grouped(names[0]) if len(names) == 1 else None
        if grouped is None:
            return leaf, names, None, []
        groups, count = grouped
        key = (id(leaf), tolerance)
        kept = self._slots.get(key)
        if kept is None or kept[0] is not leaf:
            kept = self._slots[key] = (leaf, [None] * count)
        return leaf, names, groups, kept[1]

    def _grouped(self, name: str) -> tuple[list[int], int] | None:
        """Each row's group of equal values of ``name`` (of the same type too), and the
        number of groups; None where a value cannot be compared so (a list, say)."""
        if name not in self._groups:
            raw = self.table.raw(name)
            typed = np.fromiter(((type(value), value) for value in raw), object, len(raw))
            try:
                groups, distinct = pd.factorize(typed)
            except TypeError:
                self._groups[name] = None
            else:
                self._groups[name] = (groups.tolist(), len(distinct))
        return self._groups[name]

    def _reads(self, leaf: node.Expression) -> tuple[str, ...]:
        """The names of a leaf whose value comes from the parcel (not a pack parameter)."""
        return tuple(
            sorted(
                name
                for name in names_of(leaf)
                if name not in self.names or not self.names[name].is_constant
            )
        )
