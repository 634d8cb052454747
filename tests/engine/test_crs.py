"""Choosing the projected CRS to measure in."""

from __future__ import annotations

import pyproj
import pytest

from sitecheck.errors import InputError
from sitecheck.io.crs import ny_state_plane_zone, working_crs


@pytest.mark.parametrize(
    ("place", "lon", "lat", "epsg"),
    [
        ("Scarsdale", -73.78, 41.005, 2260),
        ("Larchmont", -73.752, 40.928, 2260),
        ("Yonkers", -73.90, 40.94, 2260),
        ("Homer", -76.18, 42.64, 2261),
        ("Syracuse", -76.15, 43.05, 2261),
        ("Rochester", -77.61, 43.16, 2262),
        ("Buffalo", -78.88, 42.89, 2262),
        ("Brooklyn", -73.95, 40.65, 2263),
        ("the Bronx", -73.87, 40.85, 2263),
        ("Riverhead", -72.66, 40.92, 2263),
        ("Albany", -73.76, 42.65, 2260),
    ],
)
def test_new_york_state_plane_zone_of_a_place(place, lon, lat, epsg):
    assert ny_state_plane_zone(lon, lat) == epsg, place


def test_projected_parcels_keep_their_crs():
    chosen = working_crs(pyproj.CRS.from_epsg(2263), None)
    assert chosen.crs.to_epsg() == 2263 and chosen.feet_per_unit == 1.0
    assert chosen.area_unit == "sq ft (US survey)"


def test_geographic_parcels_in_new_york_get_the_zone_and_say_so():
    chosen = working_crs(pyproj.CRS.from_epsg(4326), (-76.18, 42.64))
    assert chosen.crs.to_epsg() == 2261
    assert "EPSG:2261" in chosen.how_chosen


def test_geographic_parcels_elsewhere_get_utm_in_metres_converted_to_feet():
    chosen = working_crs(pyproj.CRS.from_epsg(4326), (-122.4, 37.8))
    assert chosen.crs.to_epsg() == 32610
    assert chosen.feet_per_unit == pytest.approx(1 / 0.3048)


def test_a_geographic_override_is_refused():
    with pytest.raises(InputError, match="not projected"):
        working_crs(pyproj.CRS.from_epsg(2260), None, override="EPSG:4326")
