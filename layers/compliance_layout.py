"""The compliance map: a print-layout atlas, one page per flagged parcel.

The layout lives in ``layers/compliance_atlas.qpt`` (written by
``tools/make_layout.py`` from :func:`create_layout`). For a run it is loaded,
its maps get the run's layers, its atlas covers the flagged parcels, and it is
exported to one multi-page PDF or one file per parcel.

Each atlas feature carries its page's text: the title fields, and the
metrics and triggers tables as HTML (see :func:`coverage_layer`).
"""

from __future__ import annotations

import re
from html import escape
from pathlib import Path

from qgis.core import (
    QgsExpressionContextUtils,
    QgsFeature,
    QgsField,
    QgsGeometry,
    QgsLayoutExporter,
    QgsLayoutItemLabel,
    QgsLayoutItemLegend,
    QgsLayoutItemMap,
    QgsLayoutItemMapOverview,
    QgsLayoutItemPicture,
    QgsLayoutItemScaleBar,
    QgsLayoutPoint,
    QgsLayoutSize,
    QgsLegendStyle,
    QgsPrintLayout,
    QgsReadWriteContext,
    QgsRectangle,
    QgsScaleBarSettings,
    QgsUnitTypes,
    QgsVectorLayer,
)
from qgis.PyQt.QtCore import QVariant
from qgis.PyQt.QtGui import QFont
from qgis.PyQt.QtXml import QDomDocument

from ..bridge.vocabulary import KEY_METRICS, SEVERITY_LABELS, SEVERITY_ORDER, format_metric

TEMPLATE = Path(__file__).resolve().parent / "compliance_atlas.qpt"
PAGE_WIDTH_MM, PAGE_HEIGHT_MM = 279.4, 215.9  # US Letter, landscape
NORTH_ARROW_SVG = "arrows/NorthArrow_02.svg"

# The page's measurements: the panel's, less the yes/no facts and the storm, which the
# triggers already say; the runoff rows only when the run screened runoff.
ATLAS_KINDS = frozenset({"sqft", "sqft_acres", "signed_sqft", "pct", "text"})
METRIC_ROWS = tuple(row for row in KEY_METRICS if row[2] in ATLAS_KINDS)
RUNOFF_ROWS = tuple(row for row in KEY_METRICS if row[2] in ("cn", "cuft"))
COVERAGE_FIELDS = (
    "parcel_id",
    "address",
    "owner",
    "jurisdiction",
    "highest_severity",
    "design_storm",
    "metrics_html",
    "triggers_html",
    "file_name",
)


# --- the page's text ------------------------------------------------------------------------


def safe_file_name(parcel_id: str) -> str:
    """A parcel id made safe for file names: 'SBL 1.2/3' -> 'SBL_1.2_3'."""
    name = re.sub(r"[^A-Za-z0-9._-]+", "_", str(parcel_id)).strip("._") or "parcel"
    return name[:100]


def metrics_html(metrics: dict) -> str:
    """The page's measurements as a small HTML table."""
    shown = METRIC_ROWS + (RUNOFF_ROWS if "cn_pre" in metrics else ())
    rows = "".join(
        f"<tr><td>{escape(label)}</td>"
        f"<td align='right'>{escape(format_metric(metrics.get(name), kind))}</td></tr>"
        for name, label, kind in shown
    )
    return f"<table style='font-family:sans-serif;font-size:7pt;width:100%' cellspacing='0'>{rows}</table>"


def triggers_html(triggers: list[dict]) -> str:
    """Triggered rules by severity, then those needing review, one line each with the reason."""
    lines = []
    ranked = sorted(
        (t for t in triggers if t["outcome"] == "triggered"),
        key=lambda t: SEVERITY_ORDER.index(t["severity"]),
    )
    for trigger in ranked:
        lines.append(
            f"<tr><td valign='top' nowrap><b>{escape(trigger['citation'])}</b></td>"
            f"<td valign='top' nowrap>{escape(SEVERITY_LABELS[trigger['severity']])}</td>"
            f"<td>{escape(trigger['title'])}: {escape(trigger['reason'])}</td></tr>"
        )
    for trigger in (t for t in triggers if t["outcome"] == "needs_review"):
        lines.append(
            f"<tr style='color:#b35806'><td valign='top' nowrap><b>{escape(trigger['citation'])}</b></td>"
            f"<td valign='top' nowrap><i>Needs review</i></td>"
            f"<td><i>{escape(trigger['title'])}: {escape(trigger['reason'])}</i></td></tr>"
        )
    if not lines:
        lines.append("<tr><td>No rule is triggered.</td></tr>")
    return (
        "<table style='font-family:sans-serif;font-size:6pt;width:100%' cellspacing='0' "
        "cellpadding='0'>" + "".join(lines) + "</table>"
    )


def coverage_layer(
    parcels: QgsVectorLayer, document: dict, only_flagged: bool = True
) -> QgsVectorLayer:
    """The atlas coverage: one feature per page, with the page's text in its fields.

    A feature's geometry is its page's frame (:func:`page_frame`), not the
    parcel: the parcel is drawn from the parcels layer.

    Parameters
    ----------
    parcels : QgsVectorLayer
        The engine's parcels output (geometry and ``parcel_id``).
    document : dict
        The engine's JSON document of the run (``sitecheck check --json``).
    only_flagged : bool
        Only parcels with a triggered rule or a rule needing review.
    """
    entries = {str(p["parcel_id"]): p for p in document["parcels"]}
    coverage = QgsVectorLayer(
        f"Polygon?crs={parcels.crs().authid() or 'EPSG:4326'}", "compliance pages", "memory"
    )
    if not parcels.crs().authid():
        coverage.setCrs(parcels.crs())
    coverage.dataProvider().addAttributes(
        [QgsField(name, QVariant.String) for name in COVERAGE_FIELDS]
    )
    coverage.updateFields()
    features = []
    for parcel in parcels.getFeatures():
        entry = entries.get(str(parcel["parcel_id"]))
        if entry is None:
            continue
        flagged = any(
            t["outcome"] in ("triggered", "needs_review") for t in entry.get("triggers", [])
        )
        if only_flagged and not flagged:
            continue
        feature = QgsFeature(coverage.fields())
        feature.setGeometry(page_frame(parcel.geometry()))
        attributes = entry.get("attributes", {})
        storm = entry.get("design_storm_years")
        feature.setAttributes(
            [
                str(entry["parcel_id"]),
                attributes.get("address") or "",
                attributes.get("owner") or "",
                entry.get("jurisdiction") or "",
                SEVERITY_LABELS.get(entry.get("highest_severity") or "", "No trigger"),
                f"{storm}-year" if storm else "none named",
                metrics_html(entry["metrics"]),
                triggers_html(entry.get("triggers", [])),
                safe_file_name(entry["parcel_id"]),
            ]
        )
        features.append(feature)
    coverage.dataProvider().addFeatures(sorted(features, key=lambda f: f["parcel_id"]))
    coverage.updateExtents()
    return coverage


def subject_layer(parcels: QgsVectorLayer) -> QgsVectorLayer:
    """The parcels again, drawn only for the page's own parcel: a heavy outline."""
    from qgis.core import QgsFillSymbol, QgsRuleBasedRenderer

    subject = QgsVectorLayer(parcels.source(), "This parcel", parcels.providerType())
    symbol = QgsFillSymbol.createSimple(
        {"color": "0,0,0,0", "outline_color": "#000000", "outline_width": "0.9"}
    )
    root = QgsRuleBasedRenderer.Rule(None)
    rule = QgsRuleBasedRenderer.Rule(
        symbol, 0, 0, "\"parcel_id\" = attribute(@atlas_feature, 'parcel_id')", "This parcel"
    )
    root.appendChild(rule)
    subject.setRenderer(QgsRuleBasedRenderer(root))
    return subject


# --- the layout ----------------------------------------------------------------------------

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


def _label(
    layout,
    item_id: str,
    text: str,
    x: float,
    y: float,
    w: float,
    h: float,
    size: float = 8.0,
    bold: bool = False,
    html: bool = False,
) -> QgsLayoutItemLabel:
    label = QgsLayoutItemLabel(layout)
    label.setId(item_id)
    label.setText(text)
    if html:
        label.setMode(QgsLayoutItemLabel.Mode.ModeHtml)
    font = QFont("DejaVu Sans", 1)
    font.setPointSizeF(size)
    font.setBold(bold)
    label.setFont(font)
    label.attemptMove(QgsLayoutPoint(x, y))
    label.attemptResize(QgsLayoutSize(w, h))
    layout.addLayoutItem(label)
    return label


def create_layout(project) -> QgsPrintLayout:
    """The compliance map layout, built in code; saved as the .qpt template."""
    layout = QgsPrintLayout(project)
    layout.initializeDefaults()
    layout.setName("SiteCheck compliance map")
    page = layout.pageCollection().page(0)
    page.setPageSize(QgsLayoutSize(PAGE_WIDTH_MM, PAGE_HEIGHT_MM))
    _label(
        layout,
        "title",
        'SiteCheck compliance map: parcel [% "parcel_id" %]',
        10,
        6,
        200,
        9,
        15,
        bold=True,
    )
    _label(
        layout,
        "subtitle",
        '[% "address" %] · [% @sitecheck_jurisdiction %] · highest: [% "highest_severity" %]'
        ' · design storm: [% "design_storm" %]',
        10,
        15,
        259,
        6,
        8.5,
    )

    main = QgsLayoutItemMap(layout)
    main.setId("main_map")
    main.attemptMove(QgsLayoutPoint(10, 23))
    main.attemptResize(QgsLayoutSize(*MAIN_MAP_MM))
    main.setFrameEnabled(True)
    main.setAtlasDriven(True)
    main.setAtlasScalingMode(QgsLayoutItemMap.AtlasScalingMode.Auto)
    main.setAtlasMargin(0.3)
    layout.addLayoutItem(main)

    north = QgsLayoutItemPicture(layout)
    north.setId("north_arrow")
    north.setPicturePath(NORTH_ARROW_SVG)
    north.attemptMove(QgsLayoutPoint(166, 25))
    north.attemptResize(QgsLayoutSize(10, 14))
    layout.addLayoutItem(north)

    scale = QgsLayoutItemScaleBar(layout)
    scale.setId("scale_bar")
    scale.setStyle("Single Box")
    scale.setLinkedMap(main)
    scale.setUnits(QgsUnitTypes.DistanceUnit.DistanceFeet)
    scale.setUnitLabel("ft")
    scale.setNumberOfSegments(3)
    scale.setNumberOfSegmentsLeft(0)
    scale.setUnitsPerSegment(50)
    scale.setSegmentSizeMode(QgsScaleBarSettings.SegmentSizeMode.SegmentSizeFitWidth)
    scale.setMinimumBarWidth(25)
    scale.setMaximumBarWidth(60)
    scale.setBackgroundEnabled(True)
    scale.attemptMove(QgsLayoutPoint(12, 140))
    layout.addLayoutItem(scale)

    locator = QgsLayoutItemMap(layout)
    locator.setId("locator_map")
    locator.attemptMove(QgsLayoutPoint(182, 23))
    locator.attemptResize(QgsLayoutSize(87, 36))
    locator.setFrameEnabled(True)
    overview = QgsLayoutItemMapOverview("extent", locator)
    overview.setLinkedMap(main)
    locator.overviews().addOverview(overview)
    layout.addLayoutItem(locator)

    legend = QgsLayoutItemLegend(layout)
    legend.setId("legend")
    legend.setTitle("Legend")
    legend.setLinkedMap(main)
    legend.attemptMove(QgsLayoutPoint(182, 61))
    legend.setResizeToContents(False)
    legend.attemptResize(QgsLayoutSize(87, 74))
    legend.setColumnCount(2)
    legend.setSplitLayer(True)
    legend.setSymbolHeight(3.0)
    legend.setSymbolWidth(5.0)
    for style, size in (
        (QgsLegendStyle.Style.Title, 8.0),
        (QgsLegendStyle.Style.SymbolLabel, 6.5),
        (QgsLegendStyle.Style.Subgroup, 7.0),
    ):
        font = QFont("DejaVu Sans", 1)
        font.setPointSizeF(size)
        legend.setStyleFont(style, font)
    layout.addLayoutItem(legend)

    _label(
        layout,
        "metrics_title",
        "Measurements (sq ft, [% @sitecheck_crs %])",
        182,
        137,
        87,
        5,
        7.5,
        bold=True,
    )
    _label(layout, "metrics", '[% "metrics_html" %]', 182, 142, 87, 52, html=True)
    _label(
        layout,
        "triggers_title",
        "Requirements triggered, with their sections",
        10,
        153,
        168,
        5,
        7.5,
        bold=True,
    )
    _label(layout, "triggers", '[% "triggers_html" %]', 10, 158, 168, 44, html=True)
    _label(
        layout,
        "audit",
        "SiteCheck [% @sitecheck_version %] · pack [% @sitecheck_pack %] (sha256 "
        "[% @sitecheck_pack_sha %]) · CRS [% @sitecheck_crs %] · inputs: [% @sitecheck_inputs %]"
        " · generated [% @sitecheck_generated %] · page [% @atlas_featurenumber %] of "
        "[% @atlas_totalfeatures %]",
        10,
        203,
        259,
        10,
        5.5,
    )
    _label(layout, "owner", 'Owner: [% "owner" %]', 182, 196, 87, 4, 6.5)
    atlas = layout.atlas()
    atlas.setEnabled(True)
    atlas.setHideCoverage(False)
    atlas.setPageNameExpression('"parcel_id"')
    atlas.setFilenameExpression('"file_name"')
    return layout


def save_template(layout: QgsPrintLayout, path: Path = TEMPLATE) -> None:
    """Write the layout as the .qpt template."""
    if not layout.saveAsTemplate(str(path), QgsReadWriteContext()):
        raise RuntimeError(f"cannot write the layout template {path}")


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


def export_files(layout: QgsPrintLayout, folder: str, image: bool = False) -> list[str]:
    """One PDF (or PNG) per atlas page, named by the parcel id made safe for file names."""
    atlas = layout.atlas()
    exporter = QgsLayoutExporter(layout)
    written = []
    atlas.beginRender()
    for index in range(atlas.count()):
        atlas.seekTo(index)
        name = atlas.currentFilename() or f"parcel_{index + 1}"
        if image:
            path = str(Path(folder) / f"{name}.png")
            settings = QgsLayoutExporter.ImageExportSettings()
            settings.dpi = 150
            result = exporter.exportToImage(path, settings)
        else:
            path = str(Path(folder) / f"{name}.pdf")
            settings = QgsLayoutExporter.PdfExportSettings()
            settings.dpi = 150
            result = exporter.exportToPdf(path, settings)
        if result != QgsLayoutExporter.ExportResult.Success:
            atlas.endRender()
            raise RuntimeError(f"could not write {path}: {exporter.errorMessage()}")
        written.append(path)
    atlas.endRender()
    return written
