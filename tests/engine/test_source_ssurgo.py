"""SSURGO and gSSURGO soils as downloaded (issue 12, item 1).

Map-unit polygons carry MUKEY; the hydrologic group is in the tables:
``muaggatt.hydgrpdcd`` or the components' ``hydgrp`` with ``comppct_r`` and
``majcompflag``. The lot is L1 of ``test_runoff_screen`` ([0,100] x [0,200] ft,
2,000 sq ft of existing cover, 4,000 proposed), so on group B the composite
curve numbers are those of TR-55 Table 2-2a worked there: before
(2,000 x 98 + 18,000 x 61) / 20,000 = 64.7. On group C (open space 74):
(2,000 x 98 + 18,000 x 74) / 20,000 = 76.4; on D (80): 81.8.
"""

from __future__ import annotations

import csv
import warnings
from pathlib import Path

import geopandas as gpd
import pandas as pd
import pyogrio
import pytest
from shapely.geometry import box

from sitecheck.errors import InputError
from sitecheck.io.readers import LayerSource
from sitecheck.measure.inputs import MeasureInputs
from sitecheck.pipeline.run import screen
from sitecheck.pipeline.spec import RunSpec
from sitecheck.screening.runoff_result import RunoffOptions

from .conftest import STATE_PLANE_EAST, write_layer

RAINFALL = "2=3.5,10=5.1,25=6.2,50=7.0,100=8.0"
B_UNIT, URBAN_LAND = "289621", "289700"


def _site(tmp_path: Path) -> dict[str, LayerSource]:
    gpkg = tmp_path / "site.gpkg"
    specs = {
        "parcels": write_layer(
            gpkg, "parcels", [{"parcel_id": "L1", "geometry": box(0, 0, 100, 200)}]
        ),
        "disturbance": write_layer(
            gpkg, "work", [{"parcel_id": "L1", "geometry": box(5, 5, 95, 65)}]
        ),
        "impervious_existing": write_layer(gpkg, "existing", [{"geometry": box(10, 10, 50, 60)}]),
        "impervious_proposed": write_layer(gpkg, "proposed", [{"geometry": box(10, 10, 90, 60)}]),
    }
    return {role: LayerSource.parse(role, spec) for role, spec in specs.items()}


def _cn_pre(tmp_path: Path, soils: str, **options) -> tuple[float | None, list[str]]:
    runoff = RunoffOptions(soils=LayerSource.parse("soils", soils), rainfall=RAINFALL, **options)
    result = screen(RunSpec(MeasureInputs(**_site(tmp_path)), ordinance="scarsdale", runoff=runoff))
    assert result.runoff is not None
    return result.runoff.metrics_of(0)["cn_pre"], list(result.measured.log.warnings)


def _map_units(mukey: str = B_UNIT) -> gpd.GeoDataFrame:
    return gpd.GeoDataFrame(
        {"AREASYMBOL": ["NY119"], "SPATIALVER": [5], "MUSYM": ["ChB"], "MUKEY": [mukey]},
        geometry=[box(-50, -50, 150, 250)],
        crs=STATE_PLANE_EAST,
    )


def _muaggatt_row(mukey: str, group: str) -> list[str]:
    row = [""] * 40  # SSURGO 2.x muaggatt: hydgrpdcd the 18th field, mukey the 40th
    row[0], row[1], row[17], row[39] = "ChB", "Charlton loam", group, mukey
    return row


def test_the_ssurgo_download_folder(tmp_path):
    spatial = tmp_path / "soil_ny119" / "spatial"
    tabular = tmp_path / "soil_ny119" / "tabular"
    spatial.mkdir(parents=True)
    tabular.mkdir()
    _map_units().to_file(spatial / "soilmu_a_ny119.shp")
    with (tabular / "muaggatt.txt").open("w", newline="") as handle:
        writer = csv.writer(handle, delimiter="|", quoting=csv.QUOTE_ALL)
        writer.writerow(_muaggatt_row(B_UNIT, "B"))
        writer.writerow(_muaggatt_row(URBAN_LAND, ""))
    cn, warnings_ = _cn_pre(tmp_path, str(spatial / "soilmu_a_ny119.shp"))
    assert cn == pytest.approx(64.7)
    assert any("muaggatt.hydgrpdcd" in w and "joined on MUKEY" in w for w in warnings_)


def test_a_gssurgo_style_geopackage_with_its_tables(tmp_path):
    gpkg = tmp_path / "gSSURGO_NY.gpkg"
    _map_units().to_file(gpkg, layer="MUPOLYGON")
    table = pd.DataFrame({"mukey": [B_UNIT, URBAN_LAND], "hydgrpdcd": ["B", None]})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        pyogrio.write_dataframe(table, gpkg, layer="muaggatt")
    cn, _ = _cn_pre(tmp_path, f"{gpkg}:MUPOLYGON")
    assert cn == pytest.approx(64.7)


def test_a_qgis_join_field_name(tmp_path):
    units = _map_units()
    units["muaggatt_hydgrpdcd"] = ["B"]
    path = tmp_path / "joined.gpkg"
    units.to_file(path, layer="soils")
    assert _cn_pre(tmp_path, f"{path}:soils")[0] == pytest.approx(64.7)


def test_a_component_table_gives_the_dominant_major_component(tmp_path):
    path = tmp_path / "mu.gpkg"
    _map_units().to_file(path, layer="soilmu_a_ny119")
    table = tmp_path / "component.csv"
    pd.DataFrame(
        {
            "mukey": [B_UNIT, B_UNIT, B_UNIT],
            "cokey": ["1", "2", "3"],
            "comppct_r": [35, 50, 15],
            "majcompflag": ["Yes", "Yes", "No "],
            "hydgrp": ["B", "C", "A"],
        }
    ).to_csv(table, index=False)
    cn, warnings_ = _cn_pre(tmp_path, f"{path}:soilmu_a_ny119", soil_table=str(table))
    assert cn == pytest.approx(76.4)  # the 50% component, group C
    assert any("component.hydgrp" in w for w in warnings_)


def test_urban_land_has_no_group_and_takes_the_default(tmp_path):
    path = tmp_path / "mu.gpkg"
    _map_units(URBAN_LAND).to_file(path, layer="soils")
    table = tmp_path / "muaggatt.csv"
    pd.DataFrame({"mukey": [URBAN_LAND], "hydgrpdcd": [""]}).to_csv(table, index=False)
    cn, warnings_ = _cn_pre(tmp_path, f"{path}:soils", soil_table=str(table), default_hsg="D")
    assert cn == pytest.approx(81.8)
    assert any("no hydrologic soil group" in w and "(--default-hsg)" in w for w in warnings_)


def test_map_units_without_any_table_are_refused_naming_the_option(tmp_path):
    path = tmp_path / "mu.gpkg"
    _map_units().to_file(path, layer="soils")
    with pytest.raises(InputError, match="--soil-table"):
        _cn_pre(tmp_path, f"{path}:soils")
