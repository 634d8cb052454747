"""Errors the engine reports to users."""

from __future__ import annotations


class InputError(Exception):
    """Bad input a user can fix: the message names the layer, field or line.

    The command-line interface prints the message on one line and exits with
    code 2; an error gathering several ``problems`` (a pack's) prints a line
    for each.
    """

    def __init__(self, message: str, problems: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.problems = problems

    def report_lines(self) -> list[str]:
        """The lines a user is shown: a line a problem, whatever the input held.

        A problem in a pack's expression is followed by the expression and a
        caret under the fault, each indented by two spaces, so no line of the
        user's text can start a line of its own.
        """
        if not self.problems:
            return [one_line(self)]
        lines = [f"{len(self.problems)} problems:"] if len(self.problems) > 1 else []
        for problem in self.problems:
            first, *shown = problem.split("\n")
            lines += [one_line(first), *(f"  {one_line(line)}" for line in shown)]
        return lines


class OptionError(InputError):
    """A bad option value, naming the option by its schema name.

    Each surface words the name its own way: the command line as its flag
    (``--wetland-adjacent-ft``), the worker as its request key, Processing as
    its parameter, the panel as its field. ``str()`` gives the schema name.

    Parameters
    ----------
    option : str
        The option's name in :mod:`sitecheck.schema.options`.
    problem : str
        What is wrong with the value, without the option's name.
    """

    def __init__(self, option: str, problem: str) -> None:
        super().__init__(f"{option}: {problem}")
        self.option = option
        self.problem = problem

    def __reduce__(self) -> tuple[type, tuple[str, str]]:  # raised in Dask workers too
        return (type(self), (self.option, self.problem))

    def worded(self, name: str) -> str:
        """The message with the option named as a surface names it, on one line."""
        return one_line(f"{name}: {self.problem}")


NO_CRS = "has no CRS; assign one (e.g. EPSG:2260) and retry"
"""What every input without a coordinate reference system is told, after its name."""


def no_crs(layer: str) -> InputError:
    """The error of a layer without a CRS: ``floodplain layer (f.gpkg): has no CRS; ...``."""
    return InputError(f"{layer}: {NO_CRS}")


def one_line(text: object) -> str:
    """Text on one line: line breaks and other control characters shown as escapes.

    Messages quote what users' files hold (a parcel id, a field value); a line
    break inside one would end the message early and start a forged line of
    its own (``sitecheck: error: ...``) where QGIS reads the engine's answer.
    """
    return "".join(
        character
        if character.isprintable() or character == " "
        else character.encode("unicode_escape").decode("ascii")
        for character in str(text)
    )
