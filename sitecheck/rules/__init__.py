"""The rule language: conditions that decide whether an ordinance rule applies to a parcel.

See :mod:`sitecheck.rules.language` for the grammar and the public API.
"""

from sitecheck.rules import language
from sitecheck.rules.language import *  # noqa: F403 - the language's public API

__all__ = language.__all__
