"""The HTML report of a check run: complete, escaped, self-contained and sorted."""

from __future__ import annotations

import html
import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from urllib.parse import quote as percent_escaped
from urllib.parse import unquote

import numpy as np
import pyogrio
import pytest

from sitecheck.app.cli import main
from sitecheck.io.readers import LayerSource
from sitecheck.measure.inputs import MeasureInputs
from sitecheck.pipeline.run import screen
from sitecheck.pipeline.spec import RunSpec
from sitecheck.reports.html import ReportLimits, listed_rows, write_html_report
from sitecheck.reports.html_format import format_sqft, natural_key
from sitecheck.reports.html_parcel import svg_data_uri
from sitecheck.reports.maps import ParcelMapper
from sitecheck.rules.outcome import NEEDS_REVIEW
from sitecheck.rules.review_groups import review_groups
from sitecheck.sample.village import generate_village
from sitecheck.schema.flags import FLAG_BY_KEY
from sitecheck.schema.severities import SEVERITY_KEYS as SEVERITIES
from sitecheck.screening.check import CheckResult

from .village_runs import render_report

LAYERS = (
    "impervious_existing",
    "impervious_proposed",
    "floodplain",
    "wetlands",
    "watercourses",
    "sda",
    "zoning",
    "impaired_watersheds",
)
HOSTILE = "<script>alert(1)</script>"


@pytest.fixture(scope="module")
def village(tmp_path_factory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("village")
    return generate_village(folder) | {"folder": folder}


@pytest.fixture(scope="module")
def checked(village) -> dict:
    """The whole village checked through the command line, with a hostile owner name."""
    folder, gpkg = village["folder"], village["gpkg"]
    projects = pyogrio.read_dataframe(gpkg, layer="projects", read_geometry=False)
    hostile_lot = str(projects["parcel_id"].iloc[0])
    parcels = pyogrio.read_dataframe(gpkg, layer="parcels")
    parcels.loc[parcels["parcel_id"] == hostile_lot, "owner"] = HOSTILE
    rewritten = folder / "parcels.gpkg"
    pyogrio.write_dataframe(parcels, rewritten, layer="parcels")
    argv = [
        "check",
        "--quiet",
        "--ordinance",
        "scarsdale",
        "--parcels",
        f"{rewritten}:parcels",
        "--disturbance",
        f"{gpkg}:disturbance",
        "--dem",
        str(village["dem"]),
        "--out",
        str(folder / "out.gpkg"),
        "--json-layout",
        "full",
        "--json",
        str(folder / "out.json"),
        "--report",
        str(folder / "report.html"),
    ]
    for name in LAYERS:
        argv += [f"--{name.replace('_', '-')}", f"{gpkg}:{name}"]
    assert main(argv) == 0
    return {
        "report": (folder / "report.html").read_text(encoding="utf-8"),
        "document": json.loads((folder / "out.json").read_text(encoding="utf-8")),
        "projects": [str(p) for p in projects["parcel_id"]],
        "hostile_lot": hostile_lot,
    }


@pytest.fixture(scope="module")
def partial(village) -> CheckResult:
    """Parcels and disturbance only: rules needing the missing layers need review."""
    gpkg = str(village["gpkg"])
    inputs = MeasureInputs(
        parcels=LayerSource("parcels", gpkg, "parcels"),
        disturbance=LayerSource("disturbance", gpkg, "disturbance"),
    )
    return screen(RunSpec(inputs, ordinance="scarsdale"))


def section_of(report: str, parcel_id: str) -> str:
    """The HTML of one parcel's section."""
    sections = report.split('<section class="parcel"')[1:]
    heading = f"<h3>Parcel {html.escape(parcel_id)}</h3>"
    found = [s for s in sections if heading in s]
    assert len(found) == 1, parcel_id
    return found[0].split("</section>")[0]


def table_of(report: str) -> str:
    """The table of every listed parcel."""
    return report.split('<section id="parcel-list">')[1].split("</section>")[0]


def flagged(entry: dict) -> bool:
    """A triggered rule or a rule needing review (the full layout's entry)."""
    return any(t["outcome"] != "not_triggered" for t in entry["triggers"])


def test_every_listed_parcel_has_a_row_and_every_flagged_one_a_section(checked):
    report, document = checked["report"], checked["document"]
    table = table_of(report)
    assert table.count("<tr data-severity=") == len(document["parcels"])
    for entry in document["parcels"]:
        parcel_id = html.escape(entry["parcel_id"])
        if flagged(entry):
            assert f">{parcel_id}</a></td>" in table
            section_of(report, entry["parcel_id"])
        else:
            assert f'">{parcel_id}</td>' in table
            assert f"<h3>Parcel {parcel_id}</h3>" not in report
    assert report.count('<section class="parcel"') == sum(map(flagged, document["parcels"]))


def test_each_project_section_lists_its_triggered_citations(checked):
    report, document = checked["report"], checked["document"]
    by_id = {parcel["parcel_id"]: parcel for parcel in document["parcels"]}
    for parcel_id in checked["projects"]:
        triggered = [t for t in by_id[parcel_id]["triggers"] if t["outcome"] == "triggered"]
        assert triggered, parcel_id
        section = section_of(report, parcel_id)
        block = section.split(f"<h4>Triggered rules ({len(triggered)})</h4>")[1]
        block = block.split("<h4>Needs review")[0]
        for trigger in triggered:
            assert f'<span class="citation">{html.escape(trigger["citation"])}</span>' in block
            assert html.escape(trigger["title"]) in block
            assert f'href="#rule-{html.escape(trigger["rule_id"])}"' in block


def test_the_rules_section_quotes_each_rule_once(checked):
    report, document = checked["report"], checked["document"]
    rules = report.split('<section id="rules">')[1].split("</section>")[0]
    quoted = {t["rule_id"]: t["quote"] for entry in document["parcels"] for t in entry["triggers"]}
    assert len(quoted) == document["packs"][0]["rule_count"]
    for rule_id, quote in quoted.items():
        entry = rules.split(f'id="rule-{html.escape(rule_id)}"')[1].split('<div class="rule ')[0]
        assert f"<blockquote>{html.escape(quote)}</blockquote>" in entry
        sharing = sum(1 for other in quoted.values() if other == quote)  # one sentence, 2 rules
        assert report.count(f"<blockquote>{html.escape(quote)}</blockquote>") == sharing


def test_the_audit_lists_what_the_pack_does_not_evaluate(checked):
    report, document = checked["report"], checked["document"]
    audit = report.split('<section id="audit">')[1].split("</section>")[0]
    (pack,) = document["packs"]
    assert pack["not_evaluated"], "the Scarsdale pack lists requirements it leaves out"
    assert "Not evaluated: check by hand" in audit
    for item in pack["not_evaluated"]:
        assert html.escape(item["citation"]) in audit
        assert html.escape(item["reason"]) in audit


def test_the_audit_block_names_the_pack_and_input_hashes(checked):
    report, document = checked["report"], checked["document"]
    audit = report.split('<section id="audit">')[1].split("</section>")[0]
    for pack in document["packs"]:
        assert pack["sha256"] in audit
        assert f"<code>{pack['id']}</code>" in audit
    hashes = {record["sha256"] for record in document["inputs"]}
    assert len(hashes) == 3  # the rewritten parcels, the village GeoPackage and the DEM
    for record in document["inputs"]:
        assert record["sha256"] in audit
        assert html.escape(record["path"]) in audit
    assert document["sitecheck_version"] in audit
    assert "NAD83 / New York East (ftUS)" in audit
    assert "wetland_adjacent_ft" in audit and "tolerance" in audit


def test_values_from_the_data_are_escaped(checked):
    report = checked["report"]
    assert HOSTILE not in report
    assert html.escape(HOSTILE) in section_of(report, checked["hostile_lot"])
    assert html.escape(HOSTILE) in table_of(report)
    assert report.lower().count("<script") == 1  # the table's own, at the end


SVG_URI = "data:image/svg+xml,"
SVG_NAMESPACE = "http://www.w3.org/2000/svg"  # a name in the map's text, never fetched


def maps_of(report: str) -> list[ET.Element]:
    """Every map of the report, its ``data:`` URI decoded and parsed as XML."""
    sources = re.findall(r'<img [^>]*src="([^"]*)"', report)
    assert all(source.startswith(SVG_URI) for source in sources)
    return [ET.fromstring(unquote(source.removeprefix(SVG_URI))) for source in sources]


def test_the_report_fetches_nothing_from_the_network(checked):
    report = checked["report"]
    maps = re.findall(r'src="data:image/svg\+xml,([^"]*)"', report)
    assert maps
    for text in [re.sub(r'src="data:image/svg\+xml,[^"]*"', "", report), *map(unquote, maps)]:
        text = text.replace(f"xmlns='{SVG_NAMESPACE}'", "")
        assert "http://" not in text and "https://" not in text
        assert "@import" not in text and "href" not in text.replace('href="#', "")
        # A map's hatching is a pattern of its own document: url(#...) and nothing else.
        assert all(ref.startswith("#") for ref in re.findall(r"url\(([^)]*)\)", text))
    references = re.findall(r'\b(?:src|href)\s*=\s*"([^"]*)"', report)
    assert references
    assert all(ref.startswith(("#", SVG_URI)) for ref in references)


def test_maps_are_embedded_svg_images(checked):
    report, document = checked["report"], checked["document"]
    maps = maps_of(report)
    assert len(maps) == sum(map(flagged, document["parcels"]))
    titles = []
    for drawing in maps:
        assert drawing.tag == f"{{{SVG_NAMESPACE}}}svg"
        assert (drawing.get("width"), drawing.get("height")) == ("640", "480")
        titles.append(drawing.findtext(f"{{{SVG_NAMESPACE}}}title"))
        # Every hatched fill names a pattern the map itself defines.
        text = ET.tostring(drawing, encoding="unicode")
        defined = {p.get("id") for p in drawing.iter(f"{{{SVG_NAMESPACE}}}pattern")}
        assert set(re.findall(r"url\(#([^)]*)\)", text)) <= defined
    sections = re.findall(r"<h3>Parcel ([^<]*)</h3>", report)
    assert titles == [f"Map of Parcel {html.unescape(p)}" for p in sections]


def _numbers(text: str) -> np.ndarray:
    return np.array([float(n) for n in re.findall(r"-?\d+(?:\.\d+)?", text)])


def test_each_map_draws_its_lot_to_the_scale_its_bar_gives(checked, village):
    """The lot's outline, measured in the map's pixels, against the lot in the parcels layer
    (feet) and the scale bar's own label; and every flag on the lot named in the legend."""
    lots = pyogrio.read_dataframe(village["gpkg"], layer="parcels").set_index("parcel_id")
    flags = pyogrio.read_dataframe(village["folder"] / "out.gpkg", layer="flags")
    ns = {"svg": SVG_NAMESPACE}
    maps = maps_of(checked["report"])
    assert len(maps) > 3
    for drawing in maps:
        parcel = drawing.findtext("svg:title", namespaces=ns).removeprefix("Map of Parcel ")
        frame = drawing.find("svg:svg", ns)
        outline = [p for p in frame.findall("svg:path", ns) if p.get("stroke") == "#1f2d3d"]
        xy = _numbers(outline[-1].get("d")).reshape(-1, 2)
        bar = next(r for r in frame.findall("svg:rect", ns) if r.get("fill") == "black")
        bar_ft = float(
            frame.findtext("svg:text", namespaces=ns).removesuffix(" ft").replace(",", "")
        )
        px_per_ft = float(bar.get("width")) / bar_ft
        minx, miny, maxx, maxy = lots.loc[parcel].geometry.bounds  # EPSG:2260, US survey ft
        drawn_width, drawn_height = np.ptp(xy[:, 0]), np.ptp(xy[:, 1])
        assert drawn_width == pytest.approx((maxx - minx) * px_per_ft, rel=0.01, abs=0.6)
        assert drawn_height == pytest.approx((maxy - miny) * px_per_ft, rel=0.01, abs=0.6)
        assert xy.min() > 0 and xy[:, 0].max() < float(frame.get("width"))
        assert xy[:, 1].max() < float(frame.get("height"))
        legend = {t.text for t in drawing.findall("svg:text", ns)}
        on_lot = flags.loc[flags["parcel_id"] == parcel, "kind"]
        assert {FLAG_BY_KEY[kind].label for kind in on_lot} <= legend, parcel
        assert {"this lot", "disturbance"} <= legend


def test_the_table_is_sorted_most_demanding_first(checked):
    table = table_of(checked["report"])
    severities = re.findall(r'<tr data-severity="([^"]*)"', table)
    ranks = [SEVERITIES.index(s) if s in SEVERITIES else -1 for s in severities]
    assert ranks == sorted(ranks, reverse=True)
    assert severities[0] == "state_permit_required"  # the estate subdivision: over an acre
    ids = [
        html.unescape(i)
        for i in re.findall(
            r'data-review="\d+"><td data-v="\d+">(?:<a href="#parcel-\d+">)?([^<]*)<', table
        )
    ]
    assert len(ids) == len(severities)
    for severity in set(severities):
        same = [i for i, s in zip(ids, severities, strict=True) if s == severity]
        assert same == sorted(same, key=natural_key)


def test_needs_review_is_shown_once_per_shared_reason(partial):
    report = render_report(partial, limits=ReportLimits(maps=0))
    reviews = {
        row: outcome.of(NEEDS_REVIEW)
        for row in listed_rows(partial)
        if (outcome := partial.outcomes[row]) is not None
    }
    row = max(reviews, key=lambda r: len(reviews[r]))
    outcome = partial.outcomes[row]
    assert outcome is not None
    groups = [(g.cause, list(g.triggers)) for g in review_groups(outcome)]
    shared = [(reason, group) for reason, group in groups if len(group) > 1]
    assert shared, "the partial run should leave several rules on one missing input"
    section = section_of(report, str(partial.measured.parcels["parcel_id"].iloc[row]))
    review = section.split("<h4>Needs review")[1].split('<details class="not-triggered">')[0]
    for reason, group in shared:
        assert review.count(f"</span> {html.escape(reason)}</p>") == 1
        assert f"Why ({len(group)} rules):" in review
    assert review.count('<div class="review-group">') == len(groups)
    assert "not measured" in section


def test_maps_left_out_are_announced(partial, tmp_path):
    target = tmp_path / "report.html"
    write_html_report(partial, target, limits=ReportLimits(maps=2))
    report = target.read_text(encoding="utf-8")
    detailed = report.count('<section class="parcel"')
    assert detailed > 2
    assert report.count("<img ") == 2
    assert "the first 2 with a map" in report
    assert report.count('<div class="no-map">') == detailed - 2


def test_the_detailed_sections_stop_at_the_limit_the_most_demanding_first(partial):
    everything = render_report(partial, limits=ReportLimits(maps=0))
    flagged_count = everything.count('<section class="parcel"')
    report = render_report(partial, limits=ReportLimits(details=3, maps=0))
    sections = re.findall(r"<h3>Parcel ([^<]*)</h3>", report)
    assert sections == re.findall(r"<h3>Parcel ([^<]*)</h3>", everything)[:3]
    assert f"The 3 most demanding of the {flagged_count:,} flagged parcels" in report
    assert table_of(report).count("<tr data-severity=") == len(listed_rows(partial))


def test_all_parcels_lists_every_parcel(partial):
    report = render_report(partial, all_parcels=True, limits=ReportLimits(maps=0))
    assert table_of(report).count("<tr data-severity=") == len(partial.measured.parcels)


def test_one_parcels_report_details_it_whatever_its_outcome(partial):
    row = int(np.flatnonzero(~partial.measured.touched)[0])  # a lot without work
    only = np.zeros(len(partial.measured.parcels), dtype=bool)
    only[row] = True
    partial.measured.touched, kept = only, partial.measured.touched
    try:
        report = render_report(partial, limits=ReportLimits(maps=0, unflagged=True))
    finally:
        partial.measured.touched = kept
    assert report.count('<section class="parcel"') == 1
    assert "No work on this parcel" in report


def test_a_map_escapes_its_parcel_id_and_parses(partial):
    row = int(np.flatnonzero(partial.measured.touched)[0])
    mapper = ParcelMapper(partial)
    mapper.ids[row] = HOSTILE + " & 'quoted'"  # the mapper's own copy of the ids
    drawing = ET.fromstring(mapper.svg(row))
    assert drawing.findtext(f"{{{SVG_NAMESPACE}}}title") == f"Map of Parcel {HOSTILE} & 'quoted'"


def test_a_maps_data_uri_is_percent_escaped_as_urllib_escapes_it(partial):
    """Each map's URI is the drawing as ``urllib.parse.quote`` escapes it with the URI's
    safe characters kept, its hostile parcel id and a non-ASCII name included; and it
    decodes back to the drawing."""
    row = int(np.flatnonzero(partial.measured.touched)[0])
    mapper = ParcelMapper(partial)
    drawings = [mapper.svg(row)]
    for name in (HOSTILE + " & 'quoted' #1 100%", "Étang 2 — nord"):
        mapper.ids[row] = name
        drawings.append(mapper.svg(row))
    for drawing in drawings:
        uri = svg_data_uri(drawing)
        assert uri == SVG_URI + percent_escaped(drawing, safe="/=:;,.'()-_*!~+")
        assert unquote(uri.removeprefix(SVG_URI)) == drawing
        body = uri.removeprefix(SVG_URI)
        assert not set('"<># &') & set(body)  # would end or change the URI in an attribute
        assert re.search("%(?![0-9A-F]{2})", body) is None  # every % starts an escape


def test_number_formats():
    assert format_sqft(26_010.4) == "26,010"
    assert format_sqft(2_450.0, signed=True) == "+2,450"
    assert format_sqft(-780.0, signed=True) == "-780"
    assert format_sqft(0.0, signed=True) == "0"
    assert format_sqft(0.37) == "0.37"
    assert sorted(["1.1-11-3", "1.1-2-6", "1.1-2-10"], key=natural_key) == [
        "1.1-2-6",
        "1.1-2-10",
        "1.1-11-3",
    ]


def test_a_column_taken_whole_gives_every_cell_as_picked_one_by_one():
    """The report's table takes its text columns whole; a cell must read as it did picked
    from its array, whatever the field's type and its missing values (the parcel layer's
    address may be text, a number or empty)."""
    import pandas as pd

    from sitecheck.reports.html_format import ParcelCells, esc, text_or_dash

    frame = pd.DataFrame(
        {
            "parcel_id": pd.Series(["1.1-2-6", "1.1-11-3", "9"], dtype="str"),
            "address": pd.Series(["12 Elm <St>", None, "3 Oak & Ash"], dtype="string"),
            "owner": pd.Series([1, None, 3], dtype="Int64"),
            "land_use": pd.Series([210.5, np.nan, 0.0]),
            "flag": pd.Series([True, None, False], dtype="boolean"),
            "note": pd.Series(["x", None, np.nan], dtype=object),
        }
    )
    picked, whole = ParcelCells(frame), ParcelCells(frame)
    whole.take_whole(*frame.columns, "not_a_field")
    for column in frame.columns:
        for row in range(len(frame)):
            assert text_or_dash(whole(row, column)) == text_or_dash(picked(row, column))
            assert esc(whole(row, column)) == esc(picked(row, column))
    assert whole(0, "not_a_field") is None
