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

import json
import sys
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO, cast

import geopandas as gpd
import numpy as np
import pandas as pd
import pyproj
import shapely

from sitecheck.errors import InputError, no_crs
from sitecheck.io.clean import clean_geometries
from sitecheck.io.crs import WorkingCRS
from sitecheck.io.extent import Extent
from sitecheck.io.parcels import read_parcels
from sitecheck.io.readers import LINEAR, POLYGONAL, LayerReader, LayerSource
from sitecheck.io.writers import json_ready
from sitecheck.measure.inputs import MeasureInputs, MeasureSettings
from sitecheck.pipeline.run import screen
from sitecheck.pipeline.settings import measure_settings, runoff_options
from sitecheck.pipeline.spec import RunSpec
from sitecheck.reports.document import METRIC_KEYS, check_document
from sitecheck.schema.options import option
from sitecheck.schema.roles import DRAWN_ROLES, ROLE_BY_KEY, VECTOR_ROLES
from sitecheck.screening.check import DEFAULT_TOLERANCE, CheckResult
from sitecheck.screening.packs import PackChoice, choose_packs
from sitecheck.screening.runoff_result import RunoffOptions

# Older names of two settings in the ``open`` request, kept working.
SETTING_ALIASES = {"slope_thresholds_pct": "slope_thresholds", "side_setbacks_ft": "side_setbacks"}


def settings_from(options: Mapping[str, Any]) -> MeasureSettings:
    """Measure settings from the ``open`` request's ``settings`` object, checked as the CLI's."""
    values = {SETTING_ALIASES.get(name, name): value for name, value in options.items()}
    return measure_settings(values)


def runoff_from(options: Mapping[str, Any], soils: LayerSource | None) -> RunoffOptions:
    """Runoff-screen options from the ``open`` request's ``runoff`` object, checked as the CLI's."""
    return runoff_options(options, soils)


class NeighbourhoodReader(LayerReader):
    """Serves cached layers cut to an area, and drawn layers from the request.

    ``cache`` holds each layer once, cleaned, in the working CRS, with its
    spatial index; a request takes the features whose extent meets the area.
    """

    def __init__(
        self,
        cache: dict[str, gpd.GeoDataFrame],
        drawn: dict[str, gpd.GeoDataFrame],
        area: shapely.Geometry,
        records: list,
    ) -> None:
        super().__init__(inputs=list(records), partial_view=True)
        self.cache = cache
        self.drawn = drawn
        self.area = area

    def read(
        self,
        source: LayerSource,
        geometry_kinds: tuple[str, ...],
        target_crs: object | None = None,
        columns: list[str] | None = None,
        allow_empty: bool = True,
        within: Extent | None = None,  # this reader's own area decides
    ) -> gpd.GeoDataFrame:
        frame = self.drawn.get(source.role)
        if frame is None:
            frame = self.cache[source.role]
        if target_crs is not None and not frame.crs.equals(target_crs):
            frame = frame.to_crs(target_crs)
        near = frame.sindex.query(self.area, predicate="intersects")
        return frame.iloc[np.sort(near)]


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

    @classmethod
    def open(cls, request: Mapping[str, Any]) -> Session:
        sources = {
            role: LayerSource.parse(role, spec)
            for role, spec in request.get("inputs", {}).items()
            if spec
        }
        if "parcels" not in sources:
            raise InputError("open: give inputs.parcels")
        settings = settings_from(request.get("settings", {}))
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
            LayerSource.parse("jurisdictions", request["jurisdictions"])
            if request.get("jurisdictions")
            else None
        )
        session = cls(
            sources,
            request.get("dem"),
            settings,
            request.get("ordinance"),
            jurisdictions,
            request.get("jurisdiction_field"),
            float(option("tolerance").check(request.get("tolerance", DEFAULT_TOLERANCE))),  # type: ignore[arg-type]
            working,
            cache,
            reader.inputs,
            {str(pid): i for i, pid in enumerate(parcels.frame["parcel_id"])},
            parcels.geoms,
        )
        session.runoff = runoff_from(request.get("runoff") or {}, sources.get("soils"))
        if session.ordinance or session.jurisdictions:
            # refuse a bad pack at open, not at the first edit
            session.packs = choose_packs(
                session.ordinance, session.jurisdictions, session.jurisdiction_field
            )
        return session

    def evaluate(self, request: Mapping[str, Any]) -> tuple[CheckResult, int]:
        """Measure and check one parcel with the drawn layers of the request."""
        parcel_id = str(request.get("parcel_id", ""))
        if parcel_id not in self.parcel_index:
            raise InputError(f"parcels layer: no parcel with id {parcel_id}")
        lot = self.lots[self.parcel_index[parcel_id]]
        drawn = {
            role: _drawn_frame(role, layer, self.working)
            for role, layer in request.get("layers", {}).items()
            if role in DRAWN_ROLES
        }
        reach = self.settings.reach_ft() / self.working.feet_per_unit
        extent = shapely.union_all([lot, *[f.union_all() for f in drawn.values() if len(f)]])
        area = shapely.box(*shapely.bounds(extent)).buffer(reach, join_style="mitre")
        reader = NeighbourhoodReader(self.cache, drawn, area, self.records)
        roles = {
            role: self.sources.get(role)
            or (LayerSource(role, f"<edited {role}>") if role in drawn else None)
            for role in VECTOR_ROLES
        }
        if roles["disturbance"] is None:
            raise InputError("evaluate: give layers.disturbance (it may hold no features)")
        spec = RunSpec(
            inputs=MeasureInputs(dem=self.dem, **roles),  # type: ignore[arg-type]
            settings=self.settings,
            ordinance=self.ordinance,
            tolerance=self.tolerance,
            jurisdictions=self.jurisdictions,
            jurisdiction_field=self.jurisdiction_field,
            runoff=self.runoff,
        )
        result = screen(spec, reader=reader, packs=self.packs)
        measured = result.measured
        row = list(measured.parcels["parcel_id"].astype(str)).index(parcel_id)
        return result, row


def _drawn_frame(role: str, layer: Mapping[str, Any], working: WorkingCRS) -> gpd.GeoDataFrame:
    """A drawn layer of the request as a cleaned GeoDataFrame in the working CRS."""
    features = layer.get("features", [])
    crs = layer.get("crs")
    if not crs:
        raise no_crs(f"{role} layer (edited in QGIS)")
    geoms = np.array([shapely.from_wkb(bytes.fromhex(f["wkb"])) for f in features], dtype=object)
    properties = pd.DataFrame([f.get("properties", {}) for f in features])
    source = LayerSource(role, f"<edited {role}>")
    geoms, _, _ = clean_geometries(geoms, POLYGONAL, source) if len(geoms) else (geoms, 0, 0)
    frame = gpd.GeoDataFrame(
        properties, geometry=gpd.GeoSeries(geoms, crs=pyproj.CRS.from_user_input(crs))
    )
    frame["_fid"] = np.arange(len(frame))
    frame = frame[~shapely.is_empty(frame.geometry.to_numpy())] if len(frame) else frame
    return (
        frame.to_crs(working.crs) if len(frame) else frame.set_crs(working.crs, allow_override=True)
    )


def parcel_reply(result: CheckResult, row: int, elapsed_ms: float) -> dict[str, Any]:
    """The reply to ``evaluate``: one parcel's metrics, triggers and flags."""
    measured = result.measured
    parcel_id = str(measured.parcels["parcel_id"].iloc[row])
    document = check_document(result, all_parcels=True, only={parcel_id})
    parcels = cast(list[dict[str, Any]], document["parcels"])
    entry = next(p for p in parcels if str(p["parcel_id"]) == parcel_id)
    outcome = result.outcomes[row]
    names = {t.rule.id: sorted(t.rule.names()) for t in outcome.triggers} if outcome else {}
    for trigger in entry["triggers"]:
        trigger["names"] = names.get(trigger["rule_id"], [])
    flags = measured.flags[measured.flags["parcel_id"].astype(str) == parcel_id]
    return json_ready(
        {
            "ok": True,
            "parcel_id": parcel_id,
            "crs": measured.working.to_json(),
            "crs_wkt": measured.working.crs.to_wkt(),
            "metrics": {
                key: value
                for key, value in entry["metrics"].items()
                if key in METRIC_KEYS or result.runoff is not None
            },
            "runoff_confirm": [
                note for depths in result.runoff.storms.values() if (note := depths.confirm_note())
            ]
            if result.runoff is not None
            else [],
            "attributes": entry["attributes"],
            "jurisdiction": entry["jurisdiction"],
            "triggers": entry["triggers"],
            "highest_severity": entry["highest_severity"],
            "design_storm_years": entry["design_storm_years"],
            "design_storm_review_years": entry["design_storm_review_years"],
            "design_storm": entry["design_storm"],
            "reviews": entry["reviews"],
            "margin": entry["margin"],
            "margins": entry["margins"],
            "projects": [
                {
                    key: project.get(key)
                    for key in (
                        "project_id",
                        "lots",
                        "highest_severity",
                        "design_storm",
                        "metrics",
                        "margin",
                    )
                }
                | {"trigger_count": sum(t["outcome"] == "triggered" for t in project["triggers"])}
                for project in cast(list[dict[str, Any]], document.get("projects", []))
                if parcel_id in project["lots"]
            ],
            "project_note": entry.get("project_note"),
            "touched": bool(measured.touched[row]),
            "flags": [
                {"kind": kind, "area_sqft": area, "wkb": shapely.to_wkb(geom, hex=True)}
                for kind, area, geom in zip(
                    flags["kind"], flags["area_sqft"], flags.geometry, strict=True
                )
            ],
            "warnings": list(measured.log.warnings),
            "sitecheck_version": document["sitecheck_version"],
            "generated": document["generated"],
            "packs": document["packs"],
            "inputs": document["inputs"],
            "elapsed_ms": round(elapsed_ms, 1),
        }
    )  # type: ignore[return-value]


def serve(stdin: TextIO = sys.stdin, stdout: TextIO = sys.stdout) -> int:
    """Answer requests until ``quit`` or the end of stdin."""
    session: Session | None = None
    for line in stdin:
        if not line.strip():
            continue
        started = time.perf_counter()
        request: Any = {}
        try:
            request = json.loads(line)
            op = request.get("op")
            if op == "quit":
                _reply(stdout, {"ok": True, "op": "quit"})
                return 0
            if op == "ping":
                reply: dict[str, Any] = {"ok": True, "op": "ping"}
            elif op == "open":
                session = Session.open(request)
                reply = {
                    "ok": True,
                    "op": "open",
                    "crs": session.working.to_json(),
                    "parcels": len(session.parcel_index),
                }
            elif op in ("evaluate", "report"):
                if session is None:
                    raise InputError("send 'open' before 'evaluate'")
                result, row = session.evaluate(request)
                if op == "report":
                    _write_parcel_report(result, row, Path(request["path"]))
                reply = parcel_reply(result, row, (time.perf_counter() - started) * 1000)
            else:
                raise InputError(f"unknown op {op!r}; known: open, evaluate, report, ping, quit")
        except InputError as error:
            reply = {"ok": False, "error": str(error)}
        except (json.JSONDecodeError, KeyError, TypeError, ValueError) as error:
            reply = {"ok": False, "error": f"bad request: {type(error).__name__}: {error}"}
        except Exception as error:
            reply = {"ok": False, "error": f"unexpected failure ({type(error).__name__}: {error})"}
        if isinstance(request, dict):
            reply.setdefault("id", request.get("id"))
            reply.setdefault("op", request.get("op"))
        _reply(stdout, reply)
    return 0


def _reply(stdout: TextIO, reply: Mapping[str, Any]) -> None:
    stdout.write(json.dumps(reply, ensure_ascii=False) + "\n")
    stdout.flush()


def _write_parcel_report(result: CheckResult, row: int, path: Path) -> None:
    from sitecheck.reports.html import write_html_report

    only = np.zeros(len(result.measured.parcels), dtype=bool)
    only[row] = True
    result.measured.touched = only
    write_html_report(result, path)
