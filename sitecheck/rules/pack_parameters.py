"""A pack's ``[parameters]``: the named thresholds its rules compare with, as the law gives them."""

from __future__ import annotations

import math
import re

from sitecheck.rules.errors import RuleLanguageError
from sitecheck.rules.language import NameInfo, Quantity, parse_quantity
from sitecheck.rules.pack_model import PackError, ParameterValue, refuse_unknown_keys
from sitecheck.rules.pack_tables import line_of

_PARAMETER_KEYS = {"value", "label", "citation", "notes"}


def pack_parameters(
    data: dict, names: dict[str, NameInfo], where: str, text: str
) -> dict[str, ParameterValue]:
    """Named thresholds: ``name = { value = "500 sqft", label = "...", citation = "..." }``.

    Raises
    ------
    PackError
        Naming every parameter that is wrong (its ``problems``), each with its line.
    """
    out: dict[str, ParameterValue] = {}
    problems: list[str] = []
    for name, spec in data.get("parameters", {}).items():
        line = line_of(text, rf"^\s*{re.escape(name)}\s*=")
        context = f"{where}: parameter {name} (line {line})"
        try:
            out[name] = _parameter(name, spec, names, context)
        except PackError as error:
            problems.append(str(error))
    if problems:
        raise PackError("\n".join(problems), problems=tuple(problems))
    return out


def _parameter(name: str, spec: object, names: dict[str, NameInfo], context: str) -> ParameterValue:
    """One parameter's value, its name added to ``names``."""
    if not isinstance(spec, dict):
        spec = {"value": spec}
    refuse_unknown_keys(spec, _PARAMETER_KEYS, context)
    if name in names:
        raise PackError(f"{context}: the name is taken by a metric or attribute")
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
        raise PackError(f"{context}: a parameter name is letters, digits and _")
    value = spec.get("value")
    label = str(spec.get("label", name.replace("_", " ")))
    if isinstance(value, bool):
        names[name] = NameInfo("boolean", label, constant=value)
        return value
    if isinstance(value, list) and value and _one_kind(value):
        return tuple(value)  # used after 'in' and in 'unless', not as a value
    if isinstance(value, str):
        try:
            quantity = parse_quantity(value)
        except RuleLanguageError as error:
            raise PackError(f"{context}: {error}") from error
    elif isinstance(value, int | float):
        quantity = Quantity(float(value), "number")
    else:
        raise PackError(
            f"{context}: 'value' must be a quantity such as \"500 sqft\", "
            "a number, true/false, or a list of texts or of numbers"
        )
    if not math.isfinite(quantity.value) or quantity.value < 0:
        raise PackError(
            f"{context}: a threshold is a finite number of 0 or more, as the law writes it "
            f"(got {value})"
        )
    names[name] = NameInfo(quantity.dimension, label, constant=quantity)
    return quantity


def _one_kind(items: list) -> bool:
    """A list parameter holds texts only, or numbers only."""
    if all(isinstance(item, str) for item in items):
        return True
    return all(isinstance(item, int | float) and not isinstance(item, bool) for item in items)
