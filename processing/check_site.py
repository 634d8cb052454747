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
    QgsProcessingParameterField,
    QgsProcessingParameterFile,
    QgsProcessingParameterFileDestination,
    QgsProcessingParameterString,
)

from ..bridge.exchange import copy_to_sink, export_source, result_layer, source_origin
from ..bridge.i18n import tr
from ..bridge.vocabulary import (
    KIND_NUMBER_OPTIONS,
    KIND_TEXT_OPTIONS,
    ORDINANCE_TITLES,
    ORDINANCES,
    option,
)
from ..layers.styling import load_styled
from .compat import (
    FILE_BEHAVIOR_FILE,
    FLAG_ADVANCED,
    FLAG_OPTIONAL,
)
from .engine_algorithm import EngineAlgorithm, TemporaryFolder
from .layer_parameters import OPTIONAL_LAYERS, input_layer_parameters
from .parameters import (
    ReportDestination,
    number_parameter,
    sentence,
    text_arguments,
    text_parameter,
)
from .runoff_parameters import runoff_arguments, runoff_parameters

ORDINANCE_IDS = tuple(pack_id for pack_id, _ in ORDINANCES)
# Text options of the measurement given as they are typed (the engine checks them).
TEXT_OPTIONS = ("nwi_classes", "impaired_flag", *KIND_TEXT_OPTIONS)


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
    TOLERANCE = "TOLERANCE"
    SIDE_SETBACKS = "SIDE_SETBACKS"
    ALL_PARCELS = "ALL_PARCELS"
    OUTPUT = "OUTPUT"
    FLAGS = "FLAGS"
    PROJECTS = "PROJECTS"
    JSON_REPORT = "JSON_REPORT"
    JSON_LAYOUT = "JSON_LAYOUT"
    READS_FULL_JSON = False  # an algorithm reading every rule's text from the JSON sets it
    HTML_REPORT = "HTML_REPORT"

    def name(self) -> str:
        return "check_site"

    def displayName(self) -> str:  # noqa: N802 - QGIS API name
        return tr("Check site-plan compliance")

    def shortHelpString(self) -> str:  # noqa: N802 - QGIS API name
        return tr(
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
        self._add_ordinance_parameters()
        for parameter, help_text in input_layer_parameters():
            self._add(parameter, help_text)
        self._add_measuring_parameters()
        for parameter, text, advanced in runoff_parameters():
            self._add(parameter, text, advanced=advanced)
        self._add_output_parameters()
        self.addOutput(QgsProcessingOutputNumber("TRIGGERED_PARCELS", "Parcels with triggers"))

    def _add_ordinance_parameters(self) -> None:
        """A bundled village's ordinance, or a rule pack file of one's own."""
        self._add(
            QgsProcessingParameterEnum(
                self.ORDINANCE,
                tr("Ordinance"),
                options=list(ORDINANCE_TITLES),
                defaultValue=ORDINANCE_IDS.index("scarsdale"),
            ),
            "The village whose stormwater ordinance applies.",
        )
        self._add(
            QgsProcessingParameterFile(
                self.ORDINANCE_FILE,
                tr("Rule pack file (instead of the ordinance above)"),
                behavior=FILE_BEHAVIOR_FILE,
                extension="toml",
                optional=True,
            ),
            "A village's own rule pack (TOML); see docs/writing-a-rule-pack.md.",
        )

    def _add_measuring_parameters(self) -> None:
        """The parcels' id and zoning fields and the options of the measuring (advanced)."""
        self._add(
            QgsProcessingParameterField(
                self.ID_FIELD,
                tr("Parcel id field"),
                parentLayerParameterName=self.PARCELS,
                optional=True,
            ),
            "Default: the first of parcel_id, SBL, PRINT_KEY, else the feature id.",
            advanced=True,
        )
        zoning_field = option("zoning_field")
        self._add(
            QgsProcessingParameterString(self.ZONING_FIELD, zoning_field["label"], optional=True),
            sentence(zoning_field["help"]),
            advanced=True,
        )
        for name in ("wetland_adjacent_ft", "watercourse_buffer_ft", *KIND_NUMBER_OPTIONS):
            self._add(number_parameter(name), sentence(option(name)["help"]), advanced=True)
        for name in TEXT_OPTIONS:
            self._add(text_parameter(name), sentence(option(name)["help"]), advanced=True)
        self._add(
            number_parameter("tolerance"), sentence(option("tolerance")["help"]), advanced=True
        )
        setbacks = option("side_setbacks")
        self._add(
            QgsProcessingParameterString(self.SIDE_SETBACKS, setbacks["label"], optional=True),
            "Side-yard setbacks of the adjoining property buffer (Scarsdale § 254-4); districts not "
            f"listed use {option('default_side_setback_ft')['default']:g} ft.",
            advanced=True,
        )

    def _add_output_parameters(self) -> None:
        """The result layers (parcels, flags, projects) and the JSON and HTML reports."""
        self._add(
            QgsProcessingParameterBoolean(
                self.ALL_PARCELS, tr("List every parcel in the reports"), defaultValue=False
            ),
            "By default the reports list the parcels with disturbance or impervious change.",
            advanced=True,
        )
        self._add(
            QgsProcessingParameterFeatureSink(self.OUTPUT, tr("Parcels with triggers")),
            "Parcels with every measurement, the highest severity and the triggered sections.",
        )
        self._add(
            QgsProcessingParameterFeatureSink(self.FLAGS, tr("Flags")),
            "Where the disturbance meets a constraint: floodway, wetland adjacent area, steep "
            "slope, adjoining property buffer, street.",
        )
        self._add(
            QgsProcessingParameterFeatureSink(
                self.PROJECTS, tr("Projects"), optional=True, createByDefault=False
            ),
            "One row per project (the disturbance's project field; else each lot with work): "
            "its site, lots, measurements and triggers.",
        )
        self._add(
            QgsProcessingParameterFileDestination(
                self.JSON_REPORT, tr("JSON report"), fileFilter="JSON files (*.json)", optional=True
            ),
            "Every parcel's metrics and the rules it triggers or puts under review, with the "
            "audit block.",
        )
        layout = option("json_layout")
        self._add(
            QgsProcessingParameterEnum(
                self.JSON_LAYOUT,
                layout["label"],
                options=list(layout["choices"]),
                defaultValue=list(layout["choices"]).index(layout["default"]),
            ),
            sentence(layout["help"]),
            advanced=True,
        )
        self._add(
            ReportDestination(
                self.HTML_REPORT, tr("HTML report"), fileFilter="HTML files (*.html)", optional=True
            ),
            "A self-contained report to file with a permit decision.",
        )

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
        feedback.pushInfo(self.outputs_line(results))
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
            if not line.startswith("outputs: "):  # a temporary file; outputs_line says where
                feedback.pushInfo(self.words(line))
        return Path(arguments[arguments.index("--json") + 1])

    def _engine_arguments(self, parameters, context, feedback, folder: Path) -> list[str]:
        inputs = folder / "inputs.gpkg"
        arguments = ["check", *self._ordinance(parameters, context)]
        parcels = self.parameterAsSource(parameters, self.PARCELS, context)
        if parcels is None:
            raise QgsProcessingException(self.invalidSourceError(parameters, self.PARCELS))
        feedback.pushInfo(
            tr("Exporting inputs for the engine ({0} parcels)").format(parcels.featureCount())
        )
        origin = source_origin(self, parameters, self.PARCELS, context, parcels)
        arguments += ["--parcels", export_source(parcels, inputs, "parcels", feedback, origin)]
        disturbance = self.parameterAsSource(parameters, self.DISTURBANCE, context)
        if disturbance is None:
            raise QgsProcessingException(self.invalidSourceError(parameters, self.DISTURBANCE))
        origin = source_origin(self, parameters, self.DISTURBANCE, context, disturbance)
        arguments += [
            "--disturbance",
            export_source(disturbance, inputs, "disturbance", origin=origin),
        ]
        for role in OPTIONAL_LAYERS:
            source = self.parameterAsSource(parameters, role.processing, context)
            if source is not None:
                origin = source_origin(self, parameters, str(role.processing), context, source)
                arguments += [role.flag, export_source(source, inputs, role.key, origin=origin)]
        dem = self.parameterAsRasterLayer(parameters, self.DEM, context)
        if dem is not None:
            arguments += ["--dem", dem.source()]
        arguments += self._settings(parameters, context)
        arguments += runoff_arguments(self, parameters, context, inputs)
        arguments += ["--out", str(folder / "result.gpkg")]
        for key, flag in ((self.JSON_REPORT, "--json"), (self.HTML_REPORT, "--report")):
            path = self.parameterAsFileOutput(parameters, key, context)
            if path:
                arguments += [flag, path]
        return [*arguments, "--json-layout", self._json_layout(parameters, context)]

    def _json_layout(self, parameters, context) -> str:
        if self.READS_FULL_JSON:
            return "full"
        choices = option("json_layout")["choices"]
        return str(choices[self.parameterAsEnum(parameters, self.JSON_LAYOUT, context)])

    def _ordinance(self, parameters, context) -> list[str]:
        pack_file = self.parameterAsFile(parameters, self.ORDINANCE_FILE, context)
        if pack_file:
            return ["--ordinance", pack_file]
        return [
            "--ordinance",
            ORDINANCE_IDS[self.parameterAsEnum(parameters, self.ORDINANCE, context)],
        ]

    def _settings(self, parameters, context) -> list[str]:
        number = lambda key: self.parameterAsDouble(parameters, key, context)  # noqa: E731
        settings = [
            "--wetland-adjacent-ft",
            f"{number(self.WETLAND_ADJACENT_FT):g}",
            "--watercourse-buffer-ft",
            f"{number(self.WATERCOURSE_BUFFER_FT):g}",
            "--tolerance",
            f"{number(self.TOLERANCE):g}",
        ]
        for name in KIND_NUMBER_OPTIONS:
            settings += [option(name)["flag"], f"{number(option(name)['processing']):g}"]
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
        return settings + text_arguments(self, parameters, context, TEXT_OPTIONS)

    def _run_label(self, parameters, context) -> str:
        """What a run's loaded layers are named after: its pack and its parcel layer."""
        pack_file = self.parameterAsFile(parameters, self.ORDINANCE_FILE, context)
        pack = (
            Path(pack_file).stem
            if pack_file
            else ORDINANCE_IDS[self.parameterAsEnum(parameters, self.ORDINANCE, context)]
        )
        parcels = self.parameterAsVectorLayer(parameters, self.PARCELS, context)
        return f"{pack}, {parcels.name() if parcels is not None else 'parcels'}"

    def _sinks(self, parameters, context, feedback, result: Path) -> dict:
        label = self._run_label(parameters, context)
        run_name = f"SiteCheck {label} {datetime.datetime.now():%Y-%m-%d %H:%M:%S}"
        results = {}
        triggered = 0
        for key, layer_name, style in (
            (self.OUTPUT, "parcels", "parcels"),
            (self.FLAGS, "flags", "flags"),
            (self.PROJECTS, "projects", "parcels"),  # styled by highest severity, as parcels
        ):
            layer = result_layer(result, layer_name, layer_name)
            if key == self.OUTPUT:
                field = layer.fields().indexOf("trigger_count")
                triggered = sum(1 for f in layer.getFeatures() if f.attribute(field))
            sink, dest_id = self.parameterAsSink(
                parameters, key, context, layer.fields(), layer.wkbType(), layer.crs()
            )
            if sink is None and self.parameterDefinition(key).flags() & FLAG_OPTIONAL:
                continue  # optional, and not asked for
            if sink is None:
                raise QgsProcessingException(self.invalidSinkError(parameters, key))
            copy_to_sink(layer, sink, feedback)
            title = self.parameterDefinition(key).description()
            load_styled(context, dest_id, style, run_name, f"{title} ({label})")
            results[key] = dest_id
        for key in (self.JSON_REPORT, self.HTML_REPORT):
            path = self.parameterAsFileOutput(parameters, key, context)
            if path:
                results[key] = path
        results["TRIGGERED_PARCELS"] = triggered
        feedback.setProgress(100)
        return results
