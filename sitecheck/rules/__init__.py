"""The rule language: conditions that decide whether an ordinance rule applies to a parcel.

See :mod:`sitecheck.rules.language` for the grammar and the public API.
"""

from sitecheck.rules.language import (
    Evaluation,
    Expression,
    NameInfo,
    Quantity,
    RuleLanguageError,
    Truth,
    check,
    evaluate,
    names_in,
    parse,
    parse_quantity,
)

__all__ = [
    "Evaluation",
    "Expression",
    "NameInfo",
    "Quantity",
    "RuleLanguageError",
    "Truth",
    "check",
    "evaluate",
    "names_in",
    "parse",
    "parse_quantity",
]
