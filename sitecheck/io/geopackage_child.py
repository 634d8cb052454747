"""Write a GeoPackage from the Arrow streams a run handed over: the process of its own
that :mod:`sitecheck.io.geopackage_aside` starts.

Run as ``python -m sitecheck.io.geopackage_child SPEC``, SPEC a JSON file naming the
GeoPackage, its layers' streams (with geometry column, type and CRS), the dataset's
options and metadata and the audit rows. It imports only pyarrow and pyogrio, so it
starts in a fraction of a second, and streams each layer a batch at a time. A failure
is one line on stderr and exit status 1; it ends with the run that started it.
"""

from __future__ import annotations

import json
import os
import signal
import sys
from pathlib import Path

UNUSED_BY_PYOGRIO = ("geopandas", "pandas", "shapely", "pyproj")
"""Packages pyogrio imports when it can, for its data-frame and shapely functions, which
this process does not call: it writes Arrow streams, CRSs given as text. Barred while
pyogrio is imported, they are not loaded: the process then holds 86 MB where it held
151 MB (it runs beside the run's own peak, while the JSON is written). Every table it
writes comes as a stream, the audit's too: pyarrow loads pandas to make an array of
Python values."""


def main(argv: list[str]) -> int:
    """Write the GeoPackage SPEC describes; 0 when written, 1 with one line on stderr."""
    spec = json.loads(Path(argv[0]).read_text(encoding="utf-8"))
    _end_with(int(spec["parent"]))
    try:
        _load_writers()
        write(spec)
    except Exception as error:  # one line for the run to show; the run removes the file
        lines = str(error).strip().splitlines()
        print(f"{type(error).__name__}: {lines[0] if lines else ''}", file=sys.stderr)
        return 1
    return 0


def write(spec: dict) -> None:
    """Each layer in turn, then the audit table, into the new GeoPackage ``spec["path"]``."""
    import pyarrow as pa
    import pyogrio

    path = spec["path"]
    for position, layer in enumerate(spec["layers"]):
        first = position == 0
        with pa.OSFile(layer["stream"]) as source, pa.ipc.open_stream(source) as batches:
            pyogrio.write_arrow(
                batches,
                path,
                layer=layer["name"],
                driver="GPKG",
                geometry_name=layer["geometry_name"],
                geometry_type=layer["geometry_type"],
                crs=layer["crs"],
                append=not first,
                dataset_options=spec["dataset_options"] if first else None,
                dataset_metadata=spec["dataset_metadata"] if first else None,
            )
    if spec["audit_stream"]:
        with pa.OSFile(spec["audit_stream"]) as source, pa.ipc.open_stream(source) as rows:
            pyogrio.write_arrow(rows, path, layer="sitecheck_audit", driver="GPKG", append=True)


def _load_writers() -> None:
    """pyarrow and pyogrio imported, without :data:`UNUSED_BY_PYOGRIO`; the bar is lifted
    after, so a later import of them works (and is seen by the test of this process)."""
    barred = [name for name in UNUSED_BY_PYOGRIO if name not in sys.modules]
    for name in barred:
        sys.modules[name] = None  # type: ignore[assignment]  # None: cannot be imported
    try:
        import pyarrow.ipc  # noqa: F401
        import pyogrio  # noqa: F401
    finally:
        for name in barred:
            if sys.modules.get(name, 0) is None:
                del sys.modules[name]


def _end_with(parent: int) -> None:
    """Be killed when the run that started this process dies (Linux): a run killed
    outright must not leave a writer behind to recreate files its next run sweeps."""
    if not sys.platform.startswith("linux"):
        return
    import ctypes

    set_death_signal = 1  # PR_SET_PDEATHSIG, <linux/prctl.h>
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(set_death_signal, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:  # it died before the signal was set
        os._exit(1)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
