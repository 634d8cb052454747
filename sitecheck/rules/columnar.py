"""Decide a condition for every parcel of a run at once, as array operations.

A county run decides each rule of its pack for tens of thousands of parcels;
walking the condition once per parcel costs more than the comparisons. Here a
condition is decided over the columns of the parcels' values: three-valued
truth as an array of codes (:data:`FALSE`, :data:`TRUE`, :data:`UNKNOWN`),
Kleene ``and``/``or``/``not`` over them, a comparison of a number with a
constant or another number on whole columns, tolerance band included, and a
value measured on part of its data as a low and a high column decided at its
deciding ends as the evaluator does (:mod:`sitecheck.rules.ranges`).

What these operations do not cover is decided per parcel by
:func:`sitecheck.rules.decide.decide`, which is the evaluator's truth: a node of
another shape (arithmetic, a null test), and the rows whose value is of a type
the columns do not hold (numpy numbers, 0/1 booleans, text where a number
belongs). ``tests/engine/test_columnar.py`` compares the outcomes with the
worded evaluator's on every condition of the three packs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from sitecheck.rules import syntax as node
from sitecheck.rules.decide import decide, exact_constant
from sitecheck.rules.names import NameInfo, as_dimension, is_null, is_quantity
from sitecheck.rules.ranges import SAME
from sitecheck.rules.syntax import names_of
from sitecheck.rules.truth import Truth
from sitecheck.rules.units import Quantity

FALSE, TRUE, UNKNOWN = np.int8(0), np.int8(1), np.int8(2)
CODE_OF_TRUTH = {Truth.FALSE: FALSE, Truth.TRUE: TRUE, Truth.UNKNOWN: UNKNOWN}
TRUTH_OF_CODE = (Truth.FALSE, Truth.TRUE, Truth.UNKNOWN)


class _Numbers:
    """A numeric side over the rows: least and most values, which rows are ranged,
    missing, or of a type left to the per-row decision."""

    def __init__(self, count: int) -> None:
        self.low = np.zeros(count)
        self.high = np.zeros(count)
        self.ranged = np.zeros(count, dtype=bool)
        self.missing = np.zeros(count, dtype=bool)
        self.unread = np.zeros(count, dtype=bool)
        self.measured = False

    @classmethod
    def constant(cls, count: int, value: float) -> _Numbers:
        side = cls(count)
        side.low[:] = side.high[:] = value
        return side


class ValueTable:
    """The values of many parcels (one mapping each, as the evaluator takes them), read
    into columns once per name, and each node's codes once per tolerance.

    Parameters
    ----------
    rows : sequence of mapping
        Each parcel's metric and attribute values.
    """

    def __init__(self, rows: Sequence[Mapping[str, object]]) -> None:
        self.rows = rows
        self.count = len(rows)
        self._numbers: dict[tuple[str, str], _Numbers] = {}
        self._codes: dict[tuple[int, float], tuple[node.Expression, np.ndarray]] = {}
        self._raw: dict[str, list[object]] = {}
        self._memos: list[dict] | None = None  # made on a first per-row decision
        self._base: ValueTable | None = None  # the table this one varies (with_value)
        self._varied: tuple[str, float] | None = None

    def with_value(self, name: str, value: float) -> ValueTable:
        """These rows with the number ``name`` set to ``value`` on every row: one redesign
        tried on every parcel at once. The columns, and the codes of the conditions, that
        do not depend on ``name`` are this table's."""
        trial = ValueTable(_WithValue(self.rows, name, value))
        trial._numbers = {key: side for key, side in self._numbers.items() if key[0] != name}
        trial._base, trial._varied = self, (name, value)
        return trial

    def numbers(self, name: str, dimension: str, measured: bool) -> _Numbers:
        key = (name, dimension)
        if key not in self._numbers:
            if self._varied is not None and self._varied[0] == name:
                side = _Numbers.constant(self.count, self._varied[1])
            elif self._base is not None:  # read once, by the table this one varies
                side = self._base.numbers(name, dimension, measured)
            else:
                side = _Numbers(self.count)
                for row, values in enumerate(self.rows):
                    _read_number(side, row, values.get(name), dimension)
            side.measured = measured
            self._numbers[key] = side
        return self._numbers[key]

    def raw(self, name: str) -> list[object]:
        """Each row's value of ``name`` as given (not to be changed: it is shared)."""
        if self._varied is not None and self._varied[0] == name:
            return [self._varied[1]] * self.count
        if self._base is not None:
            return self._base.raw(name)
        if name not in self._raw:
            self._raw[name] = [values.get(name) for values in self.rows]
        return self._raw[name]

    def memo(self, row: int) -> dict:
        """The per-row decision's memo of one row."""
        if self._memos is None:
            self._memos = [{} for _ in range(self.count)]
        return self._memos[row]


class _WithValue(Sequence[Mapping[str, object]]):
    """Rows with one name set to one value, each put together when a row is read (only
    the rows a per-row decision reads are)."""

    def __init__(self, rows: Sequence[Mapping[str, object]], name: str, value: float) -> None:
        self._rows, self._name, self._value = rows, name, value

    def __len__(self) -> int:
        return len(self._rows)

    def __getitem__(self, row):
        if isinstance(row, slice):
            return [self[at] for at in range(*row.indices(len(self)))]
        return {**self._rows[row], self._name: self._value}


def _read_number(side: _Numbers, row: int, raw: object, dimension: str) -> None:
    if raw is None:
        side.missing[row] = True
    elif type(raw) is float or type(raw) is int:
        if raw != raw:
            side.missing[row] = True
        else:
            side.low[row] = side.high[row] = float(raw)
    elif isinstance(raw, Quantity) and raw.dimension == dimension:
        side.low[row], side.high[row], side.ranged[row] = raw.value, raw.top, raw.ranged
    elif is_null(raw):
        side.missing[row] = True
    else:
        side.unread[row] = True  # numpy numbers, text: the evaluator says what they read as


def decide_rows(
    expr: node.Expression, table: ValueTable, names: Mapping[str, NameInfo], tolerance: float
) -> np.ndarray:
    """The truth of ``expr`` for every row of ``table``, as codes.

    Parameters
    ----------
    expr : Expression
        A checked condition of the pack whose ``names`` are given.
    table : ValueTable
    names : mapping of str to NameInfo
    tolerance : float
        Relative half-width of the band around a threshold that gives UNKNOWN.

    Returns
    -------
    ndarray of int8
        :data:`TRUE`, :data:`FALSE` or :data:`UNKNOWN` per row.
    """
    key = (id(expr), tolerance)
    found = table._codes.get(key)
    varied = table._varied
    if found is None and table._base is not None and varied and varied[0] not in names_of(expr):
        return decide_rows(expr, table._base, names, tolerance)
    if found is None:
        codes = _codes(expr, table, names, tolerance)
        found = table._codes[key] = (expr, codes)  # the node kept: its id stays unique
    return found[1]


def _codes(
    expr: node.Expression, table: ValueTable, names: Mapping[str, NameInfo], tolerance: float
) -> np.ndarray:
    if isinstance(expr, node.Logic):
        operands = [decide_rows(operand, table, names, tolerance) for operand in expr.operands]
        deciding, otherwise = (FALSE, TRUE) if expr.op == "and" else (TRUE, FALSE)
        out = np.full(table.count, otherwise, dtype=np.int8)
        out[np.any([codes == UNKNOWN for codes in operands], axis=0)] = UNKNOWN
        out[np.any([codes == deciding for codes in operands], axis=0)] = deciding
        return out
    if isinstance(expr, node.Not):
        operand = decide_rows(expr.operand, table, names, tolerance)
        return np.select([operand == TRUE, operand == FALSE], [FALSE, TRUE], UNKNOWN).astype(
            np.int8
        )
    decided: tuple[np.ndarray, np.ndarray] | None = None
    if isinstance(expr, node.Comparison):
        decided = _comparison(expr, table, names, tolerance)
    elif isinstance(expr, node.Name):
        decided = _boolean_name(expr, table, names)
    elif isinstance(expr, node.Membership):
        decided = _membership(expr, table, names)
    if decided is None:
        return _per_row(expr, table, names, tolerance, np.ones(table.count, dtype=bool))
    codes, unread = decided
    if unread.any():
        codes[unread] = _per_row(expr, table, names, tolerance, unread)[unread]
    return codes


def _per_row(
    expr: node.Expression,
    table: ValueTable,
    names: Mapping[str, NameInfo],
    tolerance: float,
    rows: np.ndarray,
) -> np.ndarray:
    """The evaluator's truth, row by row, for the rows marked."""
    out = np.full(table.count, UNKNOWN, dtype=np.int8)
    for row in np.flatnonzero(rows).tolist():
        truth = decide(expr, table.rows[row], names, tolerance, table.memo(row))
        out[row] = CODE_OF_TRUTH[truth]
    return out


def _side(
    expr: node.Expression, table: ValueTable, names: Mapping[str, NameInfo]
) -> tuple[_Numbers, str] | None:
    """A comparison side as numbers over the rows, and its dimension; None for a side of
    another shape (left to the per-row decision)."""
    if isinstance(expr, node.Name) and expr.name in names and not names[expr.name].is_constant:
        info = names[expr.name]
        if not is_quantity(info.type):
            return None
        dimension = as_dimension(info.type)
        return table.numbers(expr.name, dimension, info.measured), dimension
    value = exact_constant(expr, names)
    if not isinstance(value, Quantity):
        return None
    return _Numbers.constant(table.count, float(value.value)), value.dimension


def _relations(left: np.ndarray, right: np.ndarray) -> tuple[np.ndarray, ...]:
    """Equal (within :data:`SAME`, as ``math.isclose``), less and greater, elementwise."""
    equal = np.abs(left - right) <= np.maximum(SAME * np.maximum(np.abs(left), np.abs(right)), SAME)
    return equal, ~equal & (left < right), ~equal & (left > right)


def _holds(op: str, left: np.ndarray, right: np.ndarray) -> np.ndarray:
    equal, less, greater = _relations(left, right)
    return {
        "<": less,
        "<=": less | equal,
        ">": greater,
        ">=": greater | equal,
        "==": equal,
        "!=": less | greater,
    }[op]


def _compared(
    op: str, left: np.ndarray, right: np.ndarray, measured: tuple[bool, bool], tolerance: float
) -> np.ndarray:
    """Exact values compared: UNKNOWN within the band of a measured side, else the relation."""
    if measured[0] and measured[1]:
        band = tolerance * np.maximum(np.abs(left), np.abs(right))
    elif measured[0]:
        band = tolerance * np.abs(right)
    elif measured[1]:
        band = tolerance * np.abs(left)
    else:
        band = np.zeros_like(left)
    near = (band > 0) & (np.abs(left - right) <= band * (1 + SAME))
    codes = np.where(_holds(op, left, right), TRUE, FALSE).astype(np.int8)
    codes[near] = UNKNOWN
    return codes


def _comparison(
    expr: node.Comparison, table: ValueTable, names: Mapping[str, NameInfo], tolerance: float
) -> tuple[np.ndarray, np.ndarray] | None:
    if expr.op in ("==", "!=") and (words := _text_equality(expr, table, names)) is not None:
        return words
    sides = _side(expr.left, table, names), _side(expr.right, table, names)
    if sides[0] is None or sides[1] is None or sides[0][1] != sides[1][1]:
        return None
    left, right = sides[0][0], sides[1][0]
    measured = (left.measured, right.measured)
    codes = _compared(expr.op, left.low, right.low, measured, tolerance)
    ranged = left.ranged | right.ranged
    if ranged.any():
        codes[ranged] = _ranged(expr.op, left, right, measured, tolerance)[ranged]
    codes[left.missing | right.missing] = UNKNOWN
    return codes, left.unread | right.unread


def _text_equality(
    expr: node.Comparison, table: ValueTable, names: Mapping[str, NameInfo]
) -> tuple[np.ndarray, np.ndarray] | None:
    """A text name ``==`` or ``!=`` a text constant, either way round."""
    for name, other in ((expr.left, expr.right), (expr.right, expr.left)):
        if not isinstance(name, node.Name) or not isinstance(other, node.Text):
            continue
        info = names.get(name.name)
        if info is None or info.is_constant or info.type != "text":
            return None
        codes = np.full(table.count, UNKNOWN, dtype=np.int8)
        unread = np.zeros(table.count, dtype=bool)
        for row, value in enumerate(table.raw(name.name)):
            if type(value) is str:
                codes[row] = TRUE if (value == other.value) == (expr.op == "==") else FALSE
            elif not is_null(value):
                unread[row] = True
        return codes, unread
    return None


def _ranged(
    op: str, left: _Numbers, right: _Numbers, measured: tuple[bool, bool], tolerance: float
) -> np.ndarray:
    """A comparison with a ranged side: compared at the ends that decide it for the whole
    ranges, UNKNOWN where none do (:func:`sitecheck.rules.ranges.deciding_ends`)."""
    least_most = (left.low, right.high)  # the left side at its least, the right at its most
    most_least = (left.high, right.low)
    if op in (">", ">="):
        first, second = least_most, most_least
        first_decides = _holds(op, *first)
        second_decides = ~first_decides & ~_holds(op, *second)
    elif op in ("<", "<="):
        first, second = most_least, least_most
        first_decides = _holds(op, *first)
        second_decides = ~first_decides & ~_holds(op, *second)
    else:  # == and != are decided only where the ranges do not meet
        first, second = most_least, least_most
        first_decides = _relations(*first)[1]
        second_decides = ~first_decides & _relations(right.high, left.low)[1]
    codes = np.full(len(left.low), UNKNOWN, dtype=np.int8)
    codes[first_decides] = _compared(op, *first, measured, tolerance)[first_decides]
    codes[second_decides] = _compared(op, *second, measured, tolerance)[second_decides]
    return codes


def _boolean_name(
    expr: node.Name, table: ValueTable, names: Mapping[str, NameInfo]
) -> tuple[np.ndarray, np.ndarray] | None:
    info = names.get(expr.name)
    if info is None or info.type != "boolean":
        return None
    if info.is_constant:
        if type(info.constant) is not bool:
            return None
        code = TRUE if info.constant else FALSE
        return np.full(table.count, code, dtype=np.int8), np.zeros(table.count, dtype=bool)
    raw = table.raw(expr.name)
    codes = np.full(table.count, UNKNOWN, dtype=np.int8)
    unread = np.zeros(table.count, dtype=bool)
    for row, value in enumerate(raw):
        if type(value) is bool:
            codes[row] = TRUE if value else FALSE
        elif not is_null(value):
            unread[row] = True
    return codes, unread


def _membership(
    expr: node.Membership, table: ValueTable, names: Mapping[str, NameInfo]
) -> tuple[np.ndarray, np.ndarray] | None:
    item = expr.item
    if not isinstance(item, node.Name) or item.name not in names:
        return None
    info = names[item.name]
    if info.is_constant or info.type != "text":
        return None
    choices = set()
    for choice in expr.choices:
        if not isinstance(choice, node.Text):
            return None
        choices.add(choice.value)
    codes = np.full(table.count, UNKNOWN, dtype=np.int8)
    unread = np.zeros(table.count, dtype=bool)
    for row, value in enumerate(table.raw(item.name)):
        if type(value) is str:
            codes[row] = TRUE if (value in choices) != expr.negated else FALSE
        elif not is_null(value):
            unread[row] = True
    return codes, unread
