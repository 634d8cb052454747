"""Shared behaviour of the SiteCheck algorithms: they run the engine out of process."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from qgis.core import QgsProcessingAlgorithm, QgsProcessingException

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

    def run_engine(self, arguments: list[str], feedback, span=(5.0, 90.0)) -> EngineOutput:
        """Run the engine; its failures become QgsProcessingException with its own message."""
        try:
            interpreter = find_interpreter(configured_interpreter())
            return run_engine(interpreter, arguments, feedback, span)
        except EngineUnavailableError as error:
            raise QgsProcessingException(str(error)) from error
        except EngineFailedError as error:
            raise QgsProcessingException(tr("SiteCheck engine: {0}").format(error)) from error
        except EngineCanceledError as error:
            raise QgsProcessingException(
                tr("Canceled: the SiteCheck engine was stopped")
            ) from error


class TemporaryFolder:
    """A folder for the engine's inputs and outputs, removed afterwards whatever happens."""

    def __enter__(self) -> Path:
        self.path = Path(tempfile.mkdtemp(prefix="sitecheck-"))
        return self.path

    def __exit__(self, *exc_info) -> None:
        shutil.rmtree(self.path, ignore_errors=True)
