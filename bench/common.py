"""What every benchmark shares: where things live, generated villages, timing, the machine."""

from __future__ import annotations

import os
import platform
import subprocess
import sys
import threading
import time
from importlib import metadata
from pathlib import Path

import psutil

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
WORK = BENCH / "work"
RESULTS = BENCH / "results"
SYSTEM_PYTHON = "/usr/bin/python3"
MEASURE_LAYERS = (
    "impervious_existing",
    "impervious_proposed",
    "floodplain",
    "wetlands",
    "watercourses",
    "sda",
    "zoning",
    "impaired_watersheds",
)
"""The generated village's layers ``measure`` is given (besides parcels and disturbance)."""
CHECK_LAYERS = (*MEASURE_LAYERS, "soils")
"""The layers ``check`` is given: soils too, so the runoff screen runs."""


def peak_rss_run(command: list[str], env: dict[str, str] | None = None) -> tuple[float, float]:
    """Run a command; return (wall seconds, peak resident memory of its process tree in MB)."""
    seconds, peak, _ = stamped_run(command, env)
    return seconds, peak


def stamped_run(
    command: list[str], env: dict[str, str] | None = None
) -> tuple[float, float, list[tuple[float, str]]]:
    """Run a command; return wall seconds, peak resident memory of its process tree (MB),
    and each line it wrote on stderr with the second it arrived."""
    start = time.perf_counter()
    process = subprocess.Popen(
        command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    peak = 0
    done = threading.Event()

    def sample() -> None:
        nonlocal peak
        root = psutil.Process(process.pid)
        while not done.is_set():
            try:
                tree = [root, *root.children(recursive=True)]
                peak = max(peak, sum(p.memory_info().rss for p in tree if p.is_running()))
            except psutil.Error:
                pass
            time.sleep(0.02)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    output: list[str] = []
    reader = threading.Thread(target=lambda: output.append(process.stdout.read()), daemon=True)
    reader.start()
    assert process.stderr is not None
    lines = [(time.perf_counter() - start, line.rstrip("\n")) for line in process.stderr]
    process.wait()
    reader.join()
    done.set()
    sampler.join()
    seconds = time.perf_counter() - start
    if process.returncode != 0:
        errors = "\n".join(line for _, line in lines)
        raise SystemExit(f"failed: {' '.join(command)}\n{''.join(output)}\n{errors}")
    return seconds, peak / 1e6, lines


def village(size: int, exact: bool = False) -> Path:
    """Generate (once) the village of about ``size`` parcels (exactly, with ``exact``)."""
    folder = WORK / f"village_{size}"
    if not (folder / "village.gpkg").exists():
        folder.mkdir(parents=True, exist_ok=True)
        print(f"generating a village of {size:,} parcels ...", flush=True)
        subprocess.run(
            [
                sys.executable,
                "-m",
                "sitecheck",
                "sample-village",
                str(folder),
                "--parcels",
                str(size),
                *(["--exact"] if exact else []),
            ],
            check=True,
            stdout=subprocess.DEVNULL,
        )
    return folder


def metrics_by_parcel(document: dict) -> dict[str, dict[str, object]]:
    """Each listed parcel's metrics by name, from a compact (the default) or full document."""
    columns = document.get("metric_columns")
    return {
        str(entry["parcel_id"]): dict(zip(columns, entry["metrics"], strict=True))
        if columns is not None
        else entry["metrics"]
        for entry in document["parcels"]
    }


def versions() -> dict[str, str]:
    names = (
        "shapely",
        "geopandas",
        "pyogrio",
        "pyproj",
        "rasterio",
        "exactextract",
        "numpy",
        "pandas",
    )
    found = {name: metadata.version(name) for name in names}
    import pyogrio
    import shapely

    found["geos"] = shapely.geos_version_string
    found["gdal (engine)"] = pyogrio.__gdal_version_string__
    qgis = subprocess.run(
        [SYSTEM_PYTHON, "-c", "from qgis.core import Qgis; print(Qgis.QGIS_VERSION)"],
        capture_output=True,
        text=True,
        env=dict(os.environ, QT_QPA_PLATFORM="offscreen"),
    )
    found["qgis"] = qgis.stdout.strip() or "not installed"
    return found


def machine() -> dict[str, object]:
    cpu = "unknown"
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            cpu = line.split(":", 1)[1].strip()
            break
    return {
        "cpu": cpu,
        "cores": os.cpu_count(),
        "memory_gb": round(psutil.virtual_memory().total / 1e9, 1),
        "python": platform.python_version(),
        "system": platform.platform(),
    }
