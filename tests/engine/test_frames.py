"""Tables made at once from columns and shapes: the same as geopandas makes them."""

from __future__ import annotations

import geopandas as gpd
import numpy as np
import pandas as pd
import pyproj
import pytest
import shapely

from sitecheck.io.frames import geo_frame, text_array


def test_a_table_made_at_once_is_the_table_geopandas_makes():
    shapes = np.array([shapely.box(0, 0, 1, 1), shapely.Point(2, 3).buffer(1), shapely.Polygon()])
    index = pd.Index([7, 3, 5])
    columns = {
        "parcel_id": pd.Series(["a", "b", None], index=index, dtype="string"),
        "area_sqft": np.array([1.0, np.nan, 0.0]),
        "in_sda": pd.array([True, None, False], dtype="boolean"),
    }
    crs = pyproj.CRS("EPSG:2260")
    made = geo_frame(columns, shapes, crs, index)
    expected = gpd.GeoDataFrame(pd.DataFrame(columns, index=index), geometry=shapes, crs=crs)
    pd.testing.assert_frame_equal(made, expected)
    assert made.crs == crs and made.geometry.name == "geometry"
    assert list(made.columns) == ["parcel_id", "area_sqft", "in_sda", "geometry"]


def test_a_column_named_geometry_is_refused_not_replaced():
    with pytest.raises(ValueError, match="geometry"):
        geo_frame({"geometry": np.array([1])}, np.array([shapely.box(0, 0, 1, 1)]), "EPSG:2260")


@pytest.mark.parametrize(
    "values",
    [
        ["board_approval_required", None, "", "§ 254-7; § 254-8"],
        np.array(["a", None, "b"], dtype=object),
        ["a", pd.NA, float("nan")],
        [1, "one", None],  # not all text: pandas' own way makes text of them
        [],
    ],
    ids=["text and none", "an object array", "pandas' nulls", "numbers", "empty"],
)
def test_a_text_array_is_pandas_own_string_array(values) -> None:
    made = text_array(values)
    expected = pd.array(values, dtype="string")
    assert made.dtype == expected.dtype
    assert pd.Series(made).equals(pd.Series(expected))
