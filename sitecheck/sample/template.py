"""The district template: its lots, cover, constraints, terrain and hand-placed projects."""

from __future__ import annotations

import numpy as np
import pandas as pd
import shapely

from sitecheck.sample.constants import DISTRICT_WIDTH_FT, STREAM_ROW
from sitecheck.sample.constraints import district_constraints
from sitecheck.sample.cover import district_impervious
from sitecheck.sample.hand_projects import Site, hand_placed, pick_lot
from sitecheck.sample.layout import district_layout
from sitecheck.sample.model import Project, Stream, Template, Terrain


def _hole(lots: pd.DataFrame, used: list[int]) -> tuple[float, float, float]:
    """A small nodata hole in a front yard of an A-2a lot without a project."""
    i = pick_lot(lots, (lots.row == 1) & (lots.side == 1), used)
    lot = lots.loc[i if i is not None else 0]
    return (float((lot.x0 + lot.x1) / 2.0), float(lot.front_y + lot.side * 10.0), 8.0)


def _terrain(
    lots: pd.DataFrame, estate: int, stream: Stream, height: float, projects: list[Project]
) -> Terrain:
    """The valley along the stream and the hill on the big estate, its steep face east."""
    lot = lots.loc[estate]
    room = min(stream.y0, height - stream.y0) - stream.amplitude - 150.0
    hill = (
        float(lot.x0 + 0.35 * (lot.x1 - lot.x0)),
        float(lot.front_y - 140.0),
        55.0,
        340.0,
        90.0,
        200.0,
    )
    hole = _hole(lots, [i for p in projects for i in p.lots()])
    return Terrain(stream.width, height, stream, 30.0, room, hill, hole)


def build_template(rng: np.random.Generator) -> Template:
    """Lay out one district with its cover, constraints, terrain and projects.

    The stream runs along the rear line of the AA-1 row, its meander placed so
    the stream bends away from the big estate (the lot of project 3), whose
    rear holds a wetland and whose front holds the hill.
    """
    lots, geoms, blocks, height = district_layout(rng)
    features = district_impervious(rng, lots)
    width = DISTRICT_WIDTH_FT
    estate = int(np.flatnonzero(lots.forced.to_numpy())[0])
    stream_row = next(b for b in blocks if b[1] == STREAM_ROW)
    stream = Stream(
        y0=(stream_row[3] + stream_row[5]) / 2.0,
        x_phase=float((lots.x0[estate] + lots.x1[estate]) / 2.0),
        amplitude=35.0,
        waves=3,
        width=width,
    )
    constraints = district_constraints(lots, blocks, stream, width, height, estate)
    sda, impaired = constraints["sda"][0][0], constraints["impaired_watersheds"][0][0]
    quiet = ~shapely.intersects(geoms, shapely.union(sda, impaired))
    site = Site(
        lots,
        geoms,
        features,
        stream,
        sda,
        shapely.union_all(constraints["wetlands"][0]),
        constraints["floodplain"][0][0],
        quiet,
    )
    projects = hand_placed(site)
    terrain = _terrain(lots, estate, stream, height, projects)
    return Template(width, height, lots, geoms, features, constraints, projects, terrain)
