"""The parsed form of a condition: a tree of expression nodes.

Every node keeps its span and source text, so errors can point at it and
reasons can name an expression side by what the pack author wrote.
"""

from __future__ import annotations

from dataclasses import dataclass

from sitecheck.rules.units import Unit


@dataclass(frozen=True)
class Expression:
    """A node of a parsed condition.

    Attributes
    ----------
    start, end : int
        Character offsets of the node in the condition text.
    text : str
        The node's source text.
    """

    start: int
    end: int
    text: str

    def children(self) -> tuple[Expression, ...]:
        return ()


@dataclass(frozen=True)
class Number(Expression):
    """A number literal without a unit."""

    value: float


@dataclass(frozen=True)
class Text(Expression):
    """A string literal."""

    value: str


@dataclass(frozen=True)
class Boolean(Expression):
    """``true`` or ``false``."""

    value: bool


@dataclass(frozen=True)
class Name(Expression):
    """A metric, pack parameter or attribute."""

    name: str


@dataclass(frozen=True)
class Unary(Expression):
    """A node with one operand."""

    operand: Expression

    def children(self) -> tuple[Expression, ...]:
        return (self.operand,)


@dataclass(frozen=True)
class Measure(Unary):
    """A plain number given a unit: ``5 acres``, ``1/2 acre``, ``(a + b) sqft``."""

    unit: Unit
    unit_start: int


@dataclass(frozen=True)
class Negate(Unary):
    """Unary minus."""


@dataclass(frozen=True)
class Arithmetic(Expression):
    """``left op right`` for ``+ - * /``."""

    op: str
    left: Expression
    right: Expression
    op_start: int

    def children(self) -> tuple[Expression, ...]:
        return (self.left, self.right)


@dataclass(frozen=True)
class Call(Expression):
    """``min(...)``, ``max(...)`` or ``abs(...)``."""

    function: str
    args: tuple[Expression, ...]

    def children(self) -> tuple[Expression, ...]:
        return self.args


@dataclass(frozen=True)
class Comparison(Expression):
    """``left op right`` for ``< <= > >= == !=``."""

    op: str
    left: Expression
    right: Expression
    op_start: int

    def children(self) -> tuple[Expression, ...]:
        return (self.left, self.right)


@dataclass(frozen=True)
class Membership(Expression):
    """``item in [choices]``, ``item not in [choices]`` or ``item in list_parameter``.

    ``list_name`` names a pack's list parameter until the pack puts its items
    in ``choices`` (:func:`sitecheck.rules.conditions.inline`).
    """

    item: Expression
    choices: tuple[Expression, ...]
    negated: bool
    op_start: int
    list_name: str | None = None

    def children(self) -> tuple[Expression, ...]:
        return (self.item, *self.choices)


@dataclass(frozen=True)
class NullTest(Unary):
    """``operand is null`` or ``operand is not null``."""

    negated: bool
    op_start: int


@dataclass(frozen=True)
class Not(Unary):
    """``not operand``."""


@dataclass(frozen=True)
class Logic(Expression):
    """``a and b and ...`` or ``a or b or ...``; ``op_starts[i]`` precedes ``operands[i + 1]``."""

    op: str
    operands: tuple[Expression, ...]
    op_starts: tuple[int, ...]

    def children(self) -> tuple[Expression, ...]:
        return self.operands


def walk(expr: Expression) -> list[Expression]:
    """Every node of the tree, parents before children, without recursion."""
    nodes: list[Expression] = []
    pending = [expr]
    while pending:
        node = pending.pop()
        nodes.append(node)
        pending.extend(reversed(node.children()))
    return nodes


def depth(expr: Expression) -> int:
    """Nodes on the longest path from the root to a leaf, without recursion."""
    deepest = 0
    pending = [(expr, 1)]
    while pending:
        node, level = pending.pop()
        deepest = max(deepest, level)
        pending.extend((child, level + 1) for child in node.children())
    return deepest


def names_in(expr: Expression) -> set[str]:
    """The metric, parameter and attribute names a condition uses."""
    return set(names_of(expr))


def names_of(expr: Expression) -> frozenset[str]:
    """``names_in``, remembered on the node itself.

    Evaluation asks it of the same pack nodes for every parcel; walking the
    tree each time dominated large runs. The answer lives and dies with the node.
    """
    cached = expr.__dict__.get("_names")
    if cached is None:
        cached = frozenset(node.name for node in walk(expr) if isinstance(node, Name))
        object.__setattr__(expr, "_names", cached)
    return cached
