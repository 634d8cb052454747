"""A large GeoPackage written by a process of its own while the run writes its other files.

pyogrio holds Python's lock while GDAL writes (a Python loop beside a write of the
county bench's 250,010 lots ran 75 times slower), so no thread can write the
GeoPackage beside the JSON document and the report; a process can, on another core.
The run converts each layer to Arrow (as pyogrio would), hands the layers over as
Arrow IPC streams beside the GeoPackage's temporary (named from it, so what a dead
run leaves is swept with it), and :mod:`sitecheck.io.geopackage_child` writes them
while the run goes on. The run waits for the writer before it moves its files into
place; a writer that fails is a :class:`GeoPackageWriteError` (an ``OSError``) in the
writer's own line. Small layers, and layers not of 2D polygons, are written at once
in this process (:func:`~sitecheck.io.writers.write_geopackage`).
"""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
from pathlib import Path

import geopandas as gpd
import pyarrow as pa

from sitecheck.allocator import hand_back_free_pages
from sitecheck.io.polygon_arrow import ArrowLayer, flat_polygons, multipolygon_slices
from sitecheck.io.writers import GPKG_DATASET_OPTIONS, audit_metadata, audit_table, write_geopackage
from sitecheck.termination import held_back

FEWEST_FEATURES_ASIDE = 20_000
"""The fewest features (all layers) written by a process of their own; fewer are written
at once. When this was set, the writer took 0.4 s to start (importing pyarrow and
pyogrio); the 30k bench check's 39,488 features took 0.49 s to write in the run, and the
check 7.01 s in all against 6.60 s with them written aside. It imports them in 0.1 s
now, where 0.3 s went to the data-frame libraries it no longer loads (2026-12-07)."""

BATCH_ROWS = 16_384
"""Rows an IPC batch holds: the run makes one batch at a time, and the writer holds one
batch at a time, not a layer. Beside the 250k bench village's run the writer peaked at
207 MB with batches of 16,384 rows, 243 MB with 65,536 (2026-12-07)."""

SIDE_FILE = ".layer-{position}.arrows"
"""The end of a layer's stream's name, after the GeoPackage temporary's."""
AUDIT_SIDE_FILE = ".audit.arrows"
"""The end of the audit table's stream's name."""


class GeoPackageWriteError(OSError):
    """The writer process could not write the GeoPackage; the message is its own line."""


class GeoPackageAside:
    """Write ``layers`` (and the audit) into the new GeoPackage ``path`` while the run goes on.

    Entering converts the layers and starts the writer (or writes them at once, where
    they are few or not polygons); :meth:`finish` waits for it; leaving stops a writer
    still working (the run failed) and removes the streams.

    Parameters
    ----------
    path : Path
        The GeoPackage to write (an output set's temporary).
    layers : dict of str to GeoDataFrame
        The layers, in order.
    audit : dict, optional
        The run's audit block, as :func:`sitecheck.io.writers.write_geopackage` writes it.
    fewest : int, optional
        The fewest features written aside (default :data:`FEWEST_FEATURES_ASIDE`).
    """

    def __init__(
        self,
        path: Path,
        layers: dict[str, gpd.GeoDataFrame],
        audit: dict[str, object] | None = None,
        fewest: int | None = None,
    ) -> None:
        self.path = Path(path)
        self.layers: dict[str, gpd.GeoDataFrame] | None = layers
        self.audit = audit
        self.fewest = FEWEST_FEATURES_ASIDE if fewest is None else fewest
        self.streams: list[Path] = []
        self.audit_stream: Path | None = None
        self.spec_path = Path(f"{path}.spec.json")
        self.errors_path = Path(f"{path}.errors.txt")
        self.writer: subprocess.Popen[bytes] | None = None

    def __enter__(self) -> GeoPackageAside:
        layers, self.layers = self.layers, None  # the run's frames are not held here
        assert layers is not None
        many = sum(map(len, layers.values())) >= self.fewest
        if not many or not all(map(flat_polygons, layers.values())):
            write_geopackage(self.path, layers, self.audit)
            return self
        try:
            kinds = {}
            for position, (name, frame) in enumerate(layers.items()):
                stream = Path(f"{self.path}{SIDE_FILE.format(position=position)}")
                self.streams.append(stream)
                kinds[name] = _write_stream(stream, frame)  # one at a time
            audit_stream = self._audit_stream()
            _let_go_of_tables()
            spec = _spec(self.path, kinds, self.streams, self.audit, audit_stream)
            self.spec_path.write_text(json.dumps(spec), encoding="utf-8")
            # SIGTERM held back: once the writer runs, it is known here, to be stopped.
            with open(self.errors_path, "wb") as errors, held_back():
                self.writer = subprocess.Popen(
                    [sys.executable, "-m", "sitecheck.io.geopackage_child", str(self.spec_path)],
                    stdin=subprocess.DEVNULL,
                    stdout=subprocess.DEVNULL,
                    stderr=errors,
                    env=_child_environment(),
                )
        except BaseException:
            self._clean_up()
            raise
        return self

    def _audit_stream(self) -> Path | None:
        """The audit table as a stream beside the layers' (the writer makes no table of its
        own: pyarrow would load pandas in it to make one)."""
        if not self.audit:
            return None
        rows = audit_table(self.audit)
        stream = self.audit_stream = Path(f"{self.path}{AUDIT_SIDE_FILE}")
        table = pa.table(
            {
                "entry": pa.array(rows["entry"].astype(str).tolist(), pa.string()),
                "value": pa.array(rows["value"].astype(str).tolist(), pa.string()),
            }
        )
        with pa.OSFile(str(stream), "wb") as sink, pa.ipc.new_stream(sink, table.schema) as out:
            out.write_table(table)
        return stream

    def finish(self) -> None:
        """Wait for the writer.

        Raises
        ------
        GeoPackageWriteError
            When it failed; the message is its own line.
        """
        if self.writer is not None and self.writer.wait() != 0:
            raise GeoPackageWriteError(
                _last_line(self.errors_path) or "the GeoPackage writer failed"
            )

    def __exit__(self, *exc_info: object) -> None:
        self._clean_up()

    def _clean_up(self) -> None:
        if self.writer is not None and self.writer.poll() is None:
            self.writer.kill()
            self.writer.wait()
        for side in (*self.streams, self.audit_stream, self.spec_path, self.errors_path):
            if side is not None:
                side.unlink(missing_ok=True)


def _write_stream(path: Path, frame: gpd.GeoDataFrame) -> ArrowLayer:
    """A layer written as an Arrow IPC stream at ``path``, a batch of rows at a time; the
    layer's kind (its table left empty)."""
    layer = None
    with pa.OSFile(str(path), "wb") as sink:
        out = None
        for layer in multipolygon_slices(frame, BATCH_ROWS):
            out = out or pa.ipc.new_stream(sink, layer.table.schema)
            out.write_table(layer.table)
        assert out is not None and layer is not None  # a frame has one slice at least
        out.close()
    return dataclasses.replace(layer, table=pa.table({}))


def _let_go_of_tables() -> None:
    """The memory the layers' tables took, given back before the writer starts beside the
    run: pyarrow's pool keeps what it freed (at 250k parcels the run held 220 MB more
    through its JSON and report), and so does the heap the shapes' WKB came from."""
    pa.default_memory_pool().release_unused()
    hand_back_free_pages()


def _spec(
    path: Path,
    layers: dict[str, ArrowLayer],
    streams: list[Path],
    audit: dict[str, object] | None,
    audit_stream: Path | None,
) -> dict[str, object]:
    """What the writer is told: the file, each layer's stream and kind, the audit's stream."""
    return {
        "parent": os.getpid(),
        "path": str(path),
        "layers": [
            {
                "name": name,
                "stream": str(stream),
                "geometry_name": layer.geometry_name,
                "geometry_type": layer.geometry_type,
                "crs": layer.crs,
            }
            for (name, layer), stream in zip(layers.items(), streams, strict=True)
        ],
        "dataset_options": GPKG_DATASET_OPTIONS,
        "dataset_metadata": audit_metadata(audit),
        "audit_stream": None if audit_stream is None else str(audit_stream),
    }


def _child_environment() -> dict[str, str]:
    """This environment, with the folder holding the engine first on the module path."""
    engine_parent = str(Path(__file__).resolve().parents[2])
    environment = dict(os.environ)
    path = environment.get("PYTHONPATH")
    environment["PYTHONPATH"] = engine_parent + (os.pathsep + path if path else "")
    return environment


def _last_line(path: Path) -> str:
    try:
        lines = path.read_text(encoding="utf-8", errors="replace").strip().splitlines()
    except OSError:
        return ""
    return lines[-1] if lines else ""
