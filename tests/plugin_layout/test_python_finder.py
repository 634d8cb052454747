"""The set-up's Python finder on the folder layouts of Windows, macOS and Linux installs.

Each layout is made of fake interpreters: shell scripts that answer the set-up's
probe as a Python of a given version would (and a Store placeholder that leaves
a mark if it is ever run), so the real probe runs on them here on Linux.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def _bridge():
    """The plugin's bridge modules the finder uses, imported without QGIS."""
    if str(REPO / "tools") not in sys.path:
        sys.path.insert(0, str(REPO / "tools"))
    from bridge_alone import bridge_module

    return bridge_module("python_finder"), bridge_module("engine_setup"), bridge_module("engine")


def fake_python(path: Path, version: str, reports: Path | None = None) -> Path:
    """A program that answers the probe as Python ``version`` at ``reports`` (itself by default)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    answer = {
        "version": [int(part) for part in version.split(".")],
        "executable": str(reports or path),
        "venv": True,
        "ensurepip": True,
    }
    path.write_text(f"#!/bin/sh\necho '{json.dumps(answer)}'\n")
    path.chmod(0o755)
    return path


def store_placeholder(folder: Path, marker: Path) -> Path:
    """The Microsoft Store's python.exe alias; running it would leave ``marker``."""
    path = folder / "Microsoft" / "WindowsApps" / "python.exe"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"#!/bin/sh\ntouch '{marker}'\necho 'Python was not found'\nexit 9009\n")
    path.chmod(0o755)
    return path


def windows(tmp_path: Path, qgis_root: Path, python_folder: str, path: list[Path], **environ):
    finder, _, _ = _bridge()
    local = tmp_path / "Users" / "clerk" / "AppData" / "Local"
    return finder.Computer(
        system="win32",
        environ={"PATH": ";".join(map(str, path)), "LOCALAPPDATA": str(local), **environ},
        qgis_python_home=str(qgis_root / "apps" / python_folder),
        qgis_python_version=(3, int(python_folder.removeprefix("Python3")[:2])),
        qgis_prefix=str(qgis_root / "apps" / "qgis-ltr"),
    )


def test_osgeo4w_with_only_the_store_placeholder_sets_up_from_qgis_own_python(tmp_path):
    finder, setup, _ = _bridge()
    root = tmp_path / "OSGeo4W"
    own = fake_python(root / "apps" / "Python312" / "python.exe", "3.12.7")
    fake_python(root / "bin" / "python3.exe", "3.12.7", reports=own)  # OSGeo4W's copy on PATH
    marker = tmp_path / "the placeholder ran"
    local = tmp_path / "Users" / "clerk" / "AppData" / "Local"
    placeholder = store_placeholder(local, marker)
    computer = windows(
        tmp_path, root, "Python312", [placeholder.parent, root / "bin"], OSGEO4W_ROOT=str(root)
    )

    listed = finder.candidates(computer)
    assert [(c.path, c.origin) for c in listed] == [
        (str(placeholder), finder.OUTSIDE),
        (str(own), finder.QGIS_OWN),
    ]
    assert "Microsoft Store's placeholder" in listed[0].skipped
    found = setup.find_base_python(computer)
    assert (found.path, found.version, found.origin) == (str(own), (3, 12, 7), finder.QGIS_OWN)
    assert "the Python QGIS runs on" in found.describe()
    assert not marker.exists(), "the Store placeholder was run"


def test_the_standalone_installer_prefers_a_python_org_install_to_qgis_own(tmp_path):
    finder, setup, _ = _bridge()
    root = tmp_path / "Program Files" / "QGIS 3.40.6"
    own = fake_python(root / "apps" / "Python312" / "python.exe", "3.12.7")
    fake_python(root / "bin" / "python3.exe", "3.12.7")
    local = tmp_path / "Users" / "clerk" / "AppData" / "Local"
    older = fake_python(local / "Programs" / "Python" / "Python311" / "python.exe", "3.11.9")
    newer = fake_python(local / "Programs" / "Python" / "Python313" / "python.exe", "3.13.1")
    # the standalone installer sets no OSGEO4W_ROOT for QGIS; its prefix names the folder
    computer = windows(tmp_path, root, "Python312", [root / "bin"])

    listed = [(c.path, c.origin) for c in finder.candidates(computer)]
    assert listed == [
        (str(newer), finder.OUTSIDE),
        (str(older), finder.OUTSIDE),
        (str(own), finder.QGIS_OWN),
    ]
    assert setup.find_base_python(computer).path == str(newer)


def test_the_store_python_when_installed_is_tried(tmp_path):
    finder, setup, _ = _bridge()
    root = tmp_path / "OSGeo4W"
    fake_python(root / "apps" / "Python312" / "python.exe", "3.12.7")
    local = tmp_path / "Users" / "clerk" / "AppData" / "Local"
    apps = local / "Microsoft" / "WindowsApps"
    (apps / "PythonSoftwareFoundation.Python.3.13_qbz5n2kfra8p0").mkdir(parents=True)
    alias = fake_python(apps / "python.exe", "3.13.2")
    computer = windows(tmp_path, root, "Python312", [apps], OSGEO4W_ROOT=str(root))

    first = finder.candidates(computer)[0]
    assert (first.path, first.skipped) == (str(alias), None)
    assert setup.find_base_python(computer).path == str(alias)


def test_the_py_launcher_gives_the_python_it_starts(tmp_path):
    _, setup, _ = _bridge()
    root = tmp_path / "OSGeo4W"
    fake_python(root / "apps" / "Python312" / "python.exe", "3.12.7")
    real = tmp_path / "Python" / "pythoncore-3.14-64" / "python.exe"
    launcher = fake_python(tmp_path / "Windows" / "py.exe", "3.14.0", reports=real)
    computer = windows(tmp_path, root, "Python312", [launcher.parent], OSGEO4W_ROOT=str(root))

    assert setup.find_base_python(computer).path == str(real)


def test_qgis_3_22_on_windows_with_no_other_python_says_what_to_install(tmp_path):
    _, setup, _ = _bridge()
    root = tmp_path / "OSGeo4W"
    own = fake_python(root / "apps" / "Python39" / "python.exe", "3.9.18")
    computer = windows(tmp_path, root, "Python39", [root / "bin"], OSGEO4W_ROOT=str(root))

    with pytest.raises(setup.SetupError) as refused:
        setup.find_base_python(computer)
    message = str(refused.value)
    assert f"{own} is Python 3.9.18; the engine needs 3.11 or later" in message
    assert "python.org" in message and "apt" not in message


def macos(tmp_path: Path, bundle: Path, path: list[Path]):
    finder, _, _ = _bridge()
    return finder.Computer(
        system="darwin",
        environ={"PATH": ":".join(map(str, path))},
        qgis_python_home=str(
            bundle / "Contents" / "Frameworks" / "Python.framework" / "Versions" / "3.12"
        ),
        qgis_python_version=(3, 12),
        qgis_prefix=str(bundle / "Contents" / "MacOS"),
        root=tmp_path,
    )


def test_the_macos_bundle_skips_the_command_line_tools_and_takes_homebrew(tmp_path):
    finder, setup, _ = _bridge()
    bundle = tmp_path / "Applications" / "QGIS-LTR.app"
    versions = bundle / "Contents" / "Frameworks" / "Python.framework" / "Versions"
    own = fake_python(versions / "3.12" / "bin" / "python3.12", "3.12.4")
    fake_python(bundle / "Contents" / "MacOS" / "bin" / "python3", "3.12.4")
    system = fake_python(tmp_path / "usr" / "bin" / "python3", "3.9.6")
    brew = fake_python(tmp_path / "opt" / "homebrew" / "bin" / "python3", "3.13.0")
    computer = macos(
        tmp_path, bundle, [tmp_path / "usr" / "bin", bundle / "Contents" / "MacOS" / "bin"]
    )

    listed = finder.candidates(computer)
    assert [(c.path, c.origin) for c in listed] == [
        (str(system), finder.OUTSIDE),
        (str(brew), finder.OUTSIDE),
        (str(own), finder.QGIS_OWN),
    ]
    assert "Command Line Tools" in listed[0].skipped
    assert setup.find_base_python(computer).path == str(brew)


def test_the_macos_bundle_alone_sets_up_from_its_python(tmp_path):
    finder, setup, _ = _bridge()
    bundle = tmp_path / "Applications" / "QGIS.app"
    versions = bundle / "Contents" / "Frameworks" / "Python.framework" / "Versions"
    own = fake_python(versions / "3.12" / "bin" / "python3.12", "3.12.4")
    computer = macos(tmp_path, bundle, [])

    found = setup.find_base_python(computer)
    assert (found.path, found.origin) == (str(own), finder.QGIS_OWN)


def test_linux_tries_the_path_first_and_the_system_python_qgis_runs_on_last(tmp_path):
    finder, setup, _ = _bridge()
    system = fake_python(tmp_path / "usr" / "bin" / "python3.11", "3.11.2")
    (tmp_path / "usr" / "bin" / "python3").symlink_to("python3.11")
    pyenv = fake_python(tmp_path / "home" / "clerk" / ".pyenv" / "shims" / "python3", "3.12.3")
    computer = finder.Computer(
        system="linux",
        environ={"PATH": f"{pyenv.parent}:{tmp_path / 'usr' / 'bin'}"},
        qgis_python_home=str(tmp_path / "usr"),
        qgis_python_version=(3, 11),
        root=tmp_path,
    )
    assert [(c.path, c.origin) for c in finder.candidates(computer)] == [
        (str(pyenv), finder.OUTSIDE),
        (str(system), finder.QGIS_OWN),
    ]
    assert setup.find_base_python(computer).path == str(pyenv)


def test_the_engine_process_leaves_osgeo4w_folders_off_its_path(monkeypatch):
    _, _, engine = _bridge()
    monkeypatch.setenv("OSGEO4W_ROOT", r"C:\OSGeo4W")
    monkeypatch.setenv(
        "PATH", r"C:\OSGeo4W\apps\qgis-ltr\bin;C:\OSGeo4W\bin;c:/osgeo4w/apps/Python312;"
        r"C:\OSGeo4W-tools;C:\Windows\system32;C:\Users\clerk\AppData\Local\Programs\Python"
    )  # fmt: skip
    assert engine.engine_environment()["PATH"] == (
        r"C:\OSGeo4W-tools;C:\Windows\system32;C:\Users\clerk\AppData\Local\Programs\Python"
    )
