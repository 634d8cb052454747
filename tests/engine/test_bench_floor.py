"""The bench's floor measures what ``measure`` measures, reading only windows around the work.

The floor (``bench/peers/floor.py``) is the plain shapely, pyogrio and exactextract code
every ratio of the speed table is set against (issue 30). Its windows must not change
its answers: here it reads through several boxes and several DEM tiles, and its figures
are held against the engine's, which computes them its own way.
"""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pyogrio
import pytest
import rasterio
import shapely

from .village_runs import VILLAGE_LAYERS

REPO = Path(__file__).resolve().parents[2]
MEASURED_BY_BOTH = (
    "disturbed_in_floodplain_1pct_sqft",
    "disturbed_in_floodplain_0_2pct_sqft",
    "disturbed_in_floodway_sqft",
    "disturbed_in_wetland_sqft",
    "disturbed_in_wetland_adjacent_sqft",
    "disturbed_in_watercourse_buffer_sqft",
    "disturbed_in_adjoining_buffer_sqft",
    "disturbed_on_slope_over_15pct_sqft",
    "disturbed_on_slope_over_25pct_sqft",
)
LAYERS = tuple(layer for layer in VILLAGE_LAYERS if layer != "soils")  # measure's layers


def _floor_module():
    spec = importlib.util.spec_from_file_location("bench_floor", REPO / "bench/peers/floor.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _wetland_beyond_a_lots_box(gpkg: Path) -> None:
    """Add a wetland outside a lot's bounding box whose 100-ft adjacent area reaches the
    lot's work: only a window grown by the adjacent area's width reads it."""
    lots = pyogrio.read_dataframe(gpkg, layer="parcels")
    work = pyogrio.read_dataframe(gpkg, layer="disturbance")
    for piece in work.geometry:
        lot = lots.geometry[lots.geometry.intersects(piece.representative_point())].iloc[0]
        wetland = piece.buffer(90.0).difference(shapely.box(*lot.bounds).buffer(10.0))
        if wetland.area > 200.0:
            break
    wetlands = pyogrio.read_dataframe(gpkg, layer="wetlands")
    added = wetlands.iloc[:1].copy()
    added["wetland_id"], added.geometry = "beyond the box", [wetland]
    pyogrio.write_dataframe(added, gpkg, layer="wetlands", append=True)


@pytest.fixture(scope="module")
def both(shared_village, tmp_path_factory):
    shared, out = shared_village(), tmp_path_factory.mktemp("floor")
    village = {"gpkg": out / "village" / "village.gpkg", "dem": out / "village" / "dem.tif"}
    village["gpkg"].parent.mkdir()
    shutil.copy(shared["gpkg"], village["gpkg"])
    shutil.copy(shared["dem"], village["dem"])
    gpkg = village["gpkg"]
    _wetland_beyond_a_lots_box(gpkg)
    floor = _floor_module()
    floor.TILE_CELLS = 64  # the sample's 2-ft DEM in many tiles, the work across their edges
    floor.main(gpkg.parent, out / "floor.json")
    argv = [sys.executable, "-m", "sitecheck", "measure", "--quiet"]
    argv += ["--parcels", f"{gpkg}:parcels", "--disturbance", f"{gpkg}:disturbance"]
    argv += ["--dem", str(village["dem"]), "--out", str(out / "engine.gpkg")]
    for layer in LAYERS:
        argv += [f"--{layer.replace('_', '-')}", f"{gpkg}:{layer}"]
    subprocess.run(argv, check=True, capture_output=True, cwd=out)
    floor_table = pyogrio.read_dataframe(out / "floor.gpkg").set_index("parcel_id")
    engine = pyogrio.read_dataframe(out / "engine.gpkg", layer="parcels")
    return floor, village, floor_table, engine.set_index("parcel_id").loc[floor_table.index]


def test_the_floor_reads_through_several_windows_and_tiles(both):
    """The window is several boxes, the work spans several DEM tiles, and a layer read
    through the window holds exactly the features that meet it."""
    floor, village, table, _ = both
    lots = pyogrio.read_dataframe(village["gpkg"], layer="parcels").set_index("parcel_id")
    with_work = lots.loc[table.index].geometry.to_numpy()
    window = floor.window(with_work, floor.WIDEST_BUFFER_FT)
    assert shapely.get_num_geometries(window) > 1
    with rasterio.open(village["dem"]) as dem:
        tile_ft = floor.TILE_CELLS * dem.res[0]
    minx, _, maxx, _ = shapely.total_bounds(with_work)
    assert maxx - minx > 2 * tile_ft
    counts = {}
    for layer in ("impervious_existing", "wetlands"):
        whole = pyogrio.read_dataframe(village["gpkg"], layer=layer).geometry.to_numpy()
        meeting = int(shapely.intersects(whole, window).sum())
        read, _ = floor.read(village["gpkg"], layer, within=window)
        assert 0 < len(read) == meeting, layer
        counts[layer] = (meeting, len(whole))
    meeting, every = counts["impervious_existing"]
    assert meeting < every  # the window leaves out the cover far from the work


def test_the_floor_measures_what_the_engine_measures(both):
    _, _, table, engine = both
    assert len(table) > 5
    for name in MEASURED_BY_BOTH:
        assert engine[name].sum() > 0, name  # each figure is exercised
        np.testing.assert_allclose(table[name], engine[name], atol=0.01, err_msg=name)
    assert (table["zoning_district"] == engine["zoning_district"]).all()
