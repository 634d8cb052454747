"""Processing parameters built from the engine's described options."""

from __future__ import annotations

from qgis.core import (
    QgsProcessingOutputFile,
    QgsProcessingParameterFileDestination,
    QgsProcessingParameterNumber,
    QgsProcessingParameterString,
)

from ..bridge.vocabulary import dialog_words, option
from .compat import NUMBER_DOUBLE

SMALLEST_STEP = 0.01


def number_parameter(name: str, key: str | None = None, label: str | None = None, default=None):
    """A Processing number parameter from an engine option: its label, default and bounds."""
    described = option(name)
    parameter = QgsProcessingParameterNumber(
        key or described["processing"],
        label or described["label"],
        type=NUMBER_DOUBLE,
        defaultValue=described["default"] if default is None else default,
    )
    if described["minimum"] is not None:
        # A dialog's range is closed: an open bound ("more than 0") starts one step above it.
        step = SMALLEST_STEP if described["above_minimum"] else 0.0
        parameter.setMinimum(described["minimum"] + step)
    if described["maximum"] is not None:
        parameter.setMaximum(described["maximum"])
    return parameter


def text_parameter(name: str):
    """An optional Processing text parameter from an engine option: its key, label, default."""
    described = option(name)
    return QgsProcessingParameterString(
        described["processing"],
        described["label"],
        defaultValue=described["default"],
        optional=True,
    )


def text_arguments(algorithm, parameters, context, names: tuple[str, ...]) -> list[str]:
    """``--flag value`` for each text option given a value in the dialog."""
    arguments: list[str] = []
    for name in names:
        described = option(name)
        value = algorithm.parameterAsString(parameters, described["processing"], context).strip()
        if value:
            arguments += [described["flag"], value]
    return arguments


def sentence(text: str) -> str:
    """An option's help as a dialog sentence: flags as field names, capital first letter, full stop."""
    text = dialog_words(text).strip()
    return text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")


class ReportDestination(QgsProcessingParameterFileDestination):
    """An HTML report destination whose result is a file, not an HTML result.

    QGIS 3.22's batch dialog fails on HTML results (its ``loadHTMLResults`` calls
    ``resultsList.addResult`` without the timestamp it needs), shows no summary
    and leaves its task running; a file result is listed in the summary as any
    other file.
    """

    def toOutputDefinition(self):  # noqa: N802 - QGIS API name
        return QgsProcessingOutputFile(self.name(), self.description())

    def clone(self):
        copy = ReportDestination(
            self.name(), self.description(), self.fileFilter(), self.defaultValue(), True
        )
        copy.setFlags(self.flags())
        copy.setHelp(self.help())
        return copy
