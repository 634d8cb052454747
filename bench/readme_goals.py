"""The README's goals beside the bench's figures, and the cause of each goal not met, in
figures from the same results files (issues 16 and 30 set the goals)."""

from __future__ import annotations

import json
from pathlib import Path


def get(row: dict, *keys: str) -> object:
    """A figure deep in a results file's row; None where the file does not hold it."""
    value: object = row
    for key in keys:
        if not isinstance(value, dict) or key not in value:
            return None
        value = value[key]
    return value


KB = 2_048


def load(results: Path, name: str) -> dict:
    """A results file's figures; empty where the file was not written."""
    path = results / name
    return json.loads(path.read_text()) if path.exists() else {}


def _check_stages(row: dict) -> dict[str, float]:
    """Seconds of a check's stages, from its progress lines: measuring (every line before
    the rules), then each later stage by its line's words."""
    seconds: dict[str, float] = {}
    measuring = True
    for stage in get(row, "check", "progress_stages") or []:  # type: ignore[union-attr]
        name = stage["stage"]
        measuring = measuring and name != "evaluating the rule packs"
        key = (
            "measuring"
            if measuring
            else name.replace("drawing the report's parcels", "writing the HTML report")
        )
        seconds[key] = seconds.get(key, 0.0) + stage["held_s"]
    return seconds


def goals_table(results: Path) -> str:
    """Issues 16's and 30's goals beside what the results files hold, and the cause of each
    gap."""
    village, county = load(results, "measure_30000.json"), load(results, "measure_250000.json")
    state, dock = load(results, "scale_1000000.json"), load(results, "dock.json")
    scaling = load(results, "scaling_250000.json")
    if not (village and county):
        return ""
    qgis, check = get(county, "qgis_chain", "seconds"), get(county, "check", "seconds")
    opened = (get(village, "check", "report_open_ms") or 0) + (  # type: ignore[operator]
        get(village, "check", "report_sort_ms") or 0
    )
    holds = [
        get(row, "check", "progress_longest_hold", "share")
        for row in (village, county, load(results, "measure_3000.json"))
    ]
    soils = "soils" in (state.get("layers") or [])

    def ratio(row: dict, over: tuple[str, ...], under: tuple[str, ...]) -> float | None:
        top, bottom = get(row, *over), get(row, *under)
        return None if not (top and bottom) else top / bottom  # type: ignore[operator]

    check_s, engine_s, floor_s = ("check", "seconds"), ("engine", "seconds"), ("floor", "seconds")
    # (what, issue, figure, limit, unit): a negative limit is a least, a positive one a most.
    goals = [
        (
            "compact JSON at most 2 KB (2,048 B) a parcel with work, 30k",
            16,
            get(village, "check", "json_bytes_per_parcel_with_work"),
            KB,
            " B",
        ),
        ("the same, 250k", 16, get(county, "check", "json_bytes_per_parcel_with_work"), KB, " B"),
        (
            "HTML report at most 10 MB, 30k",
            16,
            (get(village, "check", "report_bytes") or 0) / 1e6,  # type: ignore[operator]
            10,
            " MB",
        ),
        ("report opened and sorted in Chromium in under 3 s, 30k", 16, opened / 1e3, 3, " s"),
        (
            "no progress stage holds the bar for more than a fifth of a run",
            16,
            100 * max((h for h in holds if h is not None), default=0),
            20,
            "%",
        ),
        (
            "`measure` within 1.5x of the floor, 30k",
            16,
            get(village, "measure_vs_floor"),
            1.5,
            "x",
        ),
        (
            "`measure` at least 3x faster than the shapely loop, 30k",
            16,
            get(village, "speedup_vs_loop"),
            -3,
            "x",
        ),
        ("`check` within 1.5x of `measure`, 30k", 30, ratio(village, check_s, engine_s), 1.5, "x"),
        ("`check` within 1.5x of `measure`, 250k", 30, ratio(county, check_s, engine_s), 1.5, "x"),
        ("`check` within 2x of the floor, 30k", 30, ratio(village, check_s, floor_s), 2, "x"),
        ("`check` within 2x of the floor, 250k", 30, ratio(county, check_s, floor_s), 2, "x"),
        (
            "`check` at least 20x faster than the QGIS chain, 250k",
            30,
            None if not (qgis and check) else qgis / check,  # type: ignore[operator]
            -20,
            "x",
        ),
        (
            "`check` within 1.2 GB in one process, 250k",
            30,
            get(county, "check", "peak_rss_mb"),
            1_200,
            " MB",
        ),
        (
            f"a million parcels on two Dask workers within 3 GB{', with soils and runoff' if soils else ''}",
            30,
            state.get("peak_rss_mb"),
            3_000,
            " MB",
        ),
        ("panel: worker answer p95 under 50 ms", 30, dock.get("dock_p95_ms"), 50, " ms"),
        (
            "panel: an edit alone to the painted list, p95 under 150 ms",
            30,
            dock.get("felt_p95_ms"),
            150,
            " ms",
        ),
        (
            "panel: the last edit of a burst to the painted list, the pause included, p95 "
            "under 300 ms",
            30,
            dock.get("burst_p95_ms"),
            300,
            " ms",
        ),
    ]
    lines = ["\n| goal | set by | measured | met |", "|---|---|---:|---|"]
    unmet = []
    for what, issue, value, limit, unit in goals:
        met = None if value is None else (value >= -limit if limit < 0 else value <= limit)
        digits = 2 if unit == "x" else (1 if unit in (" MB", " s") and abs(limit) < 100 else 0)
        shown = "—" if value is None else f"{float(value):,.{digits}f}{unit}"  # type: ignore[arg-type]
        lines.append(
            f"| {what} | issue {issue} | {shown} "
            f"| {'—' if met is None else 'yes' if met else '**no**'} |"
        )
        if met is False:
            unmet.append(what)
    return "\n".join(lines) + "\n" + _gaps(unmet, village, county, state, dock, scaling)


PROCESS_ROLES = {
    "sitecheck": "its own process",
    "sitecheck.io.geopackage_child": "the process writing its GeoPackage",
}
"""The processes of a check's tree, as the README names them (by the module each runs)."""


def _peak_where(check: dict) -> str:
    """When a check's memory peaked and whose it was (the bench's ``peak_stage`` and
    ``peak_processes_mb``); nothing for a results file from before they were kept."""
    stage, shares = check.get("peak_stage"), check.get("peak_processes_mb") or {}
    if not stage:
        return ""
    parts = ", ".join(
        f"{PROCESS_ROLES.get(name, name)} {mb:,.0f} MB"
        for name, mb in sorted(shares.items(), key=lambda item: -item[1])
    )
    return f" while {stage}" + (f" ({parts})" if len(shares) > 1 else "")


def _measure_gap(village: dict) -> str:
    """Why ``measure`` is not within 1.5x of the floor at 30k: its own stages beside the
    floor's, and the rest of the process (starting, writing two outputs)."""
    seconds, floor = get(village, "engine", "seconds"), get(village, "floor", "seconds")
    stages = get(village, "engine", "stages_s") or {}
    floor_stages = get(village, "floor", "stages_s") or {}
    staged = sum(stages.values())  # type: ignore[union-attr]
    floor_staged = floor_stages.get("total", 0.0)  # type: ignore[union-attr]
    return (
        f"- **`measure` within 1.5x of the floor, 30k**: `measure` takes {seconds:.1f} s, "
        f"{seconds / floor:.2f}x the floor ({floor:.1f} s). Its stages take {staged:.1f} s "  # type: ignore[operator]
        f"against the floor's {floor_staged:.1f} s (the engine draws the adjoining buffer "
        "along each lot's lines with its neighbours, where the floor's is plain, and the "
        f"flags' shapes, which the floor does not draw); the other {seconds - staged:.1f} s, "  # type: ignore[operator]
        "outside its stages, start Python with the engine's libraries and write its "
        "GeoPackage and JSON."
    )


def _gaps(
    unmet: list[str], village: dict, county: dict, state: dict, dock: dict, scaling: dict
) -> str:
    """Why each unmet goal is not met, in figures from the same files."""
    causes = []
    floor, loop = get(village, "floor", "seconds"), get(village, "shapely_loop", "seconds")
    if any("shapely loop" in goal for goal in unmet) and floor and loop:
        causes.append(
            f"- **3x the shapely loop, 30k**: the loop takes {loop:.1f} s, {loop / floor:.2f}x "  # type: ignore[operator]
            f"the floor ({floor:.1f} s), which does only the irreducible reads, overlays, slope "
            f"pass and write; 3x faster than the loop is {loop / 3:.1f} s, "  # type: ignore[operator]
            f"{floor / (loop / 3):.1f}x faster than the floor. The goal is below the floor."  # type: ignore[operator]
        )
    if any(goal.startswith("`measure` within") for goal in unmet):
        causes.append(_measure_gap(village))
    qgis, check = get(county, "qgis_chain", "seconds"), get(county, "check", "seconds")
    county_floor = get(county, "floor", "seconds")
    if any("QGIS chain" in goal for goal in unmet) and qgis and check and county_floor:
        stages = _check_stages(county)
        rest = sorted(
            ((s, name) for name, s in stages.items() if name not in ("measuring", "done")),
            reverse=True,
        )
        spent = "; ".join(f"{name} {s:.1f} s" for s, name in rest)
        causes.append(
            f"- **20x the QGIS chain, 250k**: 20x faster than the chain is {qgis / 20:.1f} s, "  # type: ignore[operator]
            f"while the floor, measuring alone, takes {county_floor:.1f} s; the goal leaves "
            f"{qgis / 20 - county_floor:.1f} s beyond it for the rules, runoff, projects, "  # type: ignore[operator]
            f"thresholds and three outputs of {get(county, 'disturbed_parcels'):,} parcels "
            f"with work. Of the check's {check:.1f} s, measuring takes "
            f"{stages.get('measuring', 0):.1f} s; then {spent}. The rules are decided for "
            "every parcel at once, but the listed ones are worded, and the JSON, the "
            "GeoPackage's trigger columns and the report written, parcel by parcel in Python; "
            "a process of its own writes the GeoPackage beside the JSON and the report (its "
            "stage above is the run making its tables and handing them over)."
        )
    if any("`check` within" in goal and "x of" in goal for goal in unmet):
        sizes = []
        for label, row in (("30k", village), ("250k", county)):
            seconds = get(row, "check", "seconds")
            engine, floor = get(row, "engine", "seconds"), get(row, "floor", "seconds")
            if seconds and engine and floor:
                sizes.append(
                    f"at {label} it takes {seconds:.1f} s, {seconds / engine:.2f}x `measure` "  # type: ignore[operator]
                    f"({engine:.1f} s) and {seconds / floor:.2f}x the floor ({floor:.1f} s), "  # type: ignore[operator]
                    f"its own measuring {_check_stages(row).get('measuring', 0):.1f} s"
                )
        causes.append(
            "- **`check` within 1.5x of `measure` and 2x of the floor**: "
            + "; ".join(sizes)
            + ". The rest is the rules, runoff, projects, thresholds and three outputs of "
            "the parcels with work, stage by stage as above."
        )
    if any("in one process" in goal for goal in unmet):
        measure_peak = get(county, "engine", "peak_rss_mb")
        causes.append(
            f"- **1.2 GB in one process, 250k**: `check` peaks at "
            f"{get(county, 'check', 'peak_rss_mb'):,.0f} MB{_peak_where(county['check'])}; "  # type: ignore[str-format]
            f"`measure` alone at {measure_peak:,.0f} MB. Measuring holds every impervious "  # type: ignore[str-format]
            "polygon of the village while it splits them by lot, and a check holds its "
            "measured table (the parcels' shapes and metrics) and the outcomes of the parcels "
            "with work through its outputs; its GeoPackage is written beside the JSON by a "
            "process of its own, whose memory is mostly the GDAL and Arrow libraries it loads. "
            "The distributed engine reads windows of the layers"
            + (
                f" and checks the same village on one worker in "
                f"{scaling['runs'][0]['peak_rss_mb']:,.0f} MB for all its processes"
                if scaling.get("runs")
                else ""
            )
            + "; one process would need the same windows."
        )
    if any(goal.startswith("a million") for goal in unmet) and state:
        causes.append(
            f"- **a million parcels within 3 GB**: the process tree peaked at "
            f"{state.get('peak_rss_mb', 0):,.0f} MB (`bench/results/scale_1000000.json`): "
            "the driver, the scheduler, the nannies and two workers together."
        )
    if any(goal.startswith("panel") for goal in unmet) and dock:
        growth = ""
        if "dock_last10_median_ms" in dock:
            growth = (
                f" The bench's edits grow the work half a foot each, onto the neighbouring "
                f"lots: the first ten answers take {dock['dock_first10_median_ms']:.0f} ms "
                f"median, the last ten {dock['dock_last10_median_ms']:.0f} ms: once the work "
                "reaches another lot its project is one of several lots, and the worker "
                "checks the project's site as well as the lots (the site's work figures "
                "summed from its lots', the bare site kept from the answer before); each "
                "edit changes the work on every lot it reaches, so no lot's overlays are kept."
            )
        causes.append(
            f"- **the panel**: the worker's own share of an answer is "
            f"{dock.get('engine_median_ms', 0):.0f} ms median. It keeps from the answers "
            "before what an edit cannot change (each held layer's features near the work, the "
            "lots with their ids checked, a project's site and what it is without its work, "
            "the constraint surfaces, each "
            "row's values, a lot's runoff screen of the same numbers, the DEM open, each "
            "lot's overlays and slope measures by its work), but at each edit it still runs "
            "every stage of the measuring on the lots the parcel's work and its projects span "
            "(the work split by lot, the overlays and slope cells of the lots whose work "
            "changed, the result table), then the rules, the margins and the reply: each "
            "stage 1 to 5 ms of building tables, however small the lots' share; the rest is "
            "the panel's request, the reply's way back and its drawing."
            f"{growth} The last edit of a burst waits the pause, then its answer: twice the "
            "median gap between a burst's edits, at least 120 ms, once a burst has been seen; "
            f"before, twice the median answer as the panel times it ({dock.get('pause_ms')} "
            "ms)."
        )
    return (
        ("\nWhere a goal is not met, the cause:\n\n" + "\n".join(causes) + "\n") if causes else ""
    )
