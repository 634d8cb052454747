"""Apply the chosen rule packs to measured parcels: every rule's outcome per parcel."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
import shapely

from sitecheck.constraints.layers import district_by_lot
from sitecheck.io.frames import text_array
from sitecheck.io.progress import Progress
from sitecheck.io.readers import POLYGONAL
from sitecheck.measure.inputs import MeasureResult
from sitecheck.rules.margins import Margin
from sitecheck.rules.nearest_rows import margin_rows, nearest_margin_rows
from sitecheck.rules.outcome import NEEDS_REVIEW, TRIGGERED, ParcelOutcome
from sitecheck.rules.pack_model import Pack
from sitecheck.rules.pack_rows import DecidedPack, ParcelsAlone, decided_pack
from sitecheck.schema.options import option
from sitecheck.screening.packs import PackChoice
from sitecheck.screening.runoff_result import RUNOFF_NOTE, RunoffScreen, runoff_metric_names
from sitecheck.screening.values import parcel_value_rows

DEFAULT_TOLERANCE = float(option("tolerance").default)  # type: ignore[arg-type]


@dataclass
class CheckResult:
    """The measured run with each parcel's outcome (None where no pack applies)."""

    measured: MeasureResult
    outcomes: list[ParcelOutcome | None]
    packs: dict[str, Pack]
    tolerance: float
    runoff: RunoffScreen | None = None
    projects: Projects | None = None  # the work grouped by project (None: not grouped)
    unlisted_reasons: bool = True  # False: the rules not triggered have no reasons yet
    unworded: set[int] = field(default_factory=set)  # rows whose rules have no reasons yet

    def with_every_reason(self, rows: list[int]) -> None:
        """Word the reasons of the rules on these rows that the run left unworded (a
        report's detailed sections show every rule of their parcels)."""
        worded: set[int] = self.__dict__.setdefault("_worded", set())
        wanted = [
            row
            for row in rows
            if (not self.unlisted_reasons or row in self.unworded)
            and row not in worded
            and self.outcomes[row] is not None
            and self.measured.touched[row]
        ]
        # Decided together, as the run decided them, rather than parcel by parcel.
        packs = {row: self._pack_of(row) for row in wanted}
        decided = _decided_by_pack(self.measured, packs, wanted, self.tolerance, warn=False)
        for row, (pack_rows, position) in decided.items():
            self.outcomes[row] = pack_rows.outcome(position, unlisted_reasons=True)
            worded.add(row)

    def margins(self, rows: list[int], progress: Progress | None = None) -> dict[int, list[Margin]]:
        """Each row's nearest thresholds that change a rule's outcome, one per redesignable
        area, nearest first (rows with work only; empty for the others)."""
        # Remembered: the terminal, the JSON and the report ask for the same rows.
        known: dict[int, list[Margin]] = self.__dict__.setdefault("_margins", {})
        self._search(rows, known, margin_rows, progress)
        return {row: known.get(row, []) for row in rows}

    def nearest(
        self, rows: list[int], progress: Progress | None = None
    ) -> dict[int, Margin | None]:
        """Each row's nearest threshold of all (the first of :meth:`margins`), found alone:
        what the compact JSON and the terminal show."""
        known: dict[int, Margin | None] = self.__dict__.setdefault("_nearest", {})
        every = self.__dict__.get("_margins", {})
        for row in rows:
            if row in every and row not in known:
                known[row] = every[row][0] if every[row] else None
        self._search(rows, known, nearest_margin_rows, progress)
        return {row: known.get(row) for row in rows}

    def _wanted(self, rows: list[int], known: dict) -> list[int]:
        """The rows with work not yet ``known``."""
        return [
            row
            for row in rows
            if row not in known and self.outcomes[row] is not None and self.measured.touched[row]
        ]

    def _pack_of(self, row: int) -> Pack:
        outcome = self.outcomes[row]
        assert outcome is not None
        return outcome.pack

    def _search(
        self,
        rows: list[int],
        known: dict,
        search: Callable[[Pack, list[Mapping[str, object]], Progress], list],
        progress: Progress | None,
    ) -> None:
        """``search`` the rows with work not yet ``known``, each pack's rows together,
        the bar moving as it goes."""
        wanted = self._wanted(rows, known)
        values = parcel_value_rows(self.measured, wanted, warn=False) if wanted else []
        by_pack: dict[int, list[int]] = {}
        for position, row in enumerate(wanted):
            by_pack.setdefault(id(self._pack_of(row)), []).append(position)
        progress = progress or Progress(quiet=True)
        groups = list(by_pack.values())
        for number, positions in enumerate(groups):
            share = progress.within(100 * number / len(groups), 100 * (number + 1) / len(groups))
            found = search(
                self._pack_of(wanted[positions[0]]), [values[at] for at in positions], share
            )
            known.update((wanted[at], margin) for at, margin in zip(positions, found, strict=True))

    def parcels_with_triggers(self) -> pd.DataFrame:
        """The parcel table with the trigger columns added for the GeoPackage."""
        # Columns are only added: the measured ones are shared, not copied (a county's
        # table is hundreds of megabytes).
        table = self.measured.parcels.copy(deep=False)
        table["jurisdiction"] = text_array([o.pack.id if o else None for o in self.outcomes])
        columns = _trigger_columns(self.outcomes)
        summary = columns.pop("triggers_summary")
        for name, (values, dtype) in columns.items():
            table[name] = _typed(values, dtype)
        if self.projects is not None:
            on_lot = self.projects.of_lot()
            table["projects"] = text_array(
                [", ".join(on_lot.get(str(i), [])) or None for i in table["parcel_id"].tolist()]
            )
        table["triggers_summary"] = _typed(*summary)
        if self.runoff is not None:
            runoff = self.runoff.table
            for name in runoff_metric_names(runoff.columns):
                if name == RUNOFF_NOTE:  # the one text column
                    notes = np.full(len(table), None, dtype=object)
                    if name in runoff.columns:
                        notes[runoff.index.to_numpy()] = runoff[name].to_numpy(dtype=object)
                    table[name] = pd.array(notes, dtype="string")
                    continue
                column = np.full(len(table), np.nan)
                if name in runoff.columns:  # absent when no lot was screened
                    column[runoff.index.to_numpy()] = runoff[name].to_numpy(dtype=float)
                table[name] = column
        return table


def _typed(values: np.ndarray, dtype: str | None) -> object:
    """A trigger column's values as its pandas dtype (None: as they are)."""
    if dtype == "string":
        return text_array(values)
    return pd.array(values, dtype=dtype) if dtype else values


def _trigger_columns(
    outcomes: list[ParcelOutcome | None],
) -> dict[str, tuple[np.ndarray, str | None]]:
    """The GeoPackage's trigger columns (values, pandas dtype): a lot whose outcome lists no
    rule (most lots of a county have no work) keeps each column's empty value, and only
    the lots with rules listed are looked at one by one."""
    count = len(outcomes)
    columns: dict[str, tuple[np.ndarray, str | None]] = {
        "highest_severity": (np.full(count, None, dtype=object), "string"),
        "trigger_count": (np.zeros(count, dtype=np.int64), None),
        "review_count": (np.zeros(count, dtype=np.int64), None),
        "design_storm_years": (np.full(count, None, dtype=object), "Int64"),
        "design_storm_review_years": (np.full(count, None, dtype=object), "Int64"),
        "design_storm": (np.full(count, None, dtype=object), "string"),
        # "" for a lot checked with nothing listed, null for a lot no pack covers
        "triggers_summary": (
            np.array(["" if o is not None else None for o in outcomes], dtype=object),
            "string",
        ),
    }
    for row, outcome in enumerate(outcomes):
        if outcome is None or not outcome.triggers:
            continue
        found = (  # in the order of ``columns``
            outcome.highest_severity,
            len(outcome.of(TRIGGERED)),
            len(outcome.of(NEEDS_REVIEW)),
            outcome.design_storm_years,
            max(outcome.design_storm_review_years, default=None),
            outcome.design_storm,
            outcome.summary(),
        )
        for (values, _), value in zip(columns.values(), found, strict=True):
            values[row] = value
    return columns


@dataclass
class Projects:
    """The run's projects (the work grouped by its ``project`` field), the lots of each,
    and where each was checked.

    A project of one lot that no other project shares is the lot itself: the
    lot view is its check. A project of several lots, or on a lot another
    project shares, is checked on its site.

    Attributes
    ----------
    ids : list of str
    lots : list of list of str
        Each project's lots (lot ids), in the parcel layer's order.
    named : bool
        Whether the work names its projects (a ``project`` field); without it
        each lot with work is its own project.
    site_result : CheckResult or None
        The check of the project sites (None when no project needs one).
    site_rows, lot_rows : list of int
        Each project's row in ``site_result``, or in the lot view; -1 for the other.
    notes : list of str
        Warnings about the grouping (projects sharing a lot).
    """

    ids: list[str]
    lots: list[list[str]]
    named: bool
    site_result: CheckResult | None
    site_rows: list[int]
    lot_rows: list[int]
    notes: list[str] = field(default_factory=list)

    @property
    def from_field(self) -> bool:
        return self.named

    def of_lot(self) -> dict[str, list[str]]:
        """Lot id -> the projects with work on it (one mapping, made once: the GeoPackage
        and each chunk of a streamed JSON document read it, 0.03 s each at 250k)."""
        found: dict[str, list[str]] | None = self.__dict__.get("_of_lot")
        if found is None:
            found = {lot: [self.ids[index] for index in at] for lot, at in self._on_lot().items()}
            self.__dict__["_of_lot"] = found
        return found

    def indices_on(self, lot: str) -> list[int]:
        """The indices of the projects with work on lot ``lot``, in project order."""
        return self._on_lot().get(lot, [])

    def _on_lot(self) -> dict[str, list[int]]:
        # Remembered: a report asks it for each parcel it details.
        found: dict[str, list[int]] | None = self.__dict__.get("_on_lot_indices")
        if found is None:
            found = {}
            for index, lots in enumerate(self.lots):
                for lot in lots:
                    found.setdefault(lot, []).append(index)
            self.__dict__["_on_lot_indices"] = found
        return found

    def outcome(self, index: int, lot_result: CheckResult) -> ParcelOutcome | None:
        """The outcome of project ``index``: its site's, or its lot's."""
        if self.site_rows[index] >= 0:
            assert self.site_result is not None
            return self.site_result.outcomes[self.site_rows[index]]
        return lot_result.outcomes[self.lot_rows[index]]


def check_parcels(
    measured: MeasureResult,
    choice: PackChoice,
    tolerance: float = DEFAULT_TOLERANCE,
    progress: Progress | None = None,
    unlisted_reasons: bool = True,
    worded_ids: frozenset[str] | None = None,
) -> CheckResult:
    """Evaluate the rules of each parcel's pack for every parcel with work.

    Parameters
    ----------
    measured : MeasureResult
    choice : PackChoice
        The run's packs (:func:`sitecheck.screening.packs.choose_packs`).
    tolerance : float
        Relative band around thresholds that gives ``needs_review``.
    progress : Progress, optional
        Moved as the parcels are evaluated.
    unlisted_reasons : bool
        False to word the reasons of the listed rules only (triggered or needing review):
        :meth:`CheckResult.with_every_reason` words the others where they are shown.
    worded_ids : frozenset of str, optional
        The parcels whose rules are worded; the others' are decided without reasons
        (``CheckResult.unworded``). None: every parcel's.
    """
    option("tolerance").check(tolerance)
    if choice.single is not None:
        chosen: list[Pack | None] = [choice.single] * len(measured.parcels)
        packs = choice.packs
    else:
        chosen, packs = _packs_by_jurisdiction(measured, choice)
    evaluated = [
        row
        for row, parcel_pack in enumerate(chosen)
        if parcel_pack is not None and measured.touched[row]
    ]
    decided = _decided_by_pack(measured, chosen, evaluated, tolerance)
    unworded = set()
    if worded_ids is not None:
        ids = measured.parcels["parcel_id"].astype(str).to_numpy(dtype=object)
        unworded = {row for row in evaluated if ids[row] not in worded_ids}
    outcomes: list[ParcelOutcome | None] = []
    no_work: dict[int, ParcelOutcome] = {}  # by pack: one outcome for all its lots without work
    progress = progress or Progress(quiet=True)
    for row in progress.counted("evaluating the rule packs", len(chosen)):
        parcel_pack = chosen[row]
        if parcel_pack is None:
            outcomes.append(None)
        elif row in decided:
            pack_rows, position = decided[row]
            outcomes.append(pack_rows.outcome(position, unlisted_reasons, row not in unworded))
        else:
            # No work: no rule is listed. One outcome per pack, shared: its groupings and
            # figures are made once, not for each of a county's lots without work.
            shared = no_work.setdefault(id(parcel_pack), ParcelOutcome(parcel_pack, ()))
            outcomes.append(shared)
    return CheckResult(
        measured, outcomes, packs, tolerance, unlisted_reasons=unlisted_reasons, unworded=unworded
    )


def _decided_by_pack(
    measured: MeasureResult,
    chosen: Mapping[int, Pack | None] | list[Pack | None],
    rows: list[int],
    tolerance: float,
    warn: bool = True,
) -> dict[int, tuple[DecidedPack | ParcelsAlone, int]]:
    """Each evaluated row's pack, its rules decided over all the pack's rows at once (one
    row at a time where a pack has few, :func:`decided_pack`), and the row's place among
    them (``chosen``: each row's pack; ``warn=False`` when the run already named the rows'
    unreadable values)."""
    values = parcel_value_rows(measured, rows, warn=warn)
    by_pack: dict[int, list[int]] = {}
    for position, row in enumerate(rows):
        by_pack.setdefault(id(chosen[row]), []).append(position)
    decided: dict[int, tuple[DecidedPack | ParcelsAlone, int]] = {}
    for positions in by_pack.values():
        pack = chosen[rows[positions[0]]]
        assert pack is not None
        pack_rows = decided_pack(pack, [values[at] for at in positions], tolerance)
        decided.update({rows[at]: (pack_rows, place) for place, at in enumerate(positions)})
    return decided


def _packs_by_jurisdiction(
    measured: MeasureResult, choice: PackChoice
) -> tuple[list[Pack | None], dict[str, Pack]]:
    """Each lot's pack: the jurisdiction holding most of it; the packs of the lots present."""
    assert choice.jurisdictions is not None and choice.field_name is not None
    source = choice.jurisdictions
    frame = measured.log.read(source, POLYGONAL, target_crs=measured.working.crs)
    lots = measured.parcels.geometry.to_numpy()
    names = district_by_lot(lots, frame, choice.field_name, shapely.STRtree(lots))
    chosen: list[Pack | None] = [choice.by_value[str(name)] if name else None for name in names]
    loaded = {pack.id: pack for pack in chosen if pack is not None}
    outside = int(sum(p is None for p in chosen))
    if outside:
        measured.log.warn(
            f"{source.label()}: {outside} parcel(s) lie in no jurisdiction; no rules applied"
        )
    return chosen, loaded
