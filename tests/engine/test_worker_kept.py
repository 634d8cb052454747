"""What the panel's worker keeps between answers never answers for another lot."""

from __future__ import annotations

import io
import json
import shutil
from collections.abc import Iterator

import numpy as np
import pyogrio
import rasterio
import shapely

import sitecheck.io.parcels as parcel_reading
from sitecheck.app.worker import serve

from .conftest import let_settle
from .test_worker import DRAWN, _layer_payload, _open_request, _run, village  # noqa: F401


def _answer(reply: dict) -> dict:
    """A reply without what differs from run to run."""
    return {k: v for k, v in reply.items() if k not in ("elapsed_ms", "generated")}


def test_surfaces_kept_between_answers_never_answer_for_another_lot(village, monkeypatch):  # noqa: F811
    """The session keeps the constraint surfaces it dissolved, by the polygons they were
    made from: lots answered in turn, then again, must each get the answer a session
    opened for that lot alone gives, and the second round dissolves nothing again."""
    from sitecheck.geometry.overlay import Surface

    paths, full = village
    gpkg = paths["gpkg"]
    in_water = sorted(
        parcel_id
        for parcel_id, entry in full.items()
        if (entry["metrics"]["disturbed_in_floodplain_1pct_sqft"] or 0) > 0
        or (entry["metrics"]["disturbed_in_wetland_adjacent_sqft"] or 0) > 0
    )
    assert len(in_water) >= 3
    lot_ids = in_water[:3]
    layers = {role: _layer_payload(gpkg, role) for role in DRAWN}

    def evaluate(parcel_id: str) -> dict:
        return {"op": "evaluate", "parcel_id": parcel_id, "layers": layers}

    alone = {lot: _answer(_run([_open_request(paths), evaluate(lot)])[1]) for lot in lot_ids}
    dissolved: list[int] = []
    make = Surface.from_polygons.__func__

    def counted(cls, geoms, tile_size):
        dissolved.append(len(geoms))
        return make(cls, geoms, tile_size)

    monkeypatch.setattr(Surface, "from_polygons", classmethod(counted))
    rounds = [*lot_ids, *lot_ids]
    replies = _run([_open_request(paths), *[evaluate(lot) for lot in rounds]])[1:]
    for lot, reply in zip(rounds, replies, strict=True):
        assert _answer(reply) == alone[lot], lot
    two_rounds = len(dissolved)
    _run([_open_request(paths), *[evaluate(lot) for lot in lot_ids]])
    one_round = len(dissolved) - two_rounds
    assert one_round > 0
    assert two_rounds == one_round  # the second round dissolved nothing


def test_the_lots_around_an_answer_are_read_once_a_session(village, monkeypatch):  # noqa: F811
    """The session keeps the lots it served an answer, their ids checked, by the lot
    shapes they were made from: lots answered in turn, then again, must each get the
    answer a session opened for that lot alone gives, and the second round checks the
    ids of no lot again."""
    paths, full = village
    with open(paths["gpkg"].parent / "full.json") as file:
        sites = [p for p in json.load(file).get("projects", []) if len(p["lots"]) > 1]
    on_sites = {lot for site in sites for lot in site["lots"]}
    # Lots with work of their own, none on a site of several lots (a site is made afresh).
    alone_with_work = sorted(
        parcel_id
        for parcel_id, entry in full.items()
        if (entry["metrics"]["disturbed_area_sqft"] or 0) > 0 and parcel_id not in on_sites
    )
    assert len(alone_with_work) >= 3
    # Apart across the village: no lot among the others' neighbours.
    lot_ids = [alone_with_work[at] for at in (0, len(alone_with_work) // 2, -1)]
    layers = {role: _layer_payload(paths["gpkg"], role) for role in DRAWN}

    def evaluate(parcel_id: str) -> dict:
        return {"op": "evaluate", "parcel_id": parcel_id, "layers": layers}

    alone = {lot: _answer(_run([_open_request(paths), evaluate(lot)])[1]) for lot in lot_ids}
    checked: list[int] = []
    check_ids = parcel_reading.check_ids

    def counted(ids, *args, **kwargs):
        checked.append(len(ids))
        return check_ids(ids, *args, **kwargs)

    monkeypatch.setattr(parcel_reading, "check_ids", counted)
    rounds = [*lot_ids, *lot_ids]
    replies = _run([_open_request(paths), *[evaluate(lot) for lot in rounds]])[1:]
    for lot, reply in zip(rounds, replies, strict=True):
        assert _answer(reply) == alone[lot], lot
    # The session's opening checks the whole layer once; then each lot's neighbourhood once.
    assert len(checked) == 1 + len(lot_ids), checked


def test_a_site_kept_is_the_site_of_the_projects_as_drawn(village):  # noqa: F811
    """The session keeps each project's site by the lots it joins: the same work named
    for another project must be answered as a session opened for that drawing alone
    answers it, drawing after drawing."""
    paths, _ = village
    layers = {role: _layer_payload(paths["gpkg"], role) for role in DRAWN}
    features = layers["disturbance"]["features"]
    pool = next(f for f in features if str(f["properties"].get("project", "")).startswith("P5"))
    renamed = {
        **layers,
        "disturbance": {
            **layers["disturbance"],
            "features": [
                {**f, "properties": {**f["properties"], "project": "P5 renamed"}}
                if f is pool
                else f
                for f in features
            ],
        },
    }
    lot = pool["properties"]["parcel_id"]
    drawings = [layers, renamed]

    def evaluate(drawn: dict) -> dict:
        return {"op": "evaluate", "parcel_id": lot, "layers": drawn}

    alone = [_answer(_run([_open_request(paths), evaluate(drawn)])[1]) for drawn in drawings]
    assert [p["project_id"] for p in alone[1]["projects"] if len(p["lots"]) > 1] == ["P5 renamed"]
    replies = _run([_open_request(paths), *[evaluate(drawn) for drawn in drawings * 2]])[1:]
    assert [_answer(reply) for reply in replies] == alone * 2


def test_a_dem_rewritten_between_answers_is_read_again(village, tmp_path):  # noqa: F811
    """A session holds its DEM open while the file is unchanged: once the file is
    written again (here flattened), the next answer must measure the new elevations,
    as a session opened on the new file does."""
    paths, full = village
    steep = "disturbed_on_slope_over_15pct_sqft"
    lot = sorted(p for p, entry in full.items() if (entry["metrics"][steep] or 0) > 100)[0]
    dem = tmp_path / "dem.tif"
    shutil.copyfile(paths["dem"], dem)
    let_settle(dem)  # old enough to be held open
    opened = {**_open_request(paths), "dem": str(dem)}
    layers = {role: _layer_payload(paths["gpkg"], role) for role in DRAWN}
    evaluate = {"op": "evaluate", "parcel_id": lot, "layers": layers}

    def requests() -> Iterator[str]:
        """An open and an answer; the DEM flattened in place; an answer again."""
        yield json.dumps(opened) + "\n"
        yield json.dumps(evaluate) + "\n"
        with rasterio.open(dem, "r+") as dataset:
            dataset.write(np.full((dataset.height, dataset.width), 100, dataset.dtypes[0]), 1)
        let_settle(dem)  # the new file old enough to be held open in its turn
        yield json.dumps(evaluate) + "\n"

    stdout = io.StringIO()
    assert serve(requests(), stdout) == 0  # type: ignore[arg-type]  # lines, as stdin gives
    before, after = (json.loads(line) for line in stdout.getvalue().splitlines()[1:])
    assert before["metrics"][steep] == full[lot]["metrics"][steep]
    alone = _run([opened, evaluate])[1]
    assert after["metrics"][steep] == alone["metrics"][steep] == 0


def test_a_lots_runoff_kept_is_the_runoff_of_its_numbers(village):  # noqa: F811
    """The session keeps a lot's runoff screen by the numbers it was made from: its
    proposed cover grown between answers must be screened anew, as a session opened for
    each drawing alone screens it, drawing after drawing."""
    paths, full = village
    layers = {role: _layer_payload(paths["gpkg"], role) for role in DRAWN}
    cover = layers["impervious_proposed"]["features"]
    grown = next(
        f
        for f in cover
        if (full.get(str(f["properties"].get("parcel_id")), {}).get("metrics") or {}).get(
            "disturbed_area_sqft"
        )
    )
    lot = str(grown["properties"]["parcel_id"])
    larger = shapely.to_wkb(shapely.buffer(shapely.from_wkb(grown["wkb"]), 3.0, join_style="mitre"))
    more_cover = {
        **layers,
        "impervious_proposed": {
            **layers["impervious_proposed"],
            "features": [{**f, "wkb": larger.hex()} if f is grown else f for f in cover],
        },
    }
    drawings = [layers, more_cover]

    def evaluate(drawn: dict) -> dict:
        return {"op": "evaluate", "parcel_id": lot, "layers": drawn}

    alone = [_answer(_run([_open_request(paths), evaluate(drawn)])[1]) for drawn in drawings]
    post = "runoff_post_cuft_25yr"
    assert alone[1]["metrics"][post] > alone[0]["metrics"][post]
    replies = _run([_open_request(paths), *[evaluate(drawn) for drawn in drawings * 2]])[1:]
    assert [_answer(reply) for reply in replies] == alone * 2


def test_the_dems_grid_is_read_once_while_the_dem_is_held(village, monkeypatch):  # noqa: F811
    """The session keeps the DEM's grid (its CRS parsed from the file, its z factor) with
    the DEM it holds open: a project's lot answered three times, its site measured each
    time too, must get the answer a session opened for it alone gives, and the grid is
    read from the file once (a rewritten DEM is read again: the test above)."""
    import sitecheck.terrain.slope as slope

    paths, _ = village
    let_settle(paths["dem"])  # old enough to be held open
    layers = {role: _layer_payload(paths["gpkg"], role) for role in DRAWN}
    lot = next(
        str(f["properties"]["parcel_id"])
        for f in layers["disturbance"]["features"]
        if str(f["properties"].get("project", "")).startswith("P5")
    )
    evaluate = {"op": "evaluate", "parcel_id": lot, "layers": layers}
    alone = _answer(_run([_open_request(paths), evaluate])[1])
    assert any(len(project["lots"]) > 1 for project in alone["projects"])
    grids: list[str] = []
    dem_grid = slope.dem_grid

    def counted(dataset, settings):
        grids.append(dataset.name)
        return dem_grid(dataset, settings)

    monkeypatch.setattr(slope, "dem_grid", counted)
    replies = _run([_open_request(paths), evaluate, evaluate, evaluate])[1:]
    assert [_answer(reply) for reply in replies] == [alone] * 3
    assert len(grids) == 1, grids


def test_no_answer_changes_a_table_the_session_keeps(village, monkeypatch, tmp_path):  # noqa: F811
    """The session serves the rows it keeps of its layers as they are, not copies: every
    stage of an answer (the lots', a project's site, the runoff screen, a report) must
    leave them as they were made, or the next answer would read what the last one added."""
    import pandas as pd

    from sitecheck.io.kept import KeptByIdentity

    paths, full = village
    layers = {role: _layer_payload(paths["gpkg"], role) for role in DRAWN}
    with_work = sorted(p for p, e in full.items() if (e["metrics"]["disturbed_area_sqft"] or 0))
    site_lot = next(
        str(f["properties"]["parcel_id"])
        for f in layers["disturbance"]["features"]
        if str(f["properties"].get("project", "")).startswith("P5")
    )
    answers = [
        {"op": "evaluate", "parcel_id": lot, "layers": layers} for lot in [site_lot, *with_work[:3]]
    ]
    report = {**answers[0], "op": "report", "path": str(tmp_path / "report.html")}
    made: list[tuple[pd.DataFrame, pd.DataFrame]] = []  # each table kept, and a copy as made
    keep = KeptByIdentity.value

    def recorded(self, made_from, how, make):
        def making():
            value = make()
            if isinstance(value, pd.DataFrame):
                made.append((value, value.copy(deep=True)))
            return value

        return keep(self, made_from, how, making)

    monkeypatch.setattr(KeptByIdentity, "value", recorded)
    replies = _run([_open_request(paths), *answers, report, *answers, report])
    assert all(reply["ok"] for reply in replies), [r for r in replies if not r["ok"]]
    assert replies[1]["metrics"].get("runoff_post_cuft_25yr") is not None  # screened
    assert len(made) >= 10  # the rows of each held layer near the work, the lots
    for table, as_made in made:
        assert list(table.columns) == list(as_made.columns)
        pd.testing.assert_frame_equal(table, as_made)


def test_an_edit_to_one_lot_of_a_site_measures_that_lot_alone_again(village, monkeypatch):  # noqa: F811
    """A session keeps each lot's overlays and slopes by the lot's work: when a project
    spans two lots and an edit changes the work on one, the answer must be the one a
    session opened for the edited drawing alone gives, while the other lot's work is
    overlaid on no constraint and measured on no slope again (issue 30, item 4)."""
    from sitecheck.geometry.overlay import Surface
    from sitecheck.terrain import slope

    paths, _ = village
    layers = {role: _layer_payload(paths["gpkg"], role) for role in DRAWN}
    features = layers["disturbance"]["features"]

    def of_project(prefix: str) -> list[dict]:
        return [f for f in features if str(f["properties"].get("project", "")).startswith(prefix)]

    # P2's terrace, and P3's work on the next lot joined to P2's project: one site, two lots.
    (terrace,), joined = of_project("P2 "), of_project("P3 ")
    edited_lot, other_lot = terrace["properties"]["parcel_id"], joined[0]["properties"]["parcel_id"]
    name = terrace["properties"]["project"]
    renamed = [{**f, "properties": {**f["properties"], "project": name}} for f in joined]
    smaller = shapely.buffer(shapely.from_wkb(terrace["wkb"]), -0.5, join_style="mitre")
    drawings = []
    for edit in ({}, {id(terrace): {**terrace, "wkb": shapely.to_wkb(smaller, hex=True)}}):
        drawn = [edit.get(id(f), f) for f in features]
        drawn = [renamed[joined.index(f)] if f in joined else f for f in drawn]
        drawings.append({**layers, "disturbance": {**layers["disturbance"], "features": drawn}})

    def evaluate(drawn: dict) -> dict:
        return {"op": "evaluate", "parcel_id": edited_lot, "layers": drawn}

    alone = [_answer(_run([_open_request(paths), evaluate(drawn)])[1]) for drawn in drawings]
    assert [p["lots"] for p in alone[1]["projects"] if len(p["lots"]) > 1] == [
        [edited_lot, other_lot]
    ]
    measured: list[list[shapely.Geometry]] = []  # the work overlaid or measured, by answer
    overlap, measured_slopes = Surface.overlap, slope._measured

    def overlaid(self, targets, want_geometry):
        if want_geometry:  # the work; the lots' share of a layer is asked without
            measured[-1].extend(targets)
        return overlap(self, targets, want_geometry)

    def sloped(dem, geoms):
        measured[-1].extend(geoms)
        return measured_slopes(dem, geoms)

    monkeypatch.setattr(Surface, "overlap", overlaid)
    monkeypatch.setattr(slope, "_measured", sloped)

    def requests() -> Iterator[str]:
        yield json.dumps(_open_request(paths)) + "\n"
        for drawn in drawings:
            measured.append([])
            yield json.dumps(evaluate(drawn)) + "\n"

    stdout = io.StringIO()
    assert serve(requests(), stdout) == 0  # type: ignore[arg-type]  # lines, as stdin gives
    replies = [_answer(json.loads(line)) for line in stdout.getvalue().splitlines()[1:]]
    assert replies == alone
    parcels = pyogrio.read_dataframe(paths["gpkg"], layer="parcels", columns=["parcel_id"])
    edited_shape, other_shape = (
        parcels.geometry[parcels["parcel_id"] == lot].iloc[0] for lot in (edited_lot, other_lot)
    )
    first, second = ([bool(shapely.covers(other_shape, g)) for g in work] for work in measured)
    assert any(first)  # the other lot's work, overlaid and measured at the first answer
    assert not any(second)  # at the edit, the edited lot's work and the site's alone
    assert any(shapely.covers(edited_shape, g) for g in measured[1])
