"""The project as the unit: thresholds apply to a land development activity, not a tax lot
(issue 13, item 11).

Homer § 228-78A: a land development activity is one "that involves the disturbance
of 10,000 square feet or more". A 10,034 sq ft project split 9,700 / 334 sq ft
across a lot line is over it, though neither lot is.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import geopandas as gpd
import pytest
from shapely.geometry import box

from sitecheck.app.cli import main
from sitecheck.io.readers import LayerSource
from sitecheck.measure.inputs import MeasureInputs, MeasureSettings
from sitecheck.pipeline.run import screen
from sitecheck.pipeline.spec import RunSpec

from .conftest import write_layer

X0, Y0 = 1_000_000.0, 1_000_000.0
CRS = "EPSG:2261"  # NY State Plane Central (Homer)
LOT_A = box(X0, Y0, X0 + 200, Y0 + 300)
LOT_B = box(X0 + 200, Y0, X0 + 400, Y0 + 300)
# 97 x 100 ft on lot A (9,700 sq ft) and 3.34 x 100 ft on lot B (334 sq ft).
SPLIT_WORK = box(X0 + 103, Y0 + 10, X0 + 203.34, Y0 + 110)


def _layers(tmp_path: Path, work: list[dict], lots=(("A", LOT_A), ("B", LOT_B))) -> dict:
    gpkg = tmp_path / "site.gpkg"
    return {
        "parcels": write_layer(
            gpkg, "parcels", [{"parcel_id": i, "geometry": g} for i, g in lots], crs=CRS
        ),
        "disturbance": write_layer(gpkg, "work", work, crs=CRS),
    }


def _screen(layers: dict, ordinance: str):
    sources = {role: LayerSource.parse(role, spec) for role, spec in layers.items()}
    return screen(RunSpec(MeasureInputs(**sources), MeasureSettings(), ordinance, 0.0))


def _outcome(outcome, rule_id: str) -> str:
    return next(t.outcome for t in outcome.triggers if t.rule.id == rule_id)


FIELDS = {"activity": "construction", "project_type": "commercial"}


def test_a_project_split_by_a_lot_line_is_measured_whole(tmp_path):
    work = [{"project": "P1", **FIELDS, "geometry": SPLIT_WORK}]
    result = _screen(_layers(tmp_path, work), "homer")
    lots = result.measured.parcels.set_index("parcel_id")
    assert lots.loc["A", "disturbed_area_sqft"] == pytest.approx(9_700.0)
    assert lots.loc["B", "disturbed_area_sqft"] == pytest.approx(334.0)
    for row in range(2):  # the lot view: neither lot reaches 10,000 sq ft
        assert _outcome(result.outcomes[row], "homer.swppp") == "not_triggered"
    projects = result.projects
    assert projects is not None and projects.ids == ["P1"] and projects.lots == [["A", "B"]]
    site = projects.site_result
    assert site.measured.parcels["disturbed_area_sqft"].iat[0] == pytest.approx(10_034.0)
    assert site.measured.parcels["lot_area_sqft"].iat[0] == pytest.approx(120_000.0)
    assert _outcome(site.outcomes[0], "homer.swppp") == "triggered"


def test_without_a_project_field_each_lot_is_its_own_project(tmp_path):
    work = [{**FIELDS, "geometry": SPLIT_WORK}]
    result = _screen(_layers(tmp_path, work), "homer")
    projects = result.projects
    assert projects is not None and not projects.from_field
    assert projects.ids == ["A", "B"] and projects.lots == [["A"], ["B"]]


def test_work_without_a_name_joins_the_project_of_its_lot(tmp_path):
    other = box(X0 + 10, Y0 + 200, X0 + 60, Y0 + 240)  # 2,000 sq ft on lot A, no project
    work = [
        {"project": "P1", **FIELDS, "geometry": SPLIT_WORK},
        {**FIELDS, "geometry": other},
    ]
    projects = _screen(_layers(tmp_path, work), "homer").projects
    assert projects.ids == ["P1", "A"]
    assert projects.lots == [["A", "B"], ["A"]]
    assert any("both have work on lot A" in note for note in projects.notes)


def test_a_spill_onto_a_neighbour_carries_the_projects_fields(tmp_path):
    # Larchmont § 335-28A applies to "any applicant for any demolition or building permit":
    # the 307 sq ft over the line is the same applicant's work, with the same permit.
    spill = box(X0 + 150, Y0 + 10, X0 + 203.07, Y0 + 110)  # 307 sq ft on lot B
    work = [{"permit": "building", "activity": "construction", "geometry": spill}]
    result = _screen(_layers(tmp_path, work), "larchmont")
    lots = result.measured.parcels.set_index("parcel_id")
    assert lots.loc["B", "disturbed_area_sqft"] == pytest.approx(307.0)
    on_b = result.outcomes[1]
    reasons = " ".join(t.reason for t in on_b.triggers)
    assert "permit sought not given" not in reasons
    assert "activity not given" not in reasons


def test_a_multi_lot_site_asks_whether_the_laws_lot_is_the_site(tmp_path):
    # Scarsdale § 254-7: a permit for "more than 200 square feet on lots 7,500 square feet
    # or less", "more than 500 square feet on lots greater than 7,500 square feet".
    lot_c = box(X0, Y0, X0 + 70, Y0 + 100)  # 7,000 sq ft
    lot_d = box(X0 + 70, Y0, X0 + 140, Y0 + 100)  # 7,000 sq ft
    work = [
        {
            "project": "P2",
            "activity": "construction",
            "geometry": box(X0 + 55, Y0 + 10, X0 + 85, Y0 + 20),  # 150 + 150 sq ft
        }
    ]
    layers = _layers(tmp_path, work, lots=(("C", lot_c), ("D", lot_d)))
    sources = {role: LayerSource.parse(role, spec) for role, spec in layers.items()}
    result = screen(RunSpec(MeasureInputs(**sources), MeasureSettings(), "scarsdale", 0.0))
    site = result.projects.site_result
    permit = next(t for t in site.outcomes[0].triggers if t.rule.id == "scarsdale.permit")
    assert permit.outcome == "needs_review"
    assert "is the law's lot the site or each lot?" in permit.reason
    assert "14,000 sq ft together" in permit.reason


def test_each_multi_lot_site_of_a_run_is_asked_with_its_own_lots(tmp_path):
    # Scarsdale § 254-7 as above. P3's lots are 10,000 sq ft each: its 300 sq ft is under
    # the 500 sq ft of lots greater than 7,500 sq ft read with the site or either lot, so it
    # asks nothing. P2's lots are 7,000 sq ft: the site (14,000) reads 500 sq ft, either
    # lot 200 sq ft, and its 300 sq ft is over the one and under the other: the question.
    # Both sites are decided together; each must read its own lots' areas.
    lot_e = box(X0, Y0 + 200, X0 + 100, Y0 + 300)  # 10,000 sq ft
    lot_f = box(X0 + 100, Y0 + 200, X0 + 200, Y0 + 300)  # 10,000 sq ft
    lot_c = box(X0, Y0, X0 + 70, Y0 + 100)  # 7,000 sq ft
    lot_d = box(X0 + 70, Y0, X0 + 140, Y0 + 100)  # 7,000 sq ft
    work = [
        {
            "project": "P2",
            "activity": "construction",
            "geometry": box(X0 + 55, Y0 + 10, X0 + 85, Y0 + 20),
        },
        {
            "project": "P3",
            "activity": "construction",
            "geometry": box(X0 + 85, Y0 + 210, X0 + 115, Y0 + 220),
        },
    ]
    lots = (("E", lot_e), ("F", lot_f), ("C", lot_c), ("D", lot_d))
    site = _screen(_layers(tmp_path, work, lots=lots), "scarsdale").projects.site_result
    ids = list(site.measured.parcels["parcel_id"].astype(str))
    p3 = next(t for t in site.outcomes[ids.index("P3")].triggers if t.rule.id == "scarsdale.permit")
    p2 = next(t for t in site.outcomes[ids.index("P2")].triggers if t.rule.id == "scarsdale.permit")
    assert p3.outcome == "not_triggered"
    assert "is the law's lot" not in p3.reason
    assert p2.outcome == "needs_review"
    assert "the lots 7,000 to 7,000 sq ft" in p2.reason


def test_the_json_and_the_geopackage_carry_the_projects(tmp_path):
    layers = _layers(tmp_path, [{"project": "P1", **FIELDS, "geometry": SPLIT_WORK}])
    out, doc = tmp_path / "o.gpkg", tmp_path / "o.json"
    args = ["check", "--ordinance", "homer", "--quiet", "--tolerance", "0"]
    args += ["--out", str(out), "--json-layout", "full", "--json", str(doc)]
    args += ["--parcels", layers["parcels"], "--disturbance", layers["disturbance"]]
    assert main(args) == 0
    document = json.loads(doc.read_text())
    [project] = document["projects"]
    assert project["project_id"] == "P1" and project["lots"] == ["A", "B"]
    assert project["metrics"]["disturbed_area_sqft"] == pytest.approx(10_034.0)
    assert project["highest_severity"] == "permit_required"
    assert any(
        t["rule_id"] == "homer.swppp" and t["outcome"] == "triggered" for t in project["triggers"]
    )
    parcels = {p["parcel_id"]: p for p in document["parcels"]}
    assert parcels["B"]["projects"] == ["P1"]
    assert parcels["B"]["project_note"] == "work of project P1 on this lot"
    layer = gpd.read_file(out, layer="projects")
    assert list(layer["project_id"]) == ["P1"] and list(layer["lots"]) == ["A, B"]
    assert layer["disturbed_area_sqft"].iat[0] == pytest.approx(10_034.0)
    lots = gpd.read_file(out, layer="parcels").set_index("parcel_id")
    assert lots.loc["A", "projects"] == "P1"


@pytest.mark.slow
def test_the_dask_engine_checks_a_project_across_partitions_as_one(tmp_path):
    layers = _layers(tmp_path, [{"project": "P1", **FIELDS, "geometry": SPLIT_WORK}])
    documents = {}
    for engine in ("single", "dask"):
        out, doc = tmp_path / f"{engine}.gpkg", tmp_path / f"{engine}.json"
        args = ["check", "--ordinance", "homer", "--quiet", "--tolerance", "0"]
        args += ["--out", str(out), "--json-layout", "full", "--json", str(doc)]
        args += ["--parcels", layers["parcels"], "--disturbance", layers["disturbance"]]
        if engine == "dask":
            args += ["--engine", "dask", "--workers", "1", "--partition-size", "1"]
        assert main(args) == 0
        documents[engine] = json.loads(doc.read_text())
    single, dask = (documents[e]["projects"] for e in ("single", "dask"))
    assert [p["project_id"] for p in dask] == ["P1"]
    for key in ("lots", "highest_severity", "design_storm"):
        assert dask[0][key] == single[0][key], key
    assert dask[0]["metrics"]["disturbed_area_sqft"] == pytest.approx(10_034.0)
    assert {t["rule_id"]: t["outcome"] for t in dask[0]["triggers"]} == {
        t["rule_id"]: t["outcome"] for t in single[0]["triggers"]
    }
    assert list(gpd.read_file(tmp_path / "dask.gpkg", layer="projects")["lots"]) == ["A, B"]


def test_a_lot_two_projects_share_names_both_in_order_and_the_other_lot_one(tmp_path):
    layers = _layers(
        tmp_path,
        [
            {"project": "P1", **FIELDS, "geometry": SPLIT_WORK},
            {"project": "P2", **FIELDS, "geometry": box(X0 + 10, Y0 + 200, X0 + 30, Y0 + 220)},
        ],
    )
    out, report = tmp_path / "o.gpkg", tmp_path / "report.html"
    args = ["check", "--ordinance", "homer", "--quiet", "--out", str(out), "--report", str(report)]
    args += ["--parcels", layers["parcels"], "--disturbance", layers["disturbance"]]
    assert main(args) == 0
    lots = gpd.read_file(out, layer="parcels").set_index("parcel_id")
    assert lots.loc["A", "projects"] == "P1, P2" and lots.loc["B", "projects"] == "P1"
    html = report.read_text()
    notes = {}
    for lot in ("A", "B"):
        section = html.split(f'alt="Map of parcel {lot}"', 1)[1].split("</section>", 1)[0]
        notes[lot] = re.findall(r"Work of project <strong>(\w+)</strong>", section)
    assert notes == {"A": ["P1", "P2"], "B": ["P1"]}


def test_a_site_takes_the_impervious_cover_of_its_lots_only_when_others_have_work(tmp_path):
    """The site pass reads the impervious layers around the sites alone: the site's cover
    is its two lots' (by hand), and the far lot's own project keeps the lot view's."""
    far = box(X0 + 5_000, Y0, X0 + 5_200, Y0 + 300)
    layers = _layers(
        tmp_path,
        [
            {"project": "P1", **FIELDS, "geometry": SPLIT_WORK},
            {"project": "P2", **FIELDS, "geometry": box(X0 + 5_010, Y0 + 10, X0 + 5_050, Y0 + 50)},
        ],
        lots=(("A", LOT_A), ("B", LOT_B), ("C", far)),
    )
    layers["impervious_existing"] = write_layer(
        tmp_path / "site.gpkg",
        "roofs",
        [
            {"geometry": box(X0 + 20, Y0 + 200, X0 + 60, Y0 + 250)},  # 2,000 sq ft on A
            {"geometry": box(X0 + 300, Y0 + 200, X0 + 330, Y0 + 230)},  # 900 sq ft on B
            {"geometry": box(X0 + 5_100, Y0 + 200, X0 + 5_150, Y0 + 300)},  # 5,000 on C
        ],
        crs=CRS,
    )
    result = _screen(layers, "homer")
    projects = result.projects
    assert projects is not None and projects.ids == ["P1", "P2"]
    site = projects.site_result.measured.parcels
    assert site["parcel_id"].iat[0] == "P1"
    assert site["impervious_existing_sqft"].iat[0] == pytest.approx(2_900.0)
    lots = result.measured.parcels.set_index("parcel_id")
    assert lots.loc["C", "impervious_existing_sqft"] == pytest.approx(5_000.0)
    assert projects.site_rows == [0, -1] and projects.lot_rows[1] == 2


def test_the_work_is_read_once_though_its_projects_are_checked_on_their_sites(
    tmp_path, monkeypatch
):
    # A county's work layer (or a PostGIS table of it) costs a read, a cleaning and a
    # hash for the audit: the grouping by project takes the features the lots read.
    from sitecheck.io import vector_source

    layers = _layers(tmp_path, [{"project": "P1", **FIELDS, "geometry": SPLIT_WORK}])
    reads: list[str] = []
    original = vector_source.read_dataframe

    def counted(path, layer, *args, **kwargs):
        reads.append(str(layer))
        return original(path, layer, *args, **kwargs)

    monkeypatch.setattr(vector_source, "read_dataframe", counted)
    result = _screen(layers, "homer")
    assert result.projects is not None and result.projects.site_result is not None
    assert reads.count("work") == 1, reads
    assert _outcome(result.projects.site_result.outcomes[0], "homer.swppp") == "triggered"


def test_the_work_on_each_lot_is_kept_as_split_for_the_grouping(tmp_path):
    # The grouping finds a project's lots from the lot view's split (a second overlay of
    # a county's work took 0.4 s): the areas it reads are the work's on each lot, by hand
    # 97 x 100 ft on lot A and 3.34 x 100 ft on lot B.
    layers = _layers(tmp_path, [{"project": "P1", **FIELDS, "geometry": SPLIT_WORK}])
    result = _screen(layers, "homer")
    meeting = result.measured.work_on_lots
    assert meeting is not None
    lots = result.measured.parcels["parcel_id"].astype(str).tolist()
    found = {
        (int(feature), lots[int(lot)]): float(area)
        for feature, lot, area in zip(meeting.feature, meeting.lot, meeting.area, strict=True)
    }
    assert found == pytest.approx({(0, "A"): 9_700.0, (0, "B"): 334.0})
    assert result.projects is not None and result.projects.lots == [["A", "B"]]


def _cover_layers(tmp_path: Path, work: list[dict]) -> dict:
    """Lots A and B with their roofs: 1,000 sq ft on A and 800 on B; after the work, A's
    1,000 and a 300 sq ft addition (the proposed layer holds the cover of A alone)."""
    layers = _layers(tmp_path, work)
    gpkg = tmp_path / "site.gpkg"
    roof_a = box(X0 + 20, Y0 + 250, X0 + 60, Y0 + 275)  # 40 x 25 ft
    roof_b = box(X0 + 300, Y0 + 200, X0 + 340, Y0 + 220)  # 40 x 20 ft
    addition = box(X0 + 110, Y0 + 20, X0 + 140, Y0 + 30)  # 30 x 10 ft, on A
    layers["impervious_existing"] = write_layer(
        gpkg, "roofs", [{"geometry": roof_a}, {"geometry": roof_b}], crs=CRS
    )
    layers["impervious_proposed"] = write_layer(
        gpkg, "roofs_after", [{"geometry": roof_a}, {"geometry": addition}], crs=CRS
    )
    return layers


def test_a_site_keeps_the_cover_of_a_lot_its_work_only_spills_onto(tmp_path):
    """A lot the work only spills onto keeps its existing cover (measure_impervious), so
    its project's change is its lots': +300 sq ft on A, none on B, +300 on the site. The
    site measured whole read B's 800 sq ft as removed (-500), and Scarsdale's
    no-increase relief from the retrofit requirement (§ 254-7) held."""
    work = [{"project": "P1", **FIELDS, "geometry": SPLIT_WORK}]  # 9,700 on A, 334 on B
    result = _screen(_cover_layers(tmp_path, work), "scarsdale")
    lots = result.measured.parcels.set_index("parcel_id")
    assert lots.loc["A", "impervious_net_change_sqft"] == pytest.approx(300.0)
    assert lots.loc["B", "impervious_proposed_sqft"] == pytest.approx(800.0)
    site = result.projects.site_result
    table = site.measured.parcels
    assert table["parcel_id"].iat[0] == "P1"
    assert table["impervious_existing_sqft"].iat[0] == pytest.approx(1_800.0)
    assert table["impervious_proposed_sqft"].iat[0] == pytest.approx(2_100.0)
    assert table["impervious_net_change_sqft"].iat[0] == pytest.approx(300.0)
    assert table["impervious_net_change_acres"].iat[0] == pytest.approx(300.0 / 43_560, abs=1e-4)
    # 2,100 sq ft of the site's 120,000
    assert table["impervious_proposed_pct"].iat[0] == pytest.approx(1.75)
    assert _outcome(site.outcomes[0], "scarsdale.retrofit_relief") == "not_triggered"


def test_a_lot_two_sites_share_gives_its_cover_to_the_first(tmp_path):
    """P1 spans A and B, P2 works on A alone: A's cover goes with P1 only, as the site pass
    said before the sites took their lots' cover, and B keeps its own."""
    work = [
        {"project": "P1", **FIELDS, "geometry": SPLIT_WORK},
        {"project": "P2", **FIELDS, "geometry": box(X0 + 10, Y0 + 200, X0 + 30, Y0 + 220)},
    ]
    result = _screen(_cover_layers(tmp_path, work), "scarsdale")
    assert result.projects.ids == ["P1", "P2"] and result.projects.site_rows == [0, 1]
    table = result.projects.site_result.measured.parcels
    assert table["impervious_existing_sqft"].iloc[:2].tolist() == pytest.approx([1_800.0, 0.0])
    assert table["impervious_proposed_sqft"].iloc[:2].tolist() == pytest.approx([2_100.0, 0.0])


def test_a_sites_cover_stays_unknown_without_the_impervious_layers(tmp_path):
    """Without the impervious layers the lots' cover is unknown, and so is each site's,
    the site that shares its lot with the first included: never 0 sq ft."""
    work = [
        {"project": "P1", **FIELDS, "geometry": SPLIT_WORK},
        {"project": "P2", **FIELDS, "geometry": box(X0 + 10, Y0 + 200, X0 + 30, Y0 + 220)},
    ]
    result = _screen(_layers(tmp_path, work), "scarsdale")
    table = result.projects.site_result.measured.parcels.iloc[:2]
    for name in ("impervious_existing_sqft", "impervious_proposed_sqft"):
        assert table[name].isna().all(), table[name].tolist()


def test_a_sliver_of_a_projects_work_on_a_third_lot_is_its_site_not_outside(tmp_path):
    # The work runs 0.005 ft over lot A's rear line onto lot C: 100.34 x 0.005 = 0.50 sq ft,
    # under the 1 sq ft that makes C one of the project's lots. The lot view counts that
    # sliver on the feature's own lot (A), so no lot has work outside it; the site (A and B)
    # must not call it work outside the site either.
    lot_c = box(X0, Y0 + 300, X0 + 400, Y0 + 600)  # behind both A and B
    feature = box(X0 + 103, Y0 + 10, X0 + 203.34, Y0 + 300.005)  # 100.34 x 290.005 ft
    work = [{"project": "P1", **FIELDS, "geometry": feature}]
    lots = (("A", LOT_A), ("B", LOT_B), ("C", lot_c))
    result = _screen(_layers(tmp_path, work, lots=lots), "homer")
    table = result.measured.parcels.set_index("parcel_id")
    assert table.loc["C", "disturbed_area_sqft"] == 0.0
    assert table["disturbed_outside_parcel_sqft"].sum() == 0.0
    projects = result.projects
    assert projects.lots == [["A", "B"]]
    site = projects.site_result.measured.parcels
    assert site["parcel_id"].iat[0] == "P1"
    assert site["disturbed_outside_parcel_sqft"].iat[0] == 0.0
    assert site["disturbed_area_sqft"].iat[0] == pytest.approx(100.34 * 290.005, abs=0.01)
