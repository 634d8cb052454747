"""Errors the engine reports to users."""

from __future__ import annotations


class InputError(Exception):
    """Bad input a user can fix: the message names the layer, field or line.

    The command-line interface prints the message on one line and exits with code 2.
    """


NO_CRS = "has no CRS; assign one (e.g. EPSG:2260) and retry"
"""What every input without a coordinate reference system is told, after its name."""


def no_crs(layer: str) -> InputError:
    """The error of a layer without a CRS: ``floodplain layer (f.gpkg): has no CRS; ...``."""
    return InputError(f"{layer}: {NO_CRS}")
