"""The compliance map's requirements, read back from the PDF's word positions (pdftotext -bbox).

A parcel with many requirements, long ones among them: each row's section,
status and words stay in their own columns, wrap inside the page, are printed
at 7 pt or more, and the rows that do not fit continue on further pages under
the column headings, none lost. Sizes are measured against the page title,
whose size (15 pt) the layout states.
"""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest
from qgis.core import QgsFeature, QgsGeometry, QgsProject, QgsRectangle, QgsVectorLayer

from .conftest import pdf_words

TITLE_PT = 15.0
ROWS = 24  # more than one page's table holds
LONG = (
    "a stormwater pollution prevention plan prepared by a licensed professional engineer, "
    "reviewed by the village engineer before any permit is issued, with erosion and sediment "
    "controls maintained until the site is stabilised"
)


def _document(rows: int) -> dict:
    triggers = [
        {
            "rule_id": f"rule-{n}",
            "citation": f"§ 254-{n}.1",
            "severity": "board_approval_required" if n % 3 == 0 else "permit_required",
            "outcome": "triggered",
            "title": f"Requirement R{n:02d}",
            "reason": f"reason {n:02d}: "
            + (LONG if n % 4 == 0 else "disturbance over 5,000 sq ft"),
        }
        for n in range(1, rows + 1)
    ]
    triggers += [
        {
            "rule_id": "review-1",
            "citation": "§ 254-99.2",
            "severity": "permit_required",
            "outcome": "needs_review",
            "title": "Steep slope waiver",
            "reason": "the slope data do not cover the lot",
        }
    ]
    reviews = [{"question": "Does the DEM cover the whole lot?", "citations": ["§ 254-99.2"]}]
    return {
        "parcels": [
            {
                "parcel_id": "LOT-1",
                "attributes": {"address": "1 Main St", "owner": "A. Owner"},
                "jurisdiction": "Scarsdale",
                "highest_severity": "board_approval_required",
                "design_storm": "none",
                "metrics": {},
                "triggers": triggers,
                "reviews": reviews,
            }
        ]
    }


@pytest.fixture(scope="module")
def long_pdf(plugin, tmp_path_factory) -> Path:
    pages = importlib.import_module("sitecheck_qgis.layers.atlas_pages")
    layout_module = importlib.import_module("sitecheck_qgis.layers.compliance_layout")
    document = _document(ROWS)
    parcels = QgsVectorLayer("Polygon?crs=EPSG:2263&field=parcel_id:string", "lots", "memory")
    lot = QgsFeature(parcels.fields())
    lot.setAttributes(["LOT-1"])
    lot.setGeometry(QgsGeometry.fromRect(QgsRectangle(1000, 1000, 1100, 1080)))
    parcels.dataProvider().addFeature(lot)
    coverage = pages.coverage_layer(parcels, document, only_flagged=False)
    requirements = pages.requirements_layer(document)
    project = QgsProject.instance()
    project.addMapLayers([parcels, coverage, requirements], False)
    layout = layout_module.load_layout(project)
    layout_module.bind(layout, coverage, [parcels], [parcels], {}, requirements)
    pdf = tmp_path_factory.mktemp("layout") / "long.pdf"
    layout_module.export_pdf(layout, str(pdf))
    yield pdf
    project.removeMapLayers([parcels.id(), coverage.id(), requirements.id()])


def test_requirements_sit_in_columns_at_seven_points_or_more(long_pdf):
    words = pdf_words(long_pdf)
    title = next(w for w in words if w["text"] == "SiteCheck" and w["page"] == 1)
    points_per_height = TITLE_PT / (title["ymax"] - title["ymin"])
    sections = [w for w in words if re.fullmatch(r"254-\d+\.1", w["text"])]
    assert len(sections) == ROWS
    numbers = [w for w in words if re.fullmatch(r"\d\d:", w["text"])]  # "reason NN:"
    # All of them, the board approvals first (the more demanding), each group in its order.
    board = [n for n in range(1, ROWS + 1) if n % 3 == 0]
    assert [int(w["text"][:2]) for w in numbers] == board + [
        n for n in range(1, ROWS + 1) if n not in board
    ]
    statuses = [w for w in words if w["text"] in ("Permit", "Board")]
    for column in (sections, statuses, numbers):
        for word in column:
            assert (word["ymax"] - word["ymin"]) * points_per_height >= 7.0, word
    # Three columns, left to right, none overlapping the next.
    assert max(w["xmax"] for w in sections) < min(w["xmin"] for w in statuses)
    assert max(w["xmax"] for w in statuses) < min(w["xmin"] for w in numbers) - 20


def test_a_long_requirement_wraps_inside_its_column_and_the_page(long_pdf):
    words = pdf_words(long_pdf)
    page_width = 792.0  # US Letter landscape, points
    stabilised = [w for w in words if w["text"] == "stabilised"]
    assert len(stabilised) == ROWS // 4  # every long reason printed to its last word
    requirement_left = min(w["xmin"] for w in words if w["text"] == "Requirement")
    for last in stabilised:
        row_start = next(w for w in words if w["page"] == last["page"] and w["text"] == "engineer,")
        assert last["ymin"] > row_start["ymin"]  # on a later line of the same row
        assert last["xmin"] >= requirement_left - 1 and last["xmax"] < page_width - 28


def test_rows_that_do_not_fit_continue_on_further_pages_under_the_headings(long_pdf):
    words = pdf_words(long_pdf)
    pages = max(w["page"] for w in words)
    assert pages >= 2
    margin = 10 * 72 / 25.4  # 10 mm in points: off the edge a printer cannot reach
    for page in range(1, pages + 1):
        on_page = [w for w in words if w["page"] == page]
        assert {"Section", "Status", "Requirement"} <= {w["text"] for w in on_page}, page
        if page > 1:  # a continued page: its parcel named, the table off the page edges
            line = " ".join(
                w["text"] for w in sorted(on_page, key=lambda w: (w["ymin"], w["xmin"]))
            )
            assert line.startswith("Parcel LOT-1: requirements, continued"), line[:80]
            table_words = [w for w in on_page if w["ymin"] > margin / 2 + 14]
            assert min(w["ymin"] for w in table_words) >= margin, page
            assert max(w["ymax"] for w in on_page) <= 612 - margin, page
    last_page = [w["text"] for w in words if w["page"] == pages]
    assert "review" in last_page  # "Needs review" row
    assert "Question" in last_page and "DEM" in last_page  # the question, after the rules
    page_height = 612.0
    assert all(w["ymax"] <= page_height for w in words)
