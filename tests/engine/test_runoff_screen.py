"""The runoff screen of a check run, against hand-computed lots.

Layout (EPSG:2260, feet): lot L1 = [0,100]x[0,200] and lot L2 = [100,200]x[0,200],
20,000 sq ft each, both in Scarsdale.

L1: existing impervious [10,50]x[10,60] = 2,000 sq ft; the project adds
[50,90]x[10,60], so proposed = 4,000 sq ft; disturbance [5,95]x[5,65] = 5,400 sq ft
triggers § 254-7's 25-year storm (a site under two acres).
L2: in the SDA; existing [110,130]x[10,60] = 1,000 sq ft, proposed adds
[130,150]x[10,40] = 600 sq ft; disturbance [105,155]x[5,65] = 3,000 sq ft.

Curve numbers (TR-55 Table 2-2a, USDA SCS TR-55 2nd ed. 1986): impervious 98;
open space in good condition B 61, C 74, D 80; woods in good condition B 55.
Composite CN is area-weighted (TR-55 worksheet 2).
L1, group B: before (2,000 x 98 + 18,000 x 61) / 20,000 = 64.7,
after (4,000 x 98 + 16,000 x 61) / 20,000 = 68.4.
L2 in the SDA, before = the unimproved lot, woods good B = 55 (Scarsdale § 254-7);
after (1,600 x 98 + 18,400 x 61) / 20,000 = 63.96.
WQv = P Rv A / 12, Rv = 0.05 + 0.009 I (NYS Stormwater Management Design Manual,
2015, Table 4.1): L1 at I = 20 %, P = 1.0 in: 1.0 x 0.23 x 20,000 / 12 = 383.33 cu ft.
"""

from __future__ import annotations

import json

import geopandas as gpd
import pytest
from shapely.geometry import box

from sitecheck.app.cli import main
from sitecheck.errors import InputError
from sitecheck.io.readers import LayerSource
from sitecheck.measure.inputs import MeasureInputs
from sitecheck.pipeline.run import screen
from sitecheck.pipeline.spec import RunSpec
from sitecheck.rules.pack import load_pack
from sitecheck.rules.pack_model import PackError
from sitecheck.runoff import RunoffSettings
from sitecheck.screening.runoff_result import RunoffOptions, storm_depths

from .test_pack_loading import GOOD_RULE, write_pack

SITE_RAINFALL = "2=3.5,10=5.1,25=6.2,50=7.0,100=8.0"


def runoff_depth_in(rain_in: float, cn: float) -> float:
    """TR-55 equations 2-1 to 2-4, written out here on purpose."""
    retention = 1000.0 / cn - 10.0
    initial = 0.2 * retention
    return 0.0 if rain_in <= initial else (rain_in - initial) ** 2 / (rain_in + 0.8 * retention)


def volume_cuft(rain_in: float, cn: float, area_sqft: float) -> float:
    return runoff_depth_in(rain_in, cn) / 12.0 * area_sqft


@pytest.fixture
def site(layer_writer) -> dict[str, str]:
    return {
        "parcels": layer_writer(
            "parcels",
            [
                {"parcel_id": "L1", "geometry": box(0, 0, 100, 200)},
                {"parcel_id": "L2", "geometry": box(100, 0, 200, 200)},
            ],
        ),
        "disturbance": layer_writer(
            "disturbance",
            [
                {"parcel_id": "L1", "geometry": box(5, 5, 95, 65)},
                {"parcel_id": "L2", "geometry": box(105, 5, 155, 65)},
            ],
        ),
        "impervious_existing": layer_writer(
            "existing", [{"geometry": box(10, 10, 50, 60)}, {"geometry": box(110, 10, 130, 60)}]
        ),
        "impervious_proposed": layer_writer(
            "proposed",
            [
                {"geometry": box(10, 10, 90, 60)},
                {"geometry": box(110, 10, 130, 60)},
                {"geometry": box(130, 10, 150, 40)},
            ],
        ),
        "sda": layer_writer("sda", [{"name": "SDA", "geometry": box(100, -10, 210, 210)}]),
        "soils": layer_writer(
            "soils",
            [
                {"hydgrp": "B", "geometry": box(0, 0, 50, 200)},
                {"hydgrp": "B/D", "geometry": box(50, 0, 100, 100)},
            ],
        ),
    }


def checked(site: dict[str, str], options: RunoffOptions, with_sda: bool = True):
    layers = {
        name: LayerSource.parse(name, path)
        for name, path in site.items()
        if name not in ("soils", "sda") or (name == "sda" and with_sda)
    }
    return screen(RunSpec(MeasureInputs(**layers), ordinance="scarsdale", runoff=options))


def metrics(result, parcel_id: str) -> dict[str, float | None]:
    row = list(result.measured.parcels["parcel_id"]).index(parcel_id)
    assert result.runoff is not None
    return result.runoff.metrics_of(row)


def test_composite_curve_numbers_and_volumes_surface_by_surface_by_hand(site):
    result = checked(site, RunoffOptions(default_hsg="B", rainfall=SITE_RAINFALL))
    lot = metrics(result, "L1")
    # 20,000 sq ft, 2,000 impervious now and 4,000 after, lawn (CN 61 on B) the rest
    assert lot["cn_pre"] == pytest.approx(64.7)  # the composite, reported as a figure
    assert lot["cn_post"] == pytest.approx(68.4)

    def before(rain):
        return volume_cuft(rain, 98, 2_000) + volume_cuft(rain, 61, 18_000)

    def after(rain):
        return volume_cuft(rain, 98, 4_000) + volume_cuft(rain, 61, 16_000)

    for years, rain in ((2, 3.5), (10, 5.1), (25, 6.2), (50, 7.0), (100, 8.0)):
        assert lot[f"runoff_pre_cuft_{years}yr"] == pytest.approx(before(rain))
        assert lot[f"runoff_post_cuft_{years}yr"] == pytest.approx(after(rain))
    assert lot["retention_storm_yr"] == 25
    assert lot["retention_required_cuft"] == pytest.approx(after(6.2) - before(6.2))
    assert lot["wqv_cuft"] == pytest.approx(383.333, abs=0.01)


def test_an_sda_lot_is_measured_against_unimproved_land(site):
    result = checked(site, RunoffOptions(default_hsg="B", rainfall=SITE_RAINFALL))
    sda_lot = metrics(result, "L2")
    assert sda_lot["cn_pre"] == pytest.approx(55.0)
    assert sda_lot["cn_post"] == pytest.approx(63.96)
    # 1,600 sq ft impervious after (CN 63.96 = 0.08 * 98 + 0.92 * 61), woods (55) before
    after = volume_cuft(6.2, 98, 1_600) + volume_cuft(6.2, 61, 18_400)
    assert sda_lot["retention_required_cuft"] == pytest.approx(
        after - volume_cuft(6.2, 55.0, 20_000)
    )
    assert any(
        "§ 254-7" in line and "1 lot measured against unimproved land" in line
        for line in result.runoff.assumptions
    )


def test_values_read_for_one_condition_are_those_of_the_whole_read(site):
    """The unimproved-before condition reads only the values it names; they are the same
    as those of every value read (the evaluation's)."""
    from sitecheck.screening.values import parcel_value_rows

    measured = checked(site, RunoffOptions(default_hsg="B", rainfall=SITE_RAINFALL)).measured
    rows = [0, 1]
    whole = parcel_value_rows(measured, rows, warn=False)
    named = {"in_sda", "impervious_proposed_sqft", "activity"}
    assert parcel_value_rows(measured, rows, warn=False, names=named) == [
        {name: values[name] for name in named if name in values} for values in whole
    ]
    assert parcel_value_rows(measured, rows, warn=False, names=set()) == [{}, {}]
    assert {values["in_sda"] for values in whole} == {True, False}


def test_without_an_sda_layer_the_before_condition_is_the_existing_cover_and_says_so(site):
    result = checked(site, RunoffOptions(default_hsg="B", rainfall=SITE_RAINFALL), with_sda=False)
    assert metrics(result, "L2")["cn_pre"] == pytest.approx((1_000 * 98 + 19_000 * 61) / 20_000)
    assert any("'in_sda'" in line and "unknown" in line for line in result.runoff.assumptions)


def test_soil_groups_come_from_the_soils_layer_by_area(site):
    soils = LayerSource.parse("soils", site["soils"])
    undrained = metrics(checked(site, RunoffOptions(soils=soils, rainfall=SITE_RAINFALL)), "L1")
    # Mapped: 10,000 sq ft B and 5,000 sq ft B/D (read as D); the rest is unmapped.
    pervious = (2 * 61 + 1 * 80) / 3
    assert undrained["cn_pre"] == pytest.approx(0.1 * 98 + 0.9 * pervious)

    drained = metrics(
        checked(
            site,
            RunoffOptions(
                soils=soils, rainfall=SITE_RAINFALL, settings=RunoffSettings(dual_hsg="drained")
            ),
        ),
        "L1",
    )
    assert drained["cn_pre"] == pytest.approx(64.7)

    filled = metrics(
        checked(site, RunoffOptions(soils=soils, default_hsg="C", rainfall=SITE_RAINFALL)), "L1"
    )
    # The unmapped 5,000 sq ft takes group C (74).
    assert filled["cn_pre"] == pytest.approx(0.1 * 98 + 0.9 * (0.5 * 61 + 0.25 * 80 + 0.25 * 74))


def test_a_lot_outside_the_soil_survey_has_no_runoff_and_the_report_says_why(site):
    soils = LayerSource.parse("soils", site["soils"])
    result = checked(site, RunoffOptions(soils=soils, rainfall=SITE_RAINFALL))
    assert metrics(result, "L2")["cn_pre"] is None
    assert metrics(result, "L2")["retention_required_cuft"] is None
    assert any("without a hydrologic soil group" in line for line in result.runoff.assumptions)


def test_pack_default_depths_fill_storms_the_user_leaves_out_and_must_be_confirmed():
    depths = storm_depths(load_pack("scarsdale"), RunoffOptions(rainfall="25=6.5"))
    assert depths.depths_in[25] == 6.5
    assert depths.given_by_user == (25,)
    assert set(depths.pack_defaults) == {2, 10, 50, 100}
    note = depths.confirm_note()
    assert note is not None and "2-year" in note and "25-year" not in note
    assert "NOAA Atlas 14" in note and "--rainfall" in note
    assert (
        storm_depths(load_pack("scarsdale"), RunoffOptions(rainfall=SITE_RAINFALL)).confirm_note()
        is None
    )


def test_each_pack_screens_the_storms_its_rules_name():
    assert tuple(storm_depths(load_pack("larchmont"), RunoffOptions()).depths_in) == (50, 100)
    # Homer § 228-78B(2)(c) names no storm: the rainfall table's storms, as figures.
    assert load_pack("homer").design_storms == ()
    assert tuple(storm_depths(load_pack("homer"), RunoffOptions()).depths_in) == (
        1,
        2,
        10,
        25,
        50,
        100,
    )
    assert tuple(storm_depths(load_pack("scarsdale"), RunoffOptions()).depths_in) == (
        2,
        10,
        25,
        50,
        100,
    )


STORM_RULE = GOOD_RULE + "design_storm_years = 25\n"


def test_a_custom_pack_without_rainfall_asks_for_the_depth_it_needs(tmp_path):
    pack = load_pack(str(write_pack(tmp_path, STORM_RULE)))
    with pytest.raises(InputError, match=r'give --rainfall "25=INCHES"'):
        storm_depths(pack, RunoffOptions())
    assert storm_depths(pack, RunoffOptions(rainfall="25=5.5")).depths_in == {25: 5.5}


def test_a_custom_pack_carries_its_own_rainfall_and_unimproved_condition(tmp_path):
    body = STORM_RULE + (
        "\n[runoff]\n"
        'unimproved_before_when = "in_sda"\n'
        'unimproved_before_citation = "§ 1-2"\n'
        'rainfall = { source = "NOAA Atlas 14 station 30-6314", depths_in = { 25 = 5.9 },'
        " confirmed = true }\n"
    )
    pack = load_pack(str(write_pack(tmp_path, body)))
    assert pack.runoff.unimproved_before_when_text == "in_sda"
    depths = storm_depths(pack, RunoffOptions())
    assert depths.depths_in == {25: 5.9}
    note = depths.confirm_note()
    assert note is not None and "station 30-6314" in note and "NOT" not in note


@pytest.mark.parametrize(
    ("section", "message"),
    [
        ('[runoff]\nunimproved = "in_sda"\n', "unknown key"),
        ('[runoff]\nunimproved_before_when = "in_sda"\n', "unimproved_before_citation"),
        (
            '[runoff]\nunimproved_before_when = "in_sdaa"\nunimproved_before_citation = "§ 1"\n',
            "in_sdaa",
        ),
        ("[runoff]\nrainfall = { depths_in = { 25 = 5.0 } }\n", "source"),
        (
            '[runoff]\nrainfall = { source = "x", depths_in = { 25 = -5.0 } }\n',
            "positive number of inches",
        ),
        ("[rainfall]\nx = 1\n", "unknown table"),
    ],
)
def test_a_wrong_runoff_section_is_refused_with_the_file(tmp_path, section, message):
    path = write_pack(tmp_path, GOOD_RULE + "\n" + section)
    with pytest.raises(PackError, match=message) as caught:
        load_pack(str(path))
    assert str(path) in str(caught.value)


def cli_args(site: dict[str, str], tmp_path, *extra: str) -> list[str]:
    return [
        "check",
        "--ordinance",
        "scarsdale",
        *[f"--{name.replace('_', '-')}={path}" for name, path in site.items()],
        "--out",
        str(tmp_path / "out.gpkg"),
        "--json-layout",
        "full",
        "--json",
        str(tmp_path / "out.json"),
        "--report",
        str(tmp_path / "report.html"),
        "--quiet",
        *extra,
    ]


def test_the_cli_writes_runoff_to_json_geopackage_and_report(site, tmp_path, capsys):
    assert main(cli_args(site, tmp_path, "--default-hsg", "b", "--rainfall", "25=6.2")) == 0
    printed = capsys.readouterr().out
    assert "retention" in printed and "rainfall: scarsdale" in printed
    document = json.loads((tmp_path / "out.json").read_text())
    lot = next(p for p in document["parcels"] if p["parcel_id"] == "L1")
    assert lot["metrics"]["retention_storm_yr"] == 25
    for key in (
        "cn_pre",
        "cn_post",
        "runoff_pre_cuft_25yr",
        "runoff_post_cuft_25yr",
        "retention_required_cuft",
        "wqv_cuft",
    ):
        assert lot["metrics"][key] is not None, key
    runoff = document["runoff"]
    assert runoff["rainfall"][0]["given_by_user"] == [25]
    assert runoff["confirm"] and "10-year" in runoff["confirm"][0]
    parcels = gpd.read_file(tmp_path / "out.gpkg", layer="parcels")
    row = parcels.set_index("parcel_id").loc["L1"]
    assert row["cn_post"] == pytest.approx(lot["metrics"]["cn_post"])
    assert row["retention_required_cuft"] == pytest.approx(
        lot["metrics"]["retention_required_cuft"]
    )
    html = (tmp_path / "report.html").read_text()
    assert "Runoff screen" in html and "Rainfall to confirm" in html


def test_without_soil_information_no_runoff_is_reported(site, tmp_path):
    site = {name: path for name, path in site.items() if name != "soils"}
    assert main(cli_args(site, tmp_path)) == 0
    document = json.loads((tmp_path / "out.json").read_text())
    assert document["runoff"] is None
    assert "cn_pre" not in document["parcels"][0]["metrics"]


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (("--default-hsg", "B", "--rainfall", "25=six"), "--rainfall: '25=six'"),
        (("--default-hsg", "B", "--wqv-rainfall", "0"), "--wqv-rainfall"),
        (("--soil-field", "musym"), "no soil group field (musym)"),
    ],
)
def test_bad_runoff_options_stop_with_one_line_naming_them(site, tmp_path, capsys, extra, message):
    assert main(cli_args(site, tmp_path, *extra)) == 2
    error = capsys.readouterr().err
    assert message in error
    assert not (tmp_path / "out.gpkg").exists()


def test_a_soil_group_that_is_not_one_names_the_layer_field_and_value(
    site, layer_writer, tmp_path, capsys
):
    site["soils"] = layer_writer("bad_soils", [{"hydgrp": "E", "geometry": box(0, 0, 100, 200)}])
    assert main(cli_args(site, tmp_path)) == 2
    error = capsys.readouterr().err
    assert "bad_soils" in error and "'hydgrp'" in error and "'E'" in error


def test_a_run_with_no_lot_to_screen_writes_empty_runoff_columns(site, layer_writer):
    # Soils given, but no work drawn yet: no lot is screened.
    site = {**site, "disturbance": layer_writer("nothing_drawn", [])}
    site.pop("impervious_proposed")
    result = checked(site, RunoffOptions(soils=LayerSource.parse("soils", site["soils"])))
    table = result.parcels_with_triggers()
    assert table["cn_pre"].isna().all() and table["retention_required_cuft"].isna().all()


@pytest.mark.parametrize(
    ("pack", "cited", "foreign"),
    [
        ("larchmont", ("Village of Larchmont", "§ 335-28A"), ("Scarsdale", "Homer")),
        ("homer", ("Village of Homer",), ("Larchmont", "Scarsdale")),
        ("scarsdale", ("Village of Scarsdale", "§ 254-"), ("Larchmont", "Homer")),
    ],
)
def test_the_runoff_assumptions_cite_only_the_pack_in_use(site, pack, cited, foreign):
    layers = {n: LayerSource.parse(n, p) for n, p in site.items() if n not in ("soils",)}
    options = RunoffOptions(default_hsg="B", rainfall=SITE_RAINFALL)
    result = screen(RunSpec(MeasureInputs(**layers), ordinance=pack, runoff=options))
    assert result.runoff is not None
    text = " ".join(result.runoff.assumptions)
    for village in foreign:
        assert village not in text
    for words in cited:
        assert words in text
