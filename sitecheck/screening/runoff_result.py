"""What a run's runoff screen was asked for and what it found, with the sentences it rests on.

:mod:`sitecheck.screening.runoff_screen` computes it; the reports and the
distributed driver read it. The options say where soil groups and rainfall
come from; :class:`RunoffScreen` holds the per-lot metrics, the storms each
pack's lots were screened with and the assumptions every report prints.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import pandas as pd

from sitecheck.errors import InputError
from sitecheck.io.readers import LayerSource
from sitecheck.rules.pack_model import Pack
from sitecheck.runoff import RunoffSettings
from sitecheck.runoff.assumptions import PackLaw, ScreenedLots, runoff_assumptions
from sitecheck.runoff.rainfall import DesignRainfall, user_rainfall, village_rainfall
from sitecheck.runoff.rainfall_files import RainfallFile, read_rainfall_file
from sitecheck.runoff.soils import hsg_from_value
from sitecheck.schema.options import option
from sitecheck.schema.packs import BUNDLED

UNMAPPED_TOLERANCE_SQFT = 1.0
"""Lots whose soils layer leaves less than this unmapped count as fully mapped."""


@dataclass(frozen=True)
class RunoffOptions:
    """What a run says about the runoff screen.

    Attributes
    ----------
    soils : LayerSource or None
        Soil-survey polygons with a hydrologic soil group field.
    soil_field : str or None
        That field (default: the first present of ``hydgrp``, ``hydgrpdcd``, ``HSG``).
    soil_table : str or None
        SSURGO's muaggatt or component table, for map units carrying only MUKEY.
    default_hsg : str or None
        Soil group of lots (or the parts of lots) the soils layer does not map.
    rainfall : str or None
        ``--rainfall`` text, e.g. ``"25=6.2,100=8.0"``; replaces pack depths storm by storm.
    rainfall_file : str or None
        ``--rainfall-file``: a NOAA Atlas 14 PFDS CSV or NRCC table of the site's depths.
    settings : RunoffSettings
    """

    soils: LayerSource | None = None
    soil_field: str | None = None
    soil_table: str | None = None
    default_hsg: str | None = None
    rainfall: str | None = None
    rainfall_file: str | None = None
    settings: RunoffSettings = field(default_factory=RunoffSettings)

    @property
    def requested(self) -> bool:
        """The screen runs when the run says where the soil groups come from."""
        return self.soils is not None or self.default_hsg is not None

    def check(self) -> None:
        """Fail early, naming the option, on values that can never work."""
        if self.default_hsg is not None:
            hsg_from_value(self.default_hsg, self.settings.dual_hsg)
        if self.rainfall is not None:
            user_rainfall(self.rainfall)
        if self.rainfall_file is not None:
            read_rainfall_file(self.rainfall_file)
        option("wqv_rainfall_in").check(self.settings.wqv_rainfall_in)

    def to_json(self) -> dict[str, object]:
        return {
            "soils": self.soils.label() if self.soils else None,
            "soil_field": self.soil_field,
            "soil_table": self.soil_table,
            "default_hsg": self.default_hsg,
            "rainfall": self.rainfall,
            "rainfall_file": self.rainfall_file,
            **self.settings.to_json(),
        }


@dataclass(frozen=True)
class StormDepths:
    """The 24-hour depths one pack's lots were screened with, and where each came from."""

    pack_id: str
    depths_in: dict[int, float]
    given_by_user: tuple[int, ...]
    pack_rainfall: DesignRainfall | None
    site_file: RainfallFile | None = None

    @property
    def pack_defaults(self) -> tuple[int, ...]:
        return tuple(years for years in self.depths_in if years not in self.given_by_user)

    def confirm_note(self) -> str | None:
        """The sentence a report prints when any depth is a pack default."""
        defaults = self.pack_defaults
        if not defaults or self.pack_rainfall is None:
            return None
        storms = ", ".join(f"{years}-year" for years in defaults)
        status = (
            "placeholders NOT yet copied from that source"
            if not self.pack_rainfall.confirmed
            else "regional values"
        )
        return (
            f"{self.pack_id}: the {storms} 24-hour depths are pack defaults "
            f"({self.pack_rainfall.source}; {status}): confirm them for the site "
            "(NOAA Atlas 14 at hdsc.nws.noaa.gov/pfds, or the NRCC tables) and give the "
            "site's values with --rainfall."
        )

    def to_json(self) -> dict[str, object]:
        pack = self.pack_rainfall
        return {
            "pack": self.pack_id,
            "depths_in": {str(years): depth for years, depth in self.depths_in.items()},
            "duration_hr": 24,
            "given_by_user": list(self.given_by_user),
            "pack_defaults": list(self.pack_defaults),
            "pack_source": pack.source if pack else None,
            "pack_depths_confirmed": pack.confirmed if pack else None,
            "pack_note": pack.note if pack else None,
            "confirm": self.confirm_note(),
            "site_file": self.site_file.to_json() if self.site_file else None,
        }


@dataclass
class RunoffScreen:
    """Runoff of every screened lot, with what the numbers rest on.

    Attributes
    ----------
    table : pandas.DataFrame
        Indexed by parcel row; columns are the runoff metrics (see
        :func:`runoff_metric_names`).
    storms : dict of str to StormDepths
        By pack id.
    assumptions : list of str
        Sentences every report prints with the numbers.
    options : RunoffOptions
    facts : pandas.DataFrame
        Per screened lot, what the assumptions count (see :data:`FACT_COLUMNS`);
        a distributed run joins its partitions' facts to word the same sentences.
    """

    table: pd.DataFrame
    storms: dict[str, StormDepths]
    assumptions: list[str]
    options: RunoffOptions
    facts: pd.DataFrame = field(default_factory=pd.DataFrame)

    def to_json(self) -> dict[str, object]:
        notes = [note for depths in self.storms.values() if (note := depths.confirm_note())]
        return {
            "method": "TR-55 curve number (volumes), Rational method (peaks), NYS WQv",
            "units": {"volume": "cu ft", "peak": "cfs", "rainfall": "in, 24-hour"},
            "settings": self.options.to_json(),
            "rainfall": [depths.to_json() for depths in self.storms.values()],
            "confirm": notes,
            "assumptions": list(self.assumptions),
        }

    def metrics_of(self, row: int) -> dict[str, float | str | None]:
        """One parcel's runoff metrics (None where not computed)."""
        # Every row's read at once on the first call: the JSON of a county asks for tens
        # of thousands, and a row looked up in the table costs more than its sums.
        records: dict[int, dict[str, float | str | None]] | None = self.__dict__.get("_records")
        if records is None:
            records = self.__dict__["_records"] = self._records()
        found = records.get(row)
        return dict(found) if found is not None else dict.fromkeys(self._names())

    def _names(self) -> list[str]:
        return runoff_metric_names(self.table.columns)

    def _records(self) -> dict[int, dict[str, float | str | None]]:
        names = self._names()
        if not len(self.table):  # no lot was screened: the table has no columns either
            return {}
        numbers = [n for n in names if n in self.table.columns and n != RUNOFF_NOTE]
        # The numbers as one block: a column at a time cost the panel 1 ms of each answer.
        block = self.table[numbers].to_numpy(dtype=float, na_value=float("nan")).T.tolist()
        by_name = dict(zip(numbers, block, strict=True))
        columns: list[list[float | str | None]] = []
        for name in names:
            if name not in self.table.columns:
                columns.append([None] * len(self.table))
                continue
            if name == RUNOFF_NOTE:
                notes = self.table[name].tolist()
                columns.append([None if pd.isna(note) else str(note) for note in notes])
                continue
            whole = name in ("retention_storm_yr", "retention_review_storm_yr")
            columns.append(
                [None if v != v else (int(v) if whole else float(v)) for v in by_name[name]]
            )
        rows = self.table.index.tolist()
        return {
            int(row): dict(zip(names, values, strict=True))
            for row, values in zip(rows, zip(*columns, strict=True), strict=True)
        }


def runoff_metric_names(columns: pd.Index | list[str]) -> list[str]:
    """The metric columns of a runoff table, in report order."""
    columns = list(columns)

    def storms(prefix: str) -> list[str]:
        found = [c for c in columns if c.startswith(prefix)]
        return sorted(found, key=lambda name: int(name.removeprefix(prefix).removesuffix("yr")))

    return [
        "cn_pre",
        "cn_post",
        *[name for pre in storms("runoff_pre_cuft_") for name in (pre, pre.replace("pre", "post"))],
        "retention_storm_yr",
        "retention_required_cuft",
        "retention_dual_drained",
        "retention_review_storm_yr",
        "retention_review_cuft",
        "wqv_cuft",
        *[name for pre in storms("peak_pre_cfs_") for name in (pre, pre.replace("pre", "post"))],
        RUNOFF_NOTE,
    ]


RUNOFF_NOTE = "runoff_note"
"""The text metric of the screen: why a lot's figures are null, or what they leave out."""


FACT_COLUMNS: tuple[str, ...] = (
    "pack",
    "governing_yr",
    "unimproved",
    "undecided",
    "no_soil",
    "missing_cover",
    "partly_unmapped",
)


def _storm_law(pack: Pack) -> str | None:
    """Where a pack's design storms come from, in its own citations."""
    cited = [r.citation for r in pack.rules if r.design_storm_years or r.design_storms]
    return f"{pack.name} {', '.join(dict.fromkeys(cited))}" if cited else None


def screen_assumptions(
    facts: pd.DataFrame,
    storms: Mapping[str, StormDepths],
    packs: Mapping[str, Pack],
    options: RunoffOptions,
) -> list[str]:
    """Every sentence the reports print with the runoff numbers, from per-lot facts.

    Parameters
    ----------
    facts : pandas.DataFrame
        One row per screened lot, columns :data:`FACT_COLUMNS`.
    storms : mapping of str to StormDepths
        By pack id, the depths its lots were screened with.
    packs : mapping of str to Pack
    options : RunoffOptions
    """
    lines: list[str] = []
    for pack_id, depths in storms.items():
        mine = facts[facts["pack"] == pack_id]
        pack = packs[pack_id]
        prefix = f"{pack.name}: " if len(storms) > 1 else ""
        pack_lines = runoff_assumptions(
            options.settings,
            depths.depths_in,
            ScreenedLots(
                mine["governing_yr"].to_numpy(dtype=float),
                int(mine["unimproved"].sum()),
                int(mine["no_soil"].sum()),
            ),
            PackLaw(
                storm_law=_storm_law(pack),
                unimproved_law=(
                    f"{pack.name} {pack.runoff.unimproved_before_citation}"
                    if pack.runoff.unimproved_before_when_text
                    else None
                ),
            ),
        )
        if note := depths.confirm_note():
            pack_lines.insert(1, note)
        undecided = int(mine["undecided"].sum())
        if pack.runoff.unimproved_before_when_text and undecided:
            pack_lines.append(
                f"{undecided} lot(s): whether '{pack.runoff.unimproved_before_when_text}' holds "
                f"({pack.runoff.unimproved_before_citation}) is unknown (a layer is missing), so "
                "their before condition is the existing cover; give the layer to apply it."
            )
        if not pack.design_storms:
            pack_lines.append(
                f"{pack.name}: the law names no design storm, so runoff is given for the "
                "storms of the rainfall table as figures, none of them a requirement."
            )
        no_storm = int(mine["governing_yr"].isna().sum())
        if no_storm:
            pack_lines.append(
                f"{no_storm} lot(s) trigger no rule naming a design storm: no retention figure."
            )
        missing_cover = int(mine["missing_cover"].sum())
        if missing_cover:
            pack_lines.append(
                f"{missing_cover} lot(s) without existing or proposed impervious cover measured: "
                "runoff left null (give both impervious layers)."
            )
        lines.extend(prefix + line for line in pack_lines)
    partly = int(facts["partly_unmapped"].sum()) if len(facts) else 0
    if options.soils is not None and partly:
        filler = (
            f"taken as group {options.default_hsg} (--default-hsg)"
            if options.default_hsg
            else "left out (soil shares from the mapped part)"
        )
        lines.append(
            f"{options.soils.label()}: {partly} lot(s) partly outside the mapped soil groups; "
            f"the unmapped part {filler}."
        )
    return lines


def storm_depths(pack: Pack, options: RunoffOptions) -> StormDepths:
    """The depths of every storm a pack names: the user's where given (``--rainfall``
    storm by storm over ``--rainfall-file``), else the pack's.

    Raises
    ------
    InputError
        When a storm has no depth from either.
    """
    pack_rainfall = pack.runoff.rainfall or (
        village_rainfall(pack.id) if pack.id in BUNDLED else None
    )
    site_file = read_rainfall_file(options.rainfall_file) if options.rainfall_file else None
    given = dict(site_file.depths_in) if site_file else {}
    given |= user_rainfall(options.rainfall).depths_in if options.rainfall else {}
    wanted = pack.design_storms or tuple(
        sorted(given or (pack_rainfall.depths_in if pack_rainfall else {}))
    )
    depths: dict[int, float] = {}
    missing = []
    for years in wanted:
        if years in given:
            depths[years] = given[years]
        elif pack_rainfall and years in pack_rainfall.depths_in:
            depths[years] = pack_rainfall.depths_in[years]
        else:
            missing.append(years)
    if missing:
        storms = ",".join(f"{years}=INCHES" for years in missing)
        raise InputError(
            f"rainfall: pack '{pack.id}' names the {', '.join(map(str, missing))}-year storm(s) "
            f'but has no depth for them; give --rainfall "{storms}" (24-hour inches) or the '
            "site's NOAA Atlas 14 / NRCC table with --rainfall-file"
        )
    if not depths:
        raise InputError(
            f"rainfall: pack '{pack.id}' names no design storm and has no rainfall; "
            'give --rainfall, e.g. "25=6.2,100=8.0", or --rainfall-file'
        )
    return StormDepths(
        pack_id=pack.id,
        depths_in=depths,
        given_by_user=tuple(years for years in depths if years in given),
        pack_rainfall=pack_rainfall,
        site_file=site_file,
    )
