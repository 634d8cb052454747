"""What one screening run is asked to do."""

from __future__ import annotations

from dataclasses import dataclass, field

from sitecheck.io.readers import LayerSource
from sitecheck.measure.inputs import MeasureInputs, MeasureSettings
from sitecheck.screening.check import DEFAULT_TOLERANCE
from sitecheck.screening.runoff_result import RunoffOptions


@dataclass(frozen=True)
class RunSpec:
    """The inputs, settings and ordinance of a ``check`` run, however it is started.

    Attributes
    ----------
    inputs : MeasureInputs
    settings : MeasureSettings
    ordinance : str or None
        Pack id or file (with ``jurisdictions``, a custom pack they may name).
    tolerance : float
        Relative band around thresholds that gives ``needs_review``.
    jurisdictions : LayerSource or None
        Polygons naming each area's pack.
    jurisdiction_field : str or None
        Their field holding the pack id or village name.
    runoff : RunoffOptions
        The runoff screen runs when these say where soil groups come from.
    unlisted_reasons : bool
        Word the reasons of the rules a parcel does not trigger: the full JSON layout
        and the panel show them; the compact JSON, the GeoPackage and the report's
        table do not, so a county's run leaves them out (a report's detailed
        sections word them for their own parcels).
    worded_parcels : frozenset of str, optional
        The parcels whose rules are worded at all; the others' outcomes are decided
        without reasons, and no project's site is worded. The panel words the parcel
        it shows (the other lots of its projects and the sites give their outcomes and
        numbers alone). None: every parcel's and every site's.
    """

    inputs: MeasureInputs
    settings: MeasureSettings = field(default_factory=MeasureSettings)
    ordinance: str | None = None
    tolerance: float = DEFAULT_TOLERANCE
    jurisdictions: LayerSource | None = None
    jurisdiction_field: str | None = None
    runoff: RunoffOptions = field(default_factory=RunoffOptions)
    unlisted_reasons: bool = True
    worded_parcels: frozenset[str] | None = None
