"""Recursive-descent parser for the rule language.

The grammar is in :mod:`sitecheck.rules.language`; each rule of it is one
method here, and precedence follows from which method calls which. Runs of
``not`` and unary minus are read in loops, and bracket nesting is capped, so
no condition text can exhaust the Python stack.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from sitecheck.rules.errors import RuleLanguageError
from sitecheck.rules.lexer import Token, tokenize
from sitecheck.rules.syntax import (
    Arithmetic,
    Boolean,
    Call,
    Comparison,
    Expression,
    Logic,
    Measure,
    Membership,
    Name,
    Negate,
    Not,
    NullTest,
    Number,
    Text,
    depth,
)
from sitecheck.rules.units import SQFT, UNIT_WORDS, Unit

FUNCTIONS = ("abs", "max", "min")
COMPARISONS = frozenset({"<", "<=", ">", ">=", "==", "!="})
MAX_NESTING = 32
MAX_DEPTH = 100

UNIT_PLACEMENT = (
    "a unit can only follow a number, a fraction such as 1/2, or an expression in parentheses"
)


def parse(text: str) -> Expression:
    """Parse a condition.

    Raises
    ------
    RuleLanguageError
        For a syntax error, with the offset of the bad spot.
    """
    expr = _Parser(text, tokenize(text)).condition()
    if depth(expr) > MAX_DEPTH:
        raise RuleLanguageError("the condition is too deeply nested", 0)
    return expr


class _Parser:
    def __init__(self, text: str, tokens: list[Token]) -> None:
        self.text = text
        self.tokens = tokens
        self.position = 0
        self.nesting = 0

    def peek(self, ahead: int = 0) -> Token:
        return self.tokens[min(self.position + ahead, len(self.tokens) - 1)]

    def at(self, text: str, ahead: int = 0) -> bool:
        return self.peek(ahead).is_(text)

    def advance(self) -> Token:
        token = self.peek()
        self.position += 1
        return token

    def expect(self, text: str, message: str) -> Token:
        if not self.at(text):
            raise self.error_here(message)
        return self.advance()

    def span(self, start: int, end: int) -> tuple[int, int, str]:
        return start, end, self.text[start:end]

    def error_here(self, message: str) -> RuleLanguageError:
        """An error at the current token, explaining a comma after a number."""
        token = self.peek()
        previous = self.tokens[self.position - 1] if self.position else None
        if token.is_(",") and previous is not None and previous.kind == "number":
            message = (
                "',' only separates list items and function arguments; "
                "write thousands as 7500 or 7_500, not 7,500"
            )
        return RuleLanguageError(message, token.start)

    @contextmanager
    def nested(self, opening: Token) -> Iterator[None]:
        self.nesting += 1
        if self.nesting > MAX_NESTING:
            raise RuleLanguageError("too many nested brackets", opening.start)
        try:
            yield
        finally:
            self.nesting -= 1

    def condition(self) -> Expression:
        if self.peek().kind == "end":
            raise RuleLanguageError("the condition is empty", 0)
        expr = self.disjunction()
        if self.peek().kind != "end":
            raise self.error_after_value()
        return expr

    def error_after_value(self) -> RuleLanguageError:
        token = self.peek()
        if token.is_(")") or token.is_("]"):
            return RuleLanguageError(f"unmatched {token.text!r}", token.start)
        if token.is_("not"):
            return RuleLanguageError("'not' goes before a condition, or in 'not in'", token.start)
        return self.error_here(f"expected an operator before {token.text!r}")

    def disjunction(self) -> Expression:
        return self.logic("or", self.conjunction)

    def conjunction(self) -> Expression:
        return self.logic("and", self.negation)

    def logic(self, op: str, operand: Callable[[], Expression]) -> Expression:
        operands = [operand()]
        op_starts: list[int] = []
        while self.at(op):
            op_starts.append(self.advance().start)
            operands.append(operand())
        if len(operands) == 1:
            return operands[0]
        span = self.span(operands[0].start, operands[-1].end)
        return Logic(*span, op, tuple(operands), tuple(op_starts))

    def negation(self) -> Expression:
        starts: list[int] = []
        while self.at("not"):
            starts.append(self.advance().start)
        expr = self.comparison()
        for start in reversed(starts):
            expr = Not(*self.span(start, expr.end), expr)
        return expr

    def at_comparison(self) -> bool:
        token = self.peek()
        return (
            (token.kind == "symbol" and token.text in COMPARISONS)
            or token.is_("in")
            or token.is_("is")
            or (token.is_("not") and self.at("in", 1))
        )

    def comparison(self) -> Expression:
        left = self.sum()
        if not self.at_comparison():
            return left
        expr: Expression
        if self.at("is"):
            expr = self.null_test(left)
        elif self.at("in") or self.at("not"):
            expr = self.membership(left)
        else:
            op = self.advance()
            right = self.sum()
            expr = Comparison(*self.span(left.start, right.end), op.text, left, right, op.start)
        if self.at_comparison():
            raise RuleLanguageError(
                "comparisons cannot be chained: write a < b and b < c", self.peek().start
            )
        return expr

    def membership(self, item: Expression) -> Membership:
        op = self.advance()
        negated = op.is_("not")
        if negated:
            self.advance()
        if self.peek().kind == "name":
            token = self.advance()  # a list parameter of the pack
            return Membership(
                *self.span(item.start, token.end), item, (), negated, op.start, token.text
            )
        if not self.at("["):
            raise self.error_here(
                '\'in\' needs a list in brackets, as in ["A-1", "A-2"], or a list parameter'
            )
        choices, end = self.list_items()
        return Membership(*self.span(item.start, end), item, choices, negated, op.start)

    def list_items(self) -> tuple[tuple[Expression, ...], int]:
        opening = self.advance()
        with self.nested(opening):
            if self.at("]"):
                raise self.error_here("a list needs at least one item")
            items = [self.sum()]
            while self.at(","):
                self.advance()
                if self.at("]"):
                    break
                items.append(self.sum())
            closing = self.expect("]", "expected ',' or ']' in the list")
        return tuple(items), closing.end

    def null_test(self, operand: Expression) -> NullTest:
        op = self.advance()
        negated = self.at("not")
        if negated:
            self.advance()
        token = self.peek()
        if not token.is_("null"):
            hint = "; compare with == true or == false" if token.text in ("true", "false") else ""
            written = "is not" if negated else "is"
            raise RuleLanguageError(f"expected 'null' after '{written}'{hint}", token.start)
        self.advance()
        return NullTest(*self.span(operand.start, token.end), operand, negated, op.start)

    def sum(self) -> Expression:
        return self.arithmetic(("+", "-"), self.product)

    def product(self) -> Expression:
        return self.arithmetic(("*", "/"), self.signed)

    def arithmetic(self, ops: tuple[str, ...], operand: Callable[[], Expression]) -> Expression:
        left = operand()
        while self.peek().kind == "symbol" and self.peek().text in ops:
            op = self.advance()
            right = operand()
            left = Arithmetic(*self.span(left.start, right.end), op.text, left, right, op.start)
        return left

    def signed(self) -> Expression:
        starts: list[int] = []
        while self.at("-"):
            starts.append(self.advance().start)
        expr = self.measured()
        for start in reversed(starts):
            expr = Negate(*self.span(start, expr.end), expr)
        return expr

    def measured(self) -> Expression:
        """A primary, given a unit when one follows.

        A unit binds to the number, the two-number fraction or the parenthesised
        expression just before it, so ``1/2 acre`` is half an acre.
        """
        first = self.peek()
        operand = self.fraction() if self.fraction_ahead() else self.primary()
        found = self.unit_at()
        if found is None:
            self.reject_postfix()
            return operand
        unit, words = found
        unit_token = self.peek()
        if not (first.kind == "number" or first.is_("(")):
            raise RuleLanguageError(UNIT_PLACEMENT, unit_token.start)
        self.position += words
        end = self.tokens[self.position - 1].end
        if self.unit_at() is not None:
            raise RuleLanguageError("a number takes one unit", self.peek().start)
        return Measure(*self.span(first.start, end), operand, unit, unit_token.start)

    def fraction_ahead(self) -> bool:
        return (
            self.peek().kind == "number"
            and self.at("/", 1)
            and self.peek(2).kind == "number"
            and self.unit_at(3) is not None
        )

    def fraction(self) -> Arithmetic:
        numerator, slash, denominator = self.advance(), self.advance(), self.advance()
        return Arithmetic(
            *self.span(numerator.start, denominator.end),
            "/",
            self.number(numerator),
            self.number(denominator),
            slash.start,
        )

    def unit_at(self, ahead: int = 0) -> tuple[Unit, int] | None:
        """The unit starting ``ahead`` tokens on, and how many tokens it takes."""
        token = self.peek(ahead)
        if token.kind == "name" and token.text == "sq" and self.peek(ahead + 1).text == "ft":
            return SQFT, 2
        if token.kind == "name" or token.is_("%"):
            unit = UNIT_WORDS.get(token.text)
            return None if unit is None else (unit, 1)
        return None

    def reject_postfix(self) -> None:
        token = self.peek()
        if token.is_("["):
            raise RuleLanguageError("indexing with [...] is not allowed", token.start)
        if token.kind == "name" and token.text == "sq":
            raise RuleLanguageError("expected 'ft' after 'sq'", self.peek(1).start)

    def primary(self) -> Expression:
        token = self.peek()
        if token.kind == "number":
            return self.number(self.advance())
        if token.kind == "string":
            self.advance()
            return Text(*self.span(token.start, token.end), str(token.value))
        if token.is_("true") or token.is_("false"):
            self.advance()
            return Boolean(*self.span(token.start, token.end), token.text == "true")
        if token.is_("("):
            return self.group()
        if token.kind == "name":
            return self.call() if self.at("(", 1) else self.name()
        raise self.error_no_value(token)

    def error_no_value(self, token: Token) -> RuleLanguageError:
        if token.is_("null"):
            message = "null can only be tested, as in 'permit is null' or 'permit is not null'"
        elif token.is_("["):
            message = "a list can only follow 'in' or 'not in'"
        elif token.kind == "end":
            message = "the condition ends too early: expected a value"
        else:
            message = f"expected a value, found {token.text!r}"
        return RuleLanguageError(message, token.start)

    def number(self, token: Token) -> Number:
        return Number(*self.span(token.start, token.end), float(token.value or 0.0))

    def name(self) -> Name:
        token = self.advance()
        return Name(*self.span(token.start, token.end), token.text)

    def group(self) -> Expression:
        opening = self.advance()
        with self.nested(opening):
            inner = self.disjunction()
            self.expect(")", "expected ')'")
        return inner

    def call(self) -> Call:
        function = self.advance()
        if function.text not in FUNCTIONS:
            raise RuleLanguageError(
                f"function {function.text} is not allowed; allowed: {', '.join(FUNCTIONS)}",
                function.start,
            )
        opening = self.advance()
        args: list[Expression] = []
        with self.nested(opening):
            if not self.at(")"):
                args.append(self.sum())
                while self.at(","):
                    self.advance()
                    args.append(self.sum())
            closing = self.expect(")", "expected ',' or ')' after a function argument")
        return Call(*self.span(function.start, closing.end), function.text, tuple(args))
