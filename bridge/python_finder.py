"""Which Pythons on a Windows, macOS or Linux computer can make the engine's environment.

Most Windows PCs in a village office have no Python but QGIS's own, and may
have the Microsoft Store's placeholder ``python.exe``, which is not one. So the
finder lists, in the order tried: the Pythons installed outside QGIS (the PATH,
python.org's and Homebrew's folders), then the interpreter QGIS itself runs on
(OSGeo4W's ``apps\\Python3xx\\python.exe``, the macOS bundle's, the system
Python on Linux). An environment made from QGIS's interpreter is a separate
virtual environment: the engine still runs in a cleaned process of its own and
never loads into QGIS. Placeholders are named and skipped without being run.

Pure path logic, no Qt and no QGIS: :class:`Computer` carries what the finder
reads, so tests give it the folder layouts of other systems.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

NEWEST_MINOR = 15  # python3.15 is the newest name looked for on the PATH
OUTSIDE = "outside QGIS"
QGIS_OWN = "the Python QGIS runs on"


@dataclass(frozen=True)
class Computer:
    """What the finder reads of a computer.

    Parameters
    ----------
    system : str
        ``sys.platform``: ``"win32"``, ``"darwin"`` or ``"linux"``.
    environ : Mapping of str to str
        The environment variables (``PATH``, ``LOCALAPPDATA``, ``ProgramFiles``, ``OSGEO4W_ROOT``).
    qgis_python_home : str
        ``sys.base_exec_prefix`` of the Python QGIS runs (its interpreter's home).
    qgis_python_version : tuple of int
        Its major and minor version.
    qgis_prefix : str
        ``QgsApplication.prefixPath()``; empty outside QGIS.
    root : Path
        Where the fixed folders (``/Library/Frameworks``, ``/opt/homebrew``, ``/usr``) are
        looked up: ``/`` on a real computer, a fake layout's folder in tests.
    """

    system: str
    environ: Mapping[str, str]
    qgis_python_home: str
    qgis_python_version: tuple[int, int]
    qgis_prefix: str = ""
    root: Path = field(default=Path("/"))

    @classmethod
    def this_one(cls, qgis_prefix: str = "") -> Computer:
        """The computer this code runs on, as seen from inside QGIS's Python."""
        return cls(
            system=sys.platform,
            environ=dict(os.environ),
            qgis_python_home=sys.base_exec_prefix,
            qgis_python_version=(sys.version_info.major, sys.version_info.minor),
            qgis_prefix=qgis_prefix,
        )

    @property
    def windows(self) -> bool:
        return self.system == "win32"

    def fixed(self, path: str) -> Path:
        """A fixed absolute folder of this computer (under ``root`` in a fake layout)."""
        return self.root / path.lstrip("/")


@dataclass(frozen=True)
class Candidate:
    """An interpreter to try, where it was found, and why it is skipped unrun (None: try it)."""

    path: str
    origin: str
    skipped: str | None = None


def qgis_interpreter(computer: Computer) -> str | None:
    """The interpreter QGIS runs on, as a program a virtual environment can be made from."""
    home = Path(computer.qgis_python_home)
    major, minor = computer.qgis_python_version
    names = ["python.exe"] if computer.windows else [f"python{major}.{minor}", f"python{major}"]
    folders = [home] if computer.windows else [home / "bin"]
    for folder in folders:
        for name in names:
            if (folder / name).is_file():
                return str(folder / name)
    return None


def qgis_folders(computer: Computer) -> list[Path]:
    """QGIS's own install folders: an interpreter there is QGIS's, whatever its name."""
    if computer.windows:
        found = [computer.environ.get("OSGEO4W_ROOT", "")]
        if computer.qgis_prefix:  # <root>\apps\qgis-ltr
            found.append(str(Path(computer.qgis_prefix).parent.parent))
        return [Path(folder) for folder in found if folder]
    if computer.system == "darwin" and ".app/" in computer.qgis_prefix + "/":
        bundle = computer.qgis_prefix[: (computer.qgis_prefix + "/").index(".app/") + 4]
        return [Path(bundle)]
    return []


def _path_entries(computer: Computer) -> list[Path]:
    separator = ";" if computer.windows else ":"
    value = computer.environ.get("PATH", "")
    return [Path(entry.strip('"')) for entry in value.split(separator) if entry.strip()]


def _on_path(computer: Computer) -> list[Path]:
    """Interpreters on the PATH, in PATH order, newest name first within a folder."""
    if computer.windows:
        names = ["python.exe", "python3.exe", "py.exe"]
    else:
        names = [f"python3.{minor}" for minor in range(NEWEST_MINOR, 10, -1)] + ["python3"]
    found = []
    for folder in _path_entries(computer):
        found += [folder / name for name in names if (folder / name).is_file()]
    return found


def _installed(computer: Computer) -> list[Path]:
    """Interpreters in the folders their installers use, newest first."""
    if computer.windows:
        folders = []
        local = computer.environ.get("LOCALAPPDATA", "")
        if local:
            folders += sorted(Path(local, "Programs", "Python").glob("Python3*"), reverse=True)
        for program_files in ("ProgramFiles", "ProgramW6432"):
            if computer.environ.get(program_files):
                folders += sorted(Path(computer.environ[program_files]).glob("Python3*"))[::-1]
        return [folder / "python.exe" for folder in folders if (folder / "python.exe").is_file()]
    if computer.system == "darwin":
        frameworks = computer.fixed("/Library/Frameworks/Python.framework/Versions")
        found = [v / "bin" / "python3" for v in sorted(frameworks.glob("3.*"), key=_minor)[::-1]]
        found += [
            computer.fixed("/opt/homebrew/bin/python3"),
            computer.fixed("/usr/local/bin/python3"),
        ]
    else:
        found = [computer.fixed("/usr/local/bin/python3"), computer.fixed("/usr/bin/python3")]
    return [path for path in found if path.is_file()]


def _minor(folder: Path) -> int:
    try:
        return int(folder.name.split(".")[1])
    except (IndexError, ValueError):
        return -1


def store_placeholder(path: Path) -> bool:
    """True for the Microsoft Store's ``python.exe`` alias when no Store Python is behind it.

    Windows 10 and 11 put ``python.exe`` and ``python3.exe`` in
    ``%LOCALAPPDATA%\\Microsoft\\WindowsApps``; until the Store's Python is
    installed (a ``PythonSoftwareFoundation.Python.3.*`` folder beside them)
    running one only offers the Store, so it is never run.
    """
    folder = path.parent
    if folder.name.lower() != "windowsapps" or folder.parent.name.lower() != "microsoft":
        return False
    return not any(folder.glob("PythonSoftwareFoundation.Python.3*"))


def _why_skipped(path: Path, computer: Computer) -> str | None:
    if computer.windows and store_placeholder(path):
        return (
            f"{path} is the Microsoft Store's placeholder for Python (an app alias that "
            "opens the Store), not a Python"
        )
    if computer.system == "darwin" and path == computer.fixed("/usr/bin/python3"):
        return f"{path} is macOS's Command Line Tools Python (3.9) or their installer prompt"
    return None


def candidates(computer: Computer) -> list[Candidate]:
    """Every interpreter to try, in order: outside QGIS first, QGIS's own last, each once."""
    inside = [Path(os.path.realpath(folder)) for folder in qgis_folders(computer)]
    own = qgis_interpreter(computer)
    own_real = os.path.realpath(own) if own else None
    outside: list[Candidate] = []
    seen: set[str] = set()
    for path in _on_path(computer) + _installed(computer):
        real = os.path.realpath(path)
        if real in seen:
            continue
        seen.add(real)
        if real == own_real or any(Path(real).is_relative_to(folder) for folder in inside):
            continue  # QGIS's own: tried last, from where QGIS runs it
        outside.append(Candidate(str(path), OUTSIDE, _why_skipped(path, computer)))
    if own is not None:
        outside.append(Candidate(own, QGIS_OWN))
    return outside
