"""Split condition text into tokens: numbers, strings, names, keywords, symbols."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from sitecheck.rules.errors import RuleLanguageError

KEYWORDS = frozenset({"and", "or", "not", "in", "is", "null", "true", "false"})
SYMBOLS = ("<=", ">=", "==", "!=", "<", ">", "+", "-", "*", "/", "(", ")", "[", "]", ",", "%")
QUOTES = ("'", '"')

# Characters people type from other languages, and what to write instead.
HINTS = {
    "=": "use == to test equality",
    "!": "use 'not' to negate, or != for 'not equal'",
    "&": "use 'and'",
    "|": "use 'or'",
    "≥": "write >=",
    "≤": "write <=",
    "≠": "write !=",
}

TokenKind = Literal["number", "string", "name", "keyword", "symbol", "end"]


@dataclass(frozen=True)
class Token:
    """One token and where it sits in the condition text.

    Attributes
    ----------
    kind : str
        ``number``, ``string``, ``name``, ``keyword``, ``symbol`` or ``end``.
    text : str
        The characters as written (a string token includes its quotes).
    start : int
        Offset of the first character.
    value : float, str or None
        A number's value, or a string's contents.
    """

    kind: TokenKind
    text: str
    start: int
    value: float | str | None = None

    @property
    def end(self) -> int:
        return self.start + len(self.text)

    def is_(self, text: str) -> bool:
        """Whether this is the keyword or symbol ``text``."""
        return self.kind in ("keyword", "symbol") and self.text == text


def tokenize(text: str) -> list[Token]:
    """The tokens of ``text``, ending with an ``end`` token at ``len(text)``.

    Raises
    ------
    RuleLanguageError
        For an unterminated string, a malformed number, attribute access or a
        character the language does not use.
    """
    tokens: list[Token] = []
    position = 0
    while position < len(text):
        char = text[position]
        if char.isspace():
            position += 1
            continue
        token = _next_token(text, position, tokens[-1] if tokens else None)
        tokens.append(token)
        position = token.end
    tokens.append(Token("end", "", len(text)))
    return tokens


def _next_token(text: str, start: int, previous: Token | None) -> Token:
    char = text[start]
    if _is_digit(char):
        return _number(text, start)
    if char in QUOTES:
        return _string(text, start)
    if _starts_name(char):
        return _name(text, start)
    if char == ".":
        raise _dot_error(text, start, previous)
    for symbol in SYMBOLS:
        if text.startswith(symbol, start):
            return Token("symbol", symbol, start)
    hint = HINTS.get(char)
    message = f"unexpected character {char!r}" + (f"; {hint}" if hint else "")
    raise RuleLanguageError(message, start)


def _is_digit(char: str) -> bool:
    """Whether ``char`` is one ASCII digit (an empty string is not)."""
    return len(char) == 1 and char.isascii() and char.isdigit()


def _starts_name(char: str) -> bool:
    return char == "_" or (char.isascii() and char.isalpha())


def _continues_name(char: str) -> bool:
    return char == "_" or (char.isascii() and char.isalnum())


def _digits_end(text: str, start: int) -> int:
    """End of a digit run starting at ``start``, allowing single ``_`` between digits."""
    position = start
    while _is_digit(text[position : position + 1]) or (
        text.startswith("_", position) and _is_digit(text[position + 1 : position + 2])
    ):
        position += 1
    return position


def _number(text: str, start: int) -> Token:
    end = _digits_end(text, start)
    if text.startswith(".", end):
        if _is_digit(text[end + 1 : end + 2]):
            end = _digits_end(text, end + 1)
        else:
            raise RuleLanguageError("a decimal point needs a digit after it, as in 0.5", end)
    if text.startswith("_", end):
        raise RuleLanguageError("'_' in a number goes between digits, as in 7_500", end)
    if text.startswith(".", end):
        raise RuleLanguageError("a number has at most one decimal point", end)
    written = text[start:end]
    return Token("number", written, start, float(written.replace("_", "")))


def _string(text: str, start: int) -> Token:
    quote = text[start]
    close = text.find(quote, start + 1)
    if close == -1:
        raise RuleLanguageError(f"unterminated string: no closing {quote}", start)
    return Token("string", text[start : close + 1], start, text[start + 1 : close])


def _name(text: str, start: int) -> Token:
    end = start + 1
    while end < len(text) and _continues_name(text[end]):
        end += 1
    word = text[start:end]
    if word in KEYWORDS:
        return Token("keyword", word, start)
    if word.lower() in KEYWORDS:
        raise RuleLanguageError(f"keywords are lower case: write {word.lower()!r}", start)
    return Token("name", word, start)


def _dot_error(text: str, start: int, previous: Token | None) -> RuleLanguageError:
    follows_value = previous is not None and (
        previous.kind in ("name", "string") or previous.text in (")", "]")
    )
    if follows_value:
        return RuleLanguageError("attribute access (.) is not allowed", start)
    if _is_digit(text[start + 1 : start + 2]):
        return RuleLanguageError("a number needs a digit before its decimal point: 0.5", start)
    return RuleLanguageError("unexpected character '.'", start)
