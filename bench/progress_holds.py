"""How long the progress bar stands still: the longest stretch between two moves of the bar.

Runs ``sitecheck check`` with its progress on stderr (the lines the QGIS plugin reads),
stamps each line as it arrives, and reports every stage with the seconds it held the
bar and its share of the whole run. The issue's goal: no stage holds the bar still for
more than a fifth of the run.

Usage: ``python bench/progress_holds.py VILLAGE_FOLDER [extra check options]``; prints
JSON. ``bench/run.py`` calls :func:`progress_holds` on its villages.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

LINE = re.compile(r"^\[\s*(\d+)%\] (.*)$")
LAYERS = (
    "impervious_existing",
    "impervious_proposed",
    "floodplain",
    "wetlands",
    "watercourses",
    "sda",
    "zoning",
    "impaired_watersheds",
    "soils",
)


def check_command(folder: Path, out: Path, extra: list[str]) -> list[str]:
    """``sitecheck check`` on every layer of a generated village, with the JSON and report."""
    gpkg = folder / "village.gpkg"
    command = [sys.executable, "-m", "sitecheck", "check", "--ordinance", "scarsdale"]
    command += ["--parcels", f"{gpkg}:parcels", "--disturbance", f"{gpkg}:disturbance"]
    for layer in LAYERS:
        command += [f"--{layer.replace('_', '-')}", f"{gpkg}:{layer}"]
    command += ["--dem", str(folder / "dem.tif"), "--out", str(out / "result.gpkg")]
    command += ["--json", str(out / "result.json"), "--report", str(out / "report.html")]
    return command + extra


def progress_holds(command: list[str]) -> dict[str, object]:
    """Run ``command``; the stages of its progress, each with the seconds it held the bar."""
    start = time.perf_counter()
    process = subprocess.Popen(command, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
    assert process.stderr is not None
    moves: list[tuple[float, int, str]] = []
    for line in process.stderr:
        found = LINE.match(line.strip())
        if found:
            moves.append((time.perf_counter() - start, int(found.group(1)), found.group(2)))
    process.wait()
    total = time.perf_counter() - start
    if process.returncode != 0:
        raise SystemExit(f"failed: {' '.join(command)}")
    stages = []
    for (at, percent, stage), (until, _, _) in zip(moves, [*moves[1:], (total, 100, "")], strict=True):
        stages.append(
            {"stage": stage, "percent": percent, "held_s": round(until - at, 3),
             "share": round((until - at) / total, 3)}
        )  # fmt: skip
    longest = max(stages, key=lambda s: s["held_s"])
    return {"seconds": round(total, 2), "longest_hold": longest, "stages": stages}


def main() -> None:
    folder = Path(sys.argv[1])
    with tempfile.TemporaryDirectory() as out:
        print(json.dumps(progress_holds(check_command(folder, Path(out), sys.argv[2:])), indent=1))


if __name__ == "__main__":
    main()
