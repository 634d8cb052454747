"""The compliance map's page design, written to ``compliance_atlas.qpt`` by tools/make_layout.py."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from qgis.core import (
    QgsLayoutFrame,
    QgsLayoutItemAttributeTable,
    QgsLayoutItemLabel,
    QgsLayoutItemLegend,
    QgsLayoutItemMap,
    QgsLayoutItemMapOverview,
    QgsLayoutItemPicture,
    QgsLayoutItemScaleBar,
    QgsLayoutMultiFrame,
    QgsLayoutPoint,
    QgsLayoutSize,
    QgsLayoutTable,
    QgsLegendStyle,
    QgsPrintLayout,
    QgsReadWriteContext,
    QgsScaleBarSettings,
    QgsTextFormat,
    QgsUnitTypes,
)
from qgis.PyQt.QtGui import QFont

from ..bridge.qt_compat import set_label_font
from .compliance_layout import (
    MAIN_MAP_MM,
    PAGE_HEIGHT_MM,
    PAGE_WIDTH_MM,
    REQUIREMENTS_FRAME,
    REQUIREMENTS_WIDTH_MM,
    TEMPLATE,
)

NORTH_ARROW_SVG = "arrows/NorthArrow_02.svg"


SHEET_TEXT = "sheet [% @sitecheck_sheet %] of [% @sitecheck_sheets %]"
"""The audit line's sheet number: a parcel's requirements may take several sheets."""


@dataclass(frozen=True)
class Label:
    """A text item of the page: its id, text (QGIS expressions in ``[% %]``), box in mm
    (x, y, width, height) and text size in points."""

    item_id: str
    text: str
    box: tuple[float, float, float, float]
    size: float = 8.0
    bold: bool = False


TITLE = Label(
    "title", 'SiteCheck compliance map: parcel [% "parcel_id" %]', (10, 6, 200, 9), 15, True
)
SUBTITLE = Label(
    "subtitle",
    '[% "address" %] · [% @sitecheck_jurisdiction %] · highest: [% "highest_severity" %]'
    ' · design storm: [% "design_storm" %]',
    (10, 15, 259, 6),
    8.5,
)
METRICS_TITLE = Label(
    "metrics_title", "Measurements (sq ft, [% @sitecheck_crs %])", (182, 137, 87, 5), 7.5, True
)
METRICS = Label("metrics", '[% "metrics_text" %]', (182, 142, 87, 52), 6.5)
TRIGGERS_TITLE = Label(
    "triggers_title",
    "Requirements, with their sections (continued overleaf when long)",
    (10, 153, 168, 5),
    7.5,
    True,
)
AUDIT = Label(
    "audit",
    "SiteCheck [% @sitecheck_version %] · pack [% @sitecheck_pack %] (sha256 "
    "[% @sitecheck_pack_sha %]) · CRS [% @sitecheck_crs %] · inputs: [% @sitecheck_inputs %]"
    ' · generated [% @sitecheck_generated %] · parcel [% "parcel_id" %] · '
    f"{SHEET_TEXT}",
    (10, 203, 259, 10),
    5.5,
)
OWNER = Label("owner", 'Owner: [% "owner" %]', (182, 196, 87, 4), 6.5)


def _add_label(layout, spec: Label) -> QgsLayoutItemLabel:
    label = QgsLayoutItemLabel(layout)
    label.setId(spec.item_id)
    label.setText(spec.text)
    font = QFont("DejaVu Sans", 1)
    font.setBold(spec.bold)
    set_label_font(label, font, spec.size)
    _place(label, spec.box)
    layout.addLayoutItem(label)
    return label


def _place(item, box: tuple[float, float, float, float]) -> None:
    x, y, width, height = box
    item.attemptMove(QgsLayoutPoint(x, y))
    item.attemptResize(QgsLayoutSize(width, height))


TABLE_TEXT_PT = 7.5
"""The requirements table's text size: the law's words must be legible on a printed page."""


def _text_format(size: float, bold: bool = False) -> QgsTextFormat:
    font = QFont("DejaVu Sans", 1)
    font.setBold(bold)
    text = QgsTextFormat()
    text.setFont(font)
    text.setSize(size)
    text.setSizeUnit(QgsUnitTypes.RenderUnit.RenderPoints)
    return text


def _requirements_table(layout) -> None:
    """The requirements as a table (section, status, requirement), wrapped in its columns and
    continued on further pages, each with the column headings, when one page cannot hold it.
    Its layer and columns are set for each run (``compliance_layout.bind``)."""
    table = QgsLayoutItemAttributeTable.create(layout)
    table.setResizeMode(QgsLayoutMultiFrame.ResizeMode.ExtendToNextPage)
    table.setWrapBehavior(QgsLayoutTable.WrapBehavior.WrapText)
    table.setHeaderMode(QgsLayoutTable.HeaderMode.AllFrames)
    table.setHeaderTextFormat(_text_format(TABLE_TEXT_PT, bold=True))
    table.setContentTextFormat(_text_format(TABLE_TEXT_PT))
    table.setCellMargin(0.8)
    table.setGridStrokeWidth(0.1)
    table.setEmptyTableBehavior(QgsLayoutTable.EmptyTableMode.ShowMessage)
    table.setEmptyTableMessage("No rule is triggered and none needs review.")
    table.setMaximumNumberOfFeatures(10_000)
    layout.addMultiFrame(table)
    frame = QgsLayoutFrame(layout, table)
    frame.setId(REQUIREMENTS_FRAME)
    _place(frame, (10, 158, REQUIREMENTS_WIDTH_MM, 44))
    table.addFrame(frame)


def create_layout(project) -> QgsPrintLayout:
    """The compliance map layout, built in code; saved as the .qpt template.

    The items are added in drawing order, bottom first."""
    layout = QgsPrintLayout(project)
    layout.initializeDefaults()
    layout.setName("SiteCheck compliance map")
    page = layout.pageCollection().page(0)
    page.setPageSize(QgsLayoutSize(PAGE_WIDTH_MM, PAGE_HEIGHT_MM))
    _add_label(layout, TITLE)
    _add_label(layout, SUBTITLE)
    main = _main_map(layout)
    _north_arrow(layout)
    _scale_bar(layout, main)
    _locator_map(layout, main)
    _legend(layout, main)
    for label in (METRICS_TITLE, METRICS, TRIGGERS_TITLE):
        _add_label(layout, label)
    _requirements_table(layout)
    for label in (AUDIT, OWNER):
        _add_label(layout, label)
    _one_page_per_parcel(layout)
    return layout


def _main_map(layout) -> QgsLayoutItemMap:
    """The parcel's map, zoomed by the atlas to each parcel with a margin."""
    main = QgsLayoutItemMap(layout)
    main.setId("main_map")
    _place(main, (10, 23, *MAIN_MAP_MM))
    main.setFrameEnabled(True)
    main.setAtlasDriven(True)
    main.setAtlasScalingMode(QgsLayoutItemMap.AtlasScalingMode.Auto)
    main.setAtlasMargin(0.3)
    layout.addLayoutItem(main)
    return main


def _north_arrow(layout) -> None:
    north = QgsLayoutItemPicture(layout)
    north.setId("north_arrow")
    north.setPicturePath(NORTH_ARROW_SVG)
    _place(north, (166, 25, 10, 14))
    layout.addLayoutItem(north)


def _scale_bar(layout, main: QgsLayoutItemMap) -> None:
    """A scale bar in feet, its segments fitted to the map's scale."""
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
    scale.setTextFormat(_text_format(7.0))
    scale.attemptMove(QgsLayoutPoint(12, 140))
    layout.addLayoutItem(scale)


def _locator_map(layout, main: QgsLayoutItemMap) -> None:
    """A small map of the surroundings with the main map's extent drawn on it."""
    locator = QgsLayoutItemMap(layout)
    locator.setId("locator_map")
    _place(locator, (182, 23, 87, 36))
    locator.setFrameEnabled(True)
    overview = QgsLayoutItemMapOverview("extent", locator)
    overview.setLinkedMap(main)
    locator.overviews().addOverview(overview)
    layout.addLayoutItem(locator)


LEGEND_TEXT_PT = (
    (QgsLegendStyle.Style.Title, 8.0),
    (QgsLegendStyle.Style.Group, 7.0),
    (QgsLegendStyle.Style.Symbol, 6.5),
    (QgsLegendStyle.Style.SymbolLabel, 6.5),
    (QgsLegendStyle.Style.Subgroup, 7.0),
)
"""Every legend style's font, named: the application's default font may be missing."""


def _legend(layout, main: QgsLayoutItemMap) -> None:
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
    for style, size in LEGEND_TEXT_PT:
        font = QFont("DejaVu Sans", 1)
        font.setPointSizeF(size)
        legend.setStyleFont(style, font)
    layout.addLayoutItem(legend)


def _one_page_per_parcel(layout) -> None:
    """The atlas: a page (or more, for long requirements) per parcel, named by its id."""
    atlas = layout.atlas()
    atlas.setEnabled(True)
    atlas.setHideCoverage(False)
    atlas.setPageNameExpression('"parcel_id"')
    atlas.setFilenameExpression('"file_name"')


def save_template(layout: QgsPrintLayout, path: Path = TEMPLATE) -> None:
    """Write the layout as the .qpt template."""
    if not layout.saveAsTemplate(str(path), QgsReadWriteContext()):
        raise RuntimeError(f"cannot write the layout template {path}")
