"""check_site's input layers as Processing parameters, each starting from the panel's layer."""

from __future__ import annotations

from qgis.core import QgsProcessingParameterFeatureSource, QgsProcessingParameterRasterLayer

from ..bridge.vocabulary import ALL_ROLES, ROLE_BY_KEY
from ..layers.project_layers import default_layer
from .compat import VECTOR_ANY, VECTOR_POLYGON
from .parameters import sentence

# Optional layers of the measurement: every described role with a Processing key, less the
# required ones, the DEM and the runoff screen's soils (runoff_parameters.py has those).
OPTIONAL_LAYERS = tuple(
    role
    for role in ALL_ROLES
    if role.processing and not role.required and role.geometry != "raster" and role.key != "soils"
)


def input_layer_parameters() -> list[tuple[object, str]]:
    """The parcels, the limits of disturbance, the optional layers and the DEM, with their help.

    Each defaults to the layer the project's SiteCheck panel saved for it (the
    parcels and the disturbance else to a layer named for them), so a dialog
    opened with another layer active does not put that layer in every box.
    """
    found: list[tuple[object, str]] = []
    for key in ("parcels", "disturbance"):
        role = ROLE_BY_KEY[key]
        parameter = QgsProcessingParameterFeatureSource(
            role.processing, role.label, [VECTOR_POLYGON], default_layer(key)
        )
        found.append((parameter, sentence(role.help)))
    for role in OPTIONAL_LAYERS:
        kind = VECTOR_ANY if role.geometry == "line_or_polygon" else VECTOR_POLYGON
        parameter = QgsProcessingParameterFeatureSource(
            role.processing, role.label, [kind], default_layer(role.key), optional=True
        )
        found.append((parameter, sentence(role.help)))
    dem = ROLE_BY_KEY["dem"]
    raster = QgsProcessingParameterRasterLayer(
        dem.processing, dem.label, default_layer("dem"), optional=True
    )
    found.append((raster, sentence(dem.help)))
    return found
