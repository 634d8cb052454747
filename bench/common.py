"""What every benchmark shares: where things live, generated villages, timing, the machine."""

from __future__ import annotations

import os
import platform
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
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
    run = stamped_run(command, env)
    return run.seconds, run.peak_mb


@dataclass(frozen=True)
class StampedRun:
    """A finished command, as :func:`stamped_run` saw it.

    Attributes
    ----------
    seconds : float
        Wall time.
    lines : list of (float, str)
        Each line it wrote on stderr, with the second it arrived.
    peak_mb : float
        The peak of its process tree's resident memory, summed over the processes.
    peak_at_s : float
        When the peak was sampled, seconds from the start.
    peak_processes_mb : dict of str to float
        Each process's share of the peak, by what it runs (the module after ``-m``, else
        the script's name; processes running the same summed).
    """

    seconds: float
    lines: list[tuple[float, str]]
    peak_mb: float
    peak_at_s: float
    peak_processes_mb: dict[str, float]


def _own_images(tree: list[psutil.Process]) -> list[psutil.Process]:
    """The running processes of a tree, less those forked and not yet running a program of
    their own: between fork and exec a child shares its parent's pages, and counting its
    resident set too counted them twice (a 250k check's GeoPackage writer, caught between
    the two, put its peak at 1,908 MB for 1,000 MB resident). The runs measured here fork
    only to run another program."""
    running = [p for p in tree if p.is_running()]
    lines = {p.pid: p.cmdline() for p in running}
    return [p for p in running if p.pid == tree[0].pid or lines[p.pid] != lines.get(p.ppid())]


def _runs(process: psutil.Process) -> str:
    """What a process runs: the module after ``-m``, else its script's or program's name."""
    line = process.cmdline()
    if "-m" in line[:-1]:
        return line[line.index("-m") + 1]
    return Path(line[1]).name if len(line) > 1 else process.name()


def stamped_run(command: list[str], env: dict[str, str] | None = None) -> StampedRun:
    """Run a command; its wall seconds, its stderr lines stamped as they arrive, and the peak
    resident memory of its process tree (sampled every 20 ms), when it came and whose."""
    start = time.perf_counter()
    process = subprocess.Popen(
        command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    peak_mb, peak_at_s = 0.0, 0.0
    peak_shares: dict[str, float] = {}
    done = threading.Event()

    def sample() -> None:
        nonlocal peak_mb, peak_at_s, peak_shares
        root = psutil.Process(process.pid)
        while not done.is_set():
            try:
                tree = _own_images([root, *root.children(recursive=True)])
                resident = [p.memory_info().rss / 1e6 for p in tree]
                if sum(resident) > peak_mb:
                    peak_mb, peak_at_s = sum(resident), time.perf_counter() - start
                    peak_shares = {}
                    for member, mb in zip(tree, resident, strict=True):
                        peak_shares[_runs(member)] = peak_shares.get(_runs(member), 0.0) + mb
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
    shares = {name: round(mb, 1) for name, mb in peak_shares.items()}
    return StampedRun(seconds, lines, peak_mb, peak_at_s, shares)


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
