"""Severities of a rule: what a triggered rule asks of the applicant, least demanding first."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Severity:
    """One severity.

    Attributes
    ----------
    key : str
        The value in packs, JSON and the ``highest_severity`` field.
    label : str
        How every surface names it.
    colour : str
        How every surface colours it (``#rrggbb``).
    meaning : str
        What it means to an applicant.
    """

    key: str
    label: str
    colour: str
    meaning: str


SEVERITIES: tuple[Severity, ...] = (
    Severity(
        "exempt",
        "Exempt",
        "#a1d99b",
        "The work is exempt from the provisions the rule names.",
    ),
    Severity(
        "informational",
        "Informational",
        "#9ecae1",
        "Nothing to obtain: the rule says something the applicant and the village should know.",
    ),
    Severity(
        "submittal_required",
        "Submittal required",
        "#fdcc8a",
        "A document (a plan, a report, a certification) must be submitted.",
    ),
    Severity(
        "permit_required",
        "Permit required",
        "#fc8d59",
        "A village stormwater permit is needed before the work starts.",
    ),
    Severity(
        "board_approval_required",
        "Board approval required",
        "#d7301f",
        "A village board must approve the work.",
    ),
    Severity(
        "state_permit_required",
        "State permit required",
        "#6a3d9a",
        "A New York State DEC permit is needed besides the village's.",
    ),
)
"""Ordered from the least to the most demanding."""

SEVERITY_KEYS: tuple[str, ...] = tuple(severity.key for severity in SEVERITIES)
SEVERITY_BY_KEY: dict[str, Severity] = {severity.key: severity for severity in SEVERITIES}


def text_colour_on(background: str) -> str:
    """Black or white, whichever reads better on ``background`` (WCAG relative luminance)."""
    red, green, blue = (int(background[i : i + 2], 16) / 255 for i in (1, 3, 5))

    def linear(channel: float) -> float:
        return channel / 12.92 if channel <= 0.04045 else ((channel + 0.055) / 1.055) ** 2.4

    luminance = 0.2126 * linear(red) + 0.7152 * linear(green) + 0.0722 * linear(blue)
    # Contrast with black is (L + 0.05) / 0.05, with white 1.05 / (L + 0.05); equal at L ~ 0.179.
    return "#000000" if luminance > 0.179 else "#ffffff"
