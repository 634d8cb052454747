"""The worker's reply to ``evaluate`` and ``report``: one parcel's answer, and its HTML report."""

from __future__ import annotations

from pathlib import Path
from typing import Any, cast

import numpy as np
import shapely

from sitecheck.io.output_set import Named, OutputSet
from sitecheck.io.writers import json_ready
from sitecheck.reports.document import METRIC_KEYS, check_document
from sitecheck.screening.check import CheckResult


def parcel_reply(result: CheckResult, row: int) -> dict[str, Any]:
    """The reply to ``evaluate``: one parcel's metrics, triggers and flags (the worker adds
    the time the answer took, ``elapsed_ms``, once it is made)."""
    measured = result.measured
    parcel_id = str(measured.parcels["parcel_id"].iloc[row])
    document = check_document(result, all_parcels=True, only={parcel_id})
    parcels = cast(list[dict[str, Any]], document["parcels"])
    entry = next(p for p in parcels if str(p["parcel_id"]) == parcel_id)
    outcome = result.outcomes[row]
    names = {t.rule.id: sorted(t.rule.names()) for t in outcome.triggers} if outcome else {}
    for trigger in entry["triggers"]:
        trigger["names"] = names.get(trigger["rule_id"], [])
    # The parcel's flags as arrays: the table filtered to them took 0.5 ms of each answer.
    flags = measured.flags
    mine = np.flatnonzero(flags["parcel_id"].astype(str).to_numpy(dtype=object) == parcel_id)
    flag_rows = zip(
        flags["kind"].to_numpy(dtype=object)[mine],
        flags["area_sqft"].to_numpy(dtype=float)[mine],
        flags.geometry.to_numpy()[mine],
        strict=True,
    )
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
                for kind, area, geom in flag_rows
            ],
            "warnings": list(measured.log.warnings),
            "sitecheck_version": document["sitecheck_version"],
            "generated": document["generated"],
            "packs": document["packs"],
            "inputs": document["inputs"],
        }
    )  # type: ignore[return-value]


def write_parcel_report(
    result: CheckResult, row: int, path: Path, inputs: list[Named | None]
) -> None:
    """Write the HTML report of one parcel to ``path``; never over one of the session's inputs."""
    from sitecheck.reports.html import ReportLimits, write_html_report

    only = np.zeros(len(result.measured.parcels), dtype=bool)
    only[row] = True
    result.measured.touched = only
    outputs = OutputSet([Named("report: path", path)], inputs)
    with outputs, outputs.writing("report: path") as temporary:
        write_html_report(result, temporary, limits=ReportLimits(unflagged=True))
        outputs.commit()
