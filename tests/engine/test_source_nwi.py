"""NWI and DEC wetlands as published (issue 12, item 6).

The National Wetlands Inventory maps wetlands and deepwater habitats alike,
in its Albers CRS (EPSG:5070), with the Cowardin code in ATTRIBUTE and the
type in WETLAND_TYPE (WETLAND_TY in a shapefile). A lake, a river or a pond
is not a wetland with a 100-ft adjacent area; a forested wetland is. The
DEC's checkzone is not the wetlands. The areas below are boxes in State Plane
feet, worked out by hand.
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import geopandas as gpd
import pytest
from shapely.geometry import box

from sitecheck.app.cli import main
from sitecheck.constraints.wetland_classes import class_of_cowardin

from .conftest import STATE_PLANE_EAST, write_layer

NWI_CRS = "EPSG:5070"  # CONUS Albers, NWI's downloads

# Work 100 x 100 ft at (100..200, 100..200) on a 400 x 300 ft lot.
WORK = box(100, 100, 200, 200)
# Polygons west of the work, 60 ft away: the work is in their 100-ft adjacent area.
FORESTED = box(100, 200, 200, 260)  # north of the work: touches it, none of it inside
LAKE = box(0, 100, 40, 200)  # 60 ft west
RIVER = box(140, 0, 160, 300)  # runs through the work: 20 x 100 = 2,000 sq ft of it


def _nwi(path: Path, layer: str | None, with_type: bool = True, type_field: str = "WETLAND_TYPE"):
    rows = [
        ("PFO1E", "Freshwater Forested/Shrub Wetland", FORESTED),
        ("L1UBH", "Lake", LAKE),
        ("R2UBH", "Riverine", RIVER),
    ]
    data = {"ATTRIBUTE": [r[0] for r in rows], "ACRES": [0.1, 0.1, 0.1]}
    if with_type:
        data[type_field] = [r[1] for r in rows]
    frame = gpd.GeoDataFrame(data, geometry=[r[2] for r in rows], crs=STATE_PLANE_EAST)
    frame = frame.to_crs(NWI_CRS)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the shapefile truncates WETLAND_TYPE: as NWI's does
        frame.to_file(path, layer=layer)
    return str(path) if layer is None else f"{path}:{layer}"


def _check(tmp_path: Path, wetlands: str, *extra: str) -> dict:
    gpkg = tmp_path / "site.gpkg"
    parcels = write_layer(gpkg, "parcels", [{"parcel_id": "L1", "geometry": box(0, 0, 400, 300)}])
    work = write_layer(gpkg, "work", [{"parcel_id": "L1", "geometry": WORK}])
    out = tmp_path / "out"
    argv = ["measure", "--quiet", "--parcels", parcels, "--disturbance", work]
    argv += [
        "--wetlands",
        wetlands,
        *extra,
        "--out",
        f"{out}.gpkg",
        "--json-layout",
        "full",
        "--json",
        f"{out}.json",
    ]
    assert main(argv) == 0
    return json.loads(Path(f"{out}.json").read_text())


def _wetland_metrics(document: dict) -> tuple[float, float]:
    metrics = document["parcels"][0]["metrics"]
    return metrics["disturbed_in_wetland_sqft"], metrics["disturbed_in_wetland_adjacent_sqft"]


@pytest.mark.parametrize(
    ("name", "with_type", "type_field"),
    [
        ("NY_Wetlands.gpkg", True, "WETLAND_TYPE"),
        ("NY_Wetlands.shp", True, "WETLAND_TYPE"),  # written as WETLAND_TY
        ("NY_Wetlands_old.gpkg", False, ""),  # codes only, as older downloads
    ],
)
def test_deepwater_habitats_are_not_wetlands(tmp_path, name, with_type, type_field):
    layer = "NY_Wetlands" if name.endswith(".gpkg") else None
    wetlands = _nwi(tmp_path / name, layer, with_type, type_field or "WETLAND_TYPE")
    document = _check(tmp_path, wetlands)
    in_wetland, adjacent = _wetland_metrics(document)
    # Only the forested wetland counts: the work touches it (0 inside) and all of
    # the work is within 100 ft of it.
    assert in_wetland == pytest.approx(0.0, abs=0.5)
    assert adjacent == pytest.approx(10_000.0, rel=1e-3)
    warning = " ".join(document["warnings"])
    assert "National Wetlands Inventory" in warning and "not the DEC's regulatory map" in warning
    assert document["settings"]["nwi_classes"] == [
        "freshwater_emergent",
        "freshwater_forested_shrub",
        "estuarine_marine_wetland",
        "other",
    ]


def test_the_user_chooses_which_classes_count(tmp_path):
    wetlands = _nwi(tmp_path / "nwi.gpkg", "NY_Wetlands")
    in_wetland, adjacent = _wetland_metrics(
        _check(tmp_path, wetlands, "--nwi-classes", "freshwater_forested_shrub,riverine")
    )
    assert in_wetland == pytest.approx(2_000.0, rel=1e-3)  # the river's strip
    assert adjacent == pytest.approx(8_000.0, rel=1e-3)  # the rest, within 100 ft


def test_an_unknown_class_is_refused_naming_the_option(tmp_path, capsys):
    wetlands = _nwi(tmp_path / "nwi.gpkg", "NY_Wetlands")
    gpkg = tmp_path / "site.gpkg"
    parcels = write_layer(gpkg, "parcels", [{"parcel_id": "L1", "geometry": box(0, 0, 400, 300)}])
    work = write_layer(gpkg, "work", [{"parcel_id": "L1", "geometry": WORK}])
    argv = ["measure", "--parcels", parcels, "--disturbance", work, "--wetlands", wetlands]
    assert main([*argv, "--nwi-classes", "swamp", "--out", str(tmp_path / "o.gpkg")]) == 2
    assert "--nwi-classes: swamp is not an NWI class" in capsys.readouterr().err


def test_dec_regulated_wetlands_count_whole_with_their_adjacent_area(tmp_path):
    gpkg = tmp_path / "dec.gpkg"
    wetlands = write_layer(
        gpkg,
        "Freshwater_Wetlands",
        [{"WETID": "WP-12", "CLASS": 2, "geometry": LAKE}],  # DEC's fields: no NWI codes
    )
    document = _check(tmp_path, wetlands)
    # 60 ft away: the work's west 40 ft (40 x 100) lie within 100 ft of the wetland.
    assert _wetland_metrics(document) == (0.0, pytest.approx(4_000.0, rel=1e-3))
    assert not any("National Wetlands Inventory" in w for w in document["warnings"])


def test_a_dec_checkzone_given_as_wetlands_is_refused(tmp_path, capsys):
    gpkg = tmp_path / "dec.gpkg"
    checkzone = write_layer(
        gpkg, "Freshwater_Wetlands_Checkzones", [{"geometry": box(0, 0, 400, 300)}]
    )
    parcels = write_layer(gpkg, "parcels", [{"parcel_id": "L1", "geometry": box(0, 0, 400, 300)}])
    work = write_layer(gpkg, "work", [{"parcel_id": "L1", "geometry": WORK}])
    argv = ["measure", "--parcels", parcels, "--disturbance", work, "--wetlands", checkzone]
    assert main([*argv, "--out", str(tmp_path / "o.gpkg")]) == 2
    error = capsys.readouterr().err
    assert "wetlands layer" in error and "checkzone" in error
    assert not (tmp_path / "o.gpkg").exists()


@pytest.mark.parametrize(
    ("code", "kind"),
    [
        # Examples of the FWS "Guide to Understanding NWI Mapping Codes".
        ("PEM1E", "freshwater_emergent"),
        ("PFO1/SS1E", "freshwater_forested_shrub"),
        ("PSS1C", "freshwater_forested_shrub"),
        ("PUBHh", "freshwater_pond"),
        ("PABF", "freshwater_pond"),
        ("L1UBH", "lake"),
        ("L2EM2H", "lake"),
        ("R2UBH", "riverine"),
        ("R4SBC", "riverine"),
        ("E1UBL", "estuarine_marine_deepwater"),
        ("E2EM1P", "estuarine_marine_wetland"),
        ("M2USN", "estuarine_marine_wetland"),
        ("Pf", "other"),
        ("PUSC", "other"),
    ],
)
def test_cowardin_codes_read_as_the_nwi_types(code, kind):
    assert class_of_cowardin(code) == kind


@pytest.mark.parametrize("entry", ["measure settings", "option", "command line"])
def test_every_default_adjacent_area_is_new_yorks_100_ft(tmp_path, entry):
    """ECL § 24-0701(2): the adjacent area is the land within 100 feet of a freshwater
    wetland. Work from 40 to 140 ft east of a wetland's edge, 100 ft tall: its first
    60 ft (6,000 sq ft) lie within 100 ft of the wetland, whichever way the default came."""
    from sitecheck.measure.inputs import MeasureSettings
    from sitecheck.schema.options import option

    if entry == "measure settings":
        assert MeasureSettings().wetland_adjacent_ft == 100.0
        return
    if entry == "option":
        assert option("wetland_adjacent_ft").default == 100.0
        return
    gpkg = tmp_path / "site.gpkg"
    lots = write_layer(gpkg, "lots", [{"parcel_id": "L1", "geometry": box(0, 0, 400, 200)}])
    work = write_layer(gpkg, "work", [{"geometry": box(140, 50, 240, 150)}])
    wetland = write_layer(
        gpkg,
        "wet",
        [{"WETLAND_TYPE": "Freshwater Emergent Wetland", "geometry": box(0, 0, 100, 200)}],
    )
    out = tmp_path / "o"
    argv = ["measure", "--quiet", "--parcels", lots, "--disturbance", work, "--wetlands", wetland]
    assert (
        main([*argv, "--out", f"{out}.gpkg", "--json", f"{out}.json", "--json-layout", "full"]) == 0
    )
    metrics = json.loads(Path(f"{out}.json").read_text())["parcels"][0]["metrics"]
    assert metrics["disturbed_in_wetland_adjacent_sqft"] == pytest.approx(60 * 100, rel=1e-6)
