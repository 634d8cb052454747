"""Enum names that moved between QGIS 3.22 and QGIS 3.36+/4 (Qt 6).

Every enum is written fully scoped, so the same code loads under PyQt5 and
PyQt6: QGIS 3.36 moved the Processing enums to ``Qgis``; older releases have
them on the classes.
"""

from __future__ import annotations

from qgis.core import (
    Qgis,
    QgsProcessing,
    QgsProcessingParameterDefinition,
    QgsProcessingParameterFile,
    QgsProcessingParameterNumber,
)

if hasattr(Qgis, "ProcessingSourceType"):
    VECTOR_POLYGON = Qgis.ProcessingSourceType.VectorPolygon
    VECTOR_ANY = Qgis.ProcessingSourceType.VectorAnyGeometry
else:  # QGIS < 3.36
    VECTOR_POLYGON = QgsProcessing.SourceType.TypeVectorPolygon
    VECTOR_ANY = QgsProcessing.SourceType.TypeVectorAnyGeometry

if hasattr(Qgis, "ProcessingParameterFlag"):
    FLAG_OPTIONAL = Qgis.ProcessingParameterFlag.Optional
    FLAG_ADVANCED = Qgis.ProcessingParameterFlag.Advanced
else:
    FLAG_OPTIONAL = QgsProcessingParameterDefinition.Flag.FlagOptional
    FLAG_ADVANCED = QgsProcessingParameterDefinition.Flag.FlagAdvanced

if hasattr(Qgis, "ProcessingNumberParameterType"):
    NUMBER_DOUBLE = Qgis.ProcessingNumberParameterType.Double
else:
    NUMBER_DOUBLE = QgsProcessingParameterNumber.Type.Double

if hasattr(Qgis, "ProcessingFileParameterBehavior"):
    FILE_BEHAVIOR_FILE = Qgis.ProcessingFileParameterBehavior.File
else:
    FILE_BEHAVIOR_FILE = QgsProcessingParameterFile.Behavior.File

if hasattr(Qgis, "ProcessingAlgorithmFlag"):
    FLAG_NO_THREADING = Qgis.ProcessingAlgorithmFlag.NoThreading
else:
    from qgis.core import QgsProcessingAlgorithm

    FLAG_NO_THREADING = QgsProcessingAlgorithm.Flag.FlagNoThreading
