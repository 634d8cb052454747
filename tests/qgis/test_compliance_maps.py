"""The compliance map atlas: a page per flagged parcel, its citations in the text, not blank."""

from __future__ import annotations

import json
import subprocess
import unicodedata
from pathlib import Path

from qgis.PyQt.QtGui import QImage

import processing

from .conftest import village_parameters


def _pdf_text(pdf: Path, page: int) -> str:
    """A page's text, its ligatures ("ﬀ") as letters: a reader's search finds them so."""
    text = subprocess.run(
        ["pdftotext", "-f", str(page), "-l", str(page), "-layout", str(pdf), "-"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return unicodedata.normalize("NFKC", text)


def test_atlas_pdf_has_a_page_per_flagged_parcel_with_its_citations(
    plugin, village, tmp_path, capfd
):
    pdf = tmp_path / "maps.pdf"
    report = tmp_path / "run.json"
    result = processing.run(
        "sitecheck:export_compliance_maps",
        village_parameters(
            village,
            PDF=str(pdf),
            JSON_REPORT=str(report),
            ONE_FILE_PER_PARCEL=True,
            OUTPUT_FOLDER=str(tmp_path / "pages"),
            FILE_FORMAT=1,
        ),
    )
    document = json.loads(report.read_text())
    flagged = sorted(
        str(p["parcel_id"])
        for p in document["parcels"]
        if any(t["outcome"] in ("triggered", "needs_review") for t in p["triggers"])
    )
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True).stdout
    pages = int(next(line.split()[-1] for line in info.splitlines() if line.startswith("Pages:")))
    assert pages == result["PAGES"] and pages >= len(flagged)
    # A parcel's text: its page and the pages its requirements continue on, up to the next title.
    texts = [_pdf_text(pdf, number) for number in range(1, pages + 1)]
    starts = [n for n, text in enumerate(texts) if "SiteCheck compliance map: parcel" in text]
    assert len(starts) == len(flagged)
    for number, text in enumerate(texts):  # every other page continues the parcel before it
        assert number in starts or "requirements, continued" in text, number
    by_id = {str(p["parcel_id"]): p for p in document["parcels"]}
    with_retention = 0
    for parcel_id, start, end in zip(flagged, starts, [*starts[1:], pages], strict=True):
        text = "\n".join(texts[start:end])
        assert f"parcel {parcel_id}" in texts[start]
        for trigger in by_id[parcel_id]["triggers"]:
            if trigger["outcome"] == "triggered":
                assert trigger["citation"] in text, (parcel_id, trigger["citation"])
        assert document["packs"][0]["sha256"][:16] in text  # the audit line
        retention = by_id[parcel_id]["metrics"].get("retention_required_cuft")
        if retention is not None:
            with_retention += 1
            assert f"Retention to offset the increase: {retention:,.0f} cu ft" in " ".join(
                text.split()
            )
    assert with_retention, "the runoff screen's retention should be on the pages"
    # every sheet, continued ones too, has its parcel, its number and the audit line
    assert pages > len(flagged), "no parcel's requirements continued: nothing was tested"
    owner = {
        n: pid
        for pid, s, e in zip(flagged, starts, [*starts[1:], pages], strict=True)
        for n in range(s, e)
    }
    parcels_read = next(i for i in document["inputs"] if i["name"] == "parcels")
    for number, text in enumerate(texts):
        flat = " ".join(text.split())
        assert f"parcel {owner[number]} · sheet {number + 1} of {pages}" in flat, number
        assert document["packs"][0]["sha256"][:16] in flat, number
        # the inputs as the user has them: the layer and the hash of its features, not the
        # temporary export's file
        assert f"(sha256 {parcels_read['features_sha256'][:10]})" in flat, number
        assert parcels_read["sha256"][:10] not in flat, number
    pngs = sorted(p.name for p in (tmp_path / "pages").iterdir() if p.suffix == ".png")
    first_pages = [name for name in pngs if "-page" not in name]
    assert first_pages == sorted(f"{parcel_id}.png" for parcel_id in flagged)
    assert len(pngs) == pages  # a PNG for each page of the PDF, continued pages included
    assert "ERROR 6" not in capfd.readouterr().err  # GDAL refusing to update a PNG, per page
    image = QImage(str(tmp_path / "pages" / pngs[0]))
    assert min(image.width(), image.height()) > 1000  # a page at 150 dpi, not a thumbnail
    colours = {
        image.pixel(x, y) for x in range(0, image.width(), 9) for y in range(0, image.height(), 9)
    }
    assert len(colours) > 30
    index = (tmp_path / "pages" / "file_names.csv").read_text(encoding="utf-8").splitlines()
    assert index[0] == "parcel_id,file"
    assert sorted(index[1:]) == sorted(
        f"{name.removesuffix('.png').split('-page')[0]},{name}" for name in pngs
    )


def test_a_rendered_page_is_not_blank(plugin, village, tmp_path):
    pdf = tmp_path / "maps.pdf"
    processing.run("sitecheck:export_compliance_maps", village_parameters(village, PDF=str(pdf)))
    subprocess.run(
        ["pdftoppm", "-f", "1", "-l", "1", "-r", "50", "-png", str(pdf), str(tmp_path / "page")],
        check=True,
    )
    image = QImage(str(next(tmp_path.glob("page*.png"))))
    colours = {
        image.pixel(x, y) for x in range(0, image.width(), 7) for y in range(0, image.height(), 7)
    }
    assert len(colours) > 30
    # the map frame holds the parcel: the middle of the map is not white
    middle = [image.pixel(x, y) for x in range(60, 300, 5) for y in range(90, 260, 5)]
    assert sum(1 for p in middle if p != 0xFFFFFFFF) > len(middle) / 4


def test_file_names_are_safe(plugin):
    import importlib

    layout = importlib.import_module("sitecheck_qgis.layers.atlas_pages")
    assert layout.safe_file_name("SBL 1.2/3:4") == "SBL_1.2_3_4"
    assert layout.safe_file_name("../../etc") == "etc"
    assert layout.safe_file_name("") == "parcel"


def test_ids_that_make_the_same_file_name_get_a_file_each(plugin, village, tmp_path):
    """'a/b', 'a_b' and 'a b' all make 'a_b': three files, each named in the index."""
    import csv
    import shutil

    from qgis.core import QgsVectorLayer

    gpkg = tmp_path / "village.gpkg"
    shutil.copy(village / "village.gpkg", gpkg)
    shutil.copy(village / "dem.tif", tmp_path / "dem.tif")
    disturbance = QgsVectorLayer(f"{gpkg}|layername=disturbance", "d", "ogr")
    worked = sorted({str(f["parcel_id"]) for f in disturbance.getFeatures()})[:3]
    renamed = dict(zip(worked, ("a/b", "a_b", "a b"), strict=True))
    for layer_name in ("parcels", "disturbance"):
        layer = QgsVectorLayer(f"{gpkg}|layername={layer_name}", layer_name, "ogr")
        field = layer.fields().indexOf("parcel_id")
        layer.startEditing()
        for feature in layer.getFeatures():
            if str(feature["parcel_id"]) in renamed:
                layer.changeAttributeValue(feature.id(), field, renamed[str(feature["parcel_id"])])
        assert layer.commitChanges()
    pages = tmp_path / "pages"
    processing.run(
        "sitecheck:export_compliance_maps",
        village_parameters(
            tmp_path, ONE_FILE_PER_PARCEL=True, OUTPUT_FOLDER=str(pages), FILE_FORMAT=0
        ),
    )
    with open(pages / "file_names.csv", encoding="utf-8", newline="") as handle:
        index = {row["parcel_id"]: row["file"] for row in csv.DictReader(handle)}
    files = [index[parcel_id] for parcel_id in ("a/b", "a_b", "a b")]
    assert len(set(files)) == 3 and all(name.startswith("a_b") for name in files)
    assert len(list(pages.glob("*.pdf"))) == len(index)
    for parcel_id, name in index.items():
        assert f"parcel {parcel_id}" in _pdf_text(pages / name, 1), (parcel_id, name)


def test_a_pdf_alone_needs_no_layer_outputs(plugin, village, tmp_path):
    parameters = village_parameters(village, PDF=str(tmp_path / "maps.pdf"))
    for key in ("OUTPUT", "FLAGS", "PROJECTS"):
        parameters.pop(key)
    result = processing.run("sitecheck:export_compliance_maps", parameters)
    assert (tmp_path / "maps.pdf").stat().st_size > 0 and result["PAGES"] > 0
    assert "OUTPUT" not in result and "FLAGS" not in result
