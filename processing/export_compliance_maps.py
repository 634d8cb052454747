"""Processing algorithm sitecheck:export_compliance_maps: the compliance map atlas to PDF."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from qgis.core import (
    QgsProcessingException,
    QgsProcessingOutputNumber,
    QgsProcessingParameterBoolean,
    QgsProcessingParameterEnum,
    QgsProcessingParameterFileDestination,
    QgsProcessingParameterFolderDestination,
    QgsProject,
    QgsVectorLayer,
)

from ..bridge.i18n import tr
from ..layers.atlas_pages import coverage_layer, requirements_layer, subject_layer
from ..layers.compliance_layout import bind, export_files, export_pdf, load_layout
from ..layers.map_styles import LEGEND, ORDER, TITLES, style_input_layer
from ..layers.styling import style_path
from .check_site import CheckSiteAlgorithm
from .compat import FLAG_NO_THREADING, FLAG_OPTIONAL
from .engine_algorithm import TemporaryFolder

FORMATS = ("pdf", "png")
"""The per-parcel file formats, in the order of the Processing choice."""


@dataclass(frozen=True)
class Destinations:
    """Where the pages go: one multi-page PDF and/or a folder of one file per parcel."""

    pdf: str
    per_parcel_folder: str
    images: bool

    @property
    def per_parcel(self) -> bool:
        return bool(self.per_parcel_folder)


class ExportComplianceMapsAlgorithm(CheckSiteAlgorithm):
    """check_site, then one compliance map page per flagged parcel."""

    PDF = "PDF"
    OUTPUT_FOLDER = "OUTPUT_FOLDER"
    ONE_FILE_PER_PARCEL = "ONE_FILE_PER_PARCEL"
    FILE_FORMAT = "FILE_FORMAT"
    READS_FULL_JSON = True  # the pages quote every rule's title and reason

    def name(self) -> str:
        return "export_compliance_maps"

    def displayName(self) -> str:  # noqa: N802 - QGIS API name
        return tr("Export compliance maps")

    def flags(self):
        # Layouts render web content (the HTML tables): on the main thread only.
        return super().flags() | FLAG_NO_THREADING

    def shortHelpString(self) -> str:  # noqa: N802 - QGIS API name
        return tr(
            "Runs Check site-plan compliance, then prints a compliance map for every parcel with a "
            "triggered rule or a rule needing review, from the layout template "
            "layers/compliance_atlas.qpt: the parcel with its disturbance, impervious cover, every "
            "constraint layer and the flags, a scale bar in feet, a north arrow, a locator map, the "
            "measurements and the triggered sections (e.g. Scarsdale § 254-9, Larchmont "
            "§ 335-25B(2)(b), Homer § 228-78B(2)(a)[14]) with their reasons, and an audit line "
            "(SiteCheck version, rule pack and its hash, inputs, CRS, date). Writes one multi-page "
            "PDF, and/or one PDF or PNG per parcel named by its id."
        )

    def initAlgorithm(self, config=None) -> None:  # noqa: N802 - QGIS API name
        super().initAlgorithm(config)
        self.removeParameter(self.JSON_LAYOUT)
        # The maps are the point here: the layers of check_site only when asked for.
        for key in (self.OUTPUT, self.FLAGS):
            sink = self.parameterDefinition(key)
            sink.setFlags(sink.flags() | FLAG_OPTIONAL)
            sink.setCreateByDefault(False)
        for parameter, text in (
            (
                QgsProcessingParameterFileDestination(
                    self.PDF,
                    tr("Compliance maps (multi-page PDF)"),
                    fileFilter="PDF files (*.pdf)",
                    optional=True,
                ),
                "One page per flagged parcel.",
            ),
            (
                QgsProcessingParameterFolderDestination(
                    self.OUTPUT_FOLDER, tr("Folder for one file per parcel"), optional=True
                ),
                "With 'one file per parcel': where the files go, named by parcel id.",
            ),
            (
                QgsProcessingParameterBoolean(
                    self.ONE_FILE_PER_PARCEL, tr("One file per parcel"), defaultValue=False
                ),
                "Write one file per parcel into the folder, besides or instead of the PDF.",
            ),
            (
                QgsProcessingParameterEnum(
                    self.FILE_FORMAT,
                    tr("Per-parcel file format"),
                    options=[name.upper() for name in FORMATS],
                    defaultValue=0,
                ),
                "The format of the per-parcel files.",
            ),
        ):
            parameter.setHelp(text)
            self.addParameter(parameter)
        self.addOutput(QgsProcessingOutputNumber("PAGES", "Pages (one or more per flagged parcel)"))

    def processAlgorithm(self, parameters, context, feedback):  # noqa: N802 - QGIS API name
        destinations = self._destinations(parameters, context)
        with TemporaryFolder() as folder:
            json_path = self.check(parameters, context, feedback, folder)
            if json_path is None:
                return {}
            results = self._sinks(parameters, context, feedback, folder / "result.gpkg")
            document = json.loads(json_path.read_text(encoding="utf-8"))
            pages, written = self._print(document, folder, destinations, feedback)
        results["PAGES"] = pages
        if destinations.pdf:
            results[self.PDF] = destinations.pdf
        if destinations.per_parcel:
            results[self.OUTPUT_FOLDER] = destinations.per_parcel_folder
        feedback.pushInfo(
            tr("{0} compliance map page(s); {1} per-parcel file(s)").format(pages, len(written))
        )
        return results

    def _destinations(self, parameters, context) -> Destinations:
        pdf = self.parameterAsFileOutput(parameters, self.PDF, context)
        per_parcel = self.parameterAsBoolean(parameters, self.ONE_FILE_PER_PARCEL, context)
        folder_out = self.parameterAsString(parameters, self.OUTPUT_FOLDER, context)
        if not pdf and not (per_parcel and folder_out):
            raise QgsProcessingException(
                tr("Give a PDF file, or 'one file per parcel' and a folder")
            )
        chosen = FORMATS[self.parameterAsEnum(parameters, self.FILE_FORMAT, context)]
        return Destinations(pdf, folder_out if per_parcel else "", images=chosen == "png")

    def _print(self, document: dict, folder: Path, destinations: Destinations, feedback):
        """Print the run's pages; (pages, per-parcel files written)."""
        project = QgsProject()  # the run's own layers, apart from the user's project
        roles = _input_layers(folder / "inputs.gpkg")
        result = folder / "result.gpkg"
        parcels = QgsVectorLayer(f"{result}|layername=parcels", "Parcels checked", "ogr")
        flags = QgsVectorLayer(
            f"{result}|layername=flags", "Where the work meets a constraint", "ogr"
        )
        flags.loadNamedStyle(str(style_path("flags")))
        coverage = coverage_layer(parcels, document)
        if coverage.featureCount() == 0:
            feedback.pushWarning(
                tr("No parcel has a triggered rule or a rule needing review: no pages.")
            )
            return 0, []
        subject = subject_layer(parcels)
        requirements = requirements_layer(document)
        project.addMapLayers([*roles.values(), flags, coverage, subject, requirements], False)
        drawn = [subject, flags, *[roles[r] for r in reversed(ORDER) if r in roles]]
        legend = [roles[r] for r in LEGEND if r in roles] + [flags]
        layout = load_layout(project)
        bind(layout, coverage, drawn, legend, self._audit(document), requirements)
        pages = 0
        if destinations.pdf:
            feedback.pushInfo(
                tr("Writing the pages of {0} parcel(s) to {1}").format(
                    coverage.featureCount(), destinations.pdf
                )
            )
            pages = export_pdf(layout, destinations.pdf)
        written = []
        if destinations.per_parcel:
            Path(destinations.per_parcel_folder).mkdir(parents=True, exist_ok=True)
            written = export_files(
                layout, destinations.per_parcel_folder, image=destinations.images
            )
            pages = pages or len(written)
        return pages, written

    @staticmethod
    def _audit(document: dict) -> dict:
        packs = document.get("packs", [])
        inputs = ", ".join(_input_text(i) for i in document.get("inputs", []))
        crs = document.get("crs", {})
        return {
            "version": document.get("sitecheck_version", ""),
            "pack": "; ".join(f"{p['id']} {p['version']}" for p in packs),
            "pack_sha": "; ".join(p["sha256"][:16] for p in packs),
            "jurisdiction": "; ".join(f"{p['name']} {p['chapter'].split(',')[0]}" for p in packs),
            "crs": f"{crs.get('authid')} ({crs.get('area_unit')})",
            "inputs": inputs,
            "generated": document.get("generated", ""),
        }


def _input_layers(inputs: Path) -> dict[str, QgsVectorLayer]:
    """The run's input layers by role, styled, in drawing order; roles not given are absent."""
    roles = {}
    for role in ORDER:
        layer = QgsVectorLayer(f"{inputs}|layername={role}", TITLES[role], "ogr")
        if layer.isValid():
            style_input_layer(layer, role)
            roles[role] = layer
    return roles


def _input_text(record: dict) -> str:
    """An input on the audit line: the user's layer (not the temporary export) and the hash of
    the features read, which is the same for the same data whatever file carried it."""
    origin = record.get("origin") or {}
    name = origin.get("layer_name") or record.get("layer") or record["name"]
    digest = record.get("features_sha256") or record.get("sha256") or ""
    role = "" if name == record["name"] else f"{record['name']} "
    return f"{role}'{name}' {record['feature_count']} (sha256 {str(digest)[:10]})"
