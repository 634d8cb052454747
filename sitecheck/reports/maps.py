"""Parcel maps for the HTML report: SVG drawings, written as text.

Each map shows one parcel framed on the lot and its disturbance: the lot
outline, the neighbouring lots faintly, the disturbance, and the flags (where
the disturbance meets a constraint) coloured by kind, with a legend, a scale
bar in feet and a north arrow (grid north of the working CRS).

The shapes are moved into the map's pixels, clipped to its frame and thinned to
a quarter pixel, then written as SVG paths: a vector map stays sharp when the
report is zoomed or printed, and is smaller than the PNG it replaces (issue 30:
matplotlib drew and encoded a PNG in 18 ms a map, 3.7 s for a report's 200).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from html import escape

import numpy as np
import shapely

from sitecheck.io.geometry_types import POLYGON
from sitecheck.schema.flags import FLAG_BY_KEY, FLAG_DRAW_ORDER
from sitecheck.screening.check import CheckResult

WIDTH_PX, HEIGHT_PX = 640, 480
MAP_PX = (6, 6, 442, 468)  # left, top, width, height of the map frame, pixels
PANEL_LEFT_PX = 456  # the side panel: title, north arrow, legend, note
MARGIN_SHARE = 0.15  # of the framed extent, on every side
MIN_MARGIN_FT = 25.0
NICE_STEPS = (1.0, 2.0, 5.0)
THIN_PX = 0.25  # vertices closer than this to the line through their neighbours are left out
POINT_PX = 96 / 72  # a line width in points, in the map's pixels

LOT_EDGE = "#1f2d3d"
LOT_FILL = "#fbfaf5"
NEIGHBOUR_EDGE = "#b9c0c8"
DISTURBANCE_FILL = "#c9a36b"
DISTURBANCE_EDGE = "#8a5a1c"
FRAME_EDGE = "#adb5bd"
NOTE_COLOUR = "#6c757d"
THIS_LOT = "this lot"  # heads the legend
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"


@dataclass(frozen=True)
class FlagStyle:
    """How a flag kind is drawn and named in the legend (label and colour from the vocabulary).

    ``hatch`` is matplotlib's notation (``/``, ``\\``, ``|``, ``-``, ``+``, ``x``, repeated
    for density): a hatched flag is drawn as lines in its colour, with no fill.
    """

    label: str
    colour: str
    hatch: str | None = None


FLAG_STYLES: dict[str, FlagStyle] = {
    key: FlagStyle(FLAG_BY_KEY[key].label, FLAG_BY_KEY[key].colour, FLAG_BY_KEY[key].hatch)
    for key in FLAG_DRAW_ORDER
}
OTHER_FLAG = FlagStyle("Other constraint", "#868e96")

_HATCH_LINES = {
    "/": "M0,{s}L{s},0",
    "\\": "M0,0L{s},{s}",
    "|": "M{h},0L{h},{s}",
    "-": "M0,{h}L{s},{h}",
}
_HATCH_MEANS = {"x": "/\\", "X": "/\\", "+": "|-"}


def nice_length(target: float) -> float:
    """The largest 1, 2 or 5 times a power of ten not above ``target`` (at least 1)."""
    if target <= 1.0:
        return 1.0
    power = 10.0 ** math.floor(math.log10(target))
    return max(step * power for step in NICE_STEPS if step * power <= target)


def framed_bounds(
    bounds: tuple[float, float, float, float], margin: float, aspect: float
) -> tuple[float, float, float, float]:
    """Grow ``bounds`` by ``margin`` and then to the width/height ratio ``aspect``."""
    x0, y0, x1, y1 = bounds
    x0, y0, x1, y1 = x0 - margin, y0 - margin, x1 + margin, y1 + margin
    width, height = x1 - x0, y1 - y0
    if width / height < aspect:
        grow = (height * aspect - width) / 2.0
        x0, x1 = x0 - grow, x1 + grow
    else:
        grow = (width / aspect - height) / 2.0
        y0, y1 = y0 - grow, y1 + grow
    return x0, y0, x1, y1


def path_data(geoms: np.ndarray) -> str:
    """SVG path data of the polygonal parts of geometries already in the map's pixels.

    Rings are normalised (exterior and interior rings wound opposite ways), so holes stay
    open under SVG's non-zero fill rule; each ring is closed by ``Z``, its repeated last
    vertex left out. Empty where nothing polygonal remains.
    """
    parts = shapely.get_parts(shapely.get_parts(geoms))
    polygons = parts[shapely.get_type_id(parts) == POLYGON]
    if len(polygons) == 0:
        return ""
    rings = shapely.get_rings(shapely.normalize(polygons))
    coords, ring_of = shapely.get_coordinates(rings, return_index=True)
    text = [f"{x:.1f},{y:.1f}" for x, y in np.round(coords, 1).tolist()]
    starts = np.r_[0, np.flatnonzero(np.diff(ring_of)) + 1, len(coords)]
    return "".join(
        f"M{text[start]}L{','.join(text[start + 1 : end - 1])}Z"
        for start, end in zip(starts[:-1].tolist(), starts[1:].tolist(), strict=True)
        if end - start >= 4  # a ring: three corners and the first again
    )


def hatch_pattern(key: str, style: FlagStyle) -> str:
    """An SVG pattern of the hatch's lines in the flag's colour, its id ``hatch-KEY``."""
    hatch = style.hatch or ""
    strokes = "".join(dict.fromkeys("".join(_HATCH_MEANS.get(c, c) for c in hatch)))
    spacing = max(3.0, 16.0 / max(len(hatch), 1))
    lines = "".join(
        _HATCH_LINES[stroke].format(s=f"{spacing:g}", h=f"{spacing / 2:g}")
        for stroke in strokes
        if stroke in _HATCH_LINES
    )
    return (
        f"<pattern id='hatch-{escape(key)}' patternUnits='userSpaceOnUse' "
        f"width='{spacing:g}' height='{spacing:g}'><path d='{lines}' "
        f"stroke='{style.colour}' stroke-width='0.9' fill='none'/></pattern>"
    )


@dataclass(frozen=True)
class LegendEntry:
    """A legend's line: a ``line`` or a ``box`` drawn with a layer's style, and its label."""

    shape: str
    style: str
    label: str


@dataclass(frozen=True)
class _Layer:
    """One drawn layer of a map, its legend entry (None: not in the legend) and the hatch
    pattern its fill refers to (empty for a plain fill)."""

    svg: str
    legend: LegendEntry | None
    pattern: str = ""


class ParcelMapper:
    """Draws the parcel maps of one check run.

    The spatial index and the flags by parcel are built once; each map is its own
    SVG document, for an ``<img>`` (``data:image/svg+xml``) or a file. It holds no
    drawing surface, so there is nothing to release.

    Parameters
    ----------
    result : CheckResult
    """

    def __init__(self, result: CheckResult) -> None:
        measured = result.measured
        self.lots: np.ndarray = measured.parcels.geometry.to_numpy()
        self.ids: np.ndarray = measured.parcels["parcel_id"].to_numpy(dtype=object)
        self.disturbed = measured.disturbed
        self.feet_per_unit = measured.working.feet_per_unit
        self.tree = shapely.STRtree(self.lots)
        flags = measured.flags
        self.flag_rows: dict[str, np.ndarray] = {
            str(parcel_id): rows
            for parcel_id, rows in flags.groupby("parcel_id", sort=False).indices.items()
        }
        self.flag_kinds = flags["kind"].to_numpy(dtype=object)
        self.flag_geoms = flags.geometry.to_numpy()

    def svg(self, row: int) -> str:
        """The map of the parcel at ``row`` of the parcel table, as an SVG document."""
        frame = self._frame(row)
        layers = self._layers(row, frame)
        left, top, width, height = MAP_PX
        title = f"Parcel {self.ids[row]}"
        patterns = "".join(layer.pattern for layer in layers)
        return (
            f"<svg xmlns='http://www.w3.org/2000/svg' width='{WIDTH_PX}' height='{HEIGHT_PX}' "
            f"viewBox='0 0 {WIDTH_PX} {HEIGHT_PX}' font-family='{FONT}'>"
            f"<title>Map of {escape(title)}</title>"
            + (f"<defs>{patterns}</defs>" if patterns else "")
            + f"<rect width='{WIDTH_PX}' height='{HEIGHT_PX}' fill='white'/>"
            # A nested svg clips what it holds to its own box: the frame.
            f"<svg x='{left}' y='{top}' width='{width}' height='{height}'>"
            + "".join(layer.svg for layer in layers)
            + self._scale_bar(frame[2] - frame[0])
            + f"</svg><rect x='{left + 0.5}' y='{top + 0.5}' width='{width - 1}' "
            f"height='{height - 1}' fill='none' stroke='{FRAME_EDGE}'/>"
            + _side_panel(title, [layer.legend for layer in layers if layer.legend])
            + "</svg>"
        )

    def _frame(self, row: int) -> tuple[float, float, float, float]:
        """Map extent: the lot and its disturbance with a margin, at the map's shape."""
        shapes = [self.lots[row], self._disturbance(row)]
        bounds = shapely.bounds([g for g in shapes if g is not None and not shapely.is_empty(g)])
        x0, y0 = bounds[:, :2].min(axis=0).tolist()
        x1, y1 = bounds[:, 2:].max(axis=0).tolist()
        span = max(x1 - x0, y1 - y0, 1.0)
        margin = max(span * MARGIN_SHARE, MIN_MARGIN_FT / self.feet_per_unit)
        return framed_bounds((x0, y0, x1, y1), margin, MAP_PX[2] / MAP_PX[3])

    def _disturbance(self, row: int) -> shapely.Geometry | None:
        if self.disturbed is None:
            return None
        return self.disturbed[row]

    def _layers(self, row: int, frame: tuple[float, float, float, float]) -> list[_Layer]:
        """Neighbours, lot, disturbance, flags and the lot's outline, bottom first."""
        to_pixels = _Pixels(frame)
        neighbours = self.tree.query(shapely.box(*frame))
        neighbours = neighbours[neighbours != row]
        lot = to_pixels.path(np.array([self.lots[row]]))
        layers = [
            _Layer(
                _path(
                    to_pixels.path(self.lots[neighbours]),
                    f"fill='none' stroke='{NEIGHBOUR_EDGE}' stroke-width='{0.7 * POINT_PX:.2f}'",
                ),
                _legend_line(NEIGHBOUR_EDGE, POINT_PX, "other lots") if len(neighbours) else None,
            ),
            _Layer(_path(lot, f"fill='{LOT_FILL}'"), None),
        ]
        disturbance = self._disturbance(row)
        if disturbance is not None:
            style = (
                f"fill='{DISTURBANCE_FILL}' fill-opacity='0.55' stroke='{DISTURBANCE_EDGE}' "
                f"stroke-opacity='0.55' stroke-width='{1.2 * POINT_PX:.2f}'"
            )
            drawn = _path(to_pixels.path(np.array([disturbance])), style)
            layers.append(_Layer(drawn, _legend_box(style, "disturbance") if drawn else None))
        layers += self._flags(row, to_pixels)
        layers.append(
            _Layer(
                _path(lot, f"fill='none' stroke='{LOT_EDGE}' stroke-width='{2 * POINT_PX:.2f}'"),
                _legend_line(LOT_EDGE, 2 * POINT_PX, THIS_LOT),
            )
        )
        return layers

    def _flags(self, row: int, to_pixels: _Pixels) -> list[_Layer]:
        rows = self.flag_rows.get(str(self.ids[row]), np.empty(0, dtype=np.int64))
        kinds = [str(kind) for kind in self.flag_kinds[rows]]
        geoms = self.flag_geoms[rows]
        layers = []
        for kind in [*FLAG_STYLES, *sorted(set(kinds) - set(FLAG_STYLES))]:
            chosen = np.array([g for k, g in zip(kinds, geoms, strict=True) if k == kind])
            drawn = to_pixels.path(chosen) if len(chosen) else ""
            if not drawn:
                continue
            flag = FLAG_STYLES.get(kind, OTHER_FLAG)
            pattern = hatch_pattern(kind, flag) if flag.hatch else ""
            if pattern:
                style = (
                    f"fill='url(#hatch-{escape(kind)})' fill-opacity='0.8' "
                    f"stroke='{flag.colour}' stroke-opacity='0.8'"
                )
            else:
                style = (
                    f"fill='{flag.colour}' fill-opacity='0.45' stroke='{flag.colour}' "
                    "stroke-opacity='0.45'"
                )
            style += f" stroke-width='{0.8 * POINT_PX:.2f}'"
            label = flag.label if kind in FLAG_STYLES else kind.replace("_", " ")
            layers.append(_Layer(_path(drawn, style), _legend_box(style, label), pattern))
        return layers

    def _scale_bar(self, frame_width: float) -> str:
        """A bar of a round number of feet, about a quarter of the map's width, lower left."""
        bar_ft = nice_length(frame_width * self.feet_per_unit / 4.0)
        bar_px = bar_ft / self.feet_per_unit * MAP_PX[2] / frame_width
        label = f"{bar_ft:,.0f} ft"
        box_width = max(bar_px, 7.0 * len(label)) + 12
        top = MAP_PX[3] - 38
        return (
            f"<rect x='8' y='{top}' width='{box_width:.1f}' height='30' fill='white' "
            f"stroke='{FRAME_EDGE}' stroke-width='0.8'/>"
            f"<rect x='14' y='{top + 6}' width='{bar_px:.1f}' height='2.2' fill='black'/>"
            f"<text x='{14 + bar_px / 2:.1f}' y='{top + 23}' font-size='10.7' "
            f"text-anchor='middle'>{escape(label)}</text>"
        )


class _Pixels:
    """Moves shapes of the working CRS into a map frame's pixels (y down), clipped to it."""

    def __init__(self, frame: tuple[float, float, float, float]) -> None:
        x0, y0, x1, y1 = frame
        self.scale = MAP_PX[2] / (x1 - x0)
        self.origin = np.array([x0, y1])
        pad = 4.0 / self.scale  # a few pixels beyond the frame: no edge of the clip shows
        self.clip = (x0 - pad, y0 - pad, x1 + pad, y1 + pad)

    def path(self, geoms: np.ndarray) -> str:
        """Path data of the shapes' polygons in pixels, thinned to a quarter pixel."""
        present = geoms[~(shapely.is_missing(geoms) | shapely.is_empty(geoms))]
        if len(present) == 0:
            return ""
        clipped = shapely.clip_by_rect(present, *self.clip)
        moved = shapely.transform(clipped, self._move)
        return path_data(shapely.simplify(moved, THIN_PX, preserve_topology=False))

    def _move(self, coords: np.ndarray) -> np.ndarray:
        return (coords - self.origin) * np.array([self.scale, -self.scale])


def _path(data: str, style: str) -> str:
    return f"<path d='{data}' {style}/>" if data else ""


def _legend_line(colour: str, width: float, label: str) -> LegendEntry:
    return LegendEntry("line", f"stroke='{colour}' stroke-width='{width:.2f}'", label)


def _legend_box(style: str, label: str) -> LegendEntry:
    return LegendEntry("box", style, label)


def _side_panel(title: str, entries: list[LegendEntry]) -> str:
    """The title, the north arrow, the legend (``this lot`` first) and the note on north."""
    x = PANEL_LEFT_PX
    items = []
    for number, entry in enumerate(sorted(entries, key=lambda e: e.label != THIS_LOT)):
        y = 150 + 18 * number
        swatch = (
            f"<line x1='{x + 2}' y1='{y}' x2='{x + 24}' y2='{y}' {entry.style}/>"
            if entry.shape == "line"
            else f"<rect x='{x + 2}' y='{y - 5}' width='22' height='10' {entry.style}/>"
        )
        items.append(
            f"{swatch}<text x='{x + 30}' y='{y + 4}' font-size='10.7'>{escape(entry.label)}</text>"
        )
    arrow_x = x + 22
    return (
        f"<text x='{x + 2}' y='21' font-size='13.3' font-weight='bold'>{escape(title)}</text>"
        f"<path d='M{arrow_x},58L{arrow_x},100' stroke='black' stroke-width='2'/>"
        f"<path d='M{arrow_x - 6},66L{arrow_x},52L{arrow_x + 6},66Z' fill='black'/>"
        f"<text x='{arrow_x}' y='118' font-size='13.3' font-weight='bold' "
        "text-anchor='middle'>N</text>"
        + "".join(items)
        + f"<text x='{x + 4}' y='{HEIGHT_PX - 12}' font-size='9.3' fill='{NOTE_COLOUR}'>"
        "North is grid north.</text>"
    )
