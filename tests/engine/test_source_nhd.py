"""NHD flowlines as the USGS publishes them (NHDFlowline, FType codes) as watercourses.

Every line of the layer is a watercourse: the NHD's ArtificialPath (the flow path
through a lake or a wide river), Connector and Coastline lines carry the network
through where no stream line is drawn, so dropping them would leave gaps in the
buffer. FType codes from the NHD data dictionary: 460 StreamRiver, 558
ArtificialPath, 334 Connector, 566 Coastline. Each lot's 100 x 100 ft disturbance
has a line along its centre, so with the default 100-ft buffer all 10,000 sq ft
lie in it (by hand).
"""

from __future__ import annotations

import json
from pathlib import Path

import geopandas as gpd
import pytest
from shapely.geometry import LineString, box

from sitecheck.app.cli import main

from .conftest import STATE_PLANE_EAST, write_layer

FTYPES = {460: "StreamRiver", 558: "ArtificialPath", 334: "Connector", 566: "Coastline"}


def _site(
    tmp_path: Path, count: int = len(FTYPES), lines: list[dict] | None = None
) -> tuple[dict[str, str], Path]:
    """Lots 1,000 ft apart, each with 100 x 100 ft of work in its middle, and the flowlines
    (by default one of each FType along each lot's centre) as an NHD shapefile."""
    gpkg = tmp_path / "site.gpkg"
    lots, work, centre_lines = [], [], []
    for index, ftype in zip(range(count), FTYPES, strict=False):
        x0 = index * 1_000.0
        lots.append({"parcel_id": f"L{index}", "geometry": box(x0, 0, x0 + 200, 200)})
        work.append({"parcel_id": f"L{index}", "geometry": box(x0 + 50, 50, x0 + 150, 150)})
        line = LineString([(x0 + 100, 0), (x0 + 100, 200)])
        centre_lines.append({"FType": ftype, "geometry": line})
    flowlines = tmp_path / "Shape" / "NHDFlowline.shp"
    flowlines.parent.mkdir()
    rows = centre_lines if lines is None else lines
    gpd.GeoDataFrame(rows, geometry="geometry", crs=STATE_PLANE_EAST).to_file(flowlines)
    layers = {
        "parcels": write_layer(gpkg, "parcels", lots),
        "disturbance": write_layer(gpkg, "disturbance", work),
    }
    return layers, flowlines


def _measure(tmp_path: Path, layers: dict[str, str], watercourses: Path, capsys):
    out = tmp_path / "m.json"
    argv = ["measure", "--quiet", "--watercourses", str(watercourses), "--json", str(out)]
    argv += ["--json-layout", "full", "--out", str(tmp_path / "m.gpkg")]
    for role, spec in layers.items():
        argv += [f"--{role}", spec]
    code = main(argv)
    err = capsys.readouterr().err
    parcels = json.loads(out.read_text())["parcels"] if code == 0 else []
    return code, {p["parcel_id"]: p["metrics"] for p in parcels}, err


def test_every_nhd_flowline_type_counts_as_a_watercourse(tmp_path, capsys):
    layers, flowlines = _site(tmp_path)
    code, metrics, err = _measure(tmp_path, layers, flowlines, capsys)
    assert code == 0, err
    for index, name in enumerate(FTYPES.values()):
        measured = metrics[f"L{index}"]["disturbed_in_watercourse_buffer_sqft"]
        assert measured == pytest.approx(10_000.0, abs=0.01), name


def test_a_flowline_shapefile_without_its_prj_is_refused_naming_it(tmp_path, capsys):
    layers, flowlines = _site(tmp_path)
    flowlines.with_suffix(".prj").unlink()
    code, _, err = _measure(tmp_path, layers, flowlines, capsys)
    assert code == 2
    assert err.count("\n") == 1, err
    assert "watercourses layer" in err and "NHDFlowline.shp" in err and "CRS" in err
    assert not (tmp_path / "m.gpkg").exists()


def test_a_flowline_through_the_lot_passes_through_it_and_one_on_its_line_does_not(
    tmp_path, capsys
):
    # Larchmont § 335-12 binds "every person owning property through which a watercourse
    # passes". L0's line runs through its middle; L1's runs along its west lot line, so it
    # passes through neither L1 nor its neighbour; L2 has no line within 200 ft.
    lines = [
        {"FType": 460, "geometry": LineString([(100, -50), (100, 250)])},
        {"FType": 460, "geometry": LineString([(1_000, -50), (1_000, 250)])},
    ]
    layers, flowlines = _site(tmp_path, count=3, lines=lines)
    code, metrics, err = _measure(tmp_path, layers, flowlines, capsys)
    assert code == 0, err
    assert [metrics[f"L{i}"]["watercourse_on_lot"] for i in range(3)] == [True, False, False]
