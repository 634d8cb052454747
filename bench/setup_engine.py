"""The engine set-up from a folder of wheels: its time, its size, how long its bar holds.

The QGIS dialog's set-up (``bridge/engine_install.set_up_engine``) makes a fresh
environment from this Python's base interpreter and installs the engine's
libraries from a wheel folder (downloaded once into the bench's work folder, not
timed), exactly as an office without internet does. Writes
``bench/results/setup.json``; the README's set-up step quotes it.
"""

from __future__ import annotations

import itertools
import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

from common import REPO, RESULTS, WORK, machine

sys.path.insert(0, str(REPO / "tools"))
from bridge_alone import bridge_module


def _bridge():
    """The set-up's modules of the plugin's bridge package (they need no QGIS)."""
    return bridge_module("engine_install"), bridge_module("engine_setup")


def wheel_folder() -> Path:
    folder = WORK / "setup_wheels"
    if not any(folder.glob("*.whl")):
        folder.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            [sys.executable, "-m", "pip", "download", "--quiet", "--only-binary=:all:", "-d",
             str(folder), "-r", str(REPO / "engine-requirements.txt"),
             "-c", str(REPO / "constraints.txt"), "pip"],
            check=True,
        )  # fmt: skip
    return folder


def folder_mb(folder: Path) -> float:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file()) / 1e6


def bench_setup() -> dict:
    install, setup = _bridge()
    wheels = wheel_folder()
    base = setup.probe(getattr(sys, "_base_executable", sys.executable))
    if isinstance(base, str):
        raise SystemExit(f"cannot set up from this Python: {base}")
    target = WORK / "setup_engine"
    shutil.rmtree(target, ignore_errors=True)
    moves: list[tuple[float, float]] = []
    started = time.monotonic()
    install.set_up_engine(
        base,
        target,
        str(wheels),
        lambda value, _text: moves.append((time.monotonic() - started, value)),
        lambda: False,
    )
    seconds = time.monotonic() - started
    holds = [(later[0] - earlier[0], earlier[1]) for earlier, later in itertools.pairwise(moves)]
    longest, at = max(holds, default=(0.0, 0.0))
    result = {
        "what": "the QGIS dialog's engine set-up from a folder of wheels (no network)",
        "seconds": round(seconds, 1),
        "environment_mb": round(folder_mb(target)),
        "wheels": len(list(wheels.glob("*.whl"))),
        "longest_hold_s": round(longest, 1),
        "longest_hold_at_pct": round(at, 1),
        "python": ".".join(map(str, base.version)),
        "machine": machine(),
        "measured": time.strftime("%Y-%m-%d %H:%M:%S %Z"),
    }
    shutil.rmtree(target, ignore_errors=True)
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "setup.json").write_text(json.dumps(result, indent=2) + "\n")
    return result


if __name__ == "__main__":
    print(json.dumps(bench_setup(), indent=2))
