"""303(d)-listed waters and their watersheds, as NYS DEC and the USGS publish them.

The DEC's Waterbody Inventory / 303(d) layers are stream lines and lake
polygons (``PWL_ID``, ``WB_TYPE``); the Watershed Boundary Dataset's HUC-12
layer (``WBDHU12``: ``huc12``, ``name``, ``tohuc``) has every basin. Given as
``--impaired-watersheds``, the streams were refused and the lakes marked only
the lots they touch. A lot lies in an impaired watershed when its basin holds
a listed water, wherever in the basin; or when its basin is flagged listed.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from shapely.geometry import LineString, box

from sitecheck.app.cli import main

from .conftest import write_layer

# Three tall HUC-12 basins side by side, 1,000 ft wide and 10,000 ft tall; a lot near
# the south end of each. The listed waters lie near the north end, far beyond the
# lots' reach: only reading the whole basin finds them.
BASINS = [
    {
        "huc12": f"02030102010{i}",
        "name": f"Basin {i}",
        "tohuc": "020301020200",
        "geometry": box(1000 * (i - 1), 0, 1000 * i, 10_000),
    }
    for i in (1, 2, 3)
]
LOTS = {f"L{i}": box(1000 * (i - 1) + 300, 100, 1000 * (i - 1) + 500, 300) for i in (1, 2, 3)}
STREAM_IN_BASIN_2 = LineString([(1000, 8000), (1600, 8500), (1900, 9500)])  # ends on basin 1's edge
LAKE_IN_BASIN_3 = box(2300, 7000, 2700, 7600)


def _site(tmp_path: Path) -> dict[str, str]:
    gpkg = tmp_path / "site.gpkg"
    return {
        "parcels": write_layer(
            gpkg, "parcels", [{"parcel_id": k, "geometry": g} for k, g in LOTS.items()]
        ),
        "disturbance": write_layer(
            gpkg,
            "disturbance",
            [{"parcel_id": k, "geometry": g.buffer(-50)} for k, g in LOTS.items()],
        ),
    }


def _dec_waters(tmp_path: Path) -> tuple[str, str]:
    """DEC 303(d) listed streams and listed lakes, as two layers."""
    gpkg = tmp_path / "dec_303d.gpkg"
    streams = write_layer(
        gpkg,
        "streams_303d",
        [
            {
                "PWL_ID": "1301-0001",
                "NAME": "Mill Brook",
                "WB_TYPE": "River",
                "geometry": STREAM_IN_BASIN_2,
            }
        ],
    )
    lakes = write_layer(
        gpkg,
        "lakes_303d",
        [
            {
                "PWL_ID": "1301-0042",
                "NAME": "Long Pond",
                "WB_TYPE": "Lake",
                "geometry": LAKE_IN_BASIN_3,
            }
        ],
    )
    return streams, lakes


def _measure(tmp_path: Path, layers: dict[str, str], *extra: str, engine: str = "single"):
    out = tmp_path / engine
    argv = [
        "measure",
        "--quiet",
        "--out",
        f"{out}.gpkg",
        "--json-layout",
        "full",
        "--json",
        f"{out}.json",
        *extra,
    ]
    if engine == "dask":
        argv = [
            "check",
            "--quiet",
            "--ordinance",
            "larchmont",
            "--engine",
            "dask",
            "--workers",
            "1",
            "--partition-size",
            "1",
            *argv[2:],
        ]
    for role, spec in layers.items():
        argv += [f"--{role.replace('_', '-')}", spec]
    code = main(argv)
    if code:
        return code, None
    document = json.loads(Path(f"{out}.json").read_text())
    flags = {p["parcel_id"]: p["metrics"]["in_impaired_watershed"] for p in document["parcels"]}
    return code, (flags, document)


def test_dec_streams_and_lakes_with_their_basins_mark_every_lot_of_those_basins(tmp_path):
    layers = _site(tmp_path)
    basins = write_layer(tmp_path / "wbd.gpkg", "WBDHU12", BASINS)
    streams, lakes = _dec_waters(tmp_path)
    for waters, expected in (
        (streams, {"L1": False, "L2": True, "L3": False}),
        (lakes, {"L1": False, "L2": False, "L3": True}),
    ):
        code, (flags, _) = _measure(
            tmp_path, {**layers, "impaired_watersheds": waters, "watersheds": basins}
        )
        assert code == 0
        assert flags == expected, waters


@pytest.mark.slow
def test_the_dask_engine_finds_a_listed_water_far_outside_its_window(tmp_path):
    layers = _site(tmp_path)
    basins = write_layer(tmp_path / "wbd.gpkg", "WBDHU12", BASINS)
    streams, _ = _dec_waters(tmp_path)
    given = {**layers, "impaired_watersheds": streams, "watersheds": basins}
    _, (single, _) = _measure(tmp_path, given, engine="single")
    _, (dask, _) = _measure(tmp_path, given, engine="dask")
    assert dask == single == {"L1": False, "L2": True, "L3": False}


def test_a_huc12_layer_with_a_listed_flag_marks_the_flagged_basins(tmp_path):
    layers = _site(tmp_path)
    flagged = [dict(b, LISTED_303D=v) for b, v in zip(BASINS, ("Y", "N", "1"), strict=True)]
    basins = write_layer(tmp_path / "wbd.gpkg", "WBDHU12", flagged)
    code, (flags, _) = _measure(tmp_path, {**layers, "impaired_watersheds": basins})
    assert code == 0
    assert flags == {"L1": True, "L2": False, "L3": True}


def test_a_named_flag_field_and_its_odd_values(tmp_path):
    layers = _site(tmp_path)
    flagged = [dict(b, TMDL=v) for b, v in zip(BASINS, ("yes", "pending", "no"), strict=True)]
    basins = write_layer(tmp_path / "wbd.gpkg", "WBDHU12", flagged)
    code, (flags, document) = _measure(
        tmp_path, {**layers, "impaired_watersheds": basins}, "--impaired-flag", "TMDL"
    )
    assert code == 0
    assert flags == {"L1": True, "L2": False, "L3": False}
    assert any("field TMDL holds 'PENDING'" in w for w in document["warnings"])


def test_every_wbd_basin_without_a_flag_is_refused(tmp_path, capsys):
    layers = _site(tmp_path)
    basins = write_layer(tmp_path / "wbd.gpkg", "WBDHU12", BASINS)
    code, _ = _measure(tmp_path, {**layers, "impaired_watersheds": basins})
    assert code == 2
    error = capsys.readouterr().err.strip().splitlines()
    assert len(error) == 1
    assert "WBDHU12" in error[0] and "huc12" in error[0] and "--impaired-flag" in error[0]
    # said to be all listed, every basin counts
    code, (flags, _) = _measure(
        tmp_path, {**layers, "impaired_watersheds": basins}, "--impaired-flag", "all"
    )
    assert flags == {"L1": True, "L2": True, "L3": True}


@pytest.mark.parametrize("which", ["streams", "lakes"])
def test_listed_waters_without_their_basins_are_refused(tmp_path, capsys, which):
    layers = _site(tmp_path)
    streams, lakes = _dec_waters(tmp_path)
    waters = streams if which == "streams" else lakes
    code, _ = _measure(tmp_path, {**layers, "impaired_watersheds": waters})
    assert code == 2
    error = capsys.readouterr().err.strip().splitlines()
    assert len(error) == 1
    assert f"{which}_303d" in error[0] and "--watersheds" in error[0]


def test_basins_without_the_listed_waters_are_refused(tmp_path, capsys):
    layers = _site(tmp_path)
    basins = write_layer(tmp_path / "wbd.gpkg", "WBDHU12", BASINS)
    code, _ = _measure(tmp_path, {**layers, "watersheds": basins})
    assert code == 2
    assert "--impaired-watersheds" in capsys.readouterr().err
