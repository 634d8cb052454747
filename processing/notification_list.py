"""Processing algorithm sitecheck:notification_list: owners to notify (Scarsdale § 254-10.1)."""

from __future__ import annotations

from qgis.core import (
    QgsProcessingException,
    QgsProcessingParameterEnum,
    QgsProcessingParameterFeatureSink,
    QgsProcessingParameterFeatureSource,
    QgsProcessingParameterField,
    QgsProcessingParameterFileDestination,
    QgsProcessingParameterString,
)

from ..bridge.exchange import copy_to_sink, export_source, result_layer
from ..bridge.i18n import tr
from .compat import VECTOR_POLYGON
from .engine_algorithm import EngineAlgorithm, TemporaryFolder
from .parameters import number_parameter

MEASURE_FROM = ("auto", "lot", "activity")
MEASURE_FROM_NAMES = (
    "By lot size (the activity for properties over 15 acres)",
    "The lot boundary",
    "The activity",
)


class NotificationListAlgorithm(EngineAlgorithm):
    """Parcels within a distance of a lot or of the activity, with owner and address."""

    PARCELS = "PARCELS"
    LOT_IDS = "LOT_IDS"
    ID_FIELD = "ID_FIELD"
    DISTURBANCE = "DISTURBANCE"
    DISTANCE_FT = "DISTANCE_FT"
    MEASURE_FROM = "MEASURE_FROM"
    OUTPUT = "OUTPUT"
    CSV = "CSV"

    def name(self) -> str:
        return "notification_list"

    def displayName(self) -> str:  # noqa: N802 - QGIS API name
        return tr("Notification list")

    def shortHelpString(self) -> str:  # noqa: N802 - QGIS API name
        return tr(
            "Scarsdale § 254-10.1: the applicant serves notice of the Planning Board hearing on "
            "all owners of property within 200 ft of any point on the boundary of the lot or "
            "lots involved; for properties larger than 15 acres, within 200 ft of the activity. "
            "Lists those parcels with their id, owner, address and distance."
        )

    def initAlgorithm(self, config=None) -> None:  # noqa: N802 - QGIS API name
        parameters = [
            (
                QgsProcessingParameterFeatureSource(self.PARCELS, tr("Parcels"), [VECTOR_POLYGON]),
                "Tax parcels with owner and address fields.",
            ),
            (
                QgsProcessingParameterString(self.LOT_IDS, tr("Lot id(s) of the application")),
                "One id, or several separated by commas.",
            ),
            (
                QgsProcessingParameterField(
                    self.ID_FIELD,
                    tr("Parcel id field"),
                    parentLayerParameterName=self.PARCELS,
                    optional=True,
                ),
                "Default: parcel_id, SBL, PRINT_KEY, else the feature id.",
            ),
            (
                QgsProcessingParameterFeatureSource(
                    self.DISTURBANCE, tr("Limits of disturbance"), [VECTOR_POLYGON], optional=True
                ),
                "The activity, for properties over 15 acres.",
            ),
            (
                number_parameter("distance_ft", self.DISTANCE_FT),
                "200 ft in § 254-10.1.",
            ),
            (
                QgsProcessingParameterEnum(
                    self.MEASURE_FROM,
                    tr("Measure from"),
                    options=list(MEASURE_FROM_NAMES),
                    defaultValue=0,
                ),
                "The lot boundary, the activity, or by lot size as § 254-10.1 says.",
            ),
            (
                QgsProcessingParameterFeatureSink(self.OUTPUT, tr("Parcels to notify")),
                "parcel_id, owner, address, distance_ft.",
            ),
            (
                QgsProcessingParameterFileDestination(
                    self.CSV,
                    tr("Mailing list (CSV)"),
                    fileFilter="CSV files (*.csv)",
                    optional=True,
                ),
                "The same list as a CSV for the mailing.",
            ),
        ]
        for parameter, text in parameters:
            parameter.setHelp(text)
            self.addParameter(parameter)

    def processAlgorithm(self, parameters, context, feedback):  # noqa: N802 - QGIS API name
        with TemporaryFolder() as folder:
            inputs = folder / "inputs.gpkg"
            parcels = self.parameterAsSource(parameters, self.PARCELS, context)
            if parcels is None:
                raise QgsProcessingException(self.invalidSourceError(parameters, self.PARCELS))
            arguments = ["notify", "--parcels", export_source(parcels, inputs, "parcels", feedback)]
            lots = [
                x.strip()
                for x in self.parameterAsString(parameters, self.LOT_IDS, context).split(",")
            ]
            for lot in filter(None, lots):
                arguments += ["--lot", lot]
            id_field = self.parameterAsString(parameters, self.ID_FIELD, context)
            if id_field:
                arguments += ["--id-field", id_field]
            disturbance = self.parameterAsSource(parameters, self.DISTURBANCE, context)
            if disturbance is not None:
                arguments += ["--disturbance", export_source(disturbance, inputs, "disturbance")]
            arguments += [
                "--distance-ft",
                f"{self.parameterAsDouble(parameters, self.DISTANCE_FT, context):g}",
                "--from",
                MEASURE_FROM[self.parameterAsEnum(parameters, self.MEASURE_FROM, context)],
                "--out",
                str(folder / "notify.gpkg"),
            ]
            csv_path = self.parameterAsFileOutput(parameters, self.CSV, context)
            if csv_path:
                arguments += ["--csv", csv_path]
            feedback.pushInfo(self.run_engine(arguments, feedback).stdout)
            layer = result_layer(folder / "notify.gpkg", "notification", "notification list")
            sink, dest_id = self.parameterAsSink(
                parameters, self.OUTPUT, context, layer.fields(), layer.wkbType(), layer.crs()
            )
            if sink is None:
                raise QgsProcessingException(self.invalidSinkError(parameters, self.OUTPUT))
            copy_to_sink(layer, sink, feedback)
        results = {self.OUTPUT: dest_id}
        if csv_path:
            results[self.CSV] = csv_path
        return results
