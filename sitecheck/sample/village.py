"""Generate a deterministic sample village for demos, tests and benchmarks.

The village imitates a small Westchester village (Scarsdale-like) in New York
State Plane East (EPSG:2260, US survey feet). One *district* of about 300 lots
is laid out on a street grid: blocks of two rows of lots back to back (a few
lots run through the block), zoned Residence A (AA-1 to A-4) with a small B-1
business block. A stream runs along the rear lot lines of the AA-1 estates, with
FEMA-style floodplain bands and two wetlands; a hill with steep faces stands on
the largest estate. Bigger villages repeat the district on a grid, each copy
with its own stream, floodplain, wetlands and hill, and give a share of the lots
a random project.

Ten hand-placed projects in the first district together exercise every
measurement the engine makes; :data:`PROJECTS` lists them after a generation,
and the ``projects`` table of the GeoPackage holds the same rows.

The same arguments always give the same layer contents: every random draw comes
from a seeded NumPy generator and nothing depends on time or set order.
"""

from __future__ import annotations

from pathlib import Path

import geopandas as gpd
import numpy as np
import pandas as pd
import pyogrio

from sitecheck.io.output_set import OutputSet, named
from sitecheck.io.writers import GPKG_DATASET_OPTIONS
from sitecheck.sample.constants import BIG_VILLAGE_LOTS, CRS, DEFAULT_PROJECT_SHARE
from sitecheck.sample.grid import constraint_frames, existing_cover, parcel_frame, plan_village
from sitecheck.sample.template import build_template
from sitecheck.sample.terrain import write_dem
from sitecheck.sample.work import project_frames

PROJECTS: list[dict[str, str]] = []
"""Projects of the last generation: ``name``, ``parcel_id`` and ``exercises``."""


def _write_gpkg(path: Path, layers: dict[str, pd.DataFrame]) -> None:
    for name, frame in layers.items():
        spatial = isinstance(frame, gpd.GeoDataFrame)
        pyogrio.write_dataframe(
            frame,
            path,
            layer=name,
            driver="GPKG",
            use_arrow=spatial,
            promote_to_multi=False if spatial else None,
            dataset_options=GPKG_DATASET_OPTIONS,
        )


def _record_projects(table: pd.DataFrame) -> None:
    PROJECTS[:] = [
        {"name": str(r.name), "parcel_id": str(r.parcel_id), "exercises": str(r.exercises)}
        for r in table.itertuples(index=False)
    ]


def _first_lots(layers: dict[str, pd.DataFrame], kept: list[str]) -> dict[str, pd.DataFrame]:
    """The layers without the lots past ``kept`` and the features drawn on them."""
    keep = set(kept)
    return {
        name: frame[frame["parcel_id"].isin(keep)].reset_index(drop=True)
        if "parcel_id" in frame.columns
        else frame
        for name, frame in layers.items()
    }


def generate_village(
    outdir: Path,
    parcels: int = 300,
    seed: int = 2260,
    dem_resolution_ft: float | None = None,
    project_share: float | None = None,
    exact: bool = False,
) -> dict[str, Path]:
    """Write a sample village: a GeoPackage of layers and a DEM.

    Parameters
    ----------
    outdir : Path
        Folder to write into (created when missing).
    parcels : int
        About how many lots. The district (about 320 lots) is repeated and
        whole blocks kept until there are at least this many, so the count
        overshoots by less than one block (within 10% from about 300 lots up).
        A village smaller than one district lacks its northern blocks and the
        hand-placed projects that stood on them.
    seed : int
        Seed of every random draw: the same arguments give the same layers.
    dem_resolution_ft : float, optional
        DEM cell size; 2 ft up to 1,000 parcels, else 10 ft.
    project_share : float, optional
        Share of the lots given a random project, on top of the ten
        hand-placed ones; 0.15 above 1,000 parcels, else none.
    exact : bool
        Cut the last block short so there are exactly ``parcels`` lots; the
        work and cover drawn on the lots cut go with them.

    Returns
    -------
    dict
        ``{"gpkg": outdir/"village.gpkg", "dem": outdir/"dem.tif"}``.
    """
    _check_arguments(parcels, dem_resolution_ft, project_share)
    outdir = Path(outdir)
    outdir.mkdir(parents=True, exist_ok=True)
    seeds = np.random.SeedSequence(seed).spawn(3)
    template = build_template(np.random.default_rng(seeds[0]))
    plan = plan_village(template, parcels)
    big = parcels > BIG_VILLAGE_LOTS
    share = project_share if project_share is not None else (DEFAULT_PROJECT_SHARE if big else None)
    resolution = dem_resolution_ft or (10.0 if big else 2.0)
    lots = parcel_frame(template, plan, np.random.default_rng(seeds[1]))
    ids = lots.parcel_id.tolist()
    existing = existing_cover(template, plan)
    disturbance, proposed, table = project_frames(
        template, plan, ids, np.random.default_rng(seeds[2]), share, existing
    )
    layers: dict[str, pd.DataFrame] = {
        "parcels": lots,
        "impervious_existing": gpd.GeoDataFrame(
            {"parcel_id": [ids[g] for g in existing[1].tolist()], "kind": existing[2]},
            geometry=existing[0],
            crs=CRS,
        ),
        "impervious_proposed": proposed,
        "disturbance": disturbance,
        **constraint_frames(template, plan),
        "projects": table,
    }
    if exact:
        layers = _first_lots(layers, ids[:parcels])
    paths = {"gpkg": outdir / "village.gpkg", "dem": outdir / "dem.tif"}
    with OutputSet(
        [named("village.gpkg", paths["gpkg"]), named("dem.tif", paths["dem"])], []
    ) as out:
        with out.writing("village.gpkg") as temporary:
            _write_gpkg(temporary, layers)
        with out.writing("dem.tif") as temporary:
            write_dem(temporary, template.terrain, plan, resolution)
        out.commit()
    _record_projects(layers["projects"])
    return paths


def _check_arguments(
    parcels: int, dem_resolution_ft: float | None, project_share: float | None
) -> None:
    """ValueError for a village that cannot be drawn."""
    if parcels < 1:
        raise ValueError("parcels must be at least 1")
    if dem_resolution_ft is not None and not dem_resolution_ft > 0:
        raise ValueError("dem_resolution_ft must be positive")
    if project_share is not None and not 0.0 <= project_share <= 1.0:
        raise ValueError("project_share must lie between 0 and 1")
