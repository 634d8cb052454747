"""The tools behind the plugin's other algorithms: adjoining buffers and slope classes."""

from __future__ import annotations

import numpy as np
import pyogrio
import pytest
import rasterio
from shapely.geometry import box

from sitecheck.app.cli import main

from .conftest import write_dem, write_layer

X0, Y0 = 690_000.0, 787_000.0


def test_adjoining_buffer_layer_for_residence_a_lots(tmp_path, capsys):
    gpkg = tmp_path / "in.gpkg"
    lots = [
        {"parcel_id": "W", "district": "A-3", "geometry": box(X0, Y0, X0 + 100, Y0 + 150)},
        {"parcel_id": "M", "district": "A-3", "geometry": box(X0 + 100, Y0, X0 + 200, Y0 + 150)},
        {"parcel_id": "E", "district": "B-1", "geometry": box(X0 + 200, Y0, X0 + 300, Y0 + 150)},
    ]
    out = tmp_path / "buffers.gpkg"
    assert (
        main(
            [
                "adjoining-buffer",
                "--parcels",
                write_layer(gpkg, "parcels", lots),
                "--side-setbacks",
                "A-3=10",
                "--out",
                str(out),
            ]
        )
        == 0
    )
    frame = pyogrio.read_dataframe(out, layer="adjoining_buffer")
    by_id = dict(zip(frame["parcel_id"], frame["area_sqft"], strict=True))
    assert set(by_id) == {"W", "M"}  # E is in a business district
    # M: 10-ft side strips along W and E (no rear neighbour): 2 x 10 x 150.
    assert by_id["M"] == pytest.approx(3_000.0)
    assert "Residence A districts" in capsys.readouterr().out


def _plane_dem(tmp_path, percent: float):
    columns = X0 - 100 + 2.0 * (np.arange(300) + 0.5)
    left = np.tile(0.10 * columns[:150], (200, 1))
    right = np.tile(0.10 * columns[149] + percent / 100 * (columns[150:] - columns[149]), (200, 1))
    return write_dem(tmp_path / "dem.tif", np.hstack([left, right]), X0 - 100, Y0 + 400, 2.0)


def test_steep_slopes_raster_has_the_three_classes(tmp_path):
    dem = _plane_dem(tmp_path, 30.0)
    out = tmp_path / "classes.tif"
    assert main(["steep-slopes", "--dem", dem, "--out", str(out)]) == 0
    with rasterio.open(out) as dataset:
        classes = dataset.read(1)
        assert dataset.nodata == 255
    interior = classes[1:-1, 1:-1]
    assert set(np.unique(interior)) == {0, 1, 2}  # 10%, the Horn transition column, 30%
    assert (interior[:, :140] == 0).all() and (interior[:, 160:] == 2).all()
    assert (classes[0, :] == 255).all()  # the edge has no slope (as gdaldem)


def test_steep_slopes_polygons_cover_the_steep_half(tmp_path):
    dem = _plane_dem(tmp_path, 30.0)
    out = tmp_path / "slopes.gpkg"
    assert main(["steep-slopes", "--dem", dem, "--out", str(out)]) == 0
    frame = pyogrio.read_dataframe(out, layer="steep_slopes")
    steep = frame.loc[frame["slope_class"] == 2].geometry.iloc[0]
    # The 30% half is 150 columns x 200 rows of 2-ft cells, less the edge row/column
    # without slope and the transition column.
    assert steep.area == pytest.approx(149 * 198 * 4.0, rel=0.01)
    assert frame["label"].tolist() == ["over 15% up to 25%", "over 25%"]


def test_steep_slopes_refuses_other_outputs(tmp_path, capsys):
    assert (
        main(
            ["steep-slopes", "--dem", _plane_dem(tmp_path, 30.0), "--out", str(tmp_path / "x.shp")]
        )
        == 2
    )
    assert ".gpkg (polygons) or a .tif" in capsys.readouterr().err
