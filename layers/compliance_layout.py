"""The compliance map: a print-layout atlas, one page per flagged parcel.

The layout lives in ``layers/compliance_atlas.qpt`` (written by
``tools/make_layout.py`` from :func:`create_layout`). For a run it is loaded,
its maps get the run's layers, its atlas covers the flagged parcels, and it is
exported to one multi-page PDF or one file per parcel.

Each atlas feature carries its page's text: the title fields and the
metrics as HTML (see ``atlas_pages.coverage_layer``); the requirements are a
table of their own layer's rows (``atlas_pages.requirements_layer``).
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

from qgis.core import (
    Qgis,
    QgsExpressionContextUtils,
    QgsGeometry,
    QgsLayoutExporter,
    QgsLayoutItemAttributeTable,
    QgsLayoutItemLabel,
    QgsLayoutPoint,
    QgsLayoutSize,
    QgsLayoutTableColumn,
    QgsPrintLayout,
    QgsReadWriteContext,
    QgsRectangle,
    QgsVectorLayer,
)
from qgis.PyQt.QtCore import QSize
from qgis.PyQt.QtGui import QFont
from qgis.PyQt.QtXml import QDomDocument

from ..bridge.i18n import tr
from ..bridge.qt_compat import set_label_font

TEMPLATE = Path(__file__).resolve().parent / "compliance_atlas.qpt"


PAGE_WIDTH_MM, PAGE_HEIGHT_MM = 279.4, 215.9  # US Letter, landscape


MAIN_MAP_MM = (168.0, 128.0)


REQUIREMENTS_FRAME = "requirements"
"""The id of the requirements table's first frame."""
REQUIREMENTS_WIDTH_MM = 168.0  # a table's frames take the width of its columns: this is theirs

# (heading, field, width in mm) of the requirements table; the last column takes the rest.
REQUIREMENT_COLUMNS = (("Section", "section", 30.0), ("Status", "status", 27.0))
REQUIREMENT_TEXT = ("Requirement", "requirement")


def page_frame(
    geometry: QgsGeometry, ratio: float = MAIN_MAP_MM[0] / MAIN_MAP_MM[1]
) -> QgsGeometry:
    """The rectangle around a parcel in the main map's proportions.

    The atlas frames its map on this rectangle: an atlas-driven map in QGIS
    3.22 resizes the map item to the proportions of the feature it frames, and
    a frame already in the item's proportions leaves the page layout intact.
    """
    box = geometry.boundingBox()
    width, height = max(box.width(), box.height() * ratio), max(box.height(), box.width() / ratio)
    centre = box.center()
    return QgsGeometry.fromRect(
        QgsRectangle(
            centre.x() - width / 2,
            centre.y() - height / 2,
            centre.x() + width / 2,
            centre.y() + height / 2,
        )
    )


def load_layout(project) -> QgsPrintLayout:
    """A new layout from the .qpt template."""
    document = QDomDocument()
    document.setContent(TEMPLATE.read_text(encoding="utf-8"))
    layout = QgsPrintLayout(project)
    _, ok = layout.loadFromTemplate(document, QgsReadWriteContext())
    if not ok:
        raise RuntimeError(f"cannot load the layout template {TEMPLATE}")
    return layout


def bind(
    layout: QgsPrintLayout,
    coverage: QgsVectorLayer,
    map_layers: list,
    legend_layers: list,
    audit: dict,
    requirements: QgsVectorLayer | None = None,
) -> None:
    """Point the template at a run: its layers, its coverage, its audit text.

    ``map_layers`` are drawn top first; ``legend_layers`` are those the legend lists.
    """
    main = layout.itemById("main_map")
    locator = layout.itemById("locator_map")
    main.setLayers(map_layers)
    main.setKeepLayerSet(True)
    main.setCrs(coverage.crs())
    context = [
        layer for layer in map_layers if layer.name() in ("Parcels", "Limits of disturbance")
    ]
    locator.setLayers(context or map_layers)
    locator.setKeepLayerSet(True)
    locator.setCrs(coverage.crs())
    size = locator.sizeWithUnits()
    frame = page_frame(
        QgsGeometry.fromRect(coverage.extent()), size.width() / size.height()
    ).boundingBox()
    frame.scale(1.3)
    locator.setExtent(frame)
    legend = layout.itemById("legend")
    legend.setAutoUpdateModel(False)
    root = legend.model().rootGroup()
    root.removeAllChildren()
    for layer in legend_layers:
        root.addLayer(layer)
    legend.updateLegend()
    if requirements is not None:
        bind_requirements(layout, requirements)
    for name, value in audit.items():
        QgsExpressionContextUtils.setLayoutVariable(layout, f"sitecheck_{name}", value)
    atlas = layout.atlas()
    atlas.setCoverageLayer(coverage)
    atlas.setEnabled(True)


def requirements_table(layout: QgsPrintLayout) -> QgsLayoutItemAttributeTable:
    """The layout's requirements table (the multiframe behind its first frame)."""
    return layout.itemById(REQUIREMENTS_FRAME).multiFrame()


def bind_requirements(layout: QgsPrintLayout, requirements: QgsVectorLayer) -> None:
    """Fill the requirements table from ``requirements`` (``atlas_pages.requirements_layer``):
    the atlas page's parcel's rows, in their order, in fixed columns that wrap."""
    table = requirements_table(layout)
    table.setVectorLayer(requirements)  # resets the columns: they are set after it
    table.setFilterFeatures(True)
    table.setFeatureFilter("\"parcel_id\" = attribute(@atlas_feature, 'parcel_id')")
    columns = []
    used = 0.0
    for heading, field, width in (*REQUIREMENT_COLUMNS, (*REQUIREMENT_TEXT, 0.0)):
        column = QgsLayoutTableColumn(heading)
        column.setAttribute(field)
        # Cell margins and grid lines take their share of the frame too.
        column.setWidth(width or REQUIREMENTS_WIDTH_MM - used - 2 * table.cellMargin() * 3 - 1.0)
        used += width
        columns.append(column)
    table.setColumns(columns)
    sort = QgsLayoutTableColumn("row")
    sort.setAttribute("row")
    table.setSortColumns([sort])
    table.refresh()
    # The atlas refreshes the table for each parcel, then says so: its continued frames
    # get their margins before the pages are drawn.
    labels: list[QgsLayoutItemLabel] = []
    layout.atlas().featureChanged.connect(lambda *_: lay_out_continued_pages(table, labels))


def lay_out_continued_pages(table: QgsLayoutItemAttributeTable, labels: list) -> None:
    """The pages a parcel's requirements continue on: off the edges, each naming its parcel.

    ``labels`` holds the previous parcel's page labels; they are removed first,
    so the pages that parcel needed and this one does not are empty again and go.
    """
    layout = table.layout()
    for label in labels:
        layout.removeLayoutItem(label)
    labels.clear()
    table.recalculateFrameSizes()
    keep_continuations_off_the_edges(table)
    feature = layout.reportContext().feature()
    parcel_id = feature["parcel_id"] if feature.isValid() else ""
    first_sheet = number_sheets(layout)
    first = table.frame(0)
    audit = layout.itemById("audit")
    for number, frame in enumerate(table.frames()[1:], start=1):
        label = QgsLayoutItemLabel(layout)
        label.setText(tr("Parcel {0}: requirements, continued").format(parcel_id))
        font = QFont("DejaVu Sans", 1)
        font.setBold(True)
        set_label_font(label, font, 9.0)
        layout.addLayoutItem(label)
        label.attemptMove(QgsLayoutPoint(first.pagePos().x(), 5.0), page=frame.page())
        label.attemptResize(QgsLayoutSize(first.sizeWithUnits().width(), 6.0))
        labels.append(label)
        if audit is not None:  # the same audit line at the foot of every sheet
            footer = QgsLayoutItemLabel(layout)
            footer.setText(audit.text().replace(SHEET, str(first_sheet + number)))
            set_label_font(footer, QFont("DejaVu Sans", 1), AUDIT_SIZE_PT)
            layout.addLayoutItem(footer)
            footer.attemptMove(audit.pagePositionWithUnits(), page=frame.page())
            footer.attemptResize(audit.sizeWithUnits())
            labels.append(footer)


SHEET = "[% @sitecheck_sheet %]"
SHEETS_PROPERTY = "sitecheck/sheets"
"""The layout's custom property holding each atlas page's first sheet and the sheet count."""
AUDIT_SIZE_PT = 5.5  # the audit line's text size in the template (atlas_template.py)


def number_sheets(layout: QgsPrintLayout) -> int:
    """Set the sheet variables of the atlas page now laid out; return its first sheet.

    One PDF of every parcel numbers its sheets through (``export_pdf`` counts
    them first); a file per parcel numbers its own from 1.
    """
    pages = layout.pageCollection().pageCount()
    sheets = json.loads(layout.customProperty(SHEETS_PROPERTY) or "null")
    index = layout.atlas().currentFeatureNumber()
    first, total = sheets[index] if sheets and 0 <= index < len(sheets) else (1, pages)
    QgsExpressionContextUtils.setLayoutVariable(layout, "sitecheck_sheet", first)
    QgsExpressionContextUtils.setLayoutVariable(layout, "sitecheck_sheets", total)
    return int(first)


CONTINUED_MARGIN_MM = 12.0
"""Space above and below a continued requirements frame: the page edges printers cannot reach."""


def keep_continuations_off_the_edges(table: QgsLayoutItemAttributeTable) -> None:
    """Move each continued frame of ``table`` off the page edges.

    QGIS puts the frames a table continues on at the very top of the next
    pages, as tall as the page. Each is moved down and shortened by the
    margin, and the table laid out again, which may continue it once more.
    """
    first = table.frame(0) if table.frameCount() else None
    if first is None:
        return
    page_height = first.layout().pageCollection().page(0).pageSize().height()
    for _ in range(100):  # each round can add one more page; a table has fewer pages
        moved = False
        for frame in table.frames()[1:]:
            if frame.pagePos().y() < CONTINUED_MARGIN_MM - 0.1:
                frame.attemptMove(
                    QgsLayoutPoint(first.pagePos().x(), CONTINUED_MARGIN_MM), page=frame.page()
                )
                frame.attemptResize(
                    QgsLayoutSize(
                        first.sizeWithUnits().width(), page_height - 2 * CONTINUED_MARGIN_MM
                    )
                )
                moved = True
        if not moved:
            return
        table.recalculateFrameSizes()


def pdf_settings() -> QgsLayoutExporter.PdfExportSettings:
    """Vector pages whose words are text: a reader can search and copy a section number."""
    settings = QgsLayoutExporter.PdfExportSettings()
    settings.dpi = 150
    settings.rasterizeWholeImage = False
    # QGIS draws a table's text as outlines by default: right to look at, but no text.
    settings.textRenderFormat = Qgis.TextRenderFormat.AlwaysText
    return settings


def export_pdf(layout: QgsPrintLayout, path: str, feedback=None) -> int:
    """Every atlas page into one PDF; returns its sheet count (a parcel whose requirements
    continue takes more than one). The sheets are numbered through the PDF."""
    atlas = layout.atlas()
    counts = []
    atlas.beginRender()
    for index in range(atlas.count()):
        atlas.seekTo(index)
        counts.append(layout.pageCollection().pageCount())
    atlas.endRender()
    total = sum(counts)
    firsts = [1 + sum(counts[:index]) for index in range(len(counts))]
    layout.setCustomProperty(SHEETS_PROPERTY, json.dumps([[f, total] for f in firsts]))
    try:
        result, error = QgsLayoutExporter.exportToPdf(atlas, path, pdf_settings())
    finally:
        layout.removeCustomProperty(SHEETS_PROPERTY)
    if result != QgsLayoutExporter.ExportResult.Success:
        raise RuntimeError(f"could not write the PDF {path}: {error}")
    return total


IMAGE_DPI = 150
FILE_INDEX = "file_names.csv"
"""Written beside the per-parcel files: which file holds which parcel id."""


def export_files(layout: QgsPrintLayout, folder: str, image: bool = False) -> list[str]:
    """One PDF (or PNG) per atlas page, named by the parcel id made safe for file names.

    The names are unique (see ``atlas_pages.unique_file_names``); ``file_names.csv``
    beside them pairs each file with the parcel id it shows.
    """
    atlas = layout.atlas()
    exporter = QgsLayoutExporter(layout)
    written = []
    index_rows = []
    atlas.beginRender()
    for index in range(atlas.count()):
        atlas.seekTo(index)
        name = atlas.currentFilename() or f"parcel_{index + 1}"
        parcel_id = str(atlas.layout().reportContext().feature()["parcel_id"])
        if image:
            # Rendered and saved here: exportToImage georeferences a PNG by reopening it in
            # GDAL for update, which the PNG driver refuses ("ERROR 6" once a page).
            # A parcel whose requirements continue has a PNG per page: NAME, NAME-page2, ...
            result = QgsLayoutExporter.ExportResult.Success
            for number in range(layout.pageCollection().pageCount()):
                suffix = f"-page{number + 1}" if number else ""
                path = str(Path(folder) / f"{name}{suffix}.png")
                page = exporter.renderPageToImage(number, QSize(), IMAGE_DPI)
                if page.isNull() or not page.save(path, "PNG"):
                    result = QgsLayoutExporter.ExportResult.FileError
                    break
                written.append(path)
                index_rows.append((parcel_id, path))
        else:
            path = str(Path(folder) / f"{name}.pdf")
            result = exporter.exportToPdf(path, pdf_settings())
        if result != QgsLayoutExporter.ExportResult.Success:
            atlas.endRender()
            raise RuntimeError(f"could not write {path}: {exporter.errorMessage()}")
        if not image:
            written.append(path)
            index_rows.append((parcel_id, path))
    atlas.endRender()
    write_file_index(Path(folder) / FILE_INDEX, index_rows)
    return written


def write_file_index(path: Path, rows: list[tuple[str, str]]) -> None:
    """The CSV pairing parcel ids and their files; a cell a spreadsheet would run is quoted."""

    def cell(text: str) -> str:
        return f"'{text}" if text.startswith(("=", "+", "-", "@", "\t", "\r")) else text

    with open(path, "w", encoding="utf-8", newline="") as handle:
        out = csv.writer(handle, lineterminator="\n")
        out.writerow(["parcel_id", "file"])
        for parcel_id, file_path in rows:
            out.writerow([cell(parcel_id), Path(file_path).name])
