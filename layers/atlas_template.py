"""The compliance map's page design, written to ``compliance_atlas.qpt`` by tools/make_layout.py."""

from __future__ import annotations

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
    font.setBold(bold)
    set_label_font(label, font, size)
    label.attemptMove(QgsLayoutPoint(x, y))
    label.attemptResize(QgsLayoutSize(w, h))
    layout.addLayoutItem(label)
    return label


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
    frame.attemptMove(QgsLayoutPoint(10, 158))
    frame.attemptResize(QgsLayoutSize(REQUIREMENTS_WIDTH_MM, 44))
    table.addFrame(frame)


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
    scale.setTextFormat(_text_format(7.0))
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
    for style, size in (  # every style named: the application's default font may be missing
        (QgsLegendStyle.Style.Title, 8.0),
        (QgsLegendStyle.Style.Group, 7.0),
        (QgsLegendStyle.Style.Symbol, 6.5),
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
    _label(layout, "metrics", '[% "metrics_text" %]', 182, 142, 87, 52, 6.5)
    _label(
        layout,
        "triggers_title",
        "Requirements, with their sections (continued overleaf when long)",
        10,
        153,
        168,
        5,
        7.5,
        bold=True,
    )
    _requirements_table(layout)
    _label(
        layout,
        "audit",
        "SiteCheck [% @sitecheck_version %] · pack [% @sitecheck_pack %] (sha256 "
        "[% @sitecheck_pack_sha %]) · CRS [% @sitecheck_crs %] · inputs: [% @sitecheck_inputs %]"
        ' · generated [% @sitecheck_generated %] · parcel [% "parcel_id" %] · '
        f"{SHEET_TEXT}",
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
