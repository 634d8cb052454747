"""The ``sitecheck check`` arguments of a generated village, for the tests of whole runs."""

from __future__ import annotations

from pathlib import Path

VILLAGE_LAYERS = (
    "impervious_existing",
    "impervious_proposed",
    "floodplain",
    "wetlands",
    "watercourses",
    "sda",
    "zoning",
    "impaired_watersheds",
    "soils",
)
"""Every layer of the sample village but the parcels and the disturbance."""


def village_check_argv(
    village: dict[str, Path], pack: str = "scarsdale", layers: tuple[str, ...] = VILLAGE_LAYERS
) -> list[str]:
    """``check`` on a generated village (``generate_village``'s paths) with these layers and
    its DEM; the outputs are the caller's to add."""
    gpkg = village["gpkg"]
    argv = ["check", "--quiet", "--ordinance", pack, "--parcels", f"{gpkg}:parcels"]
    argv += ["--disturbance", f"{gpkg}:disturbance", "--dem", str(village["dem"])]
    for layer in layers:
        argv += [f"--{layer.replace('_', '-')}", f"{gpkg}:{layer}"]
    return argv


SCREENED_ROLES = ("impervious_existing", "impervious_proposed", "floodplain", "wetlands", "sda")
"""The layers the in-process checks of a generated village read besides its DEM."""


def village_inputs(village: dict[str, Path], roles: tuple[str, ...] = SCREENED_ROLES):
    """The measure inputs of a generated village: its parcels, disturbance, DEM and
    ``roles``, for a run in the test's own process (``pipeline.run.screen``)."""
    from sitecheck.io.readers import LayerSource
    from sitecheck.measure.inputs import MeasureInputs

    gpkg = str(village["gpkg"])
    return MeasureInputs(
        parcels=LayerSource("parcels", gpkg, "parcels"),
        disturbance=LayerSource("disturbance", gpkg, "disturbance"),
        dem=str(village["dem"]),
        **{role: LayerSource(role, gpkg, role) for role in roles},
    )


def render_report(result, all_parcels: bool = False, limits=None, generated=None) -> str:
    """The whole HTML report of a run as one string, as ``write_html_report`` writes it."""
    from datetime import datetime, timezone

    from sitecheck.reports.html import ReportLimits, report_parts

    moment = generated or datetime.now(timezone.utc)
    return "".join(report_parts(result, all_parcels, limits or ReportLimits(), moment))
