"""How a project fact reads when the features of one lot or project differ.

A lot reads its project facts (activity, permit, project type) from the
disturbance features it owns. Where they differ, the lot's value is their mix,
each value with its area, which no rule reads as a value (the rules needing the
fact need review): ``"home_gardening on 3,000 sq ft; construction on 600 sq ft"``.
"""

from __future__ import annotations

import re

MIX_SEPARATOR = "; "
_MIX_PART = r".+ on [0-9][0-9,]* sq ft"


def code_key(text: str) -> str:
    """A code as the packs write it, whatever its case and spacing: 'Lawn stripping-and sod'
    -> 'lawn_stripping_and_sod'."""
    return re.sub(r"[\s_-]+", "_", text.strip().lower()).strip("_")


def mixed_text(parts: list[tuple[str | None, float]]) -> str:
    """The value of work whose features differ in a field: each value with its area.

    ``[("home_gardening", 3000.0), ("construction", 600.0)]`` ->
    ``'home_gardening on 3,000 sq ft; construction on 600 sq ft'``; a feature
    without the field reads "not given".
    """
    words = [
        f"{'not given' if value is None else value} on {sqft:,.0f} sq ft" for value, sqft in parts
    ]
    return MIX_SEPARATOR.join(words)


def is_mixed(text: str) -> bool:
    """Whether a field value is a mix written by :func:`mixed_text`."""
    parts = text.split(MIX_SEPARATOR)
    return len(parts) > 1 and all(re.fullmatch(_MIX_PART, part) for part in parts)
