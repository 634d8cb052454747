"""Benchmark the distributed engine: a million parcels on one machine, 1 against 2 workers,
and the same partitions one after another in one process (``--engine windowed``).

``sitecheck check --engine dask`` runs on a local Dask cluster over every layer
of a generated village and its DEM. Wall time and the peak resident memory of
the whole process tree (driver, scheduler, nannies and workers) are measured
from outside, as for the other benchmarks. A state run writes the GeoPackage and
the newline-delimited JSON (``--jsonl``, compact, streamed a partition at a
time); every layer the village has is given, the soils included, so the runoff
screen runs.

Results go to ``bench/results/scale_<parcels>.json`` (the million-parcel run)
and ``bench/results/scaling_<parcels>.json`` (1 and 2 workers on one village, then the
windowed engine, each run's ``engine`` named).
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import pyogrio
from common import RESULTS, machine, peak_rss_run, versions, village

MILLION = 1_000_000
SCALING_SIZE = 250_000
MEMORY_BUDGET_MB = 3_000  # issue 16: a million parcels on two workers within 3 GB
WORKER_MEMORY = "1.6GB"


def check_command(folder: Path, out: Path, workers: int | None) -> list[str]:
    """``sitecheck check --engine dask`` on every layer the village has (``workers`` None:
    ``--engine windowed``, in one process)."""
    gpkg = folder / "village.gpkg"
    layers = [name for name, _ in pyogrio.list_layers(gpkg) if name not in ("parcels", "projects")]
    command = [sys.executable, "-m", "sitecheck", "check", "--quiet", "--ordinance", "scarsdale"]
    command += ["--parcels", f"{gpkg}:parcels", "--dem", str(folder / "dem.tif")]
    for name in layers:
        command += [f"--{name.replace('_', '-')}", f"{gpkg}:{name}"]
    if workers is None:
        command += ["--engine", "windowed"]
    else:
        command += ["--engine", "dask", "--workers", str(workers)]
        command += ["--worker-memory", WORKER_MEMORY]
    return [*command, "--out", str(out), "--jsonl", str(out.with_suffix(".jsonl"))]


def run_distributed(folder: Path, workers: int | None) -> dict:
    """One check in partitions (``workers`` None: in one process); its time, memory and how
    many parcels it wrote."""
    out = folder / "dask" / (f"workers_{workers}.gpkg" if workers else "windowed.gpkg")
    out.parent.mkdir(exist_ok=True)
    seconds, peak = peak_rss_run(check_command(folder, out, workers))
    written = int(pyogrio.read_info(out, layer="parcels")["features"])
    return {
        "jsonl_bytes": out.with_suffix(".jsonl").stat().st_size,
        "engine": "dask" if workers else "windowed",
        "workers": workers or 1,
        "seconds": round(seconds, 1),
        "peak_rss_mb": round(peak),
        "parcels_written": written,
        "parcels_per_s": round(written / seconds, 1),
    }


def bench_million() -> dict:
    folder = village(MILLION, exact=True)
    print(f"[{MILLION:,}] distributed check on 2 workers ...", flush=True)
    run = run_distributed(folder, workers=2)
    result = {
        "parcels": int(pyogrio.read_info(folder / "village.gpkg", layer="parcels")["features"]),
        "engine": "dask, local cluster",
        "layers": _layers(folder),
        **run,
        "memory_budget_mb": MEMORY_BUDGET_MB,
        "within_memory_budget": run["peak_rss_mb"] < MEMORY_BUDGET_MB,
        "worker_memory_limit": WORKER_MEMORY,
        "machine": machine(),
        "versions": versions(),
        "measured": time.strftime("%Y-%m-%d %H:%M:%S %Z"),
        "notes": "wall seconds of the whole run (plan, read, measure, check, write); "
        "peak_rss_mb is the process tree's (driver, scheduler, nannies, workers)",
    }
    _write(f"scale_{MILLION}.json", result)
    print(
        f"[{MILLION:,}] {run['seconds']:,.0f} s, {run['parcels_per_s']:,.0f} parcels/s, "
        f"peak {run['peak_rss_mb']:,} MB",
        flush=True,
    )
    return result


def bench_scaling(size: int = SCALING_SIZE) -> dict:
    folder = village(size)
    runs = []
    for workers in (1, 2):
        print(f"[{size:,}] distributed check on {workers} worker(s) ...", flush=True)
        runs.append(run_distributed(folder, workers))
    print(f"[{size:,}] windowed check in one process ...", flush=True)
    runs.append(run_distributed(folder, None))
    result = {
        "parcels": runs[0]["parcels_written"],
        "layers": _layers(folder),
        "runs": runs,
        "speedup_2_vs_1_workers": round(runs[0]["seconds"] / runs[1]["seconds"], 2),
        "machine": machine(),
        "measured": time.strftime("%Y-%m-%d %H:%M:%S %Z"),
    }
    _write(f"scaling_{size}.json", result)
    print(f"[{size:,}] 2 workers vs 1: {result['speedup_2_vs_1_workers']}x", flush=True)
    windowed = runs[2]
    print(
        f"[{size:,}] windowed: {windowed['seconds']:,.0f} s, peak {windowed['peak_rss_mb']:,} MB",
        flush=True,
    )
    return result


def _layers(folder: Path) -> list[str]:
    """The layers a distributed check is given (besides the parcels), and the DEM."""
    gpkg = folder / "village.gpkg"
    names = [name for name, _ in pyogrio.list_layers(gpkg) if name not in ("parcels", "projects")]
    return [*names, "dem"]


def _write(name: str, result: dict) -> None:
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / name).write_text(json.dumps(result, indent=2) + "\n")
