"""The HTML report's parcel table in a real browser (Debian's headless Chromium).

A generated village of about 3,000 lots is checked with the report; Chromium opens the
report, presses column headings and uses the filters, and the rows it shows are
compared with the run's JSON document, read apart from the report.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from sitecheck.app.cli import main

from .village_runs import village_check_argv

pytestmark = pytest.mark.slow  # 3,000 parcels, and Chromium

REPO = Path(__file__).resolve().parents[2]
LAYERS = ("impervious_existing", "impervious_proposed", "floodplain", "wetlands", "zoning")


def _browser():
    spec = importlib.util.spec_from_file_location(
        "sitecheck_tests_browser", REPO / "tests" / "browser.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


browser = _browser()

# Reads the table as shown: the parcel ids of the visible rows, in order, and the count line.
SHOWN = """
function shown() {
  var rows = document.getElementById("parcel-table").tBodies[0].rows;
  var ids = [];
  for (var i = 0; i < rows.length; i++) {
    if (!rows[i].hidden) { ids.push(rows[i].cells[0].textContent); }
  }
  return {ids: ids, count: document.getElementById("filter-count").textContent};
}
function press(title) {
  var headings = document.getElementById("parcel-table").tHead.rows[0].cells;
  for (var i = 0; i < headings.length; i++) {
    if (headings[i].textContent === title) { headings[i].querySelector("button").click(); return; }
  }
  throw new Error("no heading " + title);
}
"""


@pytest.fixture(scope="module")
def run(tmp_path_factory, shared_village) -> dict:
    folder = tmp_path_factory.mktemp("report")
    village = shared_village(parcels=3_000)
    argv = village_check_argv(village, layers=LAYERS)
    report = folder / "report.html"
    argv += ["--out", str(folder / "out.gpkg"), "--json", str(folder / "out.json")]
    argv += ["--report", str(report), "--report-details", "25"]
    assert main(argv) == 0
    document = json.loads((folder / "out.json").read_text(encoding="utf-8"))
    columns = document["metric_columns"]
    parcels = {
        str(p["parcel_id"]): {
            "metrics": dict(zip(columns, p["metrics"], strict=True)),
            "severity": p.get("highest_severity"),
            "review": any(t["outcome"] == "needs_review" for t in p.get("triggers", [])),
        }
        for p in document["parcels"]
    }
    return {"report": report, "parcels": parcels}


def test_the_report_opens_with_every_listed_parcel_in_its_table(run):
    found = browser.probe(run["report"], SHOWN + "report(shown());")
    assert sorted(found["ids"]) == sorted(run["parcels"])
    assert len(run["parcels"]) > 300
    assert found["count"] == f"{len(run['parcels']):,} of {len(run['parcels']):,} parcels"


def test_pressing_a_heading_sorts_by_it_and_pressing_again_reverses(run):
    found = browser.probe(
        run["report"],
        SHOWN
        + "press('Disturbed sq ft'); var up = shown().ids;"
        + "press('Disturbed sq ft'); var down = shown().ids;"
        + "report({up: up, down: down});",
    )
    disturbed = {pid: p["metrics"]["disturbed_area_sqft"] for pid, p in run["parcels"].items()}
    up = [disturbed[pid] for pid in found["up"]]
    down = [disturbed[pid] for pid in found["down"]]
    assert up == sorted(up) and down == sorted(down, reverse=True)
    assert up[0] < up[-1]


def test_the_filters_keep_the_rows_the_json_says(run):
    found = browser.probe(
        run["report"],
        SHOWN
        + "var severity = document.getElementById('filter-severity');"
        + "severity.value = 'permit_required'; severity.dispatchEvent(new Event('change'));"
        + "var permits = shown();"
        + "severity.value = ''; severity.dispatchEvent(new Event('change'));"
        + "var review = document.getElementById('filter-review');"
        + "review.checked = true; review.dispatchEvent(new Event('change'));"
        + "var reviews = shown(); review.checked = false;"
        + "review.dispatchEvent(new Event('change'));"
        + "var text = document.getElementById('filter-text');"
        + f"text.value = {json.dumps(sorted(run['parcels'])[7])};"
        + "text.dispatchEvent(new Event('input'));"
        + "report({permits: permits, reviews: reviews, one: shown()});",
    )
    parcels = run["parcels"]
    permits = sorted(pid for pid, p in parcels.items() if p["severity"] == "permit_required")
    assert permits and sorted(found["permits"]["ids"]) == permits
    assert found["permits"]["count"] == f"{len(permits):,} of {len(parcels):,} parcels"
    reviews = sorted(pid for pid, p in parcels.items() if p["review"])
    assert sorted(found["reviews"]["ids"]) == reviews
    wanted = sorted(parcels)[7]  # an id; no address, owner or section holds one
    assert sorted(found["one"]["ids"]) == sorted(pid for pid in parcels if wanted in pid)


def test_only_the_most_demanding_flagged_parcels_are_detailed(run):
    text = run["report"].read_text(encoding="utf-8")
    assert text.count('<section class="parcel"') == 25
    assert "The 25 most demanding of the" in text


# Loads every map of the page as Chromium would when it scrolls into view, then draws the
# first onto a canvas and counts its colours.
MAPS = """
var images = Array.prototype.slice.call(document.querySelectorAll("figure.map img"));
var loaded = images.map(function (shown) {
  return new Promise(function (done) {
    var image = new Image();
    image.onload = function () { done({w: image.naturalWidth, h: image.naturalHeight, i: image}); };
    image.onerror = function () { done({w: 0, h: 0, i: null}); };
    image.src = shown.src;
  });
});
Promise.all(loaded).then(function (found) {
  var colours = {};
  if (found.length && found[0].i) {
    var canvas = document.createElement("canvas");
    canvas.width = 640; canvas.height = 480;
    var context = canvas.getContext("2d");
    context.drawImage(found[0].i, 0, 0);
    var pixels = context.getImageData(0, 0, 640, 480).data;
    for (var at = 0; at < pixels.length; at += 4) {
      colours[pixels[at] + "," + pixels[at + 1] + "," + pixels[at + 2]] = true;
    }
  }
  report({sizes: found.map(function (f) { return [f.w, f.h]; }),
          colours: Object.keys(colours).length});
});
"""


def test_every_map_is_an_image_chromium_draws(run):
    found = browser.probe(run["report"], MAPS)
    assert len(found["sizes"]) == 25  # a map for each detailed parcel
    assert all(size == [640, 480] for size in found["sizes"])
    assert found["colours"] > 10  # lots, work, flags and their anti-aliased edges
