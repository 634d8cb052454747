"""Outputs written as partitions arrive, made visible only when the run ends well.

The GeoPackage's parcels and flags layers are appended to, partition by
partition; the JSON document is written as a stream, laid out as a single run's is
(:func:`sitecheck.io.writers.json_lines`), its parcels one per line, and so are
the newline-delimited lines of ``--jsonl``.
Both go to the temporaries of the run's
:class:`~sitecheck.io.output_set.OutputSet` and are moved over their targets
only after the last partition: a failed or interrupted run leaves the old
outputs untouched and no half-written file behind.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TextIO

import geopandas as gpd
import pyogrio

from sitecheck.distributed.window import PartitionOutput
from sitecheck.io.output_set import OutputSet
from sitecheck.io.writers import (
    GPKG_DATASET_OPTIONS,
    audit_table,
    copy_table,
    json_ready,
    json_text,
    ready_text,
)
from sitecheck.reports.compact import COMPACT, line_record, rule_citations


@dataclass(frozen=True)
class DocumentShape:
    """How the run's JSON documents are laid out.

    Attributes
    ----------
    layout : str
        The ``--json`` document's: ``compact`` or ``full``.
    metric_columns : list of str
        The compact layout's metric columns.
    rules : list of dict
        Every rule of the run's packs, described once.
    """

    layout: str
    metric_columns: list[str]
    rules: list[dict[str, object]]


class StreamingOutputs:
    """Append partitions to a GeoPackage and JSON documents; commit on success.

    Parameters
    ----------
    outputs : OutputSet
        The run's destinations, entered: ``--out`` (the GeoPackage, layers
        ``parcels`` and ``flags``) and, when given, ``--json`` and ``--jsonl``.
    audit : dict
        The run's audit block, stored in the GeoPackage as a single run's is.
    header : dict
        The JSON document's keys that come before ``parcels``.
    shape : DocumentShape
        The layout of the JSON document, its metric columns and rules.
    """

    def __init__(
        self, outputs: OutputSet, audit: dict, header: dict[str, object], shape: DocumentShape
    ) -> None:
        self.outputs = outputs
        self.audit = audit
        self.shape = shape
        self.header: dict[str, object] = {"layout": shape.layout, **header}
        if shape.layout == COMPACT:
            self.header.update(metric_columns=shape.metric_columns, rules=shape.rules)
        self._citations = rule_citations(shape.rules)
        self._gpkg = outputs.temporary("--out")
        self._json: TextIO | None = None
        self._lines: TextIO | None = None
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
                    self._json.write(f"  {json_text(key)}: {ready_text(value)},\n")
                self._json.write('  "parcels": [\n')
        if self.outputs.has("--jsonl"):
            with self.outputs.writing("--jsonl") as temporary:
                self._lines = open(temporary, "w", encoding="utf-8", newline="")
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
                for entry in output.entries[self.shape.layout]:
                    separator = ",\n" if self._entries else ""
                    self._json.write(separator + "    " + ready_text(entry))
                    self._entries += 1
        self._write_lines(output.entries.get(COMPACT, []))

    def _write_lines(self, entries: list[dict]) -> None:
        """Append compact entries to ``--jsonl``, a line each."""
        if self._lines is None:
            return
        run_id = str(self.audit["run_id"])
        columns = self.shape.metric_columns
        with self.outputs.writing("--jsonl"):
            for entry in entries:
                record = line_record(entry, columns, self._citations, run_id)
                self._lines.write(ready_text(record) + "\n")

    def add_layer(self, layer: str, frame: gpd.GeoDataFrame) -> None:
        """Add a layer known only at the end (the named projects)."""
        if len(frame):
            self._append(layer, frame)

    def finish(self, trailer: dict[str, object], projects: dict[str, list[dict]]) -> None:
        """Write what is known only at the end (``projects``: the named projects' entries by
        layout), then make the outputs visible."""
        trailer = {**trailer, "projects": projects.get(self.shape.layout, [])}
        self._write_lines(projects.get(COMPACT, []))
        if self._lines is not None:
            self._lines.close()
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
        if self.outputs.has("--table"):
            with self.outputs.writing("--table") as temporary:
                copy_table(self._gpkg, temporary, self.audit)
        if self._json is not None:
            with self.outputs.writing("--json"):
                self._json.write("\n  ]")
                for key, value in trailer.items():
                    self._json.write(f",\n  {json_text(key)}: {ready_text(value)}")
                self._json.write("\n}\n")
                self._json.close()
        self.outputs.commit()
        self._finished = True

    def __exit__(self, *exc_info: object) -> None:
        # Without a finish the run's OutputSet removes the temporaries as it ends.
        for handle in (self._json, self._lines):
            if handle is not None and not handle.closed:
                handle.close()

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
