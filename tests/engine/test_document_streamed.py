"""A check's compact JSON made a chunk of parcels at a time as it is written (issue 30).

Held whole, the 250k bench village's 37,513 compact entries took 168 MB at the check's
peak; streamed, each chunk is made, written and let go. The file must be the one the
held document writes, byte for byte, projects and lines included.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from sitecheck.io.writers import Streamed, write_json
from sitecheck.pipeline.run import screen
from sitecheck.pipeline.spec import RunSpec
from sitecheck.reports import document as documents
from sitecheck.reports.compact import COMPACT, line_records

from .village_runs import village_inputs


def test_the_streamed_compact_document_is_the_held_one(
    shared_village, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    village = shared_village(parcels=400)
    inputs = village_inputs(village)
    result = screen(RunSpec(inputs, ordinance="scarsdale"))
    monkeypatch.setattr(documents, "ENTRY_CHUNK", 4)  # many chunks, the last one short
    for all_parcels in (False, True):
        held = documents.check_document(result, all_parcels, layout=COMPACT)
        streamed = documents.check_document(result, all_parcels, layout=COMPACT, streamed=True)
        assert isinstance(streamed["parcels"], Streamed)
        listed = held["parcels"]
        assert isinstance(listed, list) and len(listed) > 2 * 4 and len(listed) % 4
        assert held.get("projects"), "the village's projects are checked on their sites"
        streamed["run_id"], streamed["generated"] = held["run_id"], held["generated"]
        write_json(tmp_path / "held.json", held)
        write_json(tmp_path / "streamed.json", streamed)
        assert (tmp_path / "streamed.json").read_bytes() == (tmp_path / "held.json").read_bytes()
        assert list(line_records(streamed)) == list(line_records(held))
