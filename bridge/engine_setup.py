"""The Pythons on this computer: which can host the engine, which runs it already, and why not.

The engine's libraries must live outside QGIS (see ``engine.py``), so the
set-up makes them an environment of their own in the QGIS profile folder, from
a Python 3.11 or later found here (``engine_install.py``). No Qt and no QGIS here.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from .engine import ENGINE_FOLDER, engine_environment

MINIMUM_PYTHON = (3, 11)

# What the probe asks a candidate interpreter: its version, and whether it can make
# an environment with pip in it (Debian ships venv's pip bootstrap as python3-venv).
_PROBE = (
    "import importlib.util, json, sys; print(json.dumps({"
    "'version': list(sys.version_info[:3]), 'executable': sys.executable, "
    "'venv': importlib.util.find_spec('venv') is not None, "
    "'ensurepip': importlib.util.find_spec('ensurepip') is not None}))"
)


class SetupError(Exception):
    """The set-up cannot go on; the message says what to do."""


class SetupCanceledError(Exception):
    """The user canceled the set-up; the step's process was stopped."""


@dataclass(frozen=True)
class BasePython:
    """An interpreter a virtual environment can be made from."""

    path: str
    version: tuple[int, int, int]
    has_ensurepip: bool

    def describe(self) -> str:
        return f"Python {'.'.join(map(str, self.version))} ({self.path})"


def expanded(path: str) -> str:
    """A typed path with ``~`` and environment variables expanded, surrounding quotes removed."""
    return os.path.expandvars(os.path.expanduser(path.strip().strip('"').strip("'")))


def engine_folder(profile_folder: str | Path) -> Path:
    """Where the set-up makes the engine's environment: inside the QGIS profile folder."""
    return Path(profile_folder) / ENGINE_FOLDER


def probe(path: str) -> BasePython | str:
    """The interpreter at ``path``, or the reason it cannot be used, in words."""
    path = expanded(path)
    if not path:
        return "no path given"
    if not Path(path).exists():
        return f"{path} does not exist"
    if Path(path).is_dir():
        return f"{path} is a folder, not a Python interpreter"
    try:
        answer = subprocess.run(
            [path, "-c", _PROBE],
            capture_output=True,
            text=True,
            timeout=60,
            env=engine_environment(),
            stdin=subprocess.DEVNULL,
        )
    except (OSError, subprocess.SubprocessError) as error:
        return f"{path} does not run as a program ({error.__class__.__name__})"
    try:
        facts = json.loads(answer.stdout.strip().splitlines()[-1])
    except (IndexError, ValueError):
        return f"{path} is not a Python interpreter"
    major, minor, micro = (int(part) for part in facts["version"])
    version = (major, minor, micro)
    if version[:2] < MINIMUM_PYTHON:
        wanted = ".".join(map(str, MINIMUM_PYTHON))
        return f"{path} is Python {'.'.join(map(str, version))}; the engine needs {wanted} or later"
    if not facts["venv"]:
        return f"{path} has no venv module"
    return BasePython(path, version, bool(facts["ensurepip"]))


def candidate_paths(avoid: tuple[str, ...] = ()) -> list[str]:
    """Interpreters to try, newest first; none inside ``avoid`` (QGIS's own folders)."""
    names = [f"python3.{minor}" for minor in range(15, MINIMUM_PYTHON[1] - 1, -1)]
    names += ["python3", "python"]
    found: list[str] = []
    for name in names:
        path = shutil.which(name)
        if path:
            found.append(path)
    if sys.platform == "win32":
        launcher = shutil.which("py")
        if launcher:
            found.append(launcher)
    else:
        found += ["/usr/bin/python3", "/usr/local/bin/python3", "/opt/homebrew/bin/python3"]
    kept: list[str] = []
    for path in found:
        real = os.path.realpath(path)
        inside_qgis = any(real.startswith(os.path.realpath(folder) + os.sep) for folder in avoid)
        if Path(path).is_file() and not inside_qgis and real not in map(os.path.realpath, kept):
            kept.append(path)
    return kept


def find_base_python(avoid: tuple[str, ...] = ()) -> BasePython:
    """The first suitable interpreter on this computer.

    Raises
    ------
    SetupError
        Naming each interpreter tried and why it cannot be used.
    """
    reasons = []
    for path in candidate_paths(avoid):
        found = probe(path)
        if isinstance(found, BasePython):
            return found
        reasons.append(found)
    wanted = ".".join(map(str, MINIMUM_PYTHON))
    tried = ("; ".join(reasons) + ". ") if reasons else "No Python was found on the PATH. "
    raise SetupError(
        f"{tried}The engine needs Python {wanted} or later, installed on this computer outside "
        "QGIS (from python.org, or your system's packages, e.g. `sudo apt install python3 "
        "python3-venv` on Debian and Ubuntu); then choose it as the Python to set up from."
    )


def engine_problem(path: str) -> str | None:
    """Why the interpreter at ``path`` cannot run the engine, in words; None when it can."""
    found = probe(path)
    if isinstance(found, str):
        return found
    answer = subprocess.run(
        [found.path, "-c", "import geopandas, rasterio, exactextract, pyogrio, shapely"],
        capture_output=True,
        text=True,
        timeout=120,
        env=engine_environment(),
        stdin=subprocess.DEVNULL,
    )
    if answer.returncode != 0:
        last = (answer.stderr.strip().splitlines() or ["it stopped"])[-1]
        return f"{found.describe()} lacks the engine's libraries ({last})"
    return None
