"""Choose the projected CRS the engine measures in, and its units.

Areas are measured in a projected CRS in feet. The parcel layer's CRS is used
when it is projected. When it is geographic, the engine picks a local CRS: in
New York the State Plane zone (US survey feet) of the place the data lie in,
elsewhere the UTM zone (metres, converted to international feet).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pyproj

from sitecheck.errors import InputError, OptionError

US_SURVEY_FOOT_M = 1200.0 / 3937.0
INTERNATIONAL_FOOT_M = 0.3048

NY_EAST, NY_CENTRAL, NY_WEST, NY_LONG_ISLAND = 2260, 2261, 2262, 2263

# County seats of New York State and the State Plane zone (NAD83, US survey
# feet) their county lies in. A point takes the zone of the nearest seat, after
# the Long Island zone (New York City, Nassau, Suffolk) is recognised by the
# shoreline rule in ``ny_state_plane_zone``. Zone membership by county follows
# NOAA Manual NOS NGS 5, "State Plane Coordinate System of 1983" (Broome in the
# Central zone; the Bronx and Manhattan with the other New York City counties).
_NY_COUNTY_SEATS: tuple[tuple[str, float, float, int], ...] = (
    ("Albany", 42.65, -73.76, NY_EAST),
    ("Clinton", 44.70, -73.45, NY_EAST),
    ("Columbia", 42.25, -73.79, NY_EAST),
    ("Delaware", 42.28, -74.92, NY_EAST),
    ("Dutchess", 41.70, -73.92, NY_EAST),
    ("Essex", 44.22, -73.59, NY_EAST),
    ("Franklin", 44.85, -74.29, NY_EAST),
    ("Fulton", 43.01, -74.37, NY_EAST),
    ("Greene", 42.22, -73.86, NY_EAST),
    ("Hamilton", 43.47, -74.41, NY_EAST),
    ("Montgomery", 42.95, -74.38, NY_EAST),
    ("Orange", 41.40, -74.32, NY_EAST),
    ("Otsego", 42.70, -74.92, NY_EAST),
    ("Putnam", 41.43, -73.68, NY_EAST),
    ("Rensselaer", 42.73, -73.69, NY_EAST),
    ("Rockland", 41.15, -73.99, NY_EAST),
    ("Saratoga", 43.00, -73.85, NY_EAST),
    ("Schenectady", 42.81, -73.94, NY_EAST),
    ("Schoharie", 42.67, -74.31, NY_EAST),
    ("Sullivan", 41.66, -74.69, NY_EAST),
    ("Ulster", 41.93, -74.00, NY_EAST),
    ("Warren", 43.36, -73.68, NY_EAST),
    ("Washington", 43.27, -73.58, NY_EAST),
    ("Westchester", 41.03, -73.76, NY_EAST),
    ("Broome", 42.10, -75.91, NY_CENTRAL),
    ("Cayuga", 42.93, -76.57, NY_CENTRAL),
    ("Chenango", 42.53, -75.52, NY_CENTRAL),
    ("Cortland", 42.60, -76.18, NY_CENTRAL),
    ("Herkimer", 43.03, -74.99, NY_CENTRAL),
    ("Jefferson", 43.97, -75.91, NY_CENTRAL),
    ("Lewis", 43.79, -75.49, NY_CENTRAL),
    ("Madison", 43.08, -75.71, NY_CENTRAL),
    ("Oneida", 43.10, -75.23, NY_CENTRAL),
    ("Onondaga", 43.05, -76.15, NY_CENTRAL),
    ("Oswego", 43.46, -76.51, NY_CENTRAL),
    ("Seneca", 42.90, -76.86, NY_CENTRAL),
    ("St. Lawrence", 44.60, -75.17, NY_CENTRAL),
    ("Tioga", 42.10, -76.26, NY_CENTRAL),
    ("Tompkins", 42.44, -76.50, NY_CENTRAL),
    ("Allegany", 42.22, -78.03, NY_WEST),
    ("Cattaraugus", 42.25, -78.80, NY_WEST),
    ("Chautauqua", 42.25, -79.50, NY_WEST),
    ("Chemung", 42.09, -76.81, NY_WEST),
    ("Erie", 42.89, -78.88, NY_WEST),
    ("Genesee", 43.00, -78.19, NY_WEST),
    ("Livingston", 42.80, -77.82, NY_WEST),
    ("Monroe", 43.16, -77.61, NY_WEST),
    ("Niagara", 43.17, -78.69, NY_WEST),
    ("Ontario", 42.89, -77.28, NY_WEST),
    ("Orleans", 43.25, -78.19, NY_WEST),
    ("Schuyler", 42.38, -76.87, NY_WEST),
    ("Steuben", 42.34, -77.32, NY_WEST),
    ("Wayne", 43.06, -76.99, NY_WEST),
    ("Wyoming", 42.74, -78.13, NY_WEST),
    ("Yates", 42.66, -77.05, NY_WEST),
)

_NY_BOUNDS = (-79.77, 40.49, -71.85, 45.02)  # lon/lat box around New York State


@dataclass(frozen=True)
class WorkingCRS:
    """The CRS areas are measured in.

    Attributes
    ----------
    crs : pyproj.CRS
        A projected CRS.
    feet_per_unit : float
        Feet in one linear unit of ``crs``. 1.0 when the CRS is in feet (US
        survey feet stay survey feet); 1 / 0.3048 when it is in metres.
    area_unit : str
        How reports name the square feet: ``"sq ft (US survey)"`` or ``"sq ft"``.
    how_chosen : str
        Why this CRS: the parcel layer's own, or picked for geographic parcels.
    """

    crs: pyproj.CRS
    feet_per_unit: float
    area_unit: str
    how_chosen: str

    @property
    def sqft_per_unit2(self) -> float:
        return self.feet_per_unit**2

    def to_json(self) -> dict[str, object]:
        epsg = self.crs.to_epsg()
        return {
            "epsg": epsg,
            "name": self.crs.name,
            "authid": f"EPSG:{epsg}" if epsg else None,
            "area_unit": self.area_unit,
            "how_chosen": self.how_chosen,
        }


def feet_per_unit(crs: pyproj.CRS, role: str = "parcels") -> tuple[float, str]:
    """Feet in one horizontal unit of a projected CRS, and the area unit's name."""
    unit = crs.axis_info[0]
    metres = float(unit.unit_conversion_factor)
    if abs(metres - US_SURVEY_FOOT_M) < 1e-9:
        return 1.0, "sq ft (US survey)"
    if abs(metres - INTERNATIONAL_FOOT_M) < 1e-9:
        return 1.0, "sq ft"
    if metres <= 0:
        raise InputError(f"{role} layer: CRS {crs.name} has no usable linear unit")
    return metres / INTERNATIONAL_FOOT_M, "sq ft"


def working_crs(
    parcel_crs: pyproj.CRS, lonlat_centre: tuple[float, float] | None, override: str | None = None
) -> WorkingCRS:
    """Choose the CRS to measure in.

    Parameters
    ----------
    parcel_crs : pyproj.CRS
        The parcel layer's CRS.
    lonlat_centre : tuple of float, optional
        Longitude and latitude of the parcels' centre; needed when
        ``parcel_crs`` is geographic.
    override : str, optional
        A CRS the user asked for (``--crs``); must be projected.
    """
    if override:
        try:
            chosen = pyproj.CRS.from_user_input(override)
        except pyproj.exceptions.CRSError as error:
            raise OptionError("crs", f"not a CRS: {override}") from error
        if not chosen.is_projected:
            raise OptionError("crs", f"{chosen.name} is not projected; areas need a projected CRS")
        factor, unit = feet_per_unit(chosen, "--crs")
        return WorkingCRS(chosen, factor, unit, "given with --crs")
    if parcel_crs.is_projected:
        factor, unit = feet_per_unit(parcel_crs)
        return WorkingCRS(parcel_crs, factor, unit, "the parcel layer's CRS")
    if lonlat_centre is None:
        raise InputError("parcels layer: geographic CRS and no extent to choose a projected CRS")
    lon, lat = lonlat_centre
    epsg = ny_state_plane_zone(lon, lat)
    if epsg is not None:
        chosen = pyproj.CRS.from_epsg(epsg)
        why = (
            "parcels are geographic; picked the New York State Plane zone holding them "
            f"(EPSG:{epsg})"
        )
    else:
        chosen = utm_crs(lon, lat)
        why = f"parcels are geographic; picked the UTM zone holding them ({chosen.name})"
    factor, unit = feet_per_unit(chosen)
    return WorkingCRS(chosen, factor, unit, why)


def ny_state_plane_zone(lon: float, lat: float) -> int | None:
    """EPSG code of the NY State Plane zone (US feet) for a point, None outside New York.

    Long Island zone: New York City, Nassau and Suffolk, i.e. south of the Bronx /
    Westchester line (about 40.915 N) or east of Westchester along the Sound.
    Elsewhere the zone of the nearest county seat.
    """
    west, south, east, north = _NY_BOUNDS
    if not (west <= lon <= east and south <= lat <= north):
        return None
    if lon > -74.26 and (
        lat < 40.915 or (lon > -73.44 and lat < 41.05) or (lon > -72.6 and lat < 41.3)
    ):
        return NY_LONG_ISLAND
    seats = np.array([(s[1], s[2]) for s in _NY_COUNTY_SEATS])
    scale = np.cos(np.radians(lat))
    distance = (seats[:, 0] - lat) ** 2 + ((seats[:, 1] - lon) * scale) ** 2
    return _NY_COUNTY_SEATS[int(np.argmin(distance))][3]


def utm_crs(lon: float, lat: float) -> pyproj.CRS:
    """The WGS 84 / UTM zone CRS holding a point (zones 1 to 60 only)."""
    if not (-180.0 <= lon <= 180.0 and -90.0 <= lat <= 90.0):
        raise InputError(
            f"({lon:g}, {lat:g}) is not a longitude and latitude; no UTM zone holds it"
        )
    zone = min(int((lon + 180.0) // 6.0) + 1, 60)
    return pyproj.CRS.from_epsg((32600 if lat >= 0 else 32700) + zone)


# How far past a projected CRS's area of use coordinates may lie before they are
# taken for coordinates of another system: far enough for a village measured in
# its neighbour zone's State Plane, or synthetic data near a false origin.
PROJECTED_MARGIN_DEG = 10.0
# How far past the working CRS's area of use a lot may lie before it is named as
# lying apart from the rest (its area measured there is distorted).
OUTLIER_MARGIN_DEG = 1.0


def lonlat_centres(bounds: np.ndarray, crs: pyproj.CRS) -> tuple[np.ndarray, np.ndarray]:
    """Longitude and latitude of the centres of feature bounds (rows minx, miny, maxx, maxy);
    NaN where the CRS cannot place them."""
    x = (bounds[:, 0] + bounds[:, 2]) / 2
    y = (bounds[:, 1] + bounds[:, 3]) / 2
    if crs.is_geographic:
        return x, y
    to_lonlat = pyproj.Transformer.from_crs(crs, "EPSG:4326", always_xy=True)
    with np.errstate(all="ignore"):
        lon, lat = to_lonlat.transform(x, y, errcheck=False)
    lon, lat = np.asarray(lon, dtype=float), np.asarray(lat, dtype=float)
    placed = np.isfinite(lon) & np.isfinite(lat) & (np.abs(lon) <= 180) & (np.abs(lat) <= 90)
    return np.where(placed, lon, np.nan), np.where(placed, lat, np.nan)


def outside_area_of_use(
    crs: pyproj.CRS, lon: np.ndarray, lat: np.ndarray, margin_deg: float
) -> np.ndarray:
    """Which points lie outside the CRS's area of use, widened by ``margin_deg``;
    unplaced (NaN) points always do."""
    area = crs.area_of_use
    west, south, east, north = (-180.0, -90.0, 180.0, 90.0) if area is None else area.bounds
    with np.errstate(invalid="ignore"):
        in_lat = (lat >= south - margin_deg) & (lat <= north + margin_deg)
        if west <= east:
            in_lon = (lon >= west - margin_deg) & (lon <= east + margin_deg)
        else:  # the area crosses the antimeridian (NAD83: 167.65 E to 40.73 W)
            in_lon = (lon >= west - margin_deg) | (lon <= east + margin_deg)
        inside = in_lat & in_lon & (np.abs(lon) <= 180) & (np.abs(lat) <= 90)
    return ~inside


def layer_outliers(bounds: np.ndarray, crs: pyproj.CRS) -> np.ndarray:
    """The features whose coordinates cannot be in their layer's CRS.

    A geographic layer's coordinates must be a longitude and latitude inside
    its datum's area of use (a longitude of 500 is none); a projected layer's
    must lie within :data:`PROJECTED_MARGIN_DEG` of its area of use.
    """
    if crs.is_geographic:
        x = np.concatenate([bounds[:, 0], bounds[:, 2]])
        y = np.concatenate([bounds[:, 1], bounds[:, 3]])
        outside = outside_area_of_use(crs, x, y, 0.0)
        return outside[: len(bounds)] | outside[len(bounds) :]
    lon, lat = lonlat_centres(bounds, crs)
    return outside_area_of_use(crs, lon, lat, PROJECTED_MARGIN_DEG)


def bulk_lonlat(lon: np.ndarray, lat: np.ndarray) -> tuple[float, float] | None:
    """Where most features lie: the median longitude and latitude, so one stray
    feature (a parcel at 0, 0) cannot move the working CRS."""
    placed = np.isfinite(lon) & np.isfinite(lat)
    if not placed.any():
        return None
    return float(np.median(lon[placed])), float(np.median(lat[placed]))
