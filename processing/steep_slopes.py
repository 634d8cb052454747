"""Processing algorithm sitecheck:steep_slopes: slope classes of a DEM."""

from __future__ import annotations

from qgis.core import (
    QgsProcessingException,
    QgsProcessingParameterEnum,
    QgsProcessingParameterFeatureSink,
    QgsProcessingParameterNumber,
    QgsProcessingParameterRasterDestination,
    QgsProcessingParameterRasterLayer,
)

from ..bridge.exchange import copy_to_sink, result_layer
from ..bridge.i18n import tr
from ..bridge.vocabulary import DESCRIPTION
from .compat import NUMBER_DOUBLE
from .engine_algorithm import EngineAlgorithm, TemporaryFolder

Z_UNITS = ("", "ft", "us-ft", "m")
Z_UNIT_NAMES = ("Same as the horizontal units", "Feet", "US survey feet", "Metres")


class SteepSlopesAlgorithm(EngineAlgorithm):
    """Slopes over 15% and over 25% (Horn, as gdaldem slope -p) as polygons or a class raster."""

    DEM = "DEM"
    SLOPE_LOW_PCT = "SLOPE_LOW_PCT"
    SLOPE_HIGH_PCT = "SLOPE_HIGH_PCT"
    Z_UNITS = "Z_UNITS"
    OUTPUT = "OUTPUT"
    OUTPUT_RASTER = "OUTPUT_RASTER"

    def name(self) -> str:
        return "steep_slopes"

    def displayName(self) -> str:  # noqa: N802 - QGIS API name
        return tr("Steep slopes")

    def shortHelpString(self) -> str:  # noqa: N802 - QGIS API name
        return tr(
            "Maps slopes over 15% and over 25% from a DEM (Horn's method, as gdaldem slope -p). "
            "Homer § 228-78B(2)(a)[3] asks the site map to show slopes greater than 15%; Larchmont "
            "§ 335-25B(1)(b) asks for existing and final slopes; Scarsdale § 254-9 for an analysis "
            "of slope among the site limitations. Output as polygons (class 1: over the low "
            "threshold up to the high one; class 2: over the high one) and/or a class raster "
            "(0, 1, 2; 255 where the DEM has no data, never read as flat)."
        )

    def initAlgorithm(self, config=None) -> None:  # noqa: N802 - QGIS API name
        parameters = [
            (
                QgsProcessingParameterRasterLayer(self.DEM, tr("Elevation (DEM)")),
                "Any raster GDAL reads.",
            ),
            *self._thresholds(),
            (
                QgsProcessingParameterEnum(
                    self.Z_UNITS, tr("Elevation units"), options=list(Z_UNIT_NAMES), defaultValue=0
                ),
                "Units of the elevations when they differ from the horizontal units.",
            ),
            (
                QgsProcessingParameterFeatureSink(self.OUTPUT, tr("Steep slopes"), optional=True),
                "Polygons of the two classes, dissolved.",
            ),
            (
                QgsProcessingParameterRasterDestination(
                    self.OUTPUT_RASTER,
                    tr("Slope classes (raster)"),
                    optional=True,
                    createByDefault=False,
                ),
                "A GeoTIFF of classes 0, 1, 2 on the DEM's grid.",
            ),
        ]
        for parameter, text in parameters:
            parameter.setHelp(text)
            self.addParameter(parameter)

    def _thresholds(self) -> list[tuple[object, str]]:
        """The two class thresholds, defaulting to those the engine's slope metrics name."""
        low, high = DESCRIPTION["slope_thresholds_pct"]
        return [
            (
                QgsProcessingParameterNumber(
                    key, label, type=NUMBER_DOUBLE, defaultValue=default, minValue=0.0
                ),
                text,
            )
            for key, label, default, text in (
                (
                    self.SLOPE_LOW_PCT,
                    tr("Steep slope threshold (%)"),
                    low,
                    "Lower class threshold (15% = 8.53 degrees).",
                ),
                (
                    self.SLOPE_HIGH_PCT,
                    tr("Very steep slope threshold (%)"),
                    high,
                    "Upper class threshold (25% = 14.04 degrees).",
                ),
            )
        ]

    def processAlgorithm(self, parameters, context, feedback):  # noqa: N802 - QGIS API name
        dem = self.parameterAsRasterLayer(parameters, self.DEM, context)
        if dem is None:
            raise QgsProcessingException(self.invalidRasterError(parameters, self.DEM))
        low = self.parameterAsDouble(parameters, self.SLOPE_LOW_PCT, context)
        high = self.parameterAsDouble(parameters, self.SLOPE_HIGH_PCT, context)
        common = ["--dem", dem.source(), "--slope-thresholds", f"{low:g},{high:g}"]
        z_units = Z_UNITS[self.parameterAsEnum(parameters, self.Z_UNITS, context)]
        if z_units:
            common += ["--dem-z-units", z_units]
        results = {}
        raster = self.parameterAsOutputLayer(parameters, self.OUTPUT_RASTER, context)
        if raster:
            if not raster.lower().endswith((".tif", ".tiff")):
                raise QgsProcessingException(tr("Slope classes (raster): write a GeoTIFF (.tif)"))
            feedback.pushInfo(
                self.run_engine(["steep-slopes", *common, "--out", raster], feedback).stdout
            )
            results[self.OUTPUT_RASTER] = raster
        if parameters.get(self.OUTPUT) is not None or not raster:
            with TemporaryFolder() as folder:
                target = folder / "slopes.gpkg"
                feedback.pushInfo(
                    self.run_engine(
                        ["steep-slopes", *common, "--out", str(target)], feedback
                    ).stdout
                )
                layer = result_layer(target, "steep_slopes", "steep slopes")
                sink, dest_id = self.parameterAsSink(
                    parameters, self.OUTPUT, context, layer.fields(), layer.wkbType(), layer.crs()
                )
                if sink is not None:
                    copy_to_sink(layer, sink, feedback)
                    results[self.OUTPUT] = dest_id
        return results
