"""``sitecheck check --engine dask`` and ``windowed``: the same answers as one run in one
process, and no parcel lost.

The outputs of the two engines are compared whole: every parcel's metrics,
triggers, reasons and attributes in the JSON document, every column and
geometry of the GeoPackage's parcels and flags, and the run's runoff block.
Only the order of parcels may differ (a distributed run lists them as their
partitions finish), so rows are matched by parcel id.
"""

from __future__ import annotations

import json
import os
import signal
from collections import Counter
from pathlib import Path

import geopandas as gpd
import pandas as pd
import pyogrio
import pytest
import shapely

from sitecheck.app.cli import main
from sitecheck.sample.village import generate_village

from .village_runs import VILLAGE_LAYERS

# a village of 3,000 parcels and a county of 30,000, single and on Dask
pytestmark = pytest.mark.slow

LAYERS = ("disturbance", *VILLAGE_LAYERS)
# What legitimately differs between two runs of the same inputs.
RUN_KEYS = {"run_id", "generated", "timings_s", "engine", "parcels", "inputs"}


def check_arguments(paths: dict[str, Path], out: Path) -> list[str]:
    """``sitecheck check`` on every layer of a generated village, writing out.gpkg and out.json."""
    gpkg = paths["gpkg"]
    arguments = ["check", "--ordinance", "scarsdale", "--parcels", f"{gpkg}:parcels"]
    for layer in LAYERS:
        arguments += [f"--{layer.replace('_', '-')}", f"{gpkg}:{layer}"]
    arguments += ["--dem", str(paths["dem"]), "--quiet"]
    return [*arguments, "--out", f"{out}.gpkg", "--json-layout", "full", "--json", f"{out}.json"]


def run_cli(arguments: list[str]) -> None:
    assert main(arguments) == 0


def assert_same_outputs(single: Path, distributed: Path) -> None:
    """Every answer of the two runs is the same; only parcel order may differ."""
    first = json.loads(Path(f"{single}.json").read_text())
    second = json.loads(Path(f"{distributed}.json").read_text())
    for key in set(first) | set(second):
        if key not in RUN_KEYS:
            assert first.get(key) == second.get(key), key
    assert _sorted_inputs(first) == _sorted_inputs(second)
    by_id = {entry["parcel_id"]: entry for entry in second["parcels"]}
    assert len(by_id) == len(second["parcels"]), "a parcel is listed twice"
    assert sorted(by_id) == sorted(entry["parcel_id"] for entry in first["parcels"])
    for entry in first["parcels"]:
        assert by_id[entry["parcel_id"]] == entry, entry["parcel_id"]

    one = _layer(single, "parcels")
    other = _layer(distributed, "parcels")
    assert not other.index.duplicated().any(), "a parcel is written twice"
    assert list(one.columns) == list(other.columns)
    assert one.index.equals(other.index)
    for column in one.columns.drop("geometry"):
        pd.testing.assert_series_equal(one[column], other[column], check_exact=True)
    assert one.geometry.geom_equals_exact(other.geometry, 0).all()

    assert _flag_rows(single) == _flag_rows(distributed)


def _sorted_inputs(document: dict) -> list[tuple]:
    """The inputs as both engines record them. A distributed run's driver reads no layer
    whole, so it records no hash of the features read (``features_sha256`` is null)."""
    return sorted(
        tuple(sorted((k, v) for k, v in record.items() if k != "features_sha256"))
        for record in document["inputs"]
    )


def _layer(output: Path, layer: str) -> gpd.GeoDataFrame:
    return pyogrio.read_dataframe(f"{output}.gpkg", layer=layer).set_index("parcel_id").sort_index()


def _flag_rows(output: Path) -> Counter:
    flags = pyogrio.read_dataframe(f"{output}.gpkg", layer="flags")
    shapes = shapely.to_wkb(shapely.normalize(flags.geometry.to_numpy()))
    return Counter(zip(flags["parcel_id"], flags["kind"], flags["area_sqft"], shapes, strict=True))


@pytest.fixture(scope="module")
def village(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return generate_village(tmp_path_factory.mktemp("village"))


@pytest.fixture(scope="module")
def single_village(village: dict[str, Path]) -> Path:
    out = village["gpkg"].parent / "single"
    run_cli(check_arguments(village, out))
    return out


def test_sample_village_same_answers_in_small_partitions(
    village: dict[str, Path], single_village: Path
) -> None:
    # 50 parcels a partition: the ten projects, the floodplain and the wetlands
    # straddle partition edges, so halos and tiles are exercised.
    out = village["gpkg"].parent / "dask_small"
    engine = ["--engine", "dask", "--workers", "2", "--partition-size", "50"]
    run_cli([*check_arguments(village, out), *engine])
    assert_same_outputs(single_village, out)
    header = json.loads(Path(f"{out}.json").read_text())["engine"]
    assert header["name"] == "dask" and header["workers"] == 2
    assert header["partitions"] >= 6


def test_the_compact_json_and_its_lines_are_the_same_from_dask(village: dict[str, Path]) -> None:
    """The default layout and ``--jsonl`` stream from the partitions as one process writes them."""
    documents, lines = {}, {}
    for engine in ("single", "dask"):
        out = village["gpkg"].parent / f"compact_{engine}"
        arguments = check_arguments(village, out)
        at = arguments.index("--json-layout")
        arguments = [*arguments[:at], *arguments[at + 2 :], "--jsonl", f"{out}.jsonl"]
        if engine == "dask":
            arguments += ["--engine", "dask", "--workers", "2", "--partition-size", "50"]
        run_cli(arguments)
        documents[engine] = json.loads(Path(f"{out}.json").read_text())
        lines[engine] = [json.loads(line) for line in Path(f"{out}.jsonl").read_text().splitlines()]
    single, dask = documents["single"], documents["dask"]
    assert single["layout"] == dask["layout"] == "compact"
    for key in ("metric_columns", "rules", "packs", "settings", "runoff", "projects"):
        assert single[key] == dask[key], key
    by_id = {entry["parcel_id"]: entry for entry in dask["parcels"]}
    assert sorted(by_id) == sorted(entry["parcel_id"] for entry in single["parcels"])
    for entry in single["parcels"]:
        assert by_id[entry["parcel_id"]] == entry, entry["parcel_id"]
    assert {line["run_id"] for line in lines["dask"]} == {dask["run_id"]}

    def without_run(records: list[dict]) -> list[str]:
        return sorted(json.dumps({k: v for k, v in r.items() if k != "run_id"}) for r in records)

    assert without_run(lines["single"]) == without_run(lines["dask"])
    assert len(lines["single"]) == len(single["parcels"]) + len(single.get("projects", []))


def test_generated_county_of_30k_parcels_same_answers(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    county = generate_village(tmp_path_factory.mktemp("county"), parcels=30_000)
    assert pyogrio.read_info(county["gpkg"], layer="parcels")["features"] >= 30_000
    single = county["gpkg"].parent / "single"
    distributed = county["gpkg"].parent / "dask"
    run_cli(check_arguments(county, single))
    run_cli([*check_arguments(county, distributed), "--engine", "dask", "--workers", "2"])
    assert_same_outputs(single, distributed)
    triggered = json.loads(Path(f"{single}.json").read_text())["parcels"]
    assert sum(1 for entry in triggered if entry["triggers"]) > 1_000


def test_killed_worker_loses_and_repeats_no_parcel(
    village: dict[str, Path], single_village: Path
) -> None:
    from distributed import Client, LocalCluster

    from sitecheck.app.cli import build_parser, dask_run_spec
    from sitecheck.distributed.run import DaskOptions, run_check_distributed
    from sitecheck.pipeline.outputs import Destinations

    out = village["gpkg"].parent / "killed"
    args = build_parser().parse_args(check_arguments(village, out))
    spec = dask_run_spec(args)
    killed: list[str] = []

    def kill_a_busy_worker(written: int, client: Client) -> None:
        if killed:
            return
        busy = [worker for worker, tasks in client.processing().items() if tasks]
        if busy:
            # SIGKILL, as the kernel's out-of-memory killer would: no goodbye to the scheduler.
            pid = client.run(os.getpid, workers=[busy[0]])[busy[0]]
            os.kill(pid, signal.SIGKILL)
            killed.append(busy[0])

    with (
        LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None) as cluster,
        Client(cluster) as client,
    ):
        run = run_check_distributed(
            spec,
            Destinations(Path(f"{out}.gpkg"), Path(f"{out}.json"), json_layout=args.json_layout),
            DaskOptions(partition_size=25),
            client=client,
            on_partition=kill_a_busy_worker,
        )
    assert killed, "no worker was busy after the first partition: nothing was tested"
    assert run.parcels_written == run.parcel_count
    assert_same_outputs(single_village, out)


def test_report_is_refused_before_any_cluster_starts(
    village: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "refused"
    arguments = [*check_arguments(village, out), "--engine", "dask", "--report", "r.html"]
    assert main(arguments) == 2
    assert "--report" in capsys.readouterr().err
    assert not list(tmp_path.iterdir()), "nothing may be written"


def test_unknown_pack_is_refused_before_any_output(
    village: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "refused"
    arguments = check_arguments(village, out)
    arguments[arguments.index("scarsdale")] = "rye"
    assert main([*arguments, "--engine", "dask", "--workers", "1"]) == 2
    assert "rye" in capsys.readouterr().err
    assert not list(tmp_path.iterdir()), "nothing may be written"


def test_partitions_hold_every_parcel_once_in_compact_groups(tmp_path: Path) -> None:
    from sitecheck.distributed.plan import plan_partitions
    from sitecheck.io.readers import LayerSource

    paths = generate_village(tmp_path, parcels=3_000)
    source = LayerSource.parse("parcels", f"{paths['gpkg']}:parcels")
    plan = plan_partitions(source, partition_size=400)
    lots = pyogrio.read_dataframe(paths["gpkg"], layer="parcels")
    planned = [pid for part in plan.partitions for pid in part.parcel_ids]
    assert sorted(planned) == sorted(lots["parcel_id"]) and plan.parcel_count == len(lots)
    sizes = [len(part.parcel_ids) for part in plan.partitions]
    assert len(sizes) == -(-len(lots) // 400) and max(sizes) - min(sizes) <= 1
    # Along a Hilbert curve each partition is a compact patch of the village:
    # together their extents cover little more than the village itself.
    village_area = shapely.box(*lots.total_bounds).area
    extents = sum(shapely.box(*part.bounds).area for part in plan.partitions)
    assert extents < 2.0 * village_area


def test_windowed_in_one_process_same_answers_as_one_run(
    village: dict[str, Path], single_village: Path
) -> None:
    # The partitions the Dask engine cuts, checked one after another in this process:
    # the ten projects, the floodplain and the wetlands straddle partition edges.
    out = village["gpkg"].parent / "windowed"
    run_cli([*check_arguments(village, out), "--engine", "windowed", "--partition-size", "50"])
    assert_same_outputs(single_village, out)
    document = json.loads(Path(f"{out}.json").read_text())
    lots = pyogrio.read_info(village["gpkg"], layer="parcels")["features"]
    header = document["engine"]
    assert (header["name"], header["scheduler"], header["workers"]) == (
        "windowed",
        "this process",
        1,
    )
    assert header["partitions"] == -(-lots // 50)  # 50 parcels a partition, rounded up


def test_windowed_lists_parcels_in_the_plans_order(village: dict[str, Path]) -> None:
    # One partition after another: the listing is the plan's, the same from run to run.
    from sitecheck.distributed.plan import plan_partitions
    from sitecheck.io.readers import LayerSource

    out = village["gpkg"].parent / "windowed_order"
    arguments = [*check_arguments(village, out), "--engine", "windowed", "--all-parcels"]
    run_cli([*arguments, "--partition-size", "100"])
    document = json.loads(Path(f"{out}.json").read_text())
    listed = [str(entry["parcel_id"]) for entry in document["parcels"]]
    plan = plan_partitions(LayerSource.parse("parcels", f"{village['gpkg']}:parcels"), 100)
    assert len(plan.partitions) > 2
    for part in plan.partitions:  # each partition's parcels together, partition after partition
        ids = [str(pid) for pid in part.parcel_ids]
        assert sorted(listed[: len(ids)]) == sorted(ids)
        listed = listed[len(ids) :]
    assert not listed


@pytest.mark.parametrize(
    ("engine", "options", "refusal"),
    [
        ("windowed", ["--workers", "2"], "--workers: for --engine dask only"),
        (
            "windowed",
            ["--scheduler", "tcp://nowhere:8786", "--worker-memory", "1GB"],
            "--scheduler, --worker-memory: for --engine dask only",
        ),
        ("windowed", ["--report", "r.html"], "--report: the HTML report holds every parcel"),
        (
            "single",
            ["--partition-size", "500", "--workers", "2"],
            "--workers: for --engine dask only; --partition-size: for --engine dask or "
            "windowed only",
        ),
    ],
)
def test_options_of_another_engine_are_refused(
    village: dict[str, Path],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    engine: str,
    options: list[str],
    refusal: str,
) -> None:
    arguments = check_arguments(village, tmp_path / "refused")
    assert main([*arguments, "--engine", engine, *options]) == 2
    assert refusal in capsys.readouterr().err
    assert not list(tmp_path.iterdir()), "nothing may be written"
