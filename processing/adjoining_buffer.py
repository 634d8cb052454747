"""Processing algorithm sitecheck:adjoining_buffer: Scarsdale's adjoining property buffer."""

from __future__ import annotations

from qgis.core import (
    QgsProcessingException,
    QgsProcessingParameterFeatureSink,
    QgsProcessingParameterFeatureSource,
    QgsProcessingParameterField,
    QgsProcessingParameterString,
)

from ..bridge.exchange import copy_to_sink, export_source, result_layer
from ..bridge.i18n import tr
from .compat import FLAG_ADVANCED, VECTOR_POLYGON
from .engine_algorithm import EngineAlgorithm, TemporaryFolder
from .parameters import number_parameter


class AdjoiningBufferAlgorithm(EngineAlgorithm):
    """Derive the adjoining property buffer (§ 254-4) from a parcel layer."""

    PARCELS = "PARCELS"
    ZONING = "ZONING"
    ZONING_FIELD = "ZONING_FIELD"
    ID_FIELD = "ID_FIELD"
    REAR_SETBACK_FT = "REAR_SETBACK_FT"
    SIDE_SETBACKS = "SIDE_SETBACKS"
    DEFAULT_SIDE_SETBACK_FT = "DEFAULT_SIDE_SETBACK_FT"
    OUTPUT = "OUTPUT"

    def name(self) -> str:
        return "adjoining_buffer"

    def displayName(self) -> str:  # noqa: N802 - QGIS API name
        return tr("Adjoining property buffer")

    def shortHelpString(self) -> str:  # noqa: N802 - QGIS API name
        return tr(
            "Derives Scarsdale's adjoining property buffer (§ 254-4; any disturbance in it needs "
            "a Planning Board site plan under § 254-10.1): the strip of each lot in a Residence A "
            "district (AA-1, A-1, A-2, A-2a, A-3, A-4, A-5) along the lines it shares with "
            "neighbouring lots, 30 ft deep along the rear line (the line facing away from the "
            "street) and the side setback along the side lines. Lines on streets get no strip. "
            "Without zoning every lot gets a buffer."
        )

    def initAlgorithm(self, config=None) -> None:  # noqa: N802 - QGIS API name
        parameters = [
            (
                QgsProcessingParameterFeatureSource(self.PARCELS, tr("Parcels"), [VECTOR_POLYGON]),
                "Tax parcels; neighbours are found among them.",
                False,
            ),
            (
                QgsProcessingParameterFeatureSource(
                    self.ZONING, tr("Zoning districts"), [VECTOR_POLYGON], optional=True
                ),
                "Zoning districts; else a district field of the parcels.",
                False,
            ),
            (
                QgsProcessingParameterString(
                    self.ZONING_FIELD, tr("Zoning district field"), optional=True
                ),
                "Default: district, ZONE, ZONING.",
                True,
            ),
            (
                QgsProcessingParameterField(
                    self.ID_FIELD,
                    tr("Parcel id field"),
                    parentLayerParameterName=self.PARCELS,
                    optional=True,
                ),
                "Default: parcel_id, SBL, PRINT_KEY, else the feature id.",
                True,
            ),
            (
                number_parameter("rear_setback_ft", self.REAR_SETBACK_FT),
                "The thirty-foot rear yard setback of § 254-4.",
                True,
            ),
            (
                QgsProcessingParameterString(
                    self.SIDE_SETBACKS, tr("Side setbacks per district (A-1=20,...)"), optional=True
                ),
                "Side-yard setbacks from the zoning code, per district.",
                False,
            ),
            (
                number_parameter("default_side_setback_ft", self.DEFAULT_SIDE_SETBACK_FT),
                "Used where a district has no side setback listed (30 ft errs toward flagging).",
                True,
            ),
            (
                QgsProcessingParameterFeatureSink(self.OUTPUT, tr("Adjoining property buffer")),
                "One polygon per lot: parcel_id, district, area_sqft.",
                False,
            ),
        ]
        for parameter, text, advanced in parameters:
            parameter.setHelp(text)
            if advanced:
                parameter.setFlags(parameter.flags() | FLAG_ADVANCED)
            self.addParameter(parameter)

    def processAlgorithm(self, parameters, context, feedback):  # noqa: N802 - QGIS API name
        with TemporaryFolder() as folder:
            inputs = folder / "inputs.gpkg"
            parcels = self.parameterAsSource(parameters, self.PARCELS, context)
            if parcels is None:
                raise QgsProcessingException(self.invalidSourceError(parameters, self.PARCELS))
            arguments = [
                "adjoining-buffer",
                "--parcels",
                export_source(parcels, inputs, "parcels", feedback),
            ]
            zoning = self.parameterAsSource(parameters, self.ZONING, context)
            if zoning is not None:
                arguments += ["--zoning", export_source(zoning, inputs, "zoning")]
            for key, option in (
                (self.ZONING_FIELD, "--zoning-field"),
                (self.ID_FIELD, "--id-field"),
                (self.SIDE_SETBACKS, "--side-setbacks"),
            ):
                value = self.parameterAsString(parameters, key, context)
                if value:
                    arguments += [option, value]
            arguments += [
                "--rear-setback-ft",
                f"{self.parameterAsDouble(parameters, self.REAR_SETBACK_FT, context):g}",
                "--default-side-setback-ft",
                f"{self.parameterAsDouble(parameters, self.DEFAULT_SIDE_SETBACK_FT, context):g}",
                "--out",
                str(folder / "buffers.gpkg"),
            ]
            output = self.run_engine(arguments, feedback)
            feedback.pushInfo(self.words(output.stdout))
            layer = result_layer(folder / "buffers.gpkg", "adjoining_buffer", "adjoining buffer")
            sink, dest_id = self.parameterAsSink(
                parameters, self.OUTPUT, context, layer.fields(), layer.wkbType(), layer.crs()
            )
            if sink is None:
                raise QgsProcessingException(self.invalidSinkError(parameters, self.OUTPUT))
            copy_to_sink(layer, sink, feedback)
        return {self.OUTPUT: dest_id}
