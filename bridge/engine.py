"""Run the SiteCheck engine in its own Python process.

The engine's libraries (PyPI's GDAL and GEOS wheels under rasterio, pyogrio,
shapely, exactextract) must never load inside QGIS: bound to QGIS's own GDAL
they give silently wrong answers. So the plugin starts ``python -m sitecheck``
in a separate interpreter with a cleaned environment, reads its progress
lines, and kills it when the user cancels.
"""

from __future__ import annotations

import os
import queue
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

PLUGIN_DIR = Path(__file__).resolve().parent.parent
SETTING_NAME = "SITECHECK_PYTHON"
ENVIRONMENT_VARIABLE = "SITECHECK_PYTHON"
ENGINE_FOLDER = "sitecheck-engine"
"""The set-up action's environment, a folder of the QGIS profile."""

# Variables QGIS sets for its own GDAL, PROJ and Python: inherited, they would
# point the engine's wheels at QGIS's libraries and data.
DROPPED_VARIABLES = (
    "PYTHONPATH",
    "PYTHONHOME",
    "PYTHONSTARTUP",
    "LD_LIBRARY_PATH",
    "GDAL_DATA",
    "GDAL_DRIVER_PATH",
    "PROJ_LIB",
    "PROJ_DATA",
    "QGIS_PREFIX_PATH",
    "VIRTUAL_ENV",
)

# ``python -m`` and ``python -c`` put the working folder first on the module path, so
# a folder QGIS was started from that holds a ``sitecheck`` package (a checkout of the
# engine, a project folder of that name) or one named like a library of the engine
# would be imported instead of the plugin's. The engine is started without it.
_NO_WORKING_FOLDER = "import sys\nif sys.path[:1] == ['']:\n    del sys.path[0]\n"
ENGINE_LAUNCH = (
    _NO_WORKING_FOLDER
    + "import runpy\nrunpy.run_module('sitecheck', run_name='__main__', alter_sys=True)\n"
)
"""What ``python -c`` runs to start the engine: ``-m sitecheck`` without the working folder."""


def engine_command(interpreter: str, *arguments: str) -> list[str]:
    """The command that runs the plugin's engine with ``arguments``, whatever the folder."""
    return [interpreter, "-c", ENGINE_LAUNCH, *arguments]


def probe_code(code: str) -> str:
    """Python for ``-c`` that runs ``code`` without the working folder on the module path."""
    return _NO_WORKING_FOLDER + code


PROGRESS_LINE = re.compile(r"^\[\s*(\d{1,3})%\]\s*(.*)$")
ERROR_PREFIX = "sitecheck: error: "
WARNING_PREFIX = "warning: "

SETUP_HELP = (
    "SiteCheck's engine is not set up: it measures in a Python of its own, outside QGIS. "
    "In QGIS choose Plugins > SiteCheck > Set up the SiteCheck engine…, which makes that "
    "Python in the QGIS profile folder and installs the engine's libraries (from the internet "
    "or from a folder of wheels). An engine Python made by hand (python3 -m venv, then pip "
    "install -r {plugin}/engine-requirements.txt) is chosen under Settings > Options > "
    "Processing > Providers > SiteCheck, or in the environment variable SITECHECK_PYTHON."
)


class EngineUnavailableError(Exception):
    """No usable engine interpreter; the message says how to set one up."""


class EngineFailedError(Exception):
    """The engine stopped with an error; the message is the engine's own."""


class EngineCanceledError(Exception):
    """The user canceled; the engine process was killed."""


ENGINE_REQUIREMENTS = PLUGIN_DIR / "engine-requirements.txt"


def engine_imports() -> str:
    """Python that imports every library ``engine-requirements.txt`` lists (each imports
    under its own name): an engine Python set up before a library joined the list is
    found lacking it, rather than failing at its first run."""
    lines = ENGINE_REQUIREMENTS.read_text(encoding="utf-8").splitlines()
    names = [line.split("==", 1)[0].strip() for line in lines if line.strip()[:1] not in ("", "#")]
    return "import " + ", ".join(names)


def _checked_interpreter(path: str) -> str | None:
    """The path if it is an interpreter that imports the engine's libraries."""
    if not path or not Path(path).is_file():
        return None
    probe = subprocess.run(
        [path, "-c", probe_code(engine_imports())],
        env=engine_environment(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    return path if probe.returncode == 0 else None


_verified: dict[str, bool] = {}


def find_interpreter(setting: str | None = None) -> str:
    """The engine interpreter: $SITECHECK_PYTHON, the provider setting, the profile's, ./.venv.

    Raises
    ------
    EngineUnavailableError
        When none of them works; the message says exactly how to set one up.
    """
    candidates = [
        ("the environment variable SITECHECK_PYTHON", os.environ.get(ENVIRONMENT_VARIABLE, "")),
        ("the SiteCheck provider setting", os.path.expanduser(setting or "")),
        ("the engine set up in the QGIS profile", profile_engine_python()),
        ("the plugin folder's .venv", str(PLUGIN_DIR / ".venv" / "bin" / "python")),
    ]
    tried = []
    for where, path in candidates:
        if not path:
            continue
        if not Path(path).exists() and where.startswith(("the engine set up", "the plugin")):
            continue  # a place the plugin looks by itself, not a choice that failed
        if _verified.get(path) or _checked_interpreter(path):
            _verified[path] = True
            return path
        tried.append(f"{where} ({path}) does not run the engine's libraries")
    detail = ("; ".join(tried) + ". ") if tried else ""
    raise EngineUnavailableError(detail + SETUP_HELP.format(plugin=PLUGIN_DIR))


def engine_environment() -> dict[str, str]:
    """A clean environment for the engine: QGIS's library paths dropped, the plugin's engine first."""
    environment = {k: v for k, v in os.environ.items() if k not in DROPPED_VARIABLES}
    if environment.get("OSGEO4W_ROOT") and "PATH" in environment:
        # on Windows QGIS puts OSGeo4W's bin (its GDAL, PROJ and Python DLLs) first on PATH
        environment["PATH"] = without_folders(environment["PATH"], environment["OSGEO4W_ROOT"])
    environment["PYTHONPATH"] = str(PLUGIN_DIR)
    environment["PYTHONIOENCODING"] = "utf-8"
    environment["PYTHONNOUSERSITE"] = "1"
    return environment


def without_folders(path_variable: str, root: str) -> str:
    """A Windows PATH without its entries inside the folder ``root`` (case ignored)."""

    def folder(entry: str) -> str:
        return entry.strip('"').replace("/", "\\").rstrip("\\").lower()

    inside = folder(root)
    kept = [
        entry
        for entry in path_variable.split(";")
        if entry and folder(entry) != inside and not folder(entry).startswith(inside + "\\")
    ]
    return ";".join(kept)


@dataclass
class EngineOutput:
    """What a finished engine run printed."""

    stdout: str
    warnings: list[str] = field(default_factory=list)


def run_engine(
    interpreter: str,
    arguments: list[str],
    feedback,
    progress_span=(0.0, 100.0),
    words: Callable[[str], str] | None = None,
) -> EngineOutput:
    """Run ``python -m sitecheck ARGUMENTS``, relaying progress to a QgsProcessingFeedback.

    Parameters
    ----------
    interpreter : str
        From :func:`find_interpreter`.
    arguments : list of str
        Command-line arguments of the ``sitecheck`` command.
    feedback : QgsProcessingFeedback or None
        Receives progress (scaled into ``progress_span``) and messages; its
        ``isCanceled()`` is polled and kills the process.
    words : callable, optional
        Rewrites each message the engine prints (its warnings and error) in the
        words of the surface that shows it.

    Raises
    ------
    EngineFailedError
        With the engine's one-line error message.
    EngineCanceledError
        When the user canceled.
    """
    process = start_process(engine_command(interpreter, *arguments))
    lines: queue.Queue[tuple[str, str | None]] = queue.Queue()
    readers = [
        threading.Thread(target=pump_lines, args=(process.stdout, "out", lines), daemon=True),
        threading.Thread(target=pump_lines, args=(process.stderr, "err", lines), daemon=True),
    ]
    for reader in readers:
        reader.start()
    stdout: list[str] = []
    relay = _Relay(feedback, progress_span)
    closed = 0
    while closed < 2:
        if feedback is not None and feedback.isCanceled():
            stop_process(process)
            _close(process, readers)
            raise EngineCanceledError("canceled")
        try:
            stream, line = lines.get(timeout=0.1)
        except queue.Empty:
            continue
        if line is None:
            closed += 1
            continue
        line = line.rstrip("\n")
        if stream == "out":
            stdout.append(line)
            continue
        if words is not None:
            line = words(line)
        relay.line(line)
    code = process.wait()
    _close(process, readers)
    if code != 0:
        raise EngineFailedError(relay.failure(code))
    return EngineOutput("\n".join(stdout), relay.warnings)


def start_process(command: list[str], merge_output: bool = False) -> subprocess.Popen:
    """Start ``command`` in the engine's environment, its own process group, text pipes.

    ``merge_output`` sends its standard error into its standard output.
    """
    return subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT if merge_output else subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        env=engine_environment(),
        text=True,
        encoding="utf-8",
        errors="replace",
        start_new_session=(sys.platform != "win32"),  # stop_process ends the whole group
    )


def pump_lines(stream, name: str, lines: queue.Queue) -> None:
    for line in iter(stream.readline, ""):
        lines.put((name, line))
    lines.put((name, None))


@dataclass
class _Relay:
    """What the engine prints on stderr, passed on: progress scaled into ``span``, warnings
    and other lines to the feedback, the errors kept for the failure message."""

    feedback: Any  # a QgsProcessingFeedback, or None
    span: tuple[float, float]
    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    other: list[str] = field(default_factory=list)
    stage: str = ""  # the stage last shown: qgis_process prints every progress text it is given

    def line(self, line: str) -> None:
        feedback = self.feedback
        progress = PROGRESS_LINE.match(line)
        if progress:
            if feedback is not None:
                low, high = self.span
                feedback.setProgress(low + (high - low) * int(progress.group(1)) / 100.0)
                if progress.group(2) != self.stage:
                    self.stage = progress.group(2)
                    feedback.setProgressText(self.stage)
            return
        if line.startswith(ERROR_PREFIX):
            self.errors.append(line[len(ERROR_PREFIX) :])
        elif line.startswith(WARNING_PREFIX):
            self.warnings.append(line[len(WARNING_PREFIX) :])
            if feedback is not None:
                feedback.pushWarning(line[len(WARNING_PREFIX) :])
        elif line.strip():
            self.other.append(line)
            if feedback is not None:
                feedback.pushDebugInfo(line)

    def failure(self, code: int) -> str:
        """The message of a run that exited with ``code``: its error, else its last lines."""
        if self.errors:
            return self.errors[-1]
        return "\n".join(self.other[-20:]) or f"engine exited with code {code}"


TERMINATE_GRACE_S = 3.0
"""How long a canceled engine has to remove its temporaries before it is killed."""


def stop_process(process: subprocess.Popen) -> None:
    """Stop the engine and anything it started; wait so no process is left.

    SIGTERM first: the engine removes the temporaries it was writing beside the
    user's destinations and exits (143). Only an engine that does not end within
    TERMINATE_GRACE_S is killed outright; its next run removes what it left.
    """
    kill = getattr(signal, "SIGKILL", signal.SIGTERM)
    for signal_number, wait_s in ((signal.SIGTERM, TERMINATE_GRACE_S), (kill, 10.0)):
        try:
            if sys.platform != "win32":
                os.killpg(process.pid, signal_number)
            elif signal_number == signal.SIGTERM:
                process.terminate()
            else:
                process.kill()
        except (ProcessLookupError, PermissionError):
            pass
        deadline = time.monotonic() + wait_s
        while process.poll() is None and time.monotonic() < deadline:
            time.sleep(0.02)
        if process.poll() is not None:
            break


def _close(process: subprocess.Popen, readers: list[threading.Thread]) -> None:
    """Close the engine's pipes once their readers reached the end (no unclosed-pipe warning)."""
    for reader in readers:
        reader.join(timeout=5)
    for stream in (process.stdout, process.stderr):
        if stream is not None:
            stream.close()


def configured_interpreter() -> str:
    """The provider setting (Settings > Options > Processing > Providers > SiteCheck)."""
    try:
        from processing.core.ProcessingConfig import ProcessingConfig
    except ImportError:  # Processing plugin not loaded
        return ""
    return str(ProcessingConfig.getSetting(SETTING_NAME) or "")


def forget_checked_interpreters() -> None:
    """Check every interpreter again on the next run (after a set-up or a settings change)."""
    _verified.clear()


def profile_engine_python() -> str:
    """Where the set-up action puts the engine's interpreter, in the active QGIS profile."""
    try:
        from qgis.core import QgsApplication
    except ImportError:  # outside QGIS
        return ""
    return str(environment_python(Path(QgsApplication.qgisSettingsDirPath()) / ENGINE_FOLDER))


def environment_python(folder: Path) -> Path:
    """The interpreter of the virtual environment ``folder``."""
    if sys.platform == "win32":
        return folder / "Scripts" / "python.exe"
    return folder / "bin" / "python"
