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


def main(argv: list[str]) -> int:
    """Write the GeoPackage SPEC describes; 0 when written, 1 with one line on stderr."""
    spec = json.loads(Path(argv[0]).read_text(encoding="utf-8"))
    _end_with(int(spec["parent"]))
    try:
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
    if spec["audit_rows"]:
        entries, values = zip(*spec["audit_rows"], strict=True)
        table = pa.table({"entry": list(entries), "value": list(values)})
        pyogrio.write_arrow(table, path, layer="sitecheck_audit", driver="GPKG", append=True)


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
