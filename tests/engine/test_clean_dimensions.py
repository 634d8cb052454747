"""A layer's Z and M values are dropped whatever its shapes carry: Z, M, both or neither."""

from __future__ import annotations

import numpy as np
import pytest
import shapely

from sitecheck.io.clean import POLYGONAL, clean_geometries

FLAT = "POLYGON ((0 0, 10 0, 10 10, 0 10, 0 0))"


class _Source:
    def label(self) -> str:
        return "impervious_existing"


@pytest.mark.parametrize(
    "wkt",
    [
        "POLYGON Z ((0 0 1, 10 0 1, 10 10 1, 0 10 1, 0 0 1))",
        "POLYGON M ((0 0 5, 10 0 5, 10 10 5, 0 10 5, 0 0 5))",  # measures, no heights
        "POLYGON ZM ((0 0 1 5, 10 0 1 5, 10 10 1 5, 0 10 1 5, 0 0 1 5))",
        FLAT,
    ],
    ids=["Z", "M", "ZM", "2D"],
)
def test_each_shape_is_left_in_two_dimensions_beside_flat_ones(wkt: str) -> None:
    shapes = np.array([shapely.from_wkt(wkt), shapely.from_wkt(FLAT), None], dtype=object)
    cleaned, dropped, repaired = clean_geometries(shapes, POLYGONAL, _Source())
    assert [shape.wkt for shape in cleaned[:2]] == [FLAT, FLAT]
    assert not shapely.has_z(cleaned).any() and not shapely.has_m(cleaned).any()
    assert dropped.tolist() == [2] and repaired.tolist() == []
    assert shapely.area(cleaned[:2]).tolist() == [100.0, 100.0]
