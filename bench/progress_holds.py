"""How long the progress bar stands still: the longest stretch between two moves of the bar.

``sitecheck check`` prints its progress on stderr (the lines the QGIS plugin reads);
each line is stamped as it arrives, and every stage is reported with the seconds it
held the bar and its share of the whole run. The goal: no stage holds the bar still for
more than a fifth of the run.

Usage: ``python bench/progress_holds.py VILLAGE_FOLDER [extra check options]``; prints
JSON. ``bench/run.py`` reads the holds of its own check runs with :func:`progress_holds`.
"""

from __future__ import annotations

import json
import re
import sys
import tempfile
from pathlib import Path

from common import CHECK_LAYERS, stamped_run

LINE = re.compile(r"^\[\s*(\d+)%\] (.*)$")


def check_command(folder: Path, out: Path, extra: list[str]) -> list[str]:
    """``sitecheck check`` on every layer of a generated village, with the JSON and report."""
    gpkg = folder / "village.gpkg"
    command = [sys.executable, "-m", "sitecheck", "check", "--ordinance", "scarsdale"]
    command += ["--parcels", f"{gpkg}:parcels", "--disturbance", f"{gpkg}:disturbance"]
    for layer in CHECK_LAYERS:
        command += [f"--{layer.replace('_', '-')}", f"{gpkg}:{layer}"]
    command += ["--dem", str(folder / "dem.tif"), "--out", str(out / "result.gpkg")]
    command += ["--json", str(out / "result.json"), "--report", str(out / "report.html")]
    return command + extra


def progress_holds(lines: list[tuple[float, str]], total: float) -> dict[str, object]:
    """The stages of a run's progress lines (second, text), each with the seconds it held
    the bar, and the longest hold."""
    moves = [
        (at, int(found.group(1)), found.group(2))
        for at, line in lines
        if (found := LINE.match(line.strip()))
    ]
    stages = []
    for (at, percent, stage), (until, _, _) in zip(
        moves, [*moves[1:], (total, 100, "")], strict=True
    ):
        stages.append(
            {"stage": stage, "percent": percent, "held_s": round(until - at, 3),
             "share": round((until - at) / total, 3)}
        )  # fmt: skip
    longest = max(stages, key=lambda s: s["held_s"])
    return {"seconds": round(total, 2), "longest_hold": longest, "stages": stages}


def stage_at(lines: list[tuple[float, str]], second: float) -> str | None:
    """The stage a run's progress lines (second, text) say it was in at ``second``: the
    last one begun by then (None before the first)."""
    begun = [
        found.group(2) for at, line in lines if at <= second and (found := LINE.match(line.strip()))
    ]
    return begun[-1] if begun else None


def main() -> None:
    folder = Path(sys.argv[1])
    with tempfile.TemporaryDirectory() as out:
        run = stamped_run(check_command(folder, Path(out), sys.argv[2:]))
        print(json.dumps(progress_holds(run.lines, run.seconds), indent=1))


if __name__ == "__main__":
    main()
