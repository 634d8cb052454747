"""A layer's shapes cleaned: Z and M dropped whatever they carry, vertices no map holds refused."""

from __future__ import annotations

import numpy as np
import pytest
import shapely

from sitecheck.errors import InputError
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


@pytest.mark.filterwarnings("ignore:invalid value encountered in from_wkt:RuntimeWarning")
@pytest.mark.parametrize(
    ("wkt", "words"),
    [
        ("POLYGON ((0 0, 10 0, NaN 5, 10 10, 0 10, 0 0))", "not numbers"),
        ("POLYGON ((0 0, 10 0, 10 inf, 0 10, 0 0))", "not numbers"),
        ("POLYGON ((0 0, 2e15 0, 2e15 10, 0 10, 0 0))", "beyond any map"),
    ],
    ids=["NaN", "infinite", "past 1e15"],
)
def test_a_vertex_no_map_holds_is_refused_naming_its_feature(wkt: str, words: str) -> None:
    shapes = np.array([shapely.from_wkt(FLAT), shapely.from_wkt(wkt)], dtype=object)
    with pytest.raises(InputError) as raised:
        clean_geometries(shapes, POLYGONAL, _Source(), fids=np.array([7, 9]))
    message = str(raised.value)
    assert message.startswith("impervious_existing: 1 feature(s) (FID 9)") and words in message


def test_a_height_that_is_not_a_number_is_dropped_with_the_heights() -> None:
    shape = shapely.from_wkt("POLYGON Z ((0 0 1, 10 0 NaN, 10 10 1, 0 10 1, 0 0 1))")
    cleaned, _, _ = clean_geometries(np.array([shape], dtype=object), POLYGONAL, _Source())
    assert cleaned[0].wkt == FLAT
