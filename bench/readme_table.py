"""The README's speed tables, made from ``bench/results/measure_*.json``, never typed.

``python bench/readme_table.py`` rewrites the part of README.md between the markers
``<!-- speed-table:start -->`` and ``<!-- speed-table:end -->``; a test keeps the two
equal. A figure a results file does not hold (a run before the floor was measured)
shows as a dash.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent
README = BENCH.parent / "README.md"
START, END = "<!-- speed-table:start -->", "<!-- speed-table:end -->"


def _get(row: dict, *keys: str) -> object:
    value: object = row
    for key in keys:
        if not isinstance(value, dict) or key not in value:
            return None
        value = value[key]
    return value


def _seconds(value: object) -> str:
    return "—" if value is None else f"{float(value):,.1f} s"  # type: ignore[arg-type]


def _ratio(value: object) -> str:
    return "—" if value is None else f"{float(value):.2f}x"  # type: ignore[arg-type]


def _number(value: object, unit: str = "", scale: float = 1.0, digits: int = 0) -> str:
    if value is None:
        return "—"
    return f"{float(value) / scale:,.{digits}f}{unit}"  # type: ignore[arg-type]


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
        check_seconds = _get(row, "check", "seconds")
        qgis = _get(row, "qgis_chain", "seconds")
        check_ratio = None if check_seconds is None or qgis is None else qgis / check_seconds  # type: ignore[operator]
        speed.append(
            f"| {row['parcels']:,} | {_seconds(_get(row, 'floor', 'seconds'))} "
            f"| {_seconds(_get(row, 'engine', 'seconds'))} | {_seconds(check_seconds)} "
            f"| {_seconds(_get(row, 'shapely_loop', 'seconds'))} | {_seconds(qgis)} "
            f"| {_ratio(_get(row, 'measure_vs_floor'))} | {_ratio(_get(row, 'speedup_vs_loop'))} "
            f"| {_ratio(check_ratio)} | {str(row.get('measured', '—'))[:10]} |"
        )
        hold = _get(row, "check", "progress_longest_hold", "share")
        outputs.append(
            f"| {row['parcels']:,} | {_number(_get(row, 'disturbed_parcels'))} "
            f"| {_number(_get(row, 'engine', 'peak_rss_mb'), ' MB')} "
            f"| {_number(_get(row, 'check', 'peak_rss_mb'), ' MB')} "
            f"| {_number(_get(row, 'check', 'json_bytes_per_parcel_with_work'), ' B')} "
            f"| {_number(_get(row, 'check', 'json_bytes'), ' MB', 1e6, 1)} "
            f"| {_number(_get(row, 'check', 'report_bytes'), ' MB', 1e6, 1)} "
            f"| {_number(_get(row, 'check', 'report_open_ms'), ' s', 1e3, 1)} "
            f"| {_number(_get(row, 'check', 'report_sort_ms'), ' s', 1e3, 2)} "
            f"| {_number(None if hold is None else 100 * hold, '% of the run')} |"  # type: ignore[operator]
        )
    return "\n".join(speed) + "\n\n" + "\n".join(outputs) + "\n" + _dock_table(results)


def _dock_table(results: Path) -> str:
    """The panel's re-check on the sample village (``dock.json``), when it was measured."""
    path = results / "dock.json"
    if not path.exists():
        return ""
    dock = json.loads(path.read_text())
    return (
        "\n| panel, sample village | median | p95 |\n|---|---:|---:|\n"
        f"| edit to answer, the pause left out ({dock['edits']} edits) "
        f"| {dock['dock_median_ms']:,.0f} ms | {dock['dock_p95_ms']:,.0f} ms |\n"
        f"| edit to painted list, the pause ({dock['pause_ms']} ms at the end) included "
        f"({dock['felt_edits']} edits) | {dock['felt_median_ms']:,.0f} ms "
        f"| {dock['felt_p95_ms']:,.0f} ms |\n"
    )


def readme_with_table(readme: str, results: Path) -> str:
    """The README with its speed tables made afresh from ``results``."""
    before, rest = readme.split(START, 1)
    _, after = rest.split(END, 1)
    return f"{before}{START}\n{speed_table(results)}{END}{after}"


def main() -> None:
    results = Path(sys.argv[1]) if len(sys.argv) > 1 else BENCH / "results"
    README.write_text(readme_with_table(README.read_text(encoding="utf-8"), results), "utf-8")
    print(speed_table(results))


if __name__ == "__main__":
    main()
