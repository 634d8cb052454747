"""The sample village generator: deterministic, realistic enough, every project present."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pyogrio
import pyproj
import pytest
import rasterio
import shapely

from sitecheck.sample import village as sample_village

LAYER_FIELDS = {
    "parcels": (["parcel_id", "address", "owner", "land_use"], "Polygon"),
    "impervious_existing": (["parcel_id", "kind"], "Polygon"),
    "impervious_proposed": (["parcel_id", "kind"], "Polygon"),
    "disturbance": (
        [
            "parcel_id",
            "project",
            "phase",
            "project_type",
            "activity",
            "permit",
            "larger_common_plan",
        ],
        "Polygon",
    ),
    "floodplain": (["FLD_ZONE", "ZONE_SUBTY", "SFHA_TF"], "Polygon"),
    "watercourses": (["name"], "LineString"),
    "wetlands": (["wetland_id", "class"], "Polygon"),
    "sda": (["name"], "Polygon"),
    "zoning": (["district"], "Polygon"),
    "impaired_watersheds": (["name", "pollutant"], "Polygon"),
}
ACRE = 43560.0


def _generate(outdir: Path, **kwargs: object) -> tuple[dict[str, Path], list[dict[str, str]]]:
    paths = sample_village.generate_village(outdir, **kwargs)  # type: ignore[arg-type]
    return paths, [dict(p) for p in sample_village.PROJECTS]


@pytest.fixture(scope="module")
def village(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    paths, projects = _generate(tmp_path_factory.mktemp("village"))
    gpkg = paths["gpkg"]
    layers = {name: pyogrio.read_dataframe(gpkg, layer=name) for name in LAYER_FIELDS}
    return {"paths": paths, "projects": projects, "layers": layers}


def _layers(village: dict[str, object]) -> dict[str, pd.DataFrame]:
    return village["layers"]  # type: ignore[return-value]


def _disturbance_of(village: dict[str, object], prefix: str) -> shapely.Geometry:
    dist = _layers(village)["disturbance"]
    rows = dist[dist["project"].str.startswith(prefix + " ")]
    assert len(rows) > 0, f"no disturbance for {prefix}"
    return shapely.union_all(rows.geometry.to_numpy())


def _lots(village: dict[str, object]) -> np.ndarray:
    return _layers(village)["parcels"].geometry.to_numpy()


def test_writes_both_files_and_no_temporary_ones(village: dict[str, object]) -> None:
    paths = village["paths"]
    assert isinstance(paths, dict)
    outdir = paths["gpkg"].parent
    assert paths == {"gpkg": outdir / "village.gpkg", "dem": outdir / "dem.tif"}
    assert sorted(p.name for p in outdir.iterdir()) == ["dem.tif", "village.gpkg"]


def test_same_arguments_give_the_same_layers(village: dict[str, object], tmp_path: Path) -> None:
    paths, projects = _generate(tmp_path)
    first = village["paths"]
    assert isinstance(first, dict)
    assert projects == village["projects"]
    for name, _ in pyogrio.list_layers(first["gpkg"]):
        a = pyogrio.read_dataframe(first["gpkg"], layer=name)
        b = pyogrio.read_dataframe(paths["gpkg"], layer=name)
        if "geometry" in a:
            wkb_a, wkb_b = (shapely.to_wkb(f.geometry.to_numpy()) for f in (a, b))
            assert (wkb_a == wkb_b).all(), name
            a, b = a.drop(columns="geometry"), b.drop(columns="geometry")
        pd.testing.assert_frame_equal(pd.DataFrame(a), pd.DataFrame(b))
    with rasterio.open(first["dem"]) as one, rasterio.open(paths["dem"]) as two:
        assert one.profile == two.profile
        assert np.array_equal(one.read(1), two.read(1))


def test_lot_count_and_unique_ids(village: dict[str, object]) -> None:
    parcels = _layers(village)["parcels"]
    assert abs(len(parcels) - 300) <= 30
    assert parcels["parcel_id"].is_unique
    assert parcels["parcel_id"].str.fullmatch(r"\d+\.\d+-\d+-\d+").all()


def test_lots_tile_their_blocks(village: dict[str, object]) -> None:
    lots = _lots(village)
    assert shapely.is_valid(lots).all()
    total = shapely.area(lots).sum()
    assert abs(total - shapely.union_all(lots).area) <= 1e-4 * total
    assert shapely.coverage_is_valid(lots)  # shared boundaries match vertex for vertex


def test_lot_size_mix(village: dict[str, object]) -> None:
    area = shapely.area(_lots(village))
    assert (area < 7500.0).sum() >= 10
    assert (area > 2 * ACRE).sum() >= 3
    assert ((area >= 10000.0) & (area <= 25000.0)).mean() > 0.5


def test_layers_fields_and_crs(village: dict[str, object]) -> None:
    paths = village["paths"]
    assert isinstance(paths, dict)
    listed = {name: kind for name, kind in pyogrio.list_layers(paths["gpkg"])}
    for name, (fields, geometry_type) in LAYER_FIELDS.items():
        info = pyogrio.read_info(paths["gpkg"], layer=name)
        assert list(info["fields"]) == fields, name
        assert info["crs"] == "EPSG:2260", name
        assert listed[name] == geometry_type, name
        assert info["features"] > 0, name
    projects = pyogrio.read_dataframe(paths["gpkg"], layer="projects")
    assert list(projects.columns) == ["name", "parcel_id", "exercises"]
    assert projects.to_dict("records") == village["projects"]


def test_placed_in_scarsdale(village: dict[str, object]) -> None:
    x0, y0, x1, y1 = _layers(village)["parcels"].total_bounds
    to_lonlat = pyproj.Transformer.from_crs(2260, 4326, always_xy=True)
    lon, lat = to_lonlat.transform((x0 + x1) / 2, (y0 + y1) / 2)
    assert abs(lat - 41.0) < 0.05 and abs(lon + 73.8) < 0.05


def test_floodplain_bands(village: dict[str, object]) -> None:
    flood = _layers(village)["floodplain"]
    floodway = flood[flood["ZONE_SUBTY"] == "FLOODWAY"]
    assert (floodway["FLD_ZONE"] == "AE").all() and (floodway["SFHA_TF"] == "T").all()
    x_band = flood[flood["FLD_ZONE"] == "X"]
    assert (x_band["ZONE_SUBTY"] == "0.2 PCT ANNUAL CHANCE FLOOD HAZARD").all()
    assert (x_band["SFHA_TF"] == "F").all()
    assert flood[(flood["FLD_ZONE"] == "AE") & flood["ZONE_SUBTY"].isna()].shape[0] >= 2
    geoms = flood.geometry.to_numpy()
    assert abs(shapely.area(geoms).sum() - shapely.union_all(geoms).area) < 1.0
    one_pct = shapely.union_all(flood[flood["SFHA_TF"] == "T"].geometry.to_numpy())
    x0, y0, x1, y1 = _layers(village)["parcels"].total_bounds
    inner = shapely.box(x0 + 30, y0, x1 - 30, y1)  # away from the village edge the stream leaves by
    ring = shapely.intersection(shapely.buffer(shapely.union_all(floodway.geometry), 10.0), inner)
    assert shapely.difference(ring, one_pct).area < 1.0


def test_dem_slopes_and_nodata(village: dict[str, object]) -> None:
    paths = village["paths"]
    assert isinstance(paths, dict)
    with rasterio.open(paths["dem"]) as src:
        assert src.crs.to_epsg() == 2260
        assert src.dtypes[0] == "float32" and src.nodata == -9999.0
        assert src.res == (2.0, 2.0)
        dem = src.read(1, masked=True)
        village_box = shapely.box(*_layers(village)["parcels"].total_bounds)
        assert shapely.box(*src.bounds).contains(village_box)
    assert 0 < dem.mask.sum() < 1000
    gy, gx = np.gradient(dem.filled(np.nan), 2.0)
    slope = np.hypot(gx, gy)
    slope = slope[~np.isnan(slope)]
    assert (slope > 0.25).sum() > 100
    assert ((slope > 0.15) & (slope <= 0.25)).sum() > 100
    assert np.median(slope) < 0.06


def test_every_project_has_disturbance(village: dict[str, object]) -> None:
    projects = village["projects"]
    assert isinstance(projects, list)
    assert [p["name"].split()[0] for p in projects] == [f"P{k}" for k in range(1, 11)]
    dist = _layers(village)["disturbance"]
    proposed = _layers(village)["impervious_proposed"]
    for project in projects:
        rows = dist[dist["project"] == project["name"]]
        assert len(rows) > 0, project["name"]
        assert (rows["parcel_id"] == project["parcel_id"]).all()
    assert set(proposed["parcel_id"]) <= {p["parcel_id"] for p in projects}


def test_curb_cut_extends_outside_every_lot(village: dict[str, object]) -> None:
    p4 = _disturbance_of(village, "P4")
    assert shapely.difference(p4, shapely.union_all(_lots(village))).area > 50.0


def test_side_line_crossing(village: dict[str, object]) -> None:
    parcels = _layers(village)["parcels"]
    dist = _layers(village)["disturbance"]
    own = dist[dist["project"].str.startswith("P5 ")]["parcel_id"].iloc[0]
    others = parcels[parcels["parcel_id"] != own].geometry.to_numpy()
    p5 = _disturbance_of(village, "P5")
    assert shapely.area(shapely.intersection(others, p5)).sum() > 50.0


def test_large_phased_project_and_demolition(village: dict[str, object]) -> None:
    dist = _layers(village)["disturbance"]
    p3 = dist[dist["project"].str.startswith("P3 ")]
    assert sorted(p3["phase"]) == [1, 2, 3]
    assert p3.area.sum() > 2 * ACRE and p3.area.max() > ACRE
    p7 = dist[dist["project"].str.startswith("P7 ")]
    assert (p7["permit"] == "demolition").all()
    existing = _layers(village)["impervious_existing"]
    proposed = _layers(village)["impervious_proposed"]
    lot = p7["parcel_id"].iloc[0]
    assert (
        proposed[proposed["parcel_id"] == lot].area.sum()
        < existing[existing["parcel_id"] == lot].area.sum()
    )


def test_a_bench_village_repeats_the_district(tmp_path: Path) -> None:
    paths, projects = _generate(tmp_path, parcels=3000)
    info = pyogrio.read_info(paths["gpkg"], layer="parcels")
    assert abs(info["features"] - 3000) <= 300
    assert pyogrio.read_info(paths["gpkg"], layer="watercourses")["features"] > 1
    random = [p for p in projects if not p["name"].startswith("P")]
    assert len(random) > 0.1 * info["features"]


def test_an_exact_village_has_the_lots_asked_and_no_work_on_lots_cut(tmp_path: Path) -> None:
    paths, _ = _generate(tmp_path, parcels=1234, exact=True)
    lots = pyogrio.read_dataframe(paths["gpkg"], layer="parcels", read_geometry=False)
    assert len(lots) == 1234
    for layer in ("disturbance", "impervious_existing", "impervious_proposed", "projects"):
        drawn = pyogrio.read_dataframe(paths["gpkg"], layer=layer, read_geometry=False)
        assert len(drawn) and drawn["parcel_id"].isin(lots["parcel_id"]).all(), layer
