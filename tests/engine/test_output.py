"""The JSON document's layout: whole, valid, and one parcel a line."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np

from sitecheck.io.writers import write_json


def test_a_document_reads_back_whole_with_a_parcel_a_line(tmp_path: Path) -> None:
    parcels = [
        {"parcel_id": f"1.1-{n}", "metrics": {"area": np.float64(n * 1.5), "gap": math.nan}}
        for n in range(3)
    ]
    document = {"crs": {"epsg": 2260}, "owner": "Żaneta Ó", "parcels": parcels, "empty": []}
    target = tmp_path / "out.json"
    write_json(target, document)
    text = target.read_text(encoding="utf-8")
    read = json.loads(text)
    assert read["parcels"][2] == {"parcel_id": "1.1-2", "metrics": {"area": 3.0, "gap": None}}
    assert read["owner"] == "Żaneta Ó" and "Żaneta" in text  # kept, not \u-escaped
    assert read["empty"] == [] and read["crs"] == {"epsg": 2260}
    lines = text.splitlines()
    assert [json.loads(line.strip().rstrip(",")) for line in lines if "1.1-" in line] == [
        read["parcels"][n] for n in range(3)
    ]
    assert [path.name for path in tmp_path.iterdir()] == ["out.json"], "nothing else is left"
