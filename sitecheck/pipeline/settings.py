"""A run's settings from option values, checked once for the CLI, the worker and Processing.

Values come by option name (:mod:`sitecheck.schema.options`): parsed command
line arguments, or the ``settings`` and ``runoff`` objects of the worker's
``open`` request. Every value is checked against its option's bounds; a bad
one is an OptionError naming the option, which each surface words its way.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from sitecheck.constraints.adjoining import AdjoiningSettings
from sitecheck.constraints.wetland_classes import nwi_classes
from sitecheck.errors import OptionError
from sitecheck.io.readers import LayerSource
from sitecheck.measure.inputs import MeasureSettings
from sitecheck.runoff import RunoffSettings
from sitecheck.schema.kinds import KINDS
from sitecheck.schema.options import SLOPE_THRESHOLDS_PCT, option
from sitecheck.screening.packs import PackChoice
from sitecheck.screening.runoff_result import RunoffOptions
from sitecheck.terrain.dem import SlopeSettings


def value_of(values: Mapping[str, object], name: str) -> object:
    """The checked value of an option: the given one, else its default."""
    given = values.get(name)
    chosen = option(name).default if given is None or given == "" else given
    return option(name).check(chosen)


def measure_settings(values: Mapping[str, object]) -> MeasureSettings:
    """Measure settings from option values; bad values raise OptionError naming the option."""
    number = lambda name: float(value_of(values, name))  # type: ignore[arg-type]  # noqa: E731
    return MeasureSettings(
        id_field=_text(value_of(values, "id_field")),
        zoning_field=_text(value_of(values, "zoning_field")),
        wetland_adjacent_ft=number("wetland_adjacent_ft"),
        nwi_classes=nwi_classes(value_of(values, "nwi_classes")),
        impaired_flag=_text(value_of(values, "impaired_flag")),
        watercourse_buffer_ft=number("watercourse_buffer_ft"),
        slope=SlopeSettings(
            thresholds_pct=SLOPE_THRESHOLDS_PCT,
            z_units=_text(value_of(values, "dem_z_units")),
        ),
        adjoining=AdjoiningSettings(
            rear_setback_ft=number("rear_setback_ft"),
            side_setbacks_ft=district_table(value_of(values, "side_setbacks")),
            default_side_setback_ft=number("default_side_setback_ft"),
        ),
        crs=_text(value_of(values, "crs")),
        kind_options={
            chosen.name: value_of(values, chosen.name) for kind in KINDS for chosen in kind.options
        },
    )


def settings_under_packs(settings: MeasureSettings, packs: PackChoice) -> MeasureSettings:
    """The run's settings with what its packs fix about measuring: the districts the
    adjoining property buffer applies in (Scarsdale's Residence A, § 254-4)."""
    adjoining = replace(settings.adjoining, districts=packs.adjoining_buffer_districts)
    return replace(settings, adjoining=adjoining)


def runoff_options(values: Mapping[str, object], soils: LayerSource | None) -> RunoffOptions:
    """Runoff-screen options from option values; bad values raise OptionError naming the option."""
    hsg = value_of(values, "default_hsg")
    runoff = RunoffOptions(
        soils=soils,
        soil_field=_text(value_of(values, "soil_field")),
        soil_table=_text(value_of(values, "soil_table")),
        default_hsg=str(hsg).upper() if hsg else None,
        rainfall=_text(value_of(values, "rainfall")),
        rainfall_file=_text(value_of(values, "rainfall_file")),
        settings=RunoffSettings(
            pervious_cover=str(value_of(values, "pervious_cover")),
            unimproved_cover=str(value_of(values, "unimproved_cover")),
            dual_hsg=value_of(values, "dual_hsg"),  # type: ignore[arg-type]  # a checked choice
            wqv_rainfall_in=float(value_of(values, "wqv_rainfall_in")),  # type: ignore[arg-type]
        ),
    )
    runoff.check()
    return runoff


def district_table(value: object) -> dict[str, float]:
    """Side setbacks per district from ``"A-1=20,A-2=15"`` or a mapping; feet, finite, >= 0."""
    name = "side_setbacks"
    if isinstance(value, Mapping):
        items = [(str(k), v) for k, v in value.items()]
    else:
        items = []
        for item in filter(None, (part.strip() for part in str(value or "").split(","))):
            district, sep, number = item.partition("=")
            if not sep or not district.strip():
                raise OptionError(name, f'expected DISTRICT=FEET, got "{item}"')
            items.append((district.strip(), number))
    table: dict[str, float] = {}
    for district, number in items:
        try:
            feet = float(number)
        except (TypeError, ValueError):
            raise OptionError(name, f'expected DISTRICT=FEET, got "{district}={number}"') from None
        if not 0 <= feet < float("inf"):
            raise OptionError(name, f"{district}: give a finite, non-negative width (got {number})")
        table[district] = feet
    return table


def _text(value: object) -> str | None:
    return str(value) if value not in (None, "") else None
