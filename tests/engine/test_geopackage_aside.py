"""A GeoPackage written by a process of its own is the file the run would have written itself.

The reference is pyogrio's own write of the same frames (``write_geopackage``, in this
process); the writer is the real child process, started as a run starts it.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import geopandas as gpd
import numpy as np
import pandas as pd
import pyogrio
import pytest
import shapely
from shapely.geometry import MultiPolygon, Point, Polygon

from sitecheck.app.cli import main
from sitecheck.io import geopackage_aside
from sitecheck.io.geopackage_aside import GeoPackageAside, GeoPackageWriteError
from sitecheck.io.output_locks import OutputError
from sitecheck.io.output_set import Named, OutputSet
from sitecheck.io.polygon_arrow import flat_polygons
from sitecheck.io.writers import write_geopackage
from sitecheck.sample.village import generate_village

SQUARE = Polygon([(0, 0), (10, 0), (10, 10), (0, 10)])
HOLED = Polygon([(20, 0), (40, 0), (40, 20), (20, 20)], [[(25, 5), (30, 5), (30, 10), (25, 10)]])
TWO_PARTS = MultiPolygon([SQUARE, Polygon([(50, 50), (60, 50), (60, 60)])])
AUDIT = {"sitecheck_version": "0.1.0", "run_id": "abc", "inputs": [{"role": "parcels"}]}


def _frame(shapes: list[object]) -> gpd.GeoDataFrame:
    count = len(shapes)
    return gpd.GeoDataFrame(
        {
            "parcel_id": pd.array([f"1.{n}" for n in range(count)], dtype="string"),
            "disturbed_area_sqft": [np.nan if n == 1 else n * 1.5 for n in range(count)],
            "zoning_district": pd.array(
                [None if n == count - 1 else "A" for n in range(count)], dtype="string"
            ),
            "storm_years": pd.array(
                [None if n == count - 1 else 25 for n in range(count)], dtype="Int64"
            ),
            "in_sda": pd.array([n % 2 == 0 for n in range(count)], dtype="boolean"),
            "note": [f"note {n}" for n in range(count)],  # plain object strings
        },
        geometry=shapes,
        crs="EPSG:2260",
    )


def _contents(path: Path) -> dict[str, object]:
    """Everything a reader of the file sees: each layer's kind, fields and rows, shapes as
    WKT, the dataset's metadata and the GeoPackage's own tables of contents."""
    found: dict[str, object] = {}
    for layer, _ in pyogrio.list_layers(path):
        meta, table = pyogrio.read_arrow(path, layer=layer)
        rows = table.to_pylist()
        for row in rows:
            if row.get("geom") is not None:
                row["geom"] = shapely.from_wkb(row["geom"]).wkt
        found[layer] = (meta["geometry_type"], meta["crs"], meta["fields"].tolist(), rows)
    found["metadata"] = pyogrio.read_info(path, layer="sitecheck_audit")["dataset_metadata"]
    with sqlite3.connect(path) as db:
        for table in ("gpkg_contents", "gpkg_geometry_columns", "gpkg_extensions"):
            columns = "*" if table != "gpkg_contents" else "table_name, data_type, srs_id"
            found[table] = sorted(db.execute(f"SELECT {columns} FROM {table}").fetchall())
    return found


def _both(tmp_path: Path, layers: dict[str, gpd.GeoDataFrame]) -> tuple[dict, dict]:
    ours = tmp_path / "aside.gpkg"
    with GeoPackageAside(ours, layers, AUDIT, fewest=0) as aside:
        assert aside.writer is not None  # written by the process of its own
        aside.finish()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["aside.gpkg"]  # no stream left
    theirs = tmp_path / "here.gpkg"
    write_geopackage(theirs, layers, AUDIT)
    return _contents(ours), _contents(theirs)


def test_layers_written_aside_read_back_as_pyogrio_writes_them_here(tmp_path: Path) -> None:
    lots = _frame([SQUARE, HOLED, TWO_PARTS, Polygon(), None])
    flags = _frame([TWO_PARTS, SQUARE])
    ours, theirs = _both(tmp_path, {"parcels": lots, "flags": flags})
    assert ours == theirs
    kind, crs, _, rows = ours["parcels"]  # type: ignore[misc]
    assert (kind, crs) == ("MultiPolygon", "EPSG:2260")
    assert rows[1]["geom"] == MultiPolygon([HOLED]).wkt  # a polygon is one part of a multi
    assert rows[1]["disturbed_area_sqft"] is None and rows[4]["storm_years"] is None
    assert json.loads(ours["metadata"]["SITECHECK_AUDIT"])["run_id"] == "abc"  # type: ignore[index]


def test_the_writer_loads_no_data_frame_library(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The writer runs beside the run's own peak and writes Arrow streams: pandas,
    # geopandas, shapely and pyproj, which pyogrio loads when it can, would add 65 MB to
    # it. The real writer runs, with a note of what it loaded made as it exits.
    loaded = tmp_path / "loaded.json"
    watch = textwrap.dedent(
        f"""
        import atexit, json, runpy, sys
        names = ("pandas", "geopandas", "shapely", "pyproj", "pyarrow", "pyogrio")
        note = lambda: open({str(loaded)!r}, "w").write(
            json.dumps([name for name in names if name in sys.modules]))
        atexit.register(note)
        runpy.run_module("sitecheck.io.geopackage_child", run_name="__main__")
        """
    )
    started = subprocess.Popen

    def watched(args: list[str], **kwargs: object) -> subprocess.Popen[bytes]:
        assert args[1:3] == ["-m", "sitecheck.io.geopackage_child"]
        return started([args[0], "-c", watch, *args[3:]], **kwargs)  # type: ignore[call-overload]

    monkeypatch.setattr(geopackage_aside.subprocess, "Popen", watched)
    (tmp_path / "runs").mkdir()
    ours, theirs = _both(tmp_path / "runs", {"parcels": _frame([SQUARE, HOLED, None])})
    assert ours == theirs  # the audit table included, now handed over as a stream too
    assert json.loads(loaded.read_text()) == ["pyarrow", "pyogrio"]


def test_a_layer_made_a_few_rows_at_a_time_reads_back_as_made_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Two rows a batch: the second batch's text objects are all null and the third holds
    # only a missing shape, yet each column and the layer keep the whole layer's types; a
    # column of nothing but nulls is a text field, as pyogrio writes it (GDAL refused it
    # typed null, and the writer failed).
    monkeypatch.setattr(geopackage_aside, "BATCH_ROWS", 2)
    lots = _frame([SQUARE, HOLED, TWO_PARTS, Polygon(), None])
    lots["note"] = pd.Series(["a", "b", None, None, "e"], dtype=object)
    lots["nothing"] = pd.Series([None] * 5, dtype=object)
    ours, theirs = _both(tmp_path, {"parcels": lots, "flags": _frame([None, None, SQUARE])})
    assert ours == theirs
    kind, _, _, rows = ours["parcels"]  # type: ignore[misc]
    assert kind == "MultiPolygon" and len(rows) == 5
    assert [row["note"] for row in rows] == ["a", "b", None, None, "e"]
    assert ours["flags"][0] == "MultiPolygon"  # type: ignore[index]  # its first batch has no shape


def test_an_empty_layer_and_one_without_shapes_are_typed_as_pyogrio_types_them(
    tmp_path: Path,
) -> None:
    layers = {"parcels": _frame([SQUARE, HOLED]), "flags": _frame([]), "none": _frame([None])}
    ours, theirs = _both(tmp_path, layers)
    assert ours == theirs
    assert ours["flags"][0] == ours["none"][0] == "Unknown"  # type: ignore[index]


@pytest.mark.parametrize(
    ("shapes", "column"),
    [([SQUARE, Point(1, 1)], None), ([shapely.force_3d(SQUARE)], None), ([SQUARE], [1, "a"])],
    ids=["a point among polygons", "polygons with Z", "a column of mixed objects"],
)
def test_other_layers_are_written_here(
    tmp_path: Path, shapes: list[object], column: list[object] | None
) -> None:
    frame = _frame(shapes)
    if column is not None:
        frame = frame.iloc[[0, 0]].reset_index(drop=True)
        frame["mixed"] = pd.Series(column, dtype=object)
    assert not flat_polygons(frame)
    path = tmp_path / "here.gpkg"
    with GeoPackageAside(path, {"parcels": frame}, AUDIT, fewest=0) as aside:
        assert aside.writer is None and path.exists()  # written at once, in this process
        aside.finish()


def test_a_writer_that_dies_is_one_error_and_leaves_no_stream(tmp_path: Path) -> None:
    path = tmp_path / "o.gpkg"
    outputs = OutputSet([Named("--out", path)], [])
    with outputs, pytest.raises(OutputError) as raised, outputs.writing("--out") as temporary:
        aside = GeoPackageAside(temporary, {"parcels": _frame([SQUARE] * 50)}, AUDIT, 0)
        with aside:
            assert aside.writer is not None
            aside.writer.send_signal(signal.SIGKILL)  # as the kernel's OOM killer would
            aside.finish()
    assert isinstance(raised.value.__cause__, GeoPackageWriteError)
    message = str(raised.value)
    assert message.startswith(f"--out: could not write {path}: ")
    assert "the GeoPackage writer failed" in message and "\n" not in message
    assert list(tmp_path.iterdir()) == []  # no GeoPackage, no stream, no lock


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the death signal is Linux's")
def test_the_writer_ends_with_a_run_killed_outright(tmp_path: Path) -> None:
    """A run killed by SIGKILL cannot stop its writer; the writer stops itself, so it never
    recreates the file the next run sweeps away."""
    target = tmp_path / "o.gpkg"
    script = textwrap.dedent(
        f"""
        import sys, time
        import geopandas as gpd
        from shapely.geometry import box
        from sitecheck.io.geopackage_aside import GeoPackageAside
        frame = gpd.GeoDataFrame(geometry=[box(i, 0, i + 1, 1) for i in range(20000)],
                                 crs="EPSG:2260")
        aside = GeoPackageAside({str(target)!r}, {{"parcels": frame}}, None, 0).__enter__()
        print(aside.writer.pid, flush=True)
        time.sleep(60)
        """
    )
    run = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    assert run.stdout is not None
    writer = int(run.stdout.readline())
    run.send_signal(signal.SIGKILL)
    run.wait()
    time.sleep(5)  # the writer alone writes these 20,000 squares in well under a second
    assert not target.exists()
    with pytest.raises(ProcessLookupError):
        os.kill(writer, 0)


@pytest.fixture(scope="module")
def village(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("village")
    generate_village(folder)
    return folder


def test_a_check_writes_the_same_geopackage_aside_as_here(
    village: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    gpkg = village / "village.gpkg"
    words = ["check", "--ordinance", "scarsdale", "--dem", str(village / "dem.tif"), "--quiet"]
    for layer in ("parcels", "disturbance", "floodplain", "wetlands", "zoning", "sda"):
        words += [f"--{layer}", f"{gpkg}:{layer}"]
    runs = {}
    for fewest in (0, 10**9):
        monkeypatch.setattr(geopackage_aside, "FEWEST_FEATURES_ASIDE", fewest)
        out = tmp_path / str(fewest)
        out.mkdir()
        assert main([*words, "--out", str(out / "o.gpkg"), "--json", str(out / "o.json")]) == 0
        assert sorted(p.name for p in out.iterdir()) == ["o.gpkg", "o.json"]
        runs[fewest] = _contents(out / "o.gpkg")
    aside, here = runs[0], runs[10**9]
    for found in (aside, here):  # each run its own id and time
        found.pop("metadata")
        found.pop("sitecheck_audit")
    assert aside == here
    assert len(aside["parcels"][3]) > 0  # type: ignore[index]


def test_a_check_writing_only_its_geopackage_writes_it_here(
    village: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With nothing else to write there is nothing to write beside: a writer process would
    only add its start to the run."""
    monkeypatch.setattr(geopackage_aside, "FEWEST_FEATURES_ASIDE", 0)

    def no_writer(*args: object, **kwargs: object) -> None:
        raise AssertionError("a writer process was started")

    monkeypatch.setattr(geopackage_aside.subprocess, "Popen", no_writer)
    gpkg = village / "village.gpkg"
    words = ["check", "--ordinance", "scarsdale", "--quiet", "--out", str(tmp_path / "o.gpkg")]
    for layer in ("parcels", "disturbance"):
        words += [f"--{layer}", f"{gpkg}:{layer}"]
    assert main(words) == 0
    assert len(pyogrio.read_dataframe(tmp_path / "o.gpkg", layer="parcels")) > 0


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc lists the children")
def test_a_sigterm_as_the_writer_starts_leaves_no_writer_running(tmp_path: Path) -> None:
    """A SIGTERM that comes while the writer is being started (its process running, not yet
    known to the run) still stops it: the run ends terminated with no child left, and the
    temporary GeoPackage is not written behind the run's back."""
    target = tmp_path / "o.gpkg"
    script = textwrap.dedent(
        f"""
        import os, signal, subprocess, sys
        import geopandas as gpd
        from shapely.geometry import box
        from sitecheck import termination
        from sitecheck.io.geopackage_aside import GeoPackageAside

        started = subprocess.Popen._execute_child

        def start_then_sigterm(popen, *arguments):
            started(popen, *arguments)
            os.kill(os.getpid(), signal.SIGTERM)  # the writer runs; Popen has not returned

        subprocess.Popen._execute_child = start_then_sigterm
        frame = gpd.GeoDataFrame(geometry=[box(i, 0, i + 1, 1) for i in range(20000)],
                                 crs="EPSG:2260")
        termination.install()
        try:
            GeoPackageAside({str(target)!r}, {{"parcels": frame}}, None, 0).__enter__()
        except termination.Terminated:
            pid = os.getpid()
            children = open(f"/proc/{{pid}}/task/{{pid}}/children").read().split()
            print(len(children), flush=True)
            sys.exit(143)
        """
    )
    ran = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120
    )
    assert ran.returncode == 143, ran.stderr
    assert ran.stdout.strip() == "0", "the writer still ran after the run was terminated"
    time.sleep(2)  # the writer alone writes these 20,000 squares in well under a second
    assert not target.exists()
