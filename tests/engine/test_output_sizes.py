"""The sizes of a county run's outputs, pinned on a generated village (sizes, never times).

Issue 16's goals: the compact JSON at most 2 KB a parcel with work, the HTML report one
file a browser opens (at most 10 MB for the 30,016-parcel bench village). A village of
about 3,000 lots, every layer, soils and the DEM, checked as ``make bench`` checks
its villages, holds the same parcels per kilobyte; its figures are pinned here.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sitecheck.app.cli import main

from .village_runs import village_check_argv

pytestmark = pytest.mark.slow  # 3,000 parcels

KB = 1024


@pytest.fixture(scope="module")
def outputs(tmp_path_factory, shared_village) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("sizes")
    village = shared_village(parcels=3_000)
    argv = village_check_argv(village)
    paths = {name: folder / name for name in ("out.gpkg", "c.json", "c.jsonl", "r.html")}
    argv += ["--out", str(paths["out.gpkg"]), "--json", str(paths["c.json"])]
    argv += ["--jsonl", str(paths["c.jsonl"]), "--report", str(paths["r.html"])]
    assert main(argv) == 0
    return paths


def test_the_compact_json_takes_at_most_2_kb_a_parcel_with_work(outputs):
    text = outputs["c.json"].read_text(encoding="utf-8")
    document = json.loads(text)
    with_work = len(document["parcels"])
    assert with_work > 300
    entries = [
        json.dumps(p, separators=(",", ":"), ensure_ascii=False) for p in document["parcels"]
    ]
    assert sum(len(e.encode()) for e in entries) / with_work <= 2 * KB
    # The rules, inputs and settings are said once: at most 64 KB over the parcels' own.
    assert len(text.encode()) <= 2 * KB * with_work + 64 * KB


def test_a_line_of_jsonl_takes_at_most_4_kb(outputs):
    lines = outputs["c.jsonl"].read_bytes().splitlines()
    assert lines and max(len(line) for line in lines) <= 8 * KB
    assert sum(len(line) for line in lines) / len(lines) <= 4 * KB


def test_the_report_of_a_county_run_stays_a_file_a_browser_opens(outputs):
    report = outputs["r.html"].read_text(encoding="utf-8")
    size = len(report.encode())
    table = report.split('<section id="parcel-list">')[1].split("</section>")[0]
    rows = table.count("<tr data-severity=")
    assert rows > 300
    assert len(table.encode()) / rows <= 600  # a row of the table, not a section
    assert report.count('<section class="parcel"') == 200  # the default --report-details
    assert size <= 10 * KB * KB
