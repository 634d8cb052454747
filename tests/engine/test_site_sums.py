"""A project's site takes its lots' figures where they add up to the site's (issue 30).

The reference is the site measured whole, its work and all, as every run did before:
the grouping, the site's layers and the measuring are the engine's own public steps,
run here without the sums. On generated villages (lots of random widths, projects
over their lines, flood zones, a wetland, a watercourse along a lot line, two
districts, a DEM with steep ground, impervious cover) every figure of every site
must be the same both ways, to the cent of a square foot for each lot summed; the
rules must decide the same. Then the cases where a sum is not the site's figure, each
worked by hand.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest
from shapely.geometry import LineString, box

from sitecheck.io.readers import LayerSource
from sitecheck.measure.driver import measure
from sitecheck.measure.inputs import MeasureInputs, MeasureSettings
from sitecheck.pipeline.run import run_packs, screen
from sitecheck.pipeline.spec import RunSpec
from sitecheck.schema.metrics import METRICS
from sitecheck.screening.check import check_parcels
from sitecheck.screening.project_sites import group_projects, measured_sites, site_layers
from sitecheck.screening.site_sums import SUMMED, BareSites, areas_only, summed_sites

from .conftest import write_dem, write_layer

X0, Y0 = 1_000_000.0, 1_000_000.0
CRS = "EPSG:2263"  # NY State Plane Long Island, US feet (Westchester)
DEPTH = 150.0  # each row of lots is 150 ft deep


def _village(tmp_path: Path, seed: int) -> MeasureInputs:
    """Three lots of random widths in each of two rows, a project over the line between
    two lots of each row, one-lot work beside them, and every constraint layer."""
    rng = np.random.default_rng(seed)
    gpkg = tmp_path / "village.gpkg"
    edges = np.concatenate([[0.0], np.cumsum(rng.uniform(80, 140, 3))])
    lots, work = [], []
    for row in range(2):
        y = Y0 + row * DEPTH
        for column in range(3):
            lot = box(X0 + edges[column], y, X0 + edges[column + 1], y + DEPTH)
            lots.append({"parcel_id": f"{row}-{column}", "geometry": lot})
        line = X0 + edges[1 + row]  # between lots 0 and 1, or 1 and 2
        west, east = line - rng.uniform(10, 60), line + rng.uniform(5, 60)
        # The front row's project reaches into the street on every other village.
        bottom = y + (rng.uniform(-20, -5) if row == 0 and seed % 2 else rng.uniform(20, 60))
        work.append(
            {
                "project": f"P{row}",
                "activity": "construction",
                "geometry": box(west, bottom, east, bottom + rng.uniform(30, 80)),
            }
        )
        # A second feature of the project on its west lot, and one-lot work two lots away.
        west_lot = X0 + edges[row]
        work.append(
            {
                "project": f"P{row}",
                "activity": rng.choice(["construction", "home gardening"]),
                "permit": "building",
                "geometry": box(west_lot + 5, y + 95, west_lot + 35, y + 95 + rng.uniform(10, 40)),
            }
        )
    far = X0 + edges[2] + 10
    work.append({"activity": "construction", "geometry": box(far, Y0 + 20, far + 30, Y0 + 60)})
    width = edges[-1]
    flood_top = Y0 + rng.uniform(30, 200)
    layers = {
        "parcels": write_layer(gpkg, "parcels", lots, crs=CRS),
        "disturbance": write_layer(gpkg, "disturbance", work, crs=CRS),
        "floodplain": write_layer(
            gpkg,
            "floodplain",
            [
                {
                    "FLD_ZONE": "AE",
                    "ZONE_SUBTY": None,
                    "SFHA_TF": "T",
                    "geometry": box(X0 - 50, Y0 - 50, X0 + width + 50, flood_top),
                },
                {
                    "FLD_ZONE": "X",
                    "ZONE_SUBTY": "0.2 PCT ANNUAL CHANCE FLOOD HAZARD",
                    "SFHA_TF": "F",
                    "geometry": box(X0 - 50, flood_top, X0 + width + 50, flood_top + 40),
                },
            ],
            crs=CRS,
        ),
        "wetlands": write_layer(
            gpkg,
            "wetlands",
            [{"geometry": box(X0 + rng.uniform(0, 200), Y0 + 180, X0 + 330, Y0 + 220)}],
            crs=CRS,
        ),
        # Along the line between the two lots of the back row's project: on its site, on
        # neither lot (a lot's line is not in it).
        "watercourses": write_layer(
            gpkg,
            "watercourses",
            [{"geometry": LineString([(X0 + edges[2], Y0 + 160), (X0 + edges[2], Y0 + 290)])}],
            crs=CRS,
        ),
        "zoning": write_layer(
            gpkg,
            "zoning",
            [
                {"district": "A-1", "geometry": box(X0 - 50, Y0 - 50, X0 + 160, Y0 + 400)},
                {"district": "B-1", "geometry": box(X0 + 160, Y0 - 50, X0 + 500, Y0 + 400)},
            ],
            crs=CRS,
        ),
        "impervious_existing": write_layer(
            gpkg,
            "impervious_existing",
            [{"geometry": box(X0 + 20, Y0 + 10, X0 + 300, Y0 + 25)}],
            crs=CRS,
        ),
        "impervious_proposed": write_layer(
            gpkg,
            "impervious_proposed",
            [{"geometry": box(X0 + 20, Y0 + 10, X0 + 320, Y0 + 30)}],
            crs=CRS,
        ),
    }
    # A hillside steepening eastward: slopes from gentle to over 25%.
    cells = np.arange(0, 560, 5.0)
    x, y = np.meshgrid(cells, cells[::-1])
    elevation = 0.0003 * x**2 + 0.05 * y + 3 * np.sin(y / 17.0 + seed)
    dem = write_dem(tmp_path / "dem.tif", elevation, X0 - 100, Y0 + 460, 5.0, crs=CRS)
    sources = {role: LayerSource.parse(role, spec) for role, spec in layers.items()}
    return MeasureInputs(**sources, dem=dem)


def _measured_whole(inputs: MeasureInputs, lot_result):
    """The sites as every run measured them before: whole, with their work."""
    grouping = group_projects(lot_result)
    lot_view = lot_result.measured
    reader, settings = site_layers(grouping, lot_view)
    whole_inputs = dataclasses.replace(inputs, impervious_existing=None, impervious_proposed=None)
    sites = measure(whole_inputs, settings, reader=reader)
    measured_sites(sites, grouping, lot_view)
    return grouping, reader, sites


def _decided(result, count: int) -> list[list[tuple[str, str]]]:
    return [
        sorted((t.rule.id, t.outcome) for t in result.outcomes[row].triggers)
        for row in range(count)
    ]


@pytest.mark.parametrize("seed", range(8))
def test_a_sites_summed_figures_are_those_of_the_site_measured_whole(tmp_path, seed):
    inputs = _village(tmp_path, seed)
    spec = RunSpec(inputs, MeasureSettings(), "scarsdale", 0.0)
    result = screen(spec)
    grouping, reader, whole = _measured_whole(inputs, result)
    count = len(grouping.on_site)
    assert grouping.on_site == ["P0", "P1"]
    # The sums are taken (not the whole measuring again): the site result is the summed one.
    bare = BareSites.of(whole, count)
    assert summed_sites(grouping, result.measured, reader.sites, lambda: bare) is not None
    summed = result.projects.site_result
    ours = summed.measured.parcels.iloc[:count].reset_index(drop=True)
    theirs = whole.parcels.iloc[:count].reset_index(drop=True)
    assert list(ours["parcel_id"]) == list(theirs["parcel_id"]) == ["P0", "P1"]
    assert (ours["disturbed_area_sqft"] > 0).all()
    assert (ours["disturbed_outside_parcel_sqft"].iat[0] > 0) == (seed % 2 == 1)
    assert ours["disturbed_on_slope_over_15pct_sqft"].sum() > 0  # the DEM is read
    lots = result.measured.parcels.set_index("parcel_id")
    assert not lots.loc[["1-1", "1-2"], "watercourse_on_lot"].any()
    assert list(ours["watercourse_on_lot"]) == [False, True]
    for column in theirs.columns:
        if column == theirs.geometry.name:
            continue
        mine, reference = ours[column], theirs[column]
        if pd.api.types.is_float_dtype(reference):
            # Each lot's figure is rounded to the cent before the sum: a site of n lots may
            # read up to n cents from its figure measured whole.
            lots = np.array([len(grouping.members[p]) for p in ["P0", "P1"]])
            a, b = mine.to_numpy(float), reference.to_numpy(float)
            assert np.array_equal(np.isnan(a), np.isnan(b)), column
            assert (np.nan_to_num(np.abs(a - b)) <= 0.01 * lots + 1e-9).all(), (column, a, b)
        else:
            assert mine.astype(object).tolist() == reference.astype(object).tolist(), column
    packs = run_packs(spec)
    reference_result = check_parcels(whole, packs, 0.0)
    assert _decided(summed, count) == _decided(reference_result, count)


LOT_A = box(X0, Y0, X0 + 200, Y0 + 300)
LOT_B = box(X0 + 200, Y0, X0 + 400, Y0 + 300)


def _site(tmp_path: Path, work: list[dict], dem: str | None = None, more_lots=(), lot_b=LOT_B):
    gpkg = tmp_path / "site.gpkg"
    lots = [{"parcel_id": "A", "geometry": LOT_A}, {"parcel_id": "B", "geometry": lot_b}]
    lots += [{"parcel_id": lot, "geometry": shape} for lot, shape in more_lots]
    layers = {
        "parcels": write_layer(gpkg, "parcels", lots, crs=CRS),
        "disturbance": write_layer(gpkg, "work", work, crs=CRS),
    }
    sources = {role: LayerSource.parse(role, spec) for role, spec in layers.items()}
    result = screen(RunSpec(MeasureInputs(**sources, dem=dem), MeasureSettings(), "homer", 0.0))
    lots_table = result.measured.parcels.set_index("parcel_id")
    return lots_table, result.projects.site_result.measured.parcels.iloc[0]


def test_phased_work_on_a_site_is_measured_whole(tmp_path):
    # Phase 1: 50 x 20 ft on lot A (1,000 sq ft). Phase 2: 40 x 30 ft over the line, 600 sq ft
    # on each lot. Lot A's most at one time is 1,000 sq ft, lot B's 600; the project's is
    # phase 2's 1,200 sq ft, not the lots' 1,600.
    work = [
        {"project": "P", "phase": 1, "geometry": box(X0 + 10, Y0 + 10, X0 + 60, Y0 + 30)},
        {"project": "P", "phase": 2, "geometry": box(X0 + 180, Y0 + 100, X0 + 220, Y0 + 130)},
    ]
    lots, site = _site(tmp_path, work)
    assert lots.loc["A", "max_disturbed_at_one_time_sqft"] == pytest.approx(1_000.0)
    assert lots.loc["B", "max_disturbed_at_one_time_sqft"] == pytest.approx(600.0)
    assert site["max_disturbed_at_one_time_sqft"] == pytest.approx(1_200.0)
    assert site["disturbed_area_sqft"] == pytest.approx(2_200.0)


def test_another_projects_work_on_a_sites_lot_is_not_the_sites(tmp_path):
    # Project P: 97 x 100 ft on lot A and 3.34 x 100 ft on lot B (10,034 sq ft). Work of no
    # project on lot B alone, 20 x 50 ft: lot B's own project, 1,000 sq ft that is not P's.
    work = [
        {"project": "P", "geometry": box(X0 + 103, Y0 + 10, X0 + 203.34, Y0 + 110)},
        {"geometry": box(X0 + 300, Y0 + 200, X0 + 320, Y0 + 250)},
    ]
    lots, site = _site(tmp_path, work)
    assert lots.loc["B", "disturbed_area_sqft"] == pytest.approx(1_334.0)
    assert site["disturbed_area_sqft"] == pytest.approx(10_034.0)


def test_a_speck_of_another_projects_work_on_a_sites_lot_is_not_the_sites(tmp_path):
    # Project Q's only feature is 0.5 x 1 ft on lot B: under the 1 sq ft that gives Q a lot,
    # so B is P's alone, yet B's figure holds the speck (10,034 sq ft of P's, 0.5 of Q's).
    work = [
        {"project": "P", "geometry": box(X0 + 103, Y0 + 10, X0 + 203.34, Y0 + 110)},
        {"project": "Q", "geometry": box(X0 + 300, Y0 + 200, X0 + 300.5, Y0 + 201)},
    ]
    lots, site = _site(tmp_path, work)
    assert lots.loc["B", "disturbed_area_sqft"] == pytest.approx(334.5)
    assert site["disturbed_area_sqft"] == pytest.approx(10_034.0)


def test_work_naming_a_lot_outside_its_site_is_measured_whole(tmp_path):
    # The feature names lot C, 200 ft away, in its parcel-id field: the lots' view counts
    # its street part (100 x 20 ft) on C. Its site (A and B, 50 x 100 ft on each) holds all
    # of it: 12,000 sq ft, 2,000 of them in the street.
    lot_c = box(X0 + 600, Y0, X0 + 800, Y0 + 300)
    work = [
        {
            "project": "P",
            "parcel_id": "C",
            "geometry": box(X0 + 150, Y0 - 20, X0 + 250, Y0 + 100),
        }
    ]
    lots, site = _site(tmp_path, work, more_lots=[("C", lot_c)])
    assert lots.loc["C", "disturbed_outside_parcel_sqft"] == pytest.approx(2_000.0)
    assert site["disturbed_outside_parcel_sqft"] == pytest.approx(2_000.0)
    assert site["disturbed_area_sqft"] == pytest.approx(12_000.0)


def test_lots_that_overlap_are_measured_whole(tmp_path):
    # Lot B overlaps lot A by 10 ft (x 190-200). Two features of one project cover that
    # strip, each owned by the lot holding most of it, and each lot keeps its own
    # feature's part of the strip: lot A 100 x 50 ft, lot B 110 x 50 ft, 10,500 sq ft
    # between them. The site holds x 100-300 by 50 ft once: 10,000 sq ft.
    lot_b = box(X0 + 190, Y0, X0 + 400, Y0 + 300)
    work = [
        {"project": "P", "geometry": box(X0 + 100, Y0 + 10, X0 + 200, Y0 + 60)},
        {"project": "P", "geometry": box(X0 + 190, Y0 + 10, X0 + 300, Y0 + 60)},
    ]
    lots, site = _site(tmp_path, work, lot_b=lot_b)
    assert lots["disturbed_area_sqft"].sum() == pytest.approx(10_500.0)
    assert site["disturbed_area_sqft"] == pytest.approx(10_000.0)


def test_street_parts_of_two_lots_that_overlap_count_once_on_the_site(tmp_path):
    # Two features of one project reach 20 ft into the street below both lots, each owned
    # by the lot holding most of it: x 150-210 (A) and x 190-300 (B). Their street parts
    # overlap over x 190-210. The site's work is x 150-300 by 120 ft, 18,000 sq ft, 3,000
    # of them in the street; the lots' figures add up to 18,400 and 3,400.
    work = [
        {"project": "P", "geometry": box(X0 + 150, Y0 - 20, X0 + 210, Y0 + 100)},
        {"project": "P", "geometry": box(X0 + 190, Y0 - 20, X0 + 300, Y0 + 100)},
    ]
    lots, site = _site(tmp_path, work)
    assert lots["disturbed_outside_parcel_sqft"].sum() == pytest.approx(3_400.0)
    assert site["disturbed_outside_parcel_sqft"] == pytest.approx(3_000.0)
    assert site["disturbed_area_sqft"] == pytest.approx(18_000.0)


def test_a_site_whose_lots_the_dem_covers_unequally_weighs_their_work(tmp_path):
    # 1,000 sq ft of the project's work on each lot; the DEM stops 25 ft into lot B, so the
    # lots' shares of work on known slope differ. The site's share is the mean of the
    # lots', weighed by their work: measured whole, not one lot's share.
    work = [{"project": "P", "geometry": box(X0 + 150, Y0 + 100, X0 + 250, Y0 + 120)}]
    cells = np.arange(0, 325, 5.0)
    x, _ = np.meshgrid(cells, np.arange(0, 400, 5.0))
    dem = write_dem(tmp_path / "dem.tif", 0.2 * x, X0 - 100, Y0 + 350, 5.0, crs=CRS)
    lots, site = _site(tmp_path, work, dem)
    shares = lots.loc[["A", "B"], "slope_data_coverage"].to_numpy(float)
    assert shares[0] != shares[1]
    assert site["slope_data_coverage"] == pytest.approx(shares.mean(), abs=1e-4)


def test_only_kinds_that_give_areas_let_a_site_take_its_lots_sums():
    # A constraint kind plugged in later may give a yes or no, which no sum of lots gives.
    def kind(*metric_kinds: str) -> SimpleNamespace:
        return SimpleNamespace(metrics=tuple(SimpleNamespace(kind=k) for k in metric_kinds))

    assert areas_only(())
    assert areas_only((kind("area"), kind("area", "area")))
    assert not areas_only((kind("area"), kind("area", "boolean")))


# What a site takes from elsewhere than its lots' sums: its own (measured bare), and its
# lots' by measured_sites (cover, buffer) or by one share (slope coverage).
NOT_SUMMED = {
    "lot_area_sqft",
    "watercourse_on_lot",
    "in_sda",
    "in_impaired_watershed",
    "zoning_district",
    "impervious_existing_sqft",
    "impervious_proposed_sqft",
    "impervious_net_change_sqft",
    "impervious_proposed_pct",
    "disturbed_in_adjoining_buffer_sqft",
    "slope_data_coverage",
}


def test_every_metric_a_site_has_is_summed_or_taken_on_purpose():
    # A metric added to the schema must be placed: summed over a site's lots, or taken
    # otherwise. Left out, a summed site would read the bare site's figure for it (its
    # work being the site itself): this test fails first.
    assert {metric.name for metric in METRICS} == set(SUMMED) | NOT_SUMMED
    assert not set(SUMMED) & NOT_SUMMED
