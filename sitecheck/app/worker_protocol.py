"""The worker's protocol: a request line read as a JSON object, its parts checked, a reply
written on one line.

Every line gets a reply, whatever it holds: text that is not text (a lone
surrogate, bytes that are not UTF-8), a whole number longer than Python reads,
a NUL in a path, nesting deeper than the JSON reader goes. Each is refused in one
line naming the part of the request at fault.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, TextIO

from sitecheck.errors import InputError, one_line
from sitecheck.io.conninfo import redacted
from sitecheck.io.writers import json_ready

WHOLE_NUMBER_DIGITS = 100
"""The most digits a whole number of a request may have; no setting needs more, and
Python refuses to read one of over 4,300 digits."""


class _TooManyDigits:
    """Stands, in a parsed request, for a whole number of too many digits."""

    def __init__(self, digits: int) -> None:
        self.digits = digits


def _whole_number(text: str) -> int | _TooManyDigits:
    digits = len(text.lstrip("-"))
    return int(text) if digits <= WHOLE_NUMBER_DIGITS else _TooManyDigits(digits)


def read_request(line: str) -> dict[str, Any]:
    """One request line as a JSON object; anything else is a bad request naming its part."""
    try:
        request = json.loads(line, parse_int=_whole_number)
    except (json.JSONDecodeError, RecursionError) as error:
        where = getattr(error, "colno", None)
        raise InputError(
            "bad request: not a JSON object on one line"
            + (f" (column {where})" if where is not None else "")
        ) from None
    if not isinstance(request, dict):
        raise InputError("bad request: give a JSON object with an 'op'")
    fault = _first_fault(request)
    if fault:
        raise InputError(f"bad request: {fault}")
    return request


def _first_fault(request: dict[str, Any]) -> str | None:
    """What no part of a request may hold, named by its place (``layers.disturbance``):
    text that is not text (a lone surrogate, bytes that are not UTF-8), a whole number
    of too many digits. Walked without recursion: a request may nest deeply."""
    stack: list[tuple[str, Any]] = [("", request)]
    while stack:
        place, value = stack.pop()
        if isinstance(value, str):
            if _has_surrogate(value):
                return f"{place or 'a key'}: holds a lone surrogate or bytes that are not UTF-8"
        elif isinstance(value, _TooManyDigits):
            return (
                f"{place}: a whole number of {value.digits} digits (at most {WHOLE_NUMBER_DIGITS})"
            )
        elif isinstance(value, dict):
            for key, item in value.items():
                name = f"{place}.{one_line(key)[:60]}" if place else one_line(key)[:60]
                if _has_surrogate(key):
                    return f"{place or 'the request'}: a key holds a lone surrogate"
                stack.append((name, item))
        elif isinstance(value, list):
            stack.extend((f"{place}[{n}]", item) for n, item in enumerate(value))
    return None


def _has_surrogate(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def request_object(request: Mapping[str, Any], key: str, op: str) -> Mapping[str, Any]:
    """The object a request holds under ``key`` (empty when absent)."""
    value = request.get(key)
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise InputError(f"{op}: {key} must be an object, got {type(value).__name__}")
    return value


def request_text(request: Mapping[str, Any], key: str, op: str, required: bool = True) -> str:
    """The text a request holds under ``key``."""
    value = request.get(key)
    if value is None and not required:
        return ""
    if not isinstance(value, str) or (required and not value):
        raise InputError(f"{op}: give {key} as text")
    if "\0" in value:
        raise InputError(f"{op}: {key} holds a NUL character, which no path or name may hold")
    return value


def write_reply(stdout: TextIO, reply: Mapping[str, Any]) -> None:
    """Write a reply on one line, its messages without a secret; ASCII, so a lone surrogate
    a request held is written as its escape instead of failing the write."""
    shown = dict(reply)
    if isinstance(shown.get("error"), str):
        shown["error"] = redacted(shown["error"])
    if isinstance(shown.get("warnings"), list):
        shown["warnings"] = [redacted(str(w)) for w in shown["warnings"]]
    stdout.write(json.dumps(json_ready(shown), ensure_ascii=True, allow_nan=False) + "\n")
    stdout.flush()


def refuse_unknown_keys(values: Mapping[str, Any], known: tuple[str, ...], where: str) -> None:
    """A setting the engine does not take is refused, never ignored."""
    unknown = sorted(str(name) for name in values if name not in known)
    if unknown:
        raise InputError(
            f"open: {where}.{one_line(unknown[0])[:60]}: not a setting; known: {', '.join(known)}"
        )
