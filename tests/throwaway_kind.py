"""A throwaway constraint kind, shared by the engine's and the plugin's tests of plug-in kinds.

Standard library only: the QGIS tests run in Debian's Python, the engine's in
its own. The kind, a historic-district overlay with a buffer option, is
measured on hand rectangles (EPSG:2260, feet) whose answers are exact:

lots A = [0,100]x[0,100] and B = [100,200]x[0,100]; disturbance on A
[10,60]x[10,60], on B [150,190]x[50,90]; one district [0,30]x[0,100].
With the district grown by 10 ft (to x = 40), A's disturbance in it is
[10,40]x[10,60] = 1,500 sq ft; B's is 0.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

KIND_MODULE = '''
"""A throwaway constraint kind: the disturbance within a historic district."""

from sitecheck.schema.flag import FlagKind
from sitecheck.schema.kinds import ConstraintKind
from sitecheck.schema.metric import Metric
from sitecheck.schema.option import Option
from sitecheck.schema.role import MapSymbol, Role

METRIC = "disturbed_in_historic_district_sqft"


def measure(run, source):
    if source is None:
        run.not_measured(METRIC)
        return
    surface = run.buffered_surface(run.geometries(source), run.option("historic_buffer_ft"))
    run.record(METRIC, "historic_district", *run.overlap(surface))


KIND = ConstraintKind(
    role=Role(
        "historic_districts",
        "--historic-districts",
        "Historic districts",
        "Designated historic districts.",
        processing="HISTORIC_DISTRICTS",
        missing="no historic district layer was given",
        symbol=MapSymbol(3, "200,120,60,90", "#8c510a", 0.4),
    ),
    metrics=(
        Metric(METRIC, "area", "disturbed in a historic district", "historic_districts",
               "In a historic district", "sqft", True),
    ),
    flags=(FlagKind("historic_district", "Historic district", "#8c510a", METRIC, 5),),
    measurer=measure,
    options=(
        Option("historic_buffer_ft", "--historic-buffer-ft", "number", "Historic buffer",
               "distance around a historic district that counts as in it", 0.0, "ft",
               minimum=0.0, processing="HISTORIC_BUFFER_FT"),
    ),
    reach_options=("historic_buffer_ft",),
)
'''

PACK = """\
[pack]
id = "testville"
name = "Village of Testville"
chapter = "Chapter 1"
version = "1"

[[rules]]
id = "testville.historic"
citation = "§ 1-1"
title = "Historic district review"
severity = "board_approval_required"
requirement = "Refer the plan to the historic district commission."
quote = "Work within a historic district shall be referred to the commission."
when = "disturbed_in_historic_district_sqft > 0 sqft"
"""

EXPECTED_A_SQFT = 30 * 50  # [10,40]x[10,60]
BUFFER_FT = 10

LAYERS = {
    "parcels": [("A", "POLYGON((0 0,100 0,100 100,0 100,0 0))"),
                ("B", "POLYGON((100 0,200 0,200 100,100 100,100 0))")],
    "disturbance": [("A", "POLYGON((10 10,60 10,60 60,10 60,10 10))"),
                    ("B", "POLYGON((150 50,190 50,190 90,150 90,150 50))")],
    "historic": [(None, "POLYGON((0 0,30 0,30 100,0 100,0 0))")],
}  # fmt: skip

_WRITER = """
import json, sys
import geopandas as gpd, shapely
layers = json.loads(sys.argv[2])
for layer, rows in layers.items():
    frame = gpd.GeoDataFrame(
        {"parcel_id": [row[0] for row in rows]},
        geometry=[shapely.from_wkt(row[1]) for row in rows],
        crs="EPSG:2260",
    )
    frame.to_file(sys.argv[1], layer=layer, driver="GPKG")
"""


def add_to_engine(engine_package: Path) -> None:
    """Write the kind's one module into a copy of the engine (``.../sitecheck``)."""
    (engine_package / "schema" / "kinds" / "historic_districts.py").write_text(
        KIND_MODULE, encoding="utf-8"
    )


def write_layers(folder: Path, engine_python: str) -> tuple[Path, Path]:
    """The hand layers as one GeoPackage and the pack that reads the kind's metric."""
    gpkg, pack = folder / "site.gpkg", folder / "testville.toml"
    subprocess.run(
        [engine_python, "-c", _WRITER, str(gpkg), json.dumps(LAYERS)], check=True, timeout=120
    )
    pack.write_text(PACK, encoding="utf-8")
    return gpkg, pack
