"""Outputs written as partitions arrive, made visible only when the run ends well.

The GeoPackage's parcels and flags layers are appended to, partition by
partition; the JSON document is written as a stream, laid out as a single run's is
(:func:`sitecheck.io.writers.json_lines`), its parcels one per line.
Both go to the temporaries of the run's
:class:`~sitecheck.io.output_set.OutputSet` and are moved over their targets
only after the last partition: a failed or interrupted run leaves the old
outputs untouched and no half-written file behind.
"""

from __future__ import annotations

import json
from typing import TextIO

import geopandas as gpd
import pyogrio

from sitecheck.distributed.window import PartitionOutput
from sitecheck.io.output_set import OutputSet
from sitecheck.io.writers import (
    GPKG_DATASET_OPTIONS,
    audit_table,
    json_ready,
    json_text,
)


class StreamingOutputs:
    """Append partitions to a GeoPackage and a JSON document; commit on success.

    Parameters
    ----------
    outputs : OutputSet
        The run's destinations, entered: ``--out`` (the GeoPackage, layers
        ``parcels`` and ``flags``) and, when given, ``--json``.
    audit : dict
        The run's audit block, stored in the GeoPackage as a single run's is.
    header : dict
        The JSON document's keys that come before ``parcels``.
    """

    def __init__(self, outputs: OutputSet, audit: dict, header: dict[str, object]) -> None:
        self.outputs = outputs
        self.audit = audit
        self.header = header
        self._gpkg = outputs.temporary("--out")
        self._json: TextIO | None = None
        self._entries = 0
        self._empty_flags: gpd.GeoDataFrame | None = None
        self._layers: set[str] = set()
        self._finished = False
        self.parcels_written = 0

    def __enter__(self) -> StreamingOutputs:
        if self.outputs.has("--json"):
            with self.outputs.writing("--json") as temporary:
                self._json = open(temporary, "w", encoding="utf-8", newline="")
                self._json.write("{\n")
                for key, value in self.header.items():
                    self._json.write(f"  {json_text(key)}: {json_text(json_ready(value))},\n")
                self._json.write('  "parcels": [\n')
        return self

    def add(self, output: PartitionOutput) -> None:
        """Append one partition's parcels, flags and JSON entries."""
        self._append("parcels", output.parcels)
        self.parcels_written += len(output.parcels)
        if len(output.flags):
            self._append("flags", output.flags)
        elif self._empty_flags is None:
            self._empty_flags = output.flags
        if self._json is not None:
            with self.outputs.writing("--json"):
                for entry in output.entries:
                    separator = ",\n" if self._entries else ""
                    self._json.write(separator + "    " + json_text(json_ready(entry)))
                    self._entries += 1

    def add_layer(self, layer: str, frame: gpd.GeoDataFrame) -> None:
        """Add a layer known only at the end (the named projects)."""
        if len(frame):
            self._append(layer, frame)

    def finish(self, trailer: dict[str, object]) -> None:
        """Write what is known only at the end, then make the outputs visible."""
        if "flags" not in self._layers and self._empty_flags is not None:
            self._append("flags", self._empty_flags)
        with self.outputs.writing("--out"):
            pyogrio.write_dataframe(
                audit_table(self.audit),
                self._gpkg,
                layer="sitecheck_audit",
                driver="GPKG",
                append=True,
            )
        if self._json is not None:
            with self.outputs.writing("--json"):
                self._json.write("\n  ]")
                for key, value in trailer.items():
                    self._json.write(f",\n  {json_text(key)}: {json_text(json_ready(value))}")
                self._json.write("\n}\n")
                self._json.close()
        self.outputs.commit()
        self._finished = True

    def __exit__(self, *exc_info: object) -> None:
        # Without a finish the run's OutputSet removes the temporaries as it ends.
        if self._json is not None and not self._json.closed:
            self._json.close()

    def _append(self, layer: str, frame: gpd.GeoDataFrame) -> None:
        first_file = not self._gpkg.exists()
        with self.outputs.writing("--out"):
            pyogrio.write_dataframe(
                frame,
                self._gpkg,
                layer=layer,
                driver="GPKG",
                promote_to_multi=True,
                geometry_type="MultiPolygon" if layer not in self._layers else None,
                use_arrow=True,
                append=layer in self._layers or not first_file,
                dataset_options=GPKG_DATASET_OPTIONS if first_file else None,
                dataset_metadata={"SITECHECK_AUDIT": json.dumps(json_ready(self.audit))}
                if first_file
                else None,
            )
        self._layers.add(layer)
