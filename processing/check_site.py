"""Processing algorithm sitecheck:check_site: measure a site plan and list its ordinance triggers."""

from __future__ import annotations

import datetime
from pathlib import Path

from qgis.core import (
    QgsProcessingException,
    QgsProcessingOutputNumber,
    QgsProcessingParameterBoolean,
    QgsProcessingParameterEnum,
    QgsProcessingParameterFeatureSink,
    QgsProcessingParameterFeatureSource,
    QgsProcessingParameterField,
    QgsProcessingParameterFile,
    QgsProcessingParameterFileDestination,
    QgsProcessingParameterNumber,
    QgsProcessingParameterRasterLayer,
    QgsProcessingParameterString,
)

from ..layers.exchange import copy_to_sink, export_source, result_layer
from ..layers.styling import load_styled
from .compat import (
    FILE_BEHAVIOR_FILE,
    FLAG_ADVANCED,
    NUMBER_DOUBLE,
    VECTOR_ANY,
    VECTOR_POLYGON,
)
from .engine_algorithm import EngineAlgorithm, TemporaryFolder
from .runoff_parameters import runoff_arguments, runoff_parameters

ORDINANCES = ("larchmont", "homer", "scarsdale")
ORDINANCE_NAMES = (
    "Larchmont, Ch. 335 (stormwater management)",
    "Homer, Ch. 228 Art. XII (stormwater control)",
    "Scarsdale, Ch. 254 (stormwater management and erosion control)",
)

# Optional layers: parameter key, engine option, help text.
OPTIONAL_LAYERS = (
    (
        "IMPERVIOUS_EXISTING",
        "--impervious-existing",
        VECTOR_POLYGON,
        "Existing impervious cover (buildings, driveways, patios).",
    ),
    (
        "IMPERVIOUS_PROPOSED",
        "--impervious-proposed",
        VECTOR_POLYGON,
        "The complete post-construction impervious cover of each project lot, not only what is new.",
    ),
    (
        "FLOODPLAIN",
        "--floodplain",
        VECTOR_POLYGON,
        "FEMA flood hazard areas (NFHL S_FLD_HAZ_AR) with FLD_ZONE, ZONE_SUBTY and SFHA_TF.",
    ),
    ("WETLANDS", "--wetlands", VECTOR_POLYGON, "Regulated wetlands."),
    (
        "WATERCOURSES",
        "--watercourses",
        VECTOR_ANY,
        "Streams and other watercourses (lines or polygons).",
    ),
    ("SDA", "--sda", VECTOR_POLYGON, "Sensitive drainage areas (Scarsdale)."),
    ("ZONING", "--zoning", VECTOR_POLYGON, "Zoning districts with a district code field."),
    (
        "IMPAIRED_WATERSHEDS",
        "--impaired-watersheds",
        VECTOR_POLYGON,
        "Watersheds of 303(d)-listed or TMDL waters.",
    ),
)


class CheckSiteAlgorithm(EngineAlgorithm):
    """Measure disturbance, impervious change and constraint overlays; evaluate a rule pack."""

    ORDINANCE = "ORDINANCE"
    ORDINANCE_FILE = "ORDINANCE_FILE"
    PARCELS = "PARCELS"
    DISTURBANCE = "DISTURBANCE"
    DEM = "DEM"
    ID_FIELD = "ID_FIELD"
    ZONING_FIELD = "ZONING_FIELD"
    WETLAND_ADJACENT_FT = "WETLAND_ADJACENT_FT"
    WATERCOURSE_BUFFER_FT = "WATERCOURSE_BUFFER_FT"
    SLOPE_LOW_PCT = "SLOPE_LOW_PCT"
    SLOPE_HIGH_PCT = "SLOPE_HIGH_PCT"
    TOLERANCE = "TOLERANCE"
    SIDE_SETBACKS = "SIDE_SETBACKS"
    ALL_PARCELS = "ALL_PARCELS"
    OUTPUT = "OUTPUT"
    FLAGS = "FLAGS"
    JSON_REPORT = "JSON_REPORT"
    HTML_REPORT = "HTML_REPORT"

    def name(self) -> str:
        return "check_site"

    def displayName(self) -> str:  # noqa: N802 - QGIS API name
        return "Check site-plan compliance"

    def shortHelpString(self) -> str:  # noqa: N802 - QGIS API name
        return (
            "Measures each parcel's disturbed area, net change in impervious cover and the "
            "disturbance in the floodplain, floodway, wetlands and their adjacent area, watercourse "
            "buffers, steep slopes and the adjoining property buffer, then lists every ordinance "
            "requirement the work triggers, each with its section.<br><br>"
            "<b>Larchmont Ch. 335</b>: SWPPP at 500 sq ft (§ 335-24, § 335-25A), Conditions A and B "
            "(§ 335-25B(2)), green infrastructure at +100 sq ft impervious (§ 335-25B(4)), 50- or "
            "100-year peak-runoff offset (§ 335-28), inspections (§ 335-27A).<br>"
            "<b>Homer Ch. 228 Art. XII</b>: SWPPP at 10,000 sq ft (§ 228-78A), phasing at one acre "
            "at one time (§ 228-78B(2)(a)[14]), post-construction controls (§ 228-78B(2)(b)), "
            "sensitive areas (§ 228-78B(2)(a)[2]-[3]), inspections (§ 228-78D(2)).<br>"
            "<b>Scarsdale Ch. 254</b>: exemptions (§ 254-5), permit (§ 254-7), the § 254-8 and "
            "§ 254-9 tiers, SDA retrofit (§ 254-7E), design storms, adjoining property buffer "
            "(§ 254-10.1).<br><br>"
            "Each rule comes out triggered, not triggered or <i>needs review</i> (an input missing, "
            "a value within the tolerance of a threshold, or the law ambiguous at that value). "
            "Areas are square feet in a projected CRS (the parcels' own, or the NY State Plane zone "
            "for geographic data). The measuring runs in the SiteCheck engine, a separate Python "
            "process."
        )

    def initAlgorithm(self, config=None) -> None:  # noqa: N802 - QGIS API name
        self._add(
            QgsProcessingParameterEnum(
                self.ORDINANCE, "Ordinance", options=list(ORDINANCE_NAMES), defaultValue=2
            ),
            "The village whose stormwater ordinance applies.",
        )
        self._add(
            QgsProcessingParameterFile(
                self.ORDINANCE_FILE,
                "Rule pack file (instead of the ordinance above)",
                behavior=FILE_BEHAVIOR_FILE,
                extension="toml",
                optional=True,
            ),
            "A village's own rule pack (TOML); see docs/writing-a-rule-pack.md.",
        )
        self._add(
            QgsProcessingParameterFeatureSource(self.PARCELS, "Parcels", [VECTOR_POLYGON]),
            "Tax parcels (lots). 'Selected features only' screens just those.",
        )
        self._add(
            QgsProcessingParameterFeatureSource(
                self.DISTURBANCE, "Limits of disturbance", [VECTOR_POLYGON]
            ),
            "The land the work disturbs. Optional fields: phase (whole number), parcel_id, "
            "project_type, activity, permit, larger_common_plan.",
        )
        for key, _, kind, text in OPTIONAL_LAYERS:
            self._add(
                QgsProcessingParameterFeatureSource(
                    key, key.replace("_", " ").capitalize(), [kind], optional=True
                ),
                text,
            )
        self._add(
            QgsProcessingParameterRasterLayer(self.DEM, "Elevation (DEM)", optional=True),
            "Elevation raster for slopes over 15% and 25%. Without it, slope rules need review.",
        )
        self._add(
            QgsProcessingParameterField(
                self.ID_FIELD,
                "Parcel id field",
                parentLayerParameterName=self.PARCELS,
                optional=True,
            ),
            "Default: the first of parcel_id, SBL, PRINT_KEY, else the feature id.",
            advanced=True,
        )
        self._add(
            QgsProcessingParameterString(self.ZONING_FIELD, "Zoning district field", optional=True),
            "District code field of the zoning layer or the parcels (default: district, ZONE, ZONING).",
            advanced=True,
        )
        for key, label, default, text in (
            (
                self.WETLAND_ADJACENT_FT,
                "Wetland adjacent area (ft)",
                100.0,
                "Width of the regulated adjacent area around wetlands (NYS: 100 ft).",
            ),
            (
                self.WATERCOURSE_BUFFER_FT,
                "Watercourse buffer (ft)",
                100.0,
                "Buffer around watercourses.",
            ),
            (self.SLOPE_LOW_PCT, "Steep slope threshold (%)", 15.0, "Lower slope class threshold."),
            (
                self.SLOPE_HIGH_PCT,
                "Very steep slope threshold (%)",
                25.0,
                "Upper slope class threshold.",
            ),
            (
                self.TOLERANCE,
                "Review tolerance (share of a threshold)",
                0.02,
                "A measured value this close to a threshold (0.02 = 2%) is reported as needs review.",
            ),
        ):
            self._add(
                QgsProcessingParameterNumber(
                    key, label, type=NUMBER_DOUBLE, defaultValue=default, minValue=0.0
                ),
                text,
                advanced=True,
            )
        self._add(
            QgsProcessingParameterString(
                self.SIDE_SETBACKS, "Side setbacks per district (e.g. A-1=20,A-2=15)", optional=True
            ),
            "Side-yard setbacks of the adjoining property buffer (Scarsdale § 254-4); districts not "
            "listed use 30 ft.",
            advanced=True,
        )
        for parameter, text, advanced in runoff_parameters():
            self._add(parameter, text, advanced=advanced)
        self._add(
            QgsProcessingParameterBoolean(
                self.ALL_PARCELS, "List every parcel in the reports", defaultValue=False
            ),
            "By default the reports list the parcels with disturbance or impervious change.",
            advanced=True,
        )
        self._add(
            QgsProcessingParameterFeatureSink(self.OUTPUT, "Parcels with triggers"),
            "Parcels with every measurement, the highest severity and the triggered sections.",
        )
        self._add(
            QgsProcessingParameterFeatureSink(self.FLAGS, "Flags"),
            "Where the disturbance meets a constraint: floodway, wetland adjacent area, steep "
            "slope, adjoining property buffer, street.",
        )
        self._add(
            QgsProcessingParameterFileDestination(
                self.JSON_REPORT, "JSON report", fileFilter="JSON files (*.json)", optional=True
            ),
            "Every parcel's metrics and every rule's outcome, with the audit block.",
        )
        self._add(
            QgsProcessingParameterFileDestination(
                self.HTML_REPORT, "HTML report", fileFilter="HTML files (*.html)", optional=True
            ),
            "A self-contained report to file with a permit decision.",
        )
        self.addOutput(QgsProcessingOutputNumber("TRIGGERED_PARCELS", "Parcels with triggers"))

    def _add(self, parameter, help_text: str, advanced: bool = False) -> None:
        parameter.setHelp(help_text)
        if advanced:
            parameter.setFlags(parameter.flags() | FLAG_ADVANCED)
        self.addParameter(parameter)

    def processAlgorithm(self, parameters, context, feedback):  # noqa: N802 - QGIS API name
        with TemporaryFolder() as folder:
            if not self.check(parameters, context, feedback, folder):
                return {}
            results = self._sinks(parameters, context, feedback, folder / "result.gpkg")
        return results

    def check(self, parameters, context, feedback, folder: Path) -> Path | None:
        """Export the inputs and run the engine's check; returns its JSON document's path.

        The engine writes ``folder/result.gpkg``; the JSON goes where the user
        asked, else into the folder.
        """
        arguments = self._engine_arguments(parameters, context, feedback, folder)
        if feedback.isCanceled():
            return None
        if "--json" not in arguments:
            arguments += ["--json", str(folder / "result.json")]
        output = self.run_engine(arguments, feedback)
        for line in output.stdout.splitlines():
            feedback.pushInfo(line)
        return Path(arguments[arguments.index("--json") + 1])

    def _engine_arguments(self, parameters, context, feedback, folder: Path) -> list[str]:
        inputs = folder / "inputs.gpkg"
        arguments = ["check", *self._ordinance(parameters, context)]
        parcels = self.parameterAsSource(parameters, self.PARCELS, context)
        if parcels is None:
            raise QgsProcessingException(self.invalidSourceError(parameters, self.PARCELS))
        feedback.pushInfo(f"Exporting inputs for the engine ({parcels.featureCount()} parcels)")
        arguments += ["--parcels", export_source(parcels, inputs, "parcels", feedback)]
        disturbance = self.parameterAsSource(parameters, self.DISTURBANCE, context)
        if disturbance is None:
            raise QgsProcessingException(self.invalidSourceError(parameters, self.DISTURBANCE))
        arguments += ["--disturbance", export_source(disturbance, inputs, "disturbance")]
        for key, option, _, _ in OPTIONAL_LAYERS:
            source = self.parameterAsSource(parameters, key, context)
            if source is not None:
                arguments += [option, export_source(source, inputs, key.lower())]
        dem = self.parameterAsRasterLayer(parameters, self.DEM, context)
        if dem is not None:
            arguments += ["--dem", dem.source()]
        arguments += self._settings(parameters, context)
        arguments += runoff_arguments(self, parameters, context, inputs)
        arguments += ["--out", str(folder / "result.gpkg")]
        for key, option in ((self.JSON_REPORT, "--json"), (self.HTML_REPORT, "--report")):
            path = self.parameterAsFileOutput(parameters, key, context)
            if path:
                arguments += [option, path]
        return arguments

    def _ordinance(self, parameters, context) -> list[str]:
        pack_file = self.parameterAsFile(parameters, self.ORDINANCE_FILE, context)
        if pack_file:
            return ["--ordinance", pack_file]
        return [
            "--ordinance",
            ORDINANCES[self.parameterAsEnum(parameters, self.ORDINANCE, context)],
        ]

    def _settings(self, parameters, context) -> list[str]:
        number = lambda key: self.parameterAsDouble(parameters, key, context)  # noqa: E731
        settings = [
            "--wetland-adjacent-ft",
            f"{number(self.WETLAND_ADJACENT_FT):g}",
            "--watercourse-buffer-ft",
            f"{number(self.WATERCOURSE_BUFFER_FT):g}",
            "--slope-thresholds",
            f"{number(self.SLOPE_LOW_PCT):g},{number(self.SLOPE_HIGH_PCT):g}",
            "--tolerance",
            f"{number(self.TOLERANCE):g}",
        ]
        id_field = self.parameterAsString(parameters, self.ID_FIELD, context)
        if id_field:
            settings += ["--id-field", id_field]
        zoning_field = self.parameterAsString(parameters, self.ZONING_FIELD, context)
        if zoning_field:
            settings += ["--zoning-field", zoning_field]
        setbacks = self.parameterAsString(parameters, self.SIDE_SETBACKS, context)
        if setbacks:
            settings += ["--side-setbacks", setbacks]
        if self.parameterAsBoolean(parameters, self.ALL_PARCELS, context):
            settings.append("--all-parcels")
        return settings

    def _sinks(self, parameters, context, feedback, result: Path) -> dict:
        run_name = f"SiteCheck {datetime.datetime.now():%Y-%m-%d %H:%M}"
        results = {}
        triggered = 0
        for key, layer_name, style in (
            (self.OUTPUT, "parcels", "parcels"),
            (self.FLAGS, "flags", "flags"),
        ):
            layer = result_layer(result, layer_name, layer_name)
            sink, dest_id = self.parameterAsSink(
                parameters, key, context, layer.fields(), layer.wkbType(), layer.crs()
            )
            if sink is None:
                raise QgsProcessingException(self.invalidSinkError(parameters, key))
            copy_to_sink(layer, sink, feedback)
            if key == self.OUTPUT:
                field = layer.fields().indexOf("trigger_count")
                triggered = sum(1 for f in layer.getFeatures() if f.attribute(field))
            load_styled(context, dest_id, style, run_name)
            results[key] = dest_id
        for key in (self.JSON_REPORT, self.HTML_REPORT):
            path = self.parameterAsFileOutput(parameters, key, context)
            if path:
                results[key] = path
        results["TRIGGERED_PARCELS"] = triggered
        feedback.setProgress(100)
        return results
