"""Shared behaviour of the SiteCheck algorithms: they run the engine out of process."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

from qgis.core import QgsProcessingAlgorithm, QgsProcessingException, QgsProviderRegistry

from ..bridge.engine import (
    EngineCanceledError,
    EngineFailedError,
    EngineOutput,
    EngineUnavailableError,
    configured_interpreter,
    find_interpreter,
    run_engine,
)
from ..bridge.i18n import tr
from ..bridge.icon import plugin_icon
from ..bridge.vocabulary import in_qgis_words


class EngineAlgorithm(QgsProcessingAlgorithm):
    """A Processing algorithm whose work is done by ``python -m sitecheck``."""

    def group(self) -> str:
        return tr("Stormwater ordinances")

    def groupId(self) -> str:  # noqa: N802 - QGIS API name
        return "ordinances"

    def icon(self):
        return plugin_icon()

    def createInstance(self):  # noqa: N802 - QGIS API name
        return type(self)()

    def checkParameterValues(self, parameters, context):  # noqa: N802 - QGIS API name
        """Refuse, before any work, a file output that would replace one of the inputs."""
        ok, message = super().checkParameterValues(parameters, context)
        if not ok:
            return ok, message
        clash = self.output_over_input(parameters, context)
        return (False, clash) if clash else (True, "")

    def output_over_input(self, parameters, context) -> str:
        """The message naming a file output and the input it would replace, else ''."""
        inputs = self._input_files(parameters, context)
        for definition in self.destinationParameterDefinitions():
            if definition.type() not in ("fileDestination", "rasterDestination"):
                continue
            path = self.parameterAsFileOutput(parameters, definition.name(), context)
            if not path:
                continue
            for key, source in inputs.items():
                if _same_file(path, source):
                    return tr(
                        "{0} {1} is the input {2}; writing it would replace that input: "
                        "choose another file"
                    ).format(definition.name(), path, key)
        return ""

    def _input_layers(self, parameters, context):
        """(parameter name, its layer or None, its type) of each input given a value."""
        for definition in self.parameterDefinitions():
            name, kind = definition.name(), definition.type()
            if definition.isDestination() or parameters.get(name) in (None, ""):
                continue
            if kind in ("source", "vector"):
                yield name, self.parameterAsVectorLayer(parameters, name, context), kind
            elif kind == "raster":
                yield name, self.parameterAsRasterLayer(parameters, name, context), kind
            elif kind == "file":
                yield name, None, kind

    def _input_files(self, parameters, context) -> dict[str, str]:
        """Each input parameter's file, as its layer's provider says."""
        files = {}
        for name, layer, kind in self._input_layers(parameters, context):
            if kind == "file":
                files[name] = self.parameterAsFile(parameters, name, context)
            elif layer is not None:
                uri = QgsProviderRegistry.instance().decodeUri(layer.providerType(), layer.source())
                if uri.get("path"):
                    files[name] = uri["path"]
        return files

    def prepareAlgorithm(self, parameters, context, feedback) -> bool:  # noqa: N802 - QGIS API
        """Note the names of the user's layers, which the engine's messages then name."""
        self.layer_names: dict[str, str] = {
            name: layer.name()
            for name, layer, _ in self._input_layers(parameters, context)
            if layer is not None
        }
        return True

    def words(self, text: str) -> str:
        """An engine message in this dialog's words: the user's layer names, the field names."""
        return in_qgis_words(text, getattr(self, "layer_names", {}))

    def outputs_line(self, results: dict) -> str:
        """A run's last line: where each output went (the engine's own names a temporary file)."""
        written = []
        for key, value in results.items():
            definition = self.parameterDefinition(key)
            if definition is None or not definition.isDestination():
                continue
            where = value if os.path.isabs(str(value).split("|")[0]) else tr("temporary layer")
            written.append(f"{definition.description()}: {where}")
        return tr("outputs: {0}").format("; ".join(written))

    def run_engine(self, arguments: list[str], feedback, span=(5.0, 90.0)) -> EngineOutput:
        """Run the engine; its failures become QgsProcessingException with its own message.

        The engine's messages name the user's layers and this dialog's fields,
        never the temporary export nor a command-line flag.
        """
        try:
            interpreter = find_interpreter(configured_interpreter())
            return run_engine(interpreter, arguments, feedback, span, self.words)
        except EngineUnavailableError as error:
            raise QgsProcessingException(str(error)) from error
        except EngineFailedError as error:
            raise QgsProcessingException(tr("SiteCheck engine: {0}").format(error)) from error
        except EngineCanceledError as error:
            raise QgsProcessingException(
                tr("Canceled: the SiteCheck engine was stopped")
            ) from error


def _same_file(first: str, second: str) -> bool:
    """One file by two paths: the same resolved path, or a hard link.

    The engine's ``sitecheck.io.output_set.same_file`` asks the same; the plugin
    does not import the engine (it runs in its own Python), so this is its own.
    """
    if os.path.realpath(first) == os.path.realpath(second):
        return True
    try:
        return os.path.samefile(first, second)
    except OSError:
        return False


class TemporaryFolder:
    """A folder for the engine's inputs and outputs, removed afterwards whatever happens."""

    def __enter__(self) -> Path:
        self.path = Path(tempfile.mkdtemp(prefix="sitecheck-"))
        return self.path

    def __exit__(self, *exc_info) -> None:
        shutil.rmtree(self.path, ignore_errors=True)
