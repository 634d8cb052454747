"""Stormwater runoff screening: TR-55 runoff volumes, Rational peaks and the NYS WQv.

Screening numbers of the right order of magnitude for many lots at once, not
a design. Modules, one job each:

- :mod:`~sitecheck.runoff.soils`: hydrologic soil groups, dual-group reading.
- :mod:`~sitecheck.runoff.curve_numbers`: TR-55 Tables 2-2a/2-2c, composite CN.
- :mod:`~sitecheck.runoff.scs`: runoff depth and volume from P and CN.
- :mod:`~sitecheck.runoff.water_quality`: the NYS water-quality volume.
- :mod:`~sitecheck.runoff.rational`: Rational-method peak flow.
- :mod:`~sitecheck.runoff.rainfall`: design-storm depths and the --rainfall override.
- :mod:`~sitecheck.runoff.lot_runoff`: all of it per lot, before and after.

Units are in every name: ``_in`` inches, ``_sqft`` square feet, ``_cuft``
cubic feet, ``_cfs`` cubic feet per second, ``_yr`` years.
"""

from __future__ import annotations

from sitecheck.runoff.curve_numbers import (
    Cover,
    composite_cn,
    cover,
    curve_number,
    curve_number_source,
    curve_number_table,
)
from sitecheck.runoff.lot_runoff import RunoffResult, RunoffSettings, parcel_runoff
from sitecheck.runoff.rainfall import (
    DesignRainfall,
    parse_rainfall,
    user_rainfall,
    village_rainfall,
)
from sitecheck.runoff.rational import intensity_in_hr, rational_peak_cfs
from sitecheck.runoff.scs import potential_retention_in, runoff_depth_in, runoff_volume_cuft
from sitecheck.runoff.soils import hsg_from_value, hsg_shares
from sitecheck.runoff.water_quality import runoff_coefficient_rv, wqv_cuft

__all__ = [
    "Cover",
    "DesignRainfall",
    "RunoffResult",
    "RunoffSettings",
    "composite_cn",
    "cover",
    "curve_number",
    "curve_number_source",
    "curve_number_table",
    "hsg_from_value",
    "hsg_shares",
    "intensity_in_hr",
    "parcel_runoff",
    "parse_rainfall",
    "potential_retention_in",
    "rational_peak_cfs",
    "runoff_coefficient_rv",
    "runoff_depth_in",
    "runoff_volume_cuft",
    "user_rainfall",
    "village_rainfall",
    "wqv_cuft",
]
