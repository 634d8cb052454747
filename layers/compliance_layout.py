"""The compliance map: a print-layout atlas, one page per flagged parcel.

The layout lives in ``layers/compliance_atlas.qpt`` (written by
``tools/make_layout.py`` from :func:`create_layout`). For a run it is loaded,
its maps get the run's layers, its atlas covers the flagged parcels, and it is
exported to one multi-page PDF or one file per parcel.

Each atlas feature carries its page's text: the title fields, and the
metrics and triggers tables as HTML (see :func:`coverage_layer`).
"""

from __future__ import annotations

import csv
from pathlib import Path

from qgis.core import (
    QgsExpressionContextUtils,
    QgsGeometry,
    QgsLayoutExporter,
    QgsPrintLayout,
    QgsReadWriteContext,
    QgsRectangle,
    QgsVectorLayer,
)
from qgis.PyQt.QtCore import QSize
from qgis.PyQt.QtXml import QDomDocument

TEMPLATE = Path(__file__).resolve().parent / "compliance_atlas.qpt"


PAGE_WIDTH_MM, PAGE_HEIGHT_MM = 279.4, 215.9  # US Letter, landscape


MAIN_MAP_MM = (168.0, 128.0)


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
    for name, value in audit.items():
        QgsExpressionContextUtils.setLayoutVariable(layout, f"sitecheck_{name}", value)
    atlas = layout.atlas()
    atlas.setCoverageLayer(coverage)
    atlas.setEnabled(True)


def export_pdf(layout: QgsPrintLayout, path: str, feedback=None) -> int:
    """Every atlas page into one PDF; returns the page count."""
    settings = QgsLayoutExporter.PdfExportSettings()
    settings.dpi = 150
    settings.rasterizeWholeImage = False
    result, error = QgsLayoutExporter.exportToPdf(layout.atlas(), path, settings)
    if result != QgsLayoutExporter.ExportResult.Success:
        raise RuntimeError(f"could not write the PDF {path}: {error}")
    return layout.atlas().count()


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
        if image:
            # Rendered and saved here: exportToImage georeferences a PNG by reopening it in
            # GDAL for update, which the PNG driver refuses ("ERROR 6" once a page).
            path = str(Path(folder) / f"{name}.png")
            page = exporter.renderPageToImage(0, QSize(), IMAGE_DPI)
            saved = not page.isNull() and page.save(path, "PNG")
            result = (
                QgsLayoutExporter.ExportResult.Success
                if saved
                else QgsLayoutExporter.ExportResult.FileError
            )
        else:
            path = str(Path(folder) / f"{name}.pdf")
            settings = QgsLayoutExporter.PdfExportSettings()
            settings.dpi = 150
            result = exporter.exportToPdf(path, settings)
        if result != QgsLayoutExporter.ExportResult.Success:
            atlas.endRender()
            raise RuntimeError(f"could not write {path}: {exporter.errorMessage()}")
        written.append(path)
        index_rows.append((str(atlas.layout().reportContext().feature()["parcel_id"]), path))
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
