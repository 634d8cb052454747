"""The engine as it was before extent reads: every layer read whole, then measured.

Runs :func:`sitecheck.measure.driver.measure` with a reader that ignores the
run's extent, so the only difference from ``sitecheck measure`` is what is read.
Usage: ``whole_layer.py PARCELS DISTURBANCE WETLANDS``.
"""

from __future__ import annotations

import sys

from sitecheck.io.readers import LayerReader, LayerSource
from sitecheck.measure.driver import measure
from sitecheck.measure.inputs import MeasureInputs, MeasureSettings


class WholeLayerReader(LayerReader):
    def read(
        self, source, geometry_kinds, target_crs=None, columns=None, allow_empty=True, within=None
    ):
        return super().read(source, geometry_kinds, target_crs, columns, allow_empty, within=None)


def main(parcels: str, disturbance: str, wetlands: str) -> None:
    inputs = MeasureInputs(
        parcels=LayerSource.parse("parcels", parcels),
        disturbance=LayerSource.parse("disturbance", disturbance),
        wetlands=LayerSource.parse("wetlands", wetlands),
    )
    result = measure(inputs, MeasureSettings(), reader=WholeLayerReader())
    print(float(result.parcels["disturbed_in_wetland_adjacent_sqft"].sum()))


if __name__ == "__main__":
    main(*sys.argv[1:4])
