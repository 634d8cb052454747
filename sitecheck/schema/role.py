"""What a layer role is: the input of a run, and how maps draw its layer.

The roles themselves are listed in :mod:`sitecheck.schema.roles`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Geometry = Literal["polygon", "line_or_polygon", "raster"]


@dataclass(frozen=True)
class MapSymbol:
    """How maps draw a role's layer (the QGIS styles, the sample project, the atlas).

    Attributes
    ----------
    rank : int
        Stacking order on a map, the lowest drawn first (at the bottom).
    fill : str
        Fill colour as ``r,g,b,alpha`` (0-255 each), QGIS's colour string.
    outline : str
        Outline colour, ``#rrggbb``.
    outline_mm : float
        Outline width in millimetres.
    dashed : bool
        A dashed outline (for boundaries that are not the subject of a page).
    line : str
        Colour of a line layer's stroke (watercourses given as lines).
    line_mm : float
        Width of that stroke in millimetres.
    legend : bool
        A compliance map's legend lists it (not the lots, nor the backdrop
        boundaries drawn dashed or unfilled).
    """

    rank: int
    fill: str
    outline: str
    outline_mm: float
    dashed: bool = False
    line: str = ""
    line_mm: float = 0.0
    legend: bool = True

    def to_json(self) -> dict[str, object]:
        return {
            "rank": self.rank,
            "fill": self.fill,
            "outline": self.outline,
            "outline_mm": self.outline_mm,
            "dashed": self.dashed,
            "line": self.line,
            "line_mm": self.line_mm,
            "legend": self.legend,
        }


@dataclass(frozen=True)
class Role:
    """One input of a run.

    Attributes
    ----------
    key : str
        The role's name (``MeasureInputs`` field, worker request key, audit name).
    flag : str
        The command-line option that gives it.
    label : str
        How the panel and dialogs name it.
    help : str
        What the layer must hold.
    geometry : str
        ``polygon``, ``line_or_polygon`` or ``raster``.
    required : bool
        A run cannot start without it.
    drawn : bool
        The panel sends its features with every request (edits count before saving).
    processing : str or None
        The key of check_site's Processing parameter for it.
    panel : bool
        The dock panel asks for it.
    measured : bool
        An input of the measurement itself (``MeasureInputs``); else of the
        runoff screen or the pack choice.
    missing : str
        Why the metrics this layer gives are unknown when it is not given, as
        reasons and review groups word it.
    symbol : MapSymbol or None
        How maps draw it; None for a layer maps do not show.
    """

    key: str
    flag: str
    label: str
    help: str
    geometry: Geometry = "polygon"
    required: bool = False
    drawn: bool = False
    processing: str | None = None
    panel: bool = True
    measured: bool = True
    missing: str = ""
    symbol: MapSymbol | None = None

    def to_json(self) -> dict[str, object]:
        return {
            "key": self.key,
            "flag": self.flag,
            "label": self.label,
            "help": self.help,
            "geometry": self.geometry,
            "required": self.required,
            "drawn": self.drawn,
            "processing": self.processing,
            "panel": self.panel,
            "measured": self.measured,
            "missing": self.missing,
            "symbol": None if self.symbol is None else self.symbol.to_json(),
        }
