"""Build one-lot site plans from geometry and run a rule pack on them.

Rule tests never fake metrics: each case draws a lot, its disturbance and the
constraint layers it needs, measures them with the engine and evaluates the
pack, so a threshold test also tests the measurement behind it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from shapely.geometry import LineString, box

from sitecheck.io.readers import LayerSource
from sitecheck.measure.inputs import MeasureInputs, MeasureSettings
from sitecheck.pipeline.run import screen
from sitecheck.pipeline.spec import RunSpec

from .conftest import write_dem, write_layer

X0, Y0 = 690_000.0, 787_000.0  # Scarsdale, EPSG:2260
LOT_WIDTH = 200.0


@dataclass
class Case:
    """A lot with one project; every field a site-plan fact.

    Areas are square feet. ``disturbed_sqft`` is drawn as a rectangle inside the
    lot (``phases``: one rectangle per phase); ``in_sda`` and
    ``in_impaired_watershed`` draw a polygon covering the lot (False draws one
    elsewhere, None draws no layer); ``floodway_sqft`` etc. draw the constraint
    over that much of the disturbance.
    """

    lot_sqft: float = 20_000.0
    disturbed_sqft: float = 0.0
    phases: tuple[float, ...] = ()
    existing_sqft: float | None = 1_000.0
    proposed_sqft: float | None = 1_000.0
    in_sda: bool | None = None
    in_impaired_watershed: bool | None = None
    zoning: str | None = "A-2"
    floodway_sqft: float | None = None
    floodplain_sqft: float | None = None
    wetland_sqft: float | None = None
    wetland_adjacent_only: bool = False
    steep_pct: float | None = None  # uniform DEM slope under the lot; None: no DEM
    neighbour: bool = False  # a lot sharing the east line; the work then reaches its buffer
    watercourse: str | None = None  # a stream "through" the lot or "along" its west line
    attributes: dict[str, object] = field(default_factory=dict)


def _lot(case: Case):
    depth = case.lot_sqft / LOT_WIDTH
    return box(X0, Y0, X0 + LOT_WIDTH, Y0 + depth)


def _work_rectangles(case: Case) -> list:
    """Disturbance as rectangles of exact area, one per phase, stacked from the lot's south.

    They stay inside the lot while the lot is deep enough (give big phases a big
    lot). With ``neighbour`` the first rectangle ends 10 ft from the shared east
    line, inside the adjoining property buffer.
    """
    lot = _lot(case)
    minx, miny, maxx, _maxy = lot.bounds
    areas = list(case.phases) or ([case.disturbed_sqft] if case.disturbed_sqft > 0 else [])
    shapes = []
    bottom = miny + 10.0
    for area in areas:
        width = min(LOT_WIDTH - 60.0, max(10.0, math.sqrt(area)))
        height = area / width
        x0 = (maxx - 10.0 - width) if case.neighbour and not shapes else minx + 40.0
        shapes.append(box(x0, bottom, x0 + width, bottom + height))
        bottom += height + 1.0  # phases stack northwards, one foot apart
    return shapes


def run_case(tmp_path: Path, ordinance: str, case: Case, tolerance: float = 0.0):
    """Measure the case and evaluate the pack; returns (outcomes by rule id, metrics)."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    gpkg = tmp_path / "case.gpkg"
    lot = _lot(case)
    minx, miny, maxx, maxy = lot.bounds
    lots = [{"parcel_id": "LOT", "district": case.zoning, "geometry": lot}]
    if case.neighbour:
        lots.append(
            {
                "parcel_id": "NEXT",
                "district": case.zoning,
                "geometry": box(maxx, miny, maxx + 100, maxy),
            }
        )
    work = _work_rectangles(case)
    rows = [
        {
            "parcel_id": "LOT",
            "phase": (i + 1 if case.phases else None),
            **case.attributes,
            "geometry": g,
        }
        for i, g in enumerate(work)
    ]
    if not rows:
        rows = [
            {
                "parcel_id": "LOT",
                "phase": None,
                **case.attributes,
                "geometry": box(minx + 1, miny + 1, minx + 1.0001, miny + 1.0001),
            }
        ]
    layers: dict[str, str] = {
        "parcels": write_layer(gpkg, "parcels", lots),
        "disturbance": write_layer(gpkg, "disturbance", rows),
    }
    house = box(maxx - 60, maxy - 60, maxx - 20, maxy - 35)  # 1,000 sq ft, clear of the work
    if case.existing_sqft is not None:
        layers["impervious_existing"] = write_layer(
            gpkg, "existing", _cover(house, case.existing_sqft)
        )
    if case.proposed_sqft is not None:
        layers["impervious_proposed"] = write_layer(
            gpkg, "proposed", _cover(house, case.proposed_sqft)
        )
    for name, flag in (("sda", case.in_sda), ("impaired_watersheds", case.in_impaired_watershed)):
        if flag is not None:
            area = lot.buffer(5) if flag else box(X0 - 5_000, Y0 - 5_000, X0 - 4_000, Y0 - 4_000)
            layers[name] = write_layer(gpkg, name, [{"geometry": area}])
    flood = _flood_rows(case, work)
    if flood is not None:
        layers["floodplain"] = write_layer(gpkg, "floodplain", flood)
    if case.wetland_sqft is not None:
        layers["wetlands"] = write_layer(gpkg, "wetlands", _wetland(case, work))
    if case.watercourse is not None:
        x = minx + LOT_WIDTH / 2 if case.watercourse == "through" else minx
        stream = LineString([(x, miny - 100), (x, maxy + 100)])
        layers["watercourses"] = write_layer(gpkg, "streams", [{"geometry": stream}])
    dem = None
    if case.steep_pct is not None:
        cells = np.arange(400) * 2.0 + 1.0
        elevation = np.tile(cells * case.steep_pct / 100.0, (800, 1))
        dem = write_dem(tmp_path / "dem.tif", elevation, X0 - 100, maxy + 200, 2.0)
    sources = {name: LayerSource.parse(name, spec) for name, spec in layers.items()}
    spec = RunSpec(MeasureInputs(**sources, dem=dem), MeasureSettings(), ordinance, tolerance)
    result = screen(spec)
    measured = result.measured
    row = list(measured.parcels["parcel_id"]).index("LOT")
    outcome = result.outcomes[row]
    assert outcome is not None
    by_rule = {t.rule.id: t for t in outcome.triggers}
    return by_rule, measured.parcels.iloc[row].to_dict(), outcome


def _cover(house, total_sqft: float) -> list[dict]:
    """Impervious cover as one full-width strip below the lot's top line, clear of the work.

    The strip can reach any share of the lot (build-out thresholds of 25% or
    40%); zero cover is an empty layer.
    """
    if total_sqft <= 0:
        return []
    top = house.bounds[3] + 35  # the lot's north line
    return [{"geometry": box(X0, top - total_sqft / LOT_WIDTH, X0 + LOT_WIDTH, top)}]


def _flood_rows(case: Case, work: list) -> list[dict] | None:
    if case.floodway_sqft is None and case.floodplain_sqft is None:
        return None
    rows = []
    first = work[0] if work else box(X0, Y0, X0 + 1, Y0 + 1)
    minx, miny, maxx, _maxy = first.bounds
    width = maxx - minx
    if case.floodway_sqft:
        rows.append(
            {
                "FLD_ZONE": "AE",
                "ZONE_SUBTY": "FLOODWAY",
                "SFHA_TF": "T",
                "geometry": box(minx - 50, miny - 50, maxx + 50, miny + case.floodway_sqft / width),
            }
        )
    if case.floodplain_sqft:
        top = miny + (case.floodway_sqft or 0) / width
        rows.append(
            {
                "FLD_ZONE": "AE",
                "ZONE_SUBTY": None,
                "SFHA_TF": "T",
                "geometry": box(minx - 50, top, maxx + 50, top + case.floodplain_sqft / width),
            }
        )
    if not rows:
        rows.append(
            {
                "FLD_ZONE": "X",
                "ZONE_SUBTY": None,
                "SFHA_TF": "F",
                "geometry": box(X0 - 5_000, Y0 - 5_000, X0 - 4_000, Y0 - 4_000),
            }
        )
    return rows


def _wetland(case: Case, work: list) -> list[dict]:
    """A wetland strip over the top of the work (or 50 ft above it: adjacent area only)."""
    first = work[0]
    minx, _miny, maxx, maxy = first.bounds
    width = maxx - minx
    if case.wetland_adjacent_only:
        return [{"geometry": box(minx, maxy + 50, maxx, maxy + 80)}]
    inside = (case.wetland_sqft or 0) / width
    return [{"geometry": box(minx - 20, maxy - inside, maxx + 20, maxy + 30)}]
