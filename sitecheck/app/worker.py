"""A persistent engine process for the dock panel: ``sitecheck serve``.

The panel re-evaluates one parcel after every edit. Starting Python and
reading the layers each time would take seconds; the worker reads the
unchanging layers once, keeps them in memory in the working CRS, and for each
request measures only the parcel's neighbourhood, with the drawn layers
(disturbance, impervious cover) taken from the request as the user has them,
saved or not.

Protocol: one JSON object per line on stdin, one JSON reply per line on
stdout. Requests have an ``op``:

``open``
    ``inputs`` (role -> ``path`` or ``path:layer``), ``dem``, ``ordinance``
    (pack id or file) or ``jurisdictions`` + ``jurisdiction_field``,
    ``settings`` (the measure options by name), ``tolerance``.
``evaluate``
    ``parcel_id``, and ``layers``: role -> ``{"crs": WKT or authority,
    "features": [{"wkb": hex, "properties": {...}}]}`` for the drawn layers
    near the parcel. Replies with the parcel's metrics, triggers, flags (WKB
    hex in the working CRS) and timings.
``report``
    As ``evaluate`` plus ``path``: writes the HTML report for that parcel.
``ping`` / ``quit``.

Replies carry ``ok``; failures carry ``error`` (one line, as the CLI's) and
the worker keeps serving.
"""

from __future__ import annotations

import sys
import time
import traceback
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

import geopandas as gpd
import numpy as np
import pandas as pd
import shapely

from sitecheck.app.worker_drawn import DrawnLayers
from sitecheck.app.worker_focus import FOCUSED_ROLES, WORK_ROLE, Focus, focus_on, near_rows
from sitecheck.app.worker_protocol import (
    read_request,
    refuse_unknown_keys,
    request_object,
    request_text,
    write_reply,
)
from sitecheck.app.worker_reply import parcel_reply, write_parcel_report
from sitecheck.errors import InputError, OptionError, one_line
from sitecheck.io.crs import WorkingCRS
from sitecheck.io.kept import KeptByIdentity
from sitecheck.io.output_set import Named, named
from sitecheck.io.parcels import read_parcels
from sitecheck.io.readers import (
    LINEAR,
    POLYGONAL,
    LayerReader,
    LayerRequest,
    LayerSource,
)
from sitecheck.measure.inputs import MeasureInputs, MeasureSettings
from sitecheck.pipeline.run import screen
from sitecheck.pipeline.settings import measure_settings, runoff_options
from sitecheck.pipeline.spec import RunSpec
from sitecheck.schema.options import MEASURE_OPTIONS, RUNOFF_OPTIONS, option
from sitecheck.schema.roles import DRAWN_ROLES, ROLE_BY_KEY, VECTOR_ROLES
from sitecheck.screening.check import DEFAULT_TOLERANCE, CheckResult
from sitecheck.screening.packs import PackChoice, choose_packs
from sitecheck.screening.runoff_result import RunoffOptions

# An older name of a setting in the ``open`` request, kept working.
SETTING_ALIASES = {"side_setbacks_ft": "side_setbacks"}
SETTING_NAMES = tuple(option.name for option in MEASURE_OPTIONS)
RUNOFF_NAMES = tuple(option.name for option in RUNOFF_OPTIONS)


def settings_from(options: Mapping[str, Any]) -> MeasureSettings:
    """Measure settings from the ``open`` request's ``settings`` object, checked as the CLI's."""
    values = {SETTING_ALIASES.get(name, name): value for name, value in options.items()}
    refuse_unknown_keys(values, SETTING_NAMES, "settings")
    return measure_settings(values)


def runoff_from(options: Mapping[str, Any], soils: LayerSource | None) -> RunoffOptions:
    """Runoff-screen options from the ``open`` request's ``runoff`` object, checked as the CLI's."""
    refuse_unknown_keys(options, RUNOFF_NAMES, "runoff")
    return runoff_options(options, soils)


class NeighbourhoodReader(LayerReader):
    """Serves cached layers cut to an area, and drawn layers from the request.

    ``cache`` holds each layer once, cleaned, in the working CRS, with its
    spatial index; a request takes the features whose extent meets the area.
    ``kept``: what the session keeps from answer to answer (:mod:`sitecheck.io.kept`): the
    rows served of each layer it holds, and what the run makes of them.
    """

    def __init__(
        self,
        cache: dict[str, gpd.GeoDataFrame],
        drawn: dict[str, gpd.GeoDataFrame],
        area: shapely.Geometry,
        records: list,
        focus: Focus,
        lots: np.ndarray,
        kept: KeptByIdentity,
    ) -> None:
        super().__init__(
            inputs=list(records),
            partial_view=True,
            names_projects=focus.names_projects,
            kept=kept,
        )
        self.cache = cache
        self.drawn = drawn
        self.area = area
        self.work = focus.work  # the disturbance that can change the answer
        self.focus_lots = lots[focus.rows]  # the lots it spans: where impervious is read

    def serve(self, request: LayerRequest) -> gpd.GeoDataFrame:
        """The layer as the session holds it: near the work, or (``around``) meeting the
        request's extent; from memory (a file read at every edit cost the panel a fifth of
        its answer)."""
        frame = self._held(request.source.role, request.target_crs)
        if not request.around:
            assert frame is not None  # a session holds every role it was opened with
            if request.source.role in FOCUSED_ROLES:
                return self._rows(frame, near_rows(frame, self.focus_lots))
            near = frame.sindex.query(self.area, predicate="intersects")
            return self._rows(frame, np.sort(near))
        if frame is None:
            return super().serve(request)
        boxes = request.within.in_crs(frame.crs) if request.within is not None else None
        if boxes is None:
            return frame
        if not boxes:
            return frame.iloc[0:0]
        near = frame.sindex.query(shapely.box(*np.asarray(boxes).T), predicate="intersects")[1]
        return self._rows(frame, np.unique(near))

    def _rows(self, frame: gpd.GeoDataFrame, rows: np.ndarray) -> gpd.GeoDataFrame:
        """``frame.iloc[rows]``, kept from answer to answer: an edit leaves most reads
        the same rows of the same layer (serving the reads took 7.3 ms an answer, 5.7
        with the rows kept).
        The kept table itself, not a copy (a shallow copy of each cost 2 ms an answer on
        a site): no stage changes a table it is served, which a test holds the kept
        tables to, answer after answer."""
        if self.kept is None or not any(frame is held for held in self.cache.values()):
            return frame.iloc[rows]  # drawn, or moved to another CRS: this answer's own
        return self.kept.value([frame], ("rows", rows.tobytes()), lambda: frame.iloc[rows])

    def _held(self, role: str, target_crs: object | None) -> gpd.GeoDataFrame | None:
        """A role's layer as the panel has it (drawn, edits included) or as the session read
        it, in ``target_crs``; None for a role the session does not hold."""
        frame = self.work if role == WORK_ROLE and self.work is not None else self.drawn.get(role)
        if frame is None:
            frame = self.cache.get(role)
        if frame is not None and target_crs is not None and not frame.crs.equals(target_crs):
            frame = frame.to_crs(target_crs)
        return frame


@dataclass
class Session:
    """What ``open`` set up: layers in memory, the settings, the pack."""

    sources: dict[str, LayerSource]
    dem: str | None
    settings: MeasureSettings
    ordinance: str | None
    jurisdictions: LayerSource | None
    jurisdiction_field: str | None
    tolerance: float
    working: WorkingCRS
    cache: dict[str, gpd.GeoDataFrame] = field(default_factory=dict)
    records: list = field(default_factory=list)
    parcel_index: dict[str, int] = field(default_factory=dict)
    lots: np.ndarray = field(default_factory=lambda: np.empty(0, dtype=object))
    runoff: RunoffOptions = field(default_factory=RunoffOptions)
    packs: PackChoice | None = None
    lot_tree: shapely.STRtree = field(default_factory=lambda: shapely.STRtree([]))
    id_field: str = "parcel_id"  # the parcels' id field as read (FID: the feature ids)
    drawn_layers: DrawnLayers = field(init=False)  # the drawn layers as last sent
    kept: KeptByIdentity = field(default_factory=KeptByIdentity)  # surfaces between answers

    def __post_init__(self) -> None:
        self.drawn_layers = DrawnLayers(self.working)

    @classmethod
    def open(cls, request: Mapping[str, Any]) -> Session:
        sources = {}
        for role, spec in request_object(request, "inputs", "open").items():
            if role not in ROLE_BY_KEY or role in ("dem", "jurisdictions"):
                raise InputError(
                    f"open: inputs.{role}: not a layer role; known: {', '.join(VECTOR_ROLES)}"
                )
            if spec:
                sources[role] = LayerSource.parse(
                    role, request_text({role: spec}, role, "open: inputs")
                )
        if "parcels" not in sources:
            raise InputError("open: give inputs.parcels")
        settings = settings_from(request_object(request, "settings", "open"))
        reader = LayerReader()
        parcels = read_parcels(
            sources["parcels"], reader, settings.id_field, settings.crs, settings.parcel_fields()
        )
        working = parcels.working
        cache: dict[str, gpd.GeoDataFrame] = {}
        for role, source in sources.items():
            lines_too = role in ROLE_BY_KEY and ROLE_BY_KEY[role].geometry == "line_or_polygon"
            kinds = POLYGONAL + LINEAR if lines_too else POLYGONAL
            cache[role] = reader.read(source, kinds, target_crs=working.crs)
        for frame in cache.values():
            _ = frame.sindex  # built once here, not on the first request
        jurisdictions = (
            LayerSource.parse("jurisdictions", request_text(request, "jurisdictions", "open"))
            if request.get("jurisdictions")
            else None
        )
        session = cls(
            sources,
            request_text(request, "dem", "open", required=False) or None,
            settings,
            request_text(request, "ordinance", "open", required=False) or None,
            jurisdictions,
            request_text(request, "jurisdiction_field", "open", required=False) or None,
            float(option("tolerance").check(request.get("tolerance", DEFAULT_TOLERANCE))),  # type: ignore[arg-type]
            working,
            cache,
            reader.inputs,
            {str(pid): i for i, pid in enumerate(parcels.frame["parcel_id"])},
            parcels.geoms,
        )
        session.lot_tree, session.id_field = shapely.STRtree(session.lots), parcels.id_field
        session.runoff = runoff_from(
            request_object(request, "runoff", "open"), sources.get("soils")
        )
        if session.ordinance or session.jurisdictions:
            # refuse a bad pack at open, not at the first edit
            session.packs = choose_packs(
                session.ordinance, session.jurisdictions, session.jurisdiction_field
            )
        return session

    def input_files(self) -> list[Named | None]:
        """The files the session reads, which no report may replace."""
        return [
            *(named(f"inputs.{role}", source.path) for role, source in self.sources.items()),
            named("dem", self.dem),
            named(
                "ordinance", self.ordinance if (self.ordinance or "").endswith(".toml") else None
            ),
            named("jurisdictions", self.jurisdictions.path if self.jurisdictions else None),
        ]

    def evaluate(self, request: Mapping[str, Any]) -> tuple[CheckResult, int]:
        """Measure and check one parcel with the drawn layers of the request."""
        parcel_id = str(request.get("parcel_id", ""))
        if parcel_id not in self.parcel_index:
            raise InputError(f"parcels layer: no parcel with id {parcel_id}")
        drawn: dict[str, gpd.GeoDataFrame] = {}
        records = list(self.records)  # then the drawn layers as QGIS has them, edits included
        for role, layer in request_object(request, "layers", "evaluate").items():
            if role in DRAWN_ROLES:
                drawn[role], record = self.drawn_layers.read(role, layer)
                records.append(record)
        focus = focus_on(
            drawn, self.parcel_index[parcel_id], self.lot_tree, self.parcel_index, self.id_field
        )
        reach = self.settings.reach_ft() / self.working.feet_per_unit
        work = [] if focus.work is None else [focus.work.union_all()]
        extent = shapely.union_all([*self.lots[focus.rows], *work])
        area = shapely.box(*shapely.bounds(extent)).buffer(reach, join_style="mitre")
        reader = NeighbourhoodReader(self.cache, drawn, area, records, focus, self.lots, self.kept)
        roles = {
            role: self.sources.get(role)
            or (LayerSource(role, f"<edited {role}>") if role in drawn else None)
            for role in VECTOR_ROLES
        }
        if roles["disturbance"] is None:
            raise InputError("evaluate: give layers.disturbance (it may hold no features)")
        spec = RunSpec(
            inputs=MeasureInputs.of(roles, self.dem),
            settings=self.settings,
            ordinance=self.ordinance,
            tolerance=self.tolerance,
            jurisdictions=self.jurisdictions,
            jurisdiction_field=self.jurisdiction_field,
            runoff=self.runoff,
            # The reply words the parcel shown; a report words every parcel it shows.
            worded_parcels=frozenset({parcel_id}) if request.get("op") != "report" else None,
        )
        result = screen(spec, reader=reader, packs=self.packs)
        measured = result.measured
        row = list(measured.parcels["parcel_id"].astype(str)).index(parcel_id)
        return result, row


TEXT_STORAGE = "python"
"""How the worker's tables hold their text columns: as Python strings, not pandas' default
Arrow arrays. The panel's tables are a few dozen rows read column by column, and each
column or value taken from an Arrow-backed table paid a conversion: the sample village's
two-lot answer took 58 ms with Arrow and 45 ms so (issue 30). A batch run keeps Arrow,
which holds 250,010 lots' text in less memory at the same speed. The values and their
missing-value semantics are the same either way (pandas' ``str`` dtype)."""


def serve(stdin: TextIO = sys.stdin, stdout: TextIO = sys.stdout) -> int:
    """Answer requests until ``quit`` or the end of stdin: every line gets one reply."""
    with pd.option_context("mode.string_storage", TEXT_STORAGE):
        return _serve(stdin, stdout)


def _serve(stdin: TextIO, stdout: TextIO) -> int:
    session: Session | None = None
    for line in stdin:
        if not line.strip():
            continue
        started = time.perf_counter()
        request: Any = {}
        try:
            request = read_request(line)
            op = request.get("op")
            if op == "quit":
                write_reply(stdout, {"ok": True, "op": "quit", "id": request.get("id")})
                return 0
            reply, session = _answer(request, session, started)
        except OptionError as error:  # named as the request names it, for the panel to word
            reply = {
                "ok": False,
                "error": error.worded(error.option),
                "option": error.option,
                "problem": one_line(error.problem),
            }
        except InputError as error:
            reply = {"ok": False, "error": "\n".join(error.report_lines())}
        except Exception:
            traceback.print_exc(file=sys.stderr)
            reply = _internal_error(request)
        if isinstance(request, dict):
            reply.setdefault("id", request.get("id"))
            reply.setdefault("op", request.get("op"))
        write_reply(stdout, reply)
    return 0


def _answer(
    request: dict[str, Any], session: Session | None, started: float
) -> tuple[dict[str, Any], Session | None]:
    """The reply to one request other than ``quit``, and the session after it."""
    op = request.get("op")
    if op == "ping":
        return {"ok": True, "op": "ping"}, session
    if op == "open":
        session = Session.open(request)
        reply = {
            "ok": True,
            "op": "open",
            "crs": session.working.to_json(),
            "parcels": len(session.parcel_index),
        }
        return reply, session
    if op in ("evaluate", "report"):
        if session is None:
            raise InputError(f"send 'open' before '{op}'")
        path = Path(request_text(request, "path", op)) if op == "report" else None
        result, row = session.evaluate(request)
        if path is not None:
            write_parcel_report(result, row, path, session.input_files())
        reply = parcel_reply(result, row)
        # The whole answer the panel waits for, the reply's making included.
        reply["elapsed_ms"] = round((time.perf_counter() - started) * 1000, 1)
        return reply, session
    raise InputError(
        f"op: unknown op {one_line(op)[:40]!r}; known: open, evaluate, report, ping, quit"
    )


def _internal_error(request: Any) -> dict[str, Any]:
    op_name = request.get("op") if isinstance(request, dict) else None
    return {
        "ok": False,
        "error": f"internal error while answering {one_line(op_name)[:40]!r}: please report it "
        "(the worker printed the details on its stderr)",
    }
