"""Lots the runoff screen cannot give a number, named in their own entries (issue 28, 1.4).

In a gSSURGO database Urban land and Water may carry group D (``muaggatt.hydgrpdcd``)
and be used, while "Dumps" carries none: the warning must not call Urban land and
water groupless, and the lot on Dumps must say why its curve number is null, naming
the map unit by its name and MUKEY. Without impervious layers the screen has no
cover to weigh, and each lot says so instead of showing nulls.

The lots are [0,100] x [0,200] ft (20,000 sq ft) with 2,000 sq ft of existing cover
and 4,000 proposed, as in ``test_source_ssurgo``; on group D the curve number before
is (2,000 x 98 + 18,000 x 80) / 20,000 = 81.8 (TR-55 Table 2-2a, open space good).
"""

from __future__ import annotations

import csv
import json
import warnings
from pathlib import Path

import geopandas as gpd
import pandas as pd
import pyogrio
import pytest
from shapely.geometry import box

from sitecheck.app.cli import main
from sitecheck.io.readers import LayerSource
from sitecheck.measure.inputs import MeasureInputs
from sitecheck.pipeline.run import screen
from sitecheck.pipeline.spec import RunSpec
from sitecheck.screening.runoff_result import RunoffOptions

from .conftest import STATE_PLANE_EAST, write_layer

RAINFALL = "2=3.5,10=5.1,25=6.2,50=7.0,100=8.0"
DUMPS, URBAN_LAND, WATER = "289517", "289700", "289701"


def _site(tmp_path: Path, cover: bool = True) -> dict[str, LayerSource]:
    gpkg = tmp_path / "site.gpkg"
    lots = [("L1", 0.0), ("L2", 100.0)]
    specs = {
        "parcels": write_layer(
            gpkg,
            "parcels",
            [{"parcel_id": lot, "geometry": box(x, 0, x + 100, 200)} for lot, x in lots],
        ),
        "disturbance": write_layer(
            gpkg,
            "work",
            [{"parcel_id": lot, "geometry": box(x + 5, 5, x + 95, 65)} for lot, x in lots],
        ),
    }
    if cover:
        specs["impervious_existing"] = write_layer(
            gpkg, "existing", [{"geometry": box(x + 10, 10, x + 50, 60)} for _, x in lots]
        )
        specs["impervious_proposed"] = write_layer(
            gpkg, "proposed", [{"geometry": box(x + 10, 10, x + 90, 60)} for _, x in lots]
        )
    return {role: LayerSource.parse(role, spec) for role, spec in specs.items()}


def _gssurgo(tmp_path: Path, units: list[tuple[str, object]]) -> str:
    """A gSSURGO-shaped GeoPackage: MUPOLYGON carrying MUKEY only, and muaggatt."""
    gpkg = tmp_path / "gSSURGO_NY.gpkg"
    gpd.GeoDataFrame(
        {"AREASYMBOL": ["NY119"] * len(units), "MUKEY": [key for key, _ in units]},
        geometry=[shape for _, shape in units],
        crs=STATE_PLANE_EAST,
    ).to_file(gpkg, layer="MUPOLYGON")
    table = pd.DataFrame(
        {
            "musym": ["Du", "Ur", "W"],
            "muname": ["Dumps", "Urban land", "Water"],
            "hydgrpdcd": [None, "D", "D"],
            "mukey": [DUMPS, URBAN_LAND, WATER],
        }
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        pyogrio.write_dataframe(table, gpkg, layer="muaggatt")
    return f"{gpkg}:MUPOLYGON"


def _run(tmp_path: Path, soils: str, cover: bool = True, **options):
    runoff = RunoffOptions(soils=LayerSource.parse("soils", soils), rainfall=RAINFALL, **options)
    inputs = MeasureInputs(**_site(tmp_path, cover))
    result = screen(RunSpec(inputs, ordinance="scarsdale", runoff=runoff))
    assert result.runoff is not None
    return result


def test_a_lot_wholly_on_dumps_names_the_map_unit_and_why_it_has_no_number(tmp_path):
    soils = _gssurgo(
        tmp_path,
        [(DUMPS, box(-50, -50, 100, 250)), (URBAN_LAND, box(100, -50, 250, 250))],
    )
    result = _run(tmp_path, soils)
    on_dumps, on_urban_land = result.runoff.metrics_of(0), result.runoff.metrics_of(1)
    assert on_dumps["cn_pre"] is None
    assert "no curve number" in on_dumps["runoff_note"]
    assert "Dumps (MUKEY 289517)" in on_dumps["runoff_note"]
    assert on_urban_land["cn_pre"] == pytest.approx(81.8)  # Urban land is group D
    assert on_urban_land["runoff_note"] is None
    warned = " ".join(result.measured.log.warnings)
    assert "Urban land, water, pits" not in warned
    assert "no hydrologic soil group" in warned


def test_a_lot_partly_on_dumps_says_how_much_was_left_out(tmp_path):
    # L1 is 20 ft on Dumps (20 x 200 = 4,000 sq ft), the rest on Water (group D).
    soils = _gssurgo(tmp_path, [(DUMPS, box(-50, -50, 20, 250)), (WATER, box(20, -50, 250, 250))])
    metrics = _run(tmp_path, soils).runoff.metrics_of(0)
    assert metrics["cn_pre"] == pytest.approx(81.8)  # shares from the D part, all cover on it
    assert metrics["runoff_note"] == (
        "4,000 sq ft of the lot are on map units the survey gives no hydrologic soil group "
        "(Dumps (MUKEY 289517)), left out: the soil shares come from the rest of the lot"
    )


def test_no_group_under_any_lot_runs_and_says_so(tmp_path):
    # Every lot on Dumps and no --default-hsg: each lot's curve number is null, with why.
    soils = _gssurgo(tmp_path, [(DUMPS, box(-50, -50, 250, 250))])
    result = _run(tmp_path, soils)
    for row in (0, 1):
        metrics = result.runoff.metrics_of(row)
        assert metrics["cn_pre"] is None and "Dumps (MUKEY 289517)" in metrics["runoff_note"]


def test_the_default_group_fills_dumps_and_the_note_says_so(tmp_path):
    soils = _gssurgo(tmp_path, [(DUMPS, box(-50, -50, 250, 250))])
    metrics = _run(tmp_path, soils, default_hsg="D").runoff.metrics_of(0)
    assert metrics["cn_pre"] == pytest.approx(81.8)
    assert "taken as group D (--default-hsg)" in metrics["runoff_note"]


def test_the_ssurgo_text_table_names_the_unit_from_its_second_field(tmp_path):
    # SSURGO 2.x muaggatt.txt: musym, muname, ... hydgrpdcd (18th), ... mukey (40th).
    spatial, tabular = tmp_path / "soil_ny119" / "spatial", tmp_path / "soil_ny119" / "tabular"
    spatial.mkdir(parents=True)
    tabular.mkdir()
    gpd.GeoDataFrame(
        {"MUSYM": ["Du"], "MUKEY": [DUMPS]},
        geometry=[box(-50, -50, 250, 250)],
        crs=STATE_PLANE_EAST,
    ).to_file(spatial / "soilmu_a_ny119.shp")
    row = [""] * 40
    row[0], row[1], row[39] = "Du", "Dumps, landfill", DUMPS
    with (tabular / "muaggatt.txt").open("w", newline="") as handle:
        csv.writer(handle, delimiter="|", quoting=csv.QUOTE_ALL).writerow(row)
    metrics = _run(tmp_path, str(spatial / "soilmu_a_ny119.shp")).runoff.metrics_of(0)
    assert "Dumps, landfill (MUKEY 289517)" in metrics["runoff_note"]


def test_without_impervious_layers_each_lot_says_the_screen_could_not_run(tmp_path):
    soils = _gssurgo(tmp_path, [(URBAN_LAND, box(-50, -50, 250, 250))])
    result = _run(tmp_path, soils, cover=False)
    for row in (0, 1):
        metrics = result.runoff.metrics_of(row)
        assert metrics["retention_required_cuft"] is None
        assert metrics["runoff_note"].startswith(
            "runoff not screened: no existing or proposed impervious cover measured for the lot"
        )


def test_the_note_reaches_the_json_and_the_geopackage(tmp_path):
    soils = _gssurgo(
        tmp_path, [(DUMPS, box(-50, -50, 100, 250)), (URBAN_LAND, box(100, -50, 250, 250))]
    )
    layers = _site(tmp_path)
    arguments = ["check", "--ordinance", "scarsdale", "--quiet", "--rainfall", RAINFALL]
    for role, source in layers.items():
        arguments += [f"--{role.replace('_', '-')}", f"{source.path}:{source.layer}"]
    out = tmp_path / "out"
    arguments += ["--soils", soils, "--out", f"{out}.gpkg", "--json", f"{out}.json"]
    arguments += ["--json-layout", "full"]
    assert main(arguments) == 0
    entries = json.loads(Path(f"{out}.json").read_text())["parcels"]
    notes = {entry["parcel_id"]: entry["metrics"]["runoff_note"] for entry in entries}
    assert "Dumps (MUKEY 289517)" in notes["L1"] and notes["L2"] is None
    table = pyogrio.read_dataframe(f"{out}.gpkg", layer="parcels").set_index("parcel_id")
    assert "Dumps (MUKEY 289517)" in table.loc["L1", "runoff_note"]
