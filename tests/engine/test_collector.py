"""A batch run does not spend its time re-scanning its own tables for reference cycles,
still frees the cycles it makes, and leaves the collector as it found it."""

from __future__ import annotations

import gc
import json
import subprocess
import sys
import weakref
from pathlib import Path

import pytest

from sitecheck.app.cli import main
from sitecheck.collector import BATCH_THRESHOLD, batch_collection

from .conftest import SharedVillage
from .village_runs import village_check_argv


def _collections_in_own_process(setup: str, measured: str, argument: object) -> dict:
    """Run ``setup``, then ``measured``, in a process of its own, as a user's run is, with
    ``argument`` as JSON in ``sys.argv[1]``: what they put in ``found``, with the full
    collections made while ``measured`` ran (imports left out) and the collector's
    thresholds before and after it."""
    script = (
        "import gc, json, sys\n"
        f"found = {{}}\n{setup}\n"
        "full, before = [], gc.get_threshold()\n"
        "count = lambda phase, info: full.extend([1] * (phase == 'stop' and info['generation'] == 2))\n"
        f"gc.callbacks.append(count)\n{measured}\ngc.callbacks.remove(count)\n"
        "print(json.dumps({**found, 'full': len(full), 'before': before, "
        "'after': gc.get_threshold()}))\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", script, json.dumps(argument)],
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(run.stdout.splitlines()[-1])


def test_a_check_of_thousands_of_lots_makes_no_full_collection(
    shared_village: SharedVillage, tmp_path: Path
) -> None:
    # A full collection scans every container the run holds: with CPython's default
    # thresholds this check made two (and 182 of the youngest generation).
    village = shared_village(parcels=4000)
    argv = [*village_check_argv(village), "--out", str(tmp_path / "result.gpkg")]
    argv += ["--json", str(tmp_path / "result.json")]
    made = _collections_in_own_process(
        "from sitecheck.app.cli import main", "found['code'] = main(json.loads(sys.argv[1]))", argv
    )
    assert made["code"] == 0, made
    assert made["full"] == 0, made
    assert made["after"] == made["before"], made
    assert (tmp_path / "result.gpkg").exists()


_WINDOW_PLANNED = """
from sitecheck.distributed.plan import plan_partitions
from sitecheck.distributed.window import TaskSpec, screen_partition
from sitecheck.io.readers import LayerSource
from sitecheck.measure.inputs import MeasureInputs, MeasureSettings
from sitecheck.pipeline.spec import RunSpec
layers = json.loads(sys.argv[1])
inputs = MeasureInputs(**{role: LayerSource.parse(role, spec) for role, spec in layers.items()})
run = RunSpec(inputs, MeasureSettings(), "scarsdale", 0.02)
plan = plan_partitions(inputs.parcels, 100_000)
"""
_SCREEN_IT = (
    'found["rows"] = len(screen_partition(plan.partitions[0], TaskSpec(run, False, ())).parcels)'
)


def test_a_dask_task_of_thousands_of_lots_makes_no_full_collection(
    shared_village: SharedVillage,
) -> None:
    # A task is a batch run of its window, inside a Dask worker whose own setting stays.
    village = shared_village(parcels=4000)
    gpkg = village["gpkg"]
    roles = ("parcels", "disturbance", "impervious_existing", "impervious_proposed", "floodplain")
    made = _collections_in_own_process(
        _WINDOW_PLANNED, _SCREEN_IT, {role: f"{gpkg}:{role}" for role in roles}
    )
    assert made["rows"] >= 4000, made
    assert made["full"] == 0, made
    assert made["after"] == made["before"], made


def test_cycles_made_in_a_batch_run_are_still_freed() -> None:
    class Node:
        pass

    freed = []
    with batch_collection():
        node = Node()
        node.self = node  # type: ignore[attr-defined]
        weakref.finalize(node, freed.append, True)
        del node
        assert not freed  # a cycle: reference counting alone cannot free it
        kept = [[] for _ in range(2 * BATCH_THRESHOLD)]  # enough new containers
        assert freed == [True]
        del kept


@pytest.mark.parametrize("exit_code", [0, 2])
def test_the_callers_thresholds_are_put_back(exit_code: int, tmp_path: Path) -> None:
    before = gc.get_threshold()
    gc.set_threshold(1234, 7, 9)
    try:
        argv = ["sample-village", str(tmp_path / "village")]
        if exit_code:
            argv += ["--parcels", "-5"]  # refused: one line, exit 2
        assert main(argv) == exit_code
        assert gc.get_threshold() == (1234, 7, 9)
    finally:
        gc.set_threshold(*before)
