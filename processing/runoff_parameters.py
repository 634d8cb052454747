"""The runoff-screen parameters of check_site, and the engine options they become."""

from __future__ import annotations

from qgis.core import (
    QgsProcessingParameterEnum,
    QgsProcessingParameterFeatureSource,
    QgsProcessingParameterField,
    QgsProcessingParameterFile,
    QgsProcessingParameterNumber,
    QgsProcessingParameterString,
)

from ..bridge.exchange import export_source, source_origin
from ..bridge.i18n import tr
from ..bridge.vocabulary import ROLE_BY_KEY, option
from ..bridge.vocabulary import SOIL_GROUPS as VOCABULARY_SOIL_GROUPS
from .compat import FILE_BEHAVIOR_FILE, NUMBER_DOUBLE, VECTOR_POLYGON
from .parameters import text_arguments, text_parameter

SOILS = "SOILS"
SOIL_FIELD = "SOIL_FIELD"
DEFAULT_HSG = "DEFAULT_HSG"
DUAL_HSG = "DUAL_HSG"
RAINFALL = "RAINFALL"
RAINFALL_FILE = "RAINFALL_FILE"
WQV_RAINFALL = "WQV_RAINFALL"

SOIL_GROUPS = ("", *VOCABULARY_SOIL_GROUPS)
SOIL_GROUP_LABELS = ("None (soils layer only)", *SOIL_GROUPS[1:])
DUAL_READINGS = tuple(option("dual_hsg")["choices"])
DUAL_LABELS = {"undrained": "As group D (undrained)", "drained": "As the first letter (drained)"}


def runoff_parameters() -> list[tuple[object, str, bool]]:
    """(parameter, help, advanced) for each runoff parameter, in dialog order."""
    return _soil_parameters() + _rainfall_parameters()


def _soil_parameters() -> list[tuple[object, str, bool]]:
    """The soils layer, its group field or table, and how unmapped and dual groups read."""
    return [
        (
            QgsProcessingParameterFeatureSource(
                SOILS, ROLE_BY_KEY["soils"].label, [VECTOR_POLYGON], optional=True
            ),
            "Soil survey polygons (e.g. SSURGO map units with hydgrp). With it, or a default soil "
            "group, the run screens runoff: curve numbers before and after, runoff of each design "
            "storm, the retention that offsets the increase, and the water-quality volume.",
            False,
        ),
        (
            QgsProcessingParameterField(
                SOIL_FIELD, tr("Soil group field"), parentLayerParameterName=SOILS, optional=True
            ),
            "Default: the first of hydgrp, hydgrpdcd, HSG.",
            True,
        ),
        (
            text_parameter("soil_table"),
            "For SSURGO map units that carry only MUKEY: the muaggatt or component table "
            "(tabular/muaggatt.txt of the download, a CSV, or path:table of a gSSURGO "
            "geodatabase or GeoPackage).",
            True,
        ),
        (
            QgsProcessingParameterEnum(
                DEFAULT_HSG,
                tr("Default soil group"),
                options=list(SOIL_GROUP_LABELS),
                defaultValue=0,
            ),
            "Soil group of lots, or parts of lots, the soils layer does not map.",
            False,
        ),
        (
            QgsProcessingParameterEnum(
                DUAL_HSG,
                tr("Dual soil groups (A/D, B/D, C/D)"),
                options=[DUAL_LABELS[reading] for reading in DUAL_READINGS],
                defaultValue=DUAL_READINGS.index(option("dual_hsg")["default"]),
            ),
            "TR-55: a dual group is D undrained; read it as the first letter only where the site "
            "is drained.",
            True,
        ),
    ]


def _rainfall_parameters() -> list[tuple[object, str, bool]]:
    """The design storms' depths (typed or from a downloaded file) and the WQv rainfall."""
    return [
        (
            QgsProcessingParameterString(
                RAINFALL,
                tr("Design-storm rainfall, 24-hour inches (e.g. 25=6.2,100=8.0)"),
                optional=True,
            ),
            "The site's depths (NOAA Atlas 14). Storms not given keep the ordinance pack's default "
            "depth, which the reports flag as to be confirmed for the site.",
            False,
        ),
        (
            QgsProcessingParameterFile(
                RAINFALL_FILE,
                tr("Site rainfall file (NOAA Atlas 14 PFDS CSV or NRCC table)"),
                behavior=FILE_BEHAVIOR_FILE,
                optional=True,
            ),
            "The site's 24-hour depths as downloaded: the PFDS 'export CSV' of precipitation "
            "depths (partial-duration or annual-maximum series) or an NRCC extreme-precipitation "
            "table. Storms typed in the rainfall text above replace the file's one by one.",
            False,
        ),
        (
            QgsProcessingParameterNumber(
                WQV_RAINFALL,
                option("wqv_rainfall_in")["label"],
                type=NUMBER_DOUBLE,
                defaultValue=option("wqv_rainfall_in")["default"],
                minValue=0.1,
            ),
            "The 90% rainfall event for WQv = P Rv A / 12 (NYS Design Manual Figure 4.1).",
            True,
        ),
    ]


def runoff_arguments(algorithm, parameters, context, inputs) -> list[str]:
    """The engine's runoff options for the chosen parameters."""
    arguments: list[str] = []
    soils = algorithm.parameterAsSource(parameters, SOILS, context)
    if soils is not None:
        origin = source_origin(algorithm, parameters, SOILS, context, soils)
        arguments += ["--soils", export_source(soils, inputs, "soils", origin=origin)]
    field = algorithm.parameterAsString(parameters, SOIL_FIELD, context)
    if field:
        arguments += ["--soil-field", field]
    arguments += text_arguments(algorithm, parameters, context, ("soil_table",))
    group = SOIL_GROUPS[algorithm.parameterAsEnum(parameters, DEFAULT_HSG, context)]
    if group:
        arguments += ["--default-hsg", group]
    arguments += [
        "--dual-hsg",
        DUAL_READINGS[algorithm.parameterAsEnum(parameters, DUAL_HSG, context)],
        "--wqv-rainfall",
        f"{algorithm.parameterAsDouble(parameters, WQV_RAINFALL, context):g}",
    ]
    rainfall = algorithm.parameterAsString(parameters, RAINFALL, context).strip()
    if rainfall:
        arguments += ["--rainfall", rainfall]
    rainfall_file = algorithm.parameterAsFile(parameters, RAINFALL_FILE, context)
    if rainfall_file:
        arguments += ["--rainfall-file", rainfall_file]
    return arguments
