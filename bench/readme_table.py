"""The README's speed tables and scale figures, made from ``bench/results/``, never typed.

``python bench/readme_table.py`` rewrites the parts of README.md between the markers
``<!-- speed-table:start -->`` and ``<!-- speed-table:end -->``, and between
``<!-- scale-figures:start -->`` and ``<!-- scale-figures:end -->``; a test keeps them
equal. A figure a results file does not hold (a run before the floor was measured)
shows as a dash.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent
if str(BENCH) not in sys.path:  # loaded by its path (the tests), not run from bench/
    sys.path.insert(0, str(BENCH))

from readme_goals import get, goals_table, load  # noqa: E402

README = BENCH.parent / "README.md"
START, END = "<!-- speed-table:start -->", "<!-- speed-table:end -->"


def _seconds(value: object) -> str:
    return "—" if value is None else f"{float(value):,.1f} s"  # type: ignore[arg-type]


def _ratio(value: object) -> str:
    return "—" if value is None else f"{float(value):.2f}x"  # type: ignore[arg-type]


def _number(value: object, unit: str = "", scale: float = 1.0, digits: int = 0) -> str:
    if value is None:
        return "—"
    return f"{float(value) / scale:,.{digits}f}{unit}"  # type: ignore[arg-type]


def _dates(row: dict) -> str:
    """When a row was measured; the peers' date beside it where the engine's figures
    were measured again later (``SITECHECK_BENCH_PARTS=engine``)."""
    peers = str(row.get("measured", "—"))[:10]
    engine = str(row.get("engine_measured", ""))[:10]
    return f"{engine} (peers {peers})" if engine and engine != peers else peers


def speed_table(results: Path) -> str:
    """Two Markdown tables, a row per village size: wall times and ratios; memory and outputs."""
    rows = sorted(
        (json.loads(path.read_text()) for path in results.glob("measure_*.json")),
        key=lambda row: row["parcels"],
    )
    speed = [
        "| parcels | floor | `measure` | `check` | shapely loop | QGIS chain "
        "| measure / floor | loop / measure | QGIS chain / check | measured |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    outputs = [
        "| parcels | with work | `measure` peak | `check` peak | JSON per parcel with work "
        "| JSON | HTML report | report opened in Chromium | sorted | longest progress hold |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for row in rows:
        check_seconds = get(row, "check", "seconds")
        qgis = get(row, "qgis_chain", "seconds")
        check_ratio = None if check_seconds is None or qgis is None else qgis / check_seconds  # type: ignore[operator]
        speed.append(
            f"| {row['parcels']:,} | {_seconds(get(row, 'floor', 'seconds'))} "
            f"| {_seconds(get(row, 'engine', 'seconds'))} | {_seconds(check_seconds)} "
            f"| {_seconds(get(row, 'shapely_loop', 'seconds'))} | {_seconds(qgis)} "
            f"| {_ratio(get(row, 'measure_vs_floor'))} | {_ratio(get(row, 'speedup_vs_loop'))} "
            f"| {_ratio(check_ratio)} | {_dates(row)} |"
        )
        hold = get(row, "check", "progress_longest_hold", "share")
        outputs.append(
            f"| {row['parcels']:,} | {_number(get(row, 'disturbed_parcels'))} "
            f"| {_number(get(row, 'engine', 'peak_rss_mb'), ' MB')} "
            f"| {_number(get(row, 'check', 'peak_rss_mb'), ' MB')} "
            f"| {_number(get(row, 'check', 'json_bytes_per_parcel_with_work'), ' B')} "
            f"| {_number(get(row, 'check', 'json_bytes'), ' MB', 1e6, 1)} "
            f"| {_number(get(row, 'check', 'report_bytes'), ' MB', 1e6, 1)} "
            f"| {_number(get(row, 'check', 'report_open_ms'), ' s', 1e3, 1)} "
            f"| {_number(get(row, 'check', 'report_sort_ms'), ' s', 1e3, 2)} "
            f"| {_number(None if hold is None else 100 * hold, '% of the run')} |"  # type: ignore[operator]
        )
    return (
        "\n".join(speed)
        + "\n\n"
        + "\n".join(outputs)
        + "\n"
        + _dock_table(results)
        + _panel_scale_table(results)
        + goals_table(results)
    )


def _dock_table(results: Path) -> str:
    """The panel's re-check on the sample village (``dock.json``), when it was measured."""
    path = results / "dock.json"
    if not path.exists():
        return ""
    dock = json.loads(path.read_text())
    table = (
        "\n| panel, sample village | median | p95 |\n|---|---:|---:|\n"
        f"| edit to answer, the pause left out ({dock['edits']} edits) "
        f"| {dock['dock_median_ms']:,.0f} ms | {dock['dock_p95_ms']:,.0f} ms |\n"
    )
    if "burst_p95_ms" not in dock:  # a run from before the idle panel checked at once
        return table + (
            f"| edit to painted list, the pause ({dock['pause_ms']} ms at the end) included "
            f"({dock['felt_edits']} edits) | {dock['felt_median_ms']:,.0f} ms "
            f"| {dock['felt_p95_ms']:,.0f} ms |\n"
        )
    return table + (
        f"| edit to painted list, each edit alone: the idle panel checks it at once "
        f"({dock['felt_edits']} edits) | {dock['felt_median_ms']:,.0f} ms "
        f"| {dock['felt_p95_ms']:,.0f} ms |\n"
        f"| last edit of a burst (5 edits 40 ms apart) to painted list, the pause "
        f"({_burst_pauses(dock)}) included ({dock['burst_count']} bursts) "
        f"| {dock['burst_median_ms']:,.0f} ms | {dock['burst_p95_ms']:,.0f} ms |\n"
    )


def _panel_scale_table(results: Path) -> str:
    """The worker's answer to one lot's edits as the village grows (``panel_scale.json``)."""
    path = results / "panel_scale.json"
    if not path.exists():
        return ""
    scale = json.loads(path.read_text())
    rows = "".join(
        f"| village of {village['lots']:,} lots | {village['open_s']:,.1f} s "
        f"| {village['answer_median_ms']:,.0f} ms | {village['answer_p95_ms']:,.0f} ms |\n"
        for village in scale["villages"]
    )
    return (
        f"\n| the panel's worker, lot {scale['villages'][0]['parcel']} ({scale['edits']} edits) "
        "| session opened | answer median | answer p95 |\n|---|---:|---:|---:|\n" + rows
    )


def _burst_pauses(dock: dict) -> str:
    """The pause the bursts waited: one value, or the first burst's and the others'."""
    pauses = dock.get("burst_pauses_ms") or [dock["pause_ms"]]
    rest = sorted(set(pauses[1:]))
    if not rest or rest == [pauses[0]]:
        return f"{pauses[0]} ms"
    later = f"{rest[0]} ms" if len(rest) == 1 else f"{rest[0]}-{rest[-1]} ms"
    return f"{pauses[0]} ms for the first, then {later}"


SCALE_START, SCALE_END = "<!-- scale-figures:start -->", "<!-- scale-figures:end -->"


def scale_figures(results: Path) -> str:
    """The README's sentence on the distributed engine's measured runs, from their files."""
    million = load(results, "scale_1000000.json")
    county = load(results, "scaling_250000.json")
    if not million or not county:
        return "(not measured yet: run make bench)\n"
    cores = million.get("machine", {}).get("cores", "?")
    return (
        f"Measured on {cores} cores ({str(million['measured'])[:10]}, "
        "`bench/results/scale_1000000.json`): a million generated parcels with every layer, "
        f"soils and the DEM in {million['seconds'] / 60:.1f} minutes "
        f"({million['parcels_per_s']:,.0f} parcels a second) and "
        f"{million['peak_rss_mb']:,} MB of memory for all processes; on "
        f"{county['parcels']:,} parcels ({str(county['measured'])[:10]}) two workers are "
        f"{county['speedup_2_vs_1_workers']:.2f} "
        f"times as fast as one{_windowed_words(county)} (`bench/results/scaling_250000.json`). "
        "What a run of a state's "
        "5 million parcels needs (workers, driver memory, disk) is reckoned from these in "
        "[docs/scaling.md](docs/scaling.md).\n"
    )


def _windowed_words(county: dict) -> str:
    """The county's run in one process, a partition at a time, where the bench made it."""
    windowed = [run for run in county.get("runs", []) if run.get("engine") == "windowed"]
    if not windowed:
        return ""
    run = windowed[0]
    return (
        f", and the same partitions one after another in one process (`--engine windowed`) "
        f"take {run['seconds']:,.0f} s and {run['peak_rss_mb']:,} MB"
    )


SETUP_START, SETUP_END = "<!-- setup-figures:start -->", "<!-- setup-figures:end -->"


def setup_figures(results: Path) -> str:
    """The README's words on the engine set-up's size and time, from bench/setup.py's file."""
    made = load(results, "setup.json")
    if not made:
        return "not measured yet: run make bench"
    return (
        f"{made['environment_mb']:,} MB; {made['seconds']:.0f} s here from a folder of wheels, "
        f"`bench/results/setup.json`"
    )


def _replaced(text: str, start: str, end: str, content: str, inline: bool = False) -> str:
    before, rest = text.split(start, 1)
    _, after = rest.split(end, 1)
    return f"{before}{start}{'' if inline else chr(10)}{content}{end}{after}"


def readme_with_table(readme: str, results: Path) -> str:
    """The README with its speed tables and scale figures made afresh from ``results``."""
    readme = _replaced(readme, START, END, speed_table(results))
    readme = _replaced(readme, SETUP_START, SETUP_END, setup_figures(results), inline=True)
    return _replaced(readme, SCALE_START, SCALE_END, scale_figures(results))


def main() -> None:
    results = Path(sys.argv[1]) if len(sys.argv) > 1 else BENCH / "results"
    README.write_text(readme_with_table(README.read_text(encoding="utf-8"), results), "utf-8")
    print(speed_table(results))


if __name__ == "__main__":
    main()
