"""The Pythons on this computer: which can host the engine, which runs it already, and why not.

The engine's libraries must live outside QGIS (see ``engine.py``), so the
set-up makes them an environment of their own in the QGIS profile folder, from
a Python 3.11 or later found by ``python_finder.py`` (one installed outside
QGIS, else QGIS's own interpreter), with ``engine_install.py``. No Qt and no
QGIS here.
"""

from __future__ import annotations

import json
import os
import subprocess
from dataclasses import dataclass
from pathlib import Path

from .engine import ENGINE_FOLDER, engine_environment, engine_imports, probe_code
from .python_finder import OUTSIDE, QGIS_OWN, Computer, candidates

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
    origin: str = OUTSIDE

    def describe(self) -> str:
        where = ", the Python QGIS runs on" if self.origin == QGIS_OWN else ""
        return f"Python {'.'.join(map(str, self.version))} ({self.path}{where})"


def expanded(path: str) -> str:
    """A typed path with ``~`` and environment variables expanded, surrounding quotes removed."""
    return os.path.expandvars(os.path.expanduser(path.strip().strip('"').strip("'")))


def engine_folder(profile_folder: str | Path) -> Path:
    """Where the set-up makes the engine's environment: inside the QGIS profile folder."""
    return Path(profile_folder) / ENGINE_FOLDER


def probe(path: str, origin: str = OUTSIDE) -> BasePython | str:
    """The interpreter at ``path``, or the reason it cannot be used, in words.

    ``origin`` says where it was found (:data:`python_finder.QGIS_OWN` for QGIS's own).
    """
    path = expanded(path)
    if not path:
        return "no path given"
    if not Path(path).exists():
        return f"{path} does not exist"
    if Path(path).is_dir():
        return f"{path} is a folder, not a Python interpreter"
    try:
        answer = subprocess.run(
            [path, "-c", probe_code(_PROBE)],
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
    if Path(path).name.lower() == "py.exe":  # the Windows launcher: keep the Python it chose
        path = facts["executable"]
    return BasePython(path, version, bool(facts["ensurepip"]), origin)


def find_base_python(computer: Computer | None = None) -> BasePython:
    """The first interpreter of :func:`python_finder.candidates` that can make the environment.

    Raises
    ------
    SetupError
        Naming each interpreter tried or skipped and why it cannot be used.
    """
    computer = computer or Computer.this_one()
    reasons = []
    for candidate in candidates(computer):
        found = candidate.skipped or probe(candidate.path, candidate.origin)
        if isinstance(found, BasePython):
            return found
        reasons.append(found)
    wanted = ".".join(map(str, MINIMUM_PYTHON))
    tried = ("; ".join(reasons) + ". ") if reasons else "No Python was found. "
    install = {
        "win32": "from python.org",
        "darwin": "from python.org or Homebrew",
    }.get(computer.system, "from your system's packages, e.g. `sudo apt install python3 "
                          "python3-venv` on Debian and Ubuntu")  # fmt: skip
    raise SetupError(
        f"{tried}The engine needs Python {wanted} or later to make its environment from. "
        f"Install one {install}, then choose it as the Python to set up from."
    )


def engine_problem(path: str) -> str | None:
    """Why the interpreter at ``path`` cannot run the engine, in words; None when it can."""
    found = probe(path)
    if isinstance(found, str):
        return found
    answer = subprocess.run(
        [
            found.path,
            "-c",
            probe_code(engine_imports()),
        ],
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
