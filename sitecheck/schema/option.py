"""One option of a run: its type, unit, default, bounds and flag, and the check of a value.

The options themselves are listed in :mod:`sitecheck.schema.options`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

from sitecheck.errors import OptionError

Kind = Literal["number", "integer", "text", "choice", "switch"]


@dataclass(frozen=True)
class Option:
    """One option.

    Attributes
    ----------
    name : str
        Its name in settings, in the worker's requests and in the JSON's ``settings``.
    flag : str
        The command-line flag.
    kind : str
        ``number``, ``integer``, ``text``, ``choice`` or ``switch`` (a yes/no flag).
    label : str
        How a dialog names it.
    help : str
        One sentence for ``--help`` and the dialog's tooltip.
    default : object
        The value when not given (None: not set).
    unit : str or None
        ``ft``, ``percent``, ``share``, ``in``...
    minimum, maximum : float or None
        Bounds, inclusive unless ``above_minimum`` / ``below_maximum``.
    choices : tuple of str
        The values a ``choice`` takes.
    processing : str or None
        The key of the QGIS Processing parameter that sets it.
    """

    name: str
    flag: str
    kind: Kind
    label: str
    help: str
    default: object = None
    unit: str | None = None
    minimum: float | None = None
    maximum: float | None = None
    above_minimum: bool = False
    below_maximum: bool = False
    choices: tuple[str, ...] = ()
    processing: str | None = None

    def check(self, value: object) -> object:
        """The value if it is one this option takes; else OptionError naming the option.

        Numbers must be finite and within the bounds; None passes (not given).
        """
        if value is None or self.kind in ("text", "switch"):
            return value
        if self.kind == "choice":
            if value not in self.choices:
                raise OptionError(self.name, f"{value!r} is not one of {', '.join(self.choices)}")
            return value
        number = _number(value, self.name, whole=self.kind == "integer")
        if self.minimum is not None:
            if self.above_minimum and not number > self.minimum:
                raise OptionError(self.name, f"must be more than {self.minimum:g} (got {number:g})")
            if number < self.minimum:
                raise OptionError(self.name, f"{_at_least(self.minimum)} (got {number:g})")
        if self.maximum is not None:
            if self.below_maximum and not number < self.maximum:
                raise OptionError(self.name, f"must be less than {self.maximum:g} (got {number:g})")
            if number > self.maximum:
                raise OptionError(self.name, f"must be at most {self.maximum:g} (got {number:g})")
        return int(number) if self.kind == "integer" else number

    def to_json(self) -> dict[str, object]:
        return {
            "name": self.name,
            "flag": self.flag,
            "kind": self.kind,
            "label": self.label,
            "help": self.help,
            "default": self.default,
            "unit": self.unit,
            "minimum": self.minimum,
            "maximum": self.maximum,
            "above_minimum": self.above_minimum,
            "below_maximum": self.below_maximum,
            "choices": list(self.choices),
            "processing": self.processing,
        }


def _number(value: object, name: str, whole: bool) -> float:
    if isinstance(value, bool):
        raise OptionError(name, f"not a number ({value!r})")
    try:
        number = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise OptionError(name, f"not a number ({value!r})") from None
    if not math.isfinite(number):
        raise OptionError(name, f"give a finite number (got {value})")
    if whole and number != int(number):
        raise OptionError(name, f"give a whole number (got {value})")
    return number


def _at_least(minimum: float) -> str:
    return "must not be negative" if minimum == 0 else f"must be at least {minimum:g}"
