"""Make the engine's environment and install its libraries, step by step, with progress and Cancel.

Run from a background QGIS task (``ui/engine_setup_task.py``); no Qt and no QGIS here.
"""

from __future__ import annotations

import queue
import re
import shutil
import subprocess
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from .engine import (
    ENGINE_REQUIREMENTS,
    PLUGIN_DIR,
    engine_command,
    environment_python,
    pump_lines,
    start_process,
    stop_process,
)
from .engine_setup import BasePython, SetupCanceledError, SetupError, expanded

CONSTRAINTS = PLUGIN_DIR / "constraints.txt"


@dataclass(frozen=True)
class Step:
    """One command of the set-up, and the share of the progress bar it fills."""

    label: str
    command: list[str]
    start: float
    end: float
    environment: Path | None = None  # pip's target environment: its installs are counted


def wheel_folder_problem(folder: str) -> str | None:
    """Why ``folder`` cannot be installed from, or None."""
    path = Path(expanded(folder))
    if not path.is_dir():
        return f"the wheel folder {path} does not exist"
    if not any(path.glob("*.whl")):
        return f"the wheel folder {path} holds no .whl files"
    return None


def setup_steps(base: BasePython, folder: Path, wheels: str | None = None) -> list[Step]:
    """The commands that make the environment ``folder`` and install the engine's libraries.

    Parameters
    ----------
    base : BasePython
        The interpreter the environment is made from.
    folder : Path
        The environment's folder; an earlier one there is replaced.
    wheels : str, optional
        A folder of wheels to install from instead of the package index (offices
        without internet access): pip reads nothing from the network then.
    """
    python = str(environment_python(folder))
    steps = []
    bootstrap_from_wheel = not base.has_ensurepip
    make = [base.path, "-m", "venv", "--clear", str(folder)]
    if bootstrap_from_wheel:
        make.insert(3, "--without-pip")
    steps.append(Step("Creating the engine's environment", make, 0.0, 10.0))
    source = ["--no-index", "--find-links", expanded(wheels)] if wheels else []
    if bootstrap_from_wheel:
        pip_wheel = _pip_wheel(wheels)
        if pip_wheel is None:
            raise SetupError(
                f"{base.describe()} cannot put pip into a new environment (no ensurepip: on "
                "Debian and Ubuntu install python3-venv), and no pip wheel is at hand. Install "
                "python3-venv, or choose a wheel folder that holds a pip wheel."
            )
        steps.append(
            Step(
                "Installing pip from the wheel folder",
                [python, f"{pip_wheel}/pip", "install", "--no-index", str(pip_wheel)],
                10.0,
                15.0,
            )
        )
    install = [python, "-m", "pip", "install", "--no-input", "--progress-bar", "off"]
    install += ["--disable-pip-version-check", "-r", str(ENGINE_REQUIREMENTS)]
    if CONSTRAINTS.is_file():
        install += ["-c", str(CONSTRAINTS)]
    steps.append(
        Step("Installing the engine's libraries", install + source, 15.0, 95.0, environment=folder)
    )
    steps.append(Step("Checking the engine", engine_command(python, "--version"), 95.0, 100.0))
    return steps


def _pip_wheel(wheels: str | None) -> Path | None:
    if not wheels:
        return None
    found = sorted(Path(expanded(wheels)).glob("pip-*.whl"))
    return found[-1] if found else None


# pip prints one of these per package it fetches, then one line naming all it installs.
_PACKAGE_LINE = re.compile(r"^(Collecting|Processing|Requirement already satisfied:|Obtaining) ")
EXPECTED_PACKAGES = 26
"""Packages the engine's requirements pull in (25 and pip, counted in a wheel folder made for them)."""
FETCH_SHARE = 0.3
"""The part of pip's step spent finding and fetching (its "Collecting" lines). Measured online:
16 of 48 s; then pip unpacks the wheels for 32 s without a line, so that phase is counted by
the packages appearing in the environment (:func:`installed_count`)."""
POLL_S = 0.5


def installed_count(environment: Path) -> int:
    """How many packages the environment holds now: its ``*.dist-info`` folders."""
    found = list(environment.glob("lib/python3*/site-packages/*.dist-info"))
    return len(found + list(environment.glob("Lib/site-packages/*.dist-info")))  # Windows


def run_step(
    step: Step,
    on_progress: Callable[[float, str], None],
    is_canceled: Callable[[], bool],
) -> str:
    """Run one step; report progress within its share; the output, or raise.

    Raises
    ------
    SetupCanceledError
        When ``is_canceled()`` became true; the step's processes are stopped.
    SetupError
        When the step failed; the message says what to do.
    """
    on_progress(step.start, step.label)
    process = start_process(step.command, merge_output=True)
    lines: queue.Queue[tuple[str, str | None]] = queue.Queue()
    reader = threading.Thread(target=pump_lines, args=(process.stdout, "out", lines), daemon=True)
    reader.start()
    output: list[str] = []
    packages = 0
    installing: tuple[int, int] | None = None  # (packages there before, packages to install)
    shown = -1
    last_poll = time.monotonic()

    def share_done(share: float, text: str) -> None:
        on_progress(step.start + (step.end - step.start) * share, text)

    def show_installed(environment: Path, before: int, listed: int) -> None:
        nonlocal shown
        done = min(max(installed_count(environment) - before, 0), listed)
        if done != shown:
            shown = done
            share_done(
                FETCH_SHARE + (1 - FETCH_SHARE) * done / listed,
                f"Installing the packages ({done} of {listed})",
            )

    while True:
        if is_canceled():
            stop_process(process)
            reader.join(timeout=5)
            _close_stream(process)
            raise SetupCanceledError(step.label)
        if installing and step.environment and time.monotonic() - last_poll >= POLL_S:
            last_poll = time.monotonic()
            show_installed(step.environment, *installing)
        try:
            _, line = lines.get(timeout=0.1)
        except queue.Empty:
            continue
        if line is None:
            break
        line = line.rstrip()
        output.append(line)
        if _PACKAGE_LINE.match(line):
            packages += 1
            share = min(packages / EXPECTED_PACKAGES, 1.0) * FETCH_SHARE
            share_done(share, f"{step.label}: {_package_name(line)} ({packages} of about "
                              f"{EXPECTED_PACKAGES})")  # fmt: skip
        elif line.startswith("Installing collected packages"):
            listed = max(len(line.split(":", 1)[1].split(",")), 1)
            there = installed_count(step.environment) if step.environment else 0
            installing = (there, listed)
            share_done(FETCH_SHARE, f"Installing the packages (0 of {listed})")
    code = process.wait()
    _close_stream(process)
    if installing and step.environment and code == 0:  # pip may end between two looks
        show_installed(step.environment, *installing)
    on_progress(step.end, step.label)
    text = "\n".join(output)
    if code != 0:
        raise SetupError(failure_advice(step, text, code))
    return text


def _package_name(line: str) -> str:
    """``numpy`` from "Collecting numpy==2.4.6" or "Processing ./wheels/numpy-2.4.6-….whl"."""
    word = line.split()[3] if line.startswith("Requirement") else line.split()[1]
    word = Path(word).name if word.endswith(".whl") else word
    return re.split(r"[-=<>!~\[ ]", word, maxsplit=1)[0]


def _close_stream(process: subprocess.Popen) -> None:
    if process.stdout is not None:
        process.stdout.close()


_UNREACHABLE = (
    "Failed to establish a new connection",
    "Temporary failure in name resolution",
    "Name or service not known",
    "Network is unreachable",
    "Connection refused",
    "ProxyError",
    "SSLError",
    "Read timed out",
    "ConnectTimeoutError",
)
_NOT_FOUND = re.compile(
    r"Cannot install (\S+) because|"
    r"(?:Could not find a version that satisfies the requirement|"
    r"No matching distribution found for) (\S+)"
)


MAKE_WHEEL_FOLDER = (
    "on a computer with internet access and the same Python version, run `pip download -r "
    "engine-requirements.txt -c constraints.txt -d wheels pip` (both files are in the plugin "
    "folder), copy the wheels folder here and choose it as the wheel folder."
)


def failure_advice(step: Step, output: str, code: int) -> str:
    """What went wrong in a failed step, and what the user can do about it, in a few lines."""
    offline = "--no-index" in step.command
    found = _NOT_FOUND.search(output)
    missing = next((name for name in found.groups() if name), "") if found else ""
    if not offline and any(sign in output for sign in _UNREACHABLE):
        return (
            "pip could not reach the package index (pypi.org). Check this computer's internet "
            "connection; behind a proxy, set HTTPS_PROXY (or pip's own configuration) before "
            "starting QGIS. Without internet access, install from a folder of wheels instead: "
            + MAKE_WHEEL_FOLDER
        )
    if missing and offline:
        return (
            f"The wheel folder has no wheel of {missing} for this Python and this kind of "
            "computer. Make the folder again: " + MAKE_WHEEL_FOLDER
        )
    if missing:
        return (
            f"pip found no {missing} for this Python on the package index it reached. If this "
            "computer cannot reach pypi.org, install from a folder of wheels: "
            + MAKE_WHEEL_FOLDER
            + " Otherwise set up from a Python version the engine's libraries support "
            "(3.11 to 3.13)."
        )
    last = [line for line in output.splitlines() if line.strip()][-6:]
    detail = "\n".join(last) if last else f"exit code {code}"
    return f"{step.label} failed:\n{detail}"


def set_up_engine(
    base: BasePython,
    folder: Path,
    wheels: str | None,
    on_progress: Callable[[float, str], None],
    is_canceled: Callable[[], bool],
) -> str:
    """Make the engine's environment at ``folder``; its interpreter's path.

    The environment is made beside ``folder`` and takes its place only once the
    engine runs from it, so a set-up that fails or is canceled leaves an earlier
    working engine as it was, and nothing half-made behind.

    Raises
    ------
    SetupError, SetupCanceledError
        From the steps; nothing of this set-up is left then.
    """
    partial = folder.with_name(folder.name + ".partial")
    try:
        outputs = [
            run_step(step, on_progress, is_canceled) for step in setup_steps(base, partial, wheels)
        ]
        version = outputs[-1].strip().splitlines()[-1] if outputs[-1].strip() else ""
        if not version.startswith("sitecheck "):
            raise SetupError(f"The new engine did not answer `sitecheck --version` ({version!r}).")
    except BaseException:
        shutil.rmtree(partial, ignore_errors=True)
        raise
    earlier = folder.with_name(folder.name + ".old")
    shutil.rmtree(earlier, ignore_errors=True)
    if folder.exists():
        folder.rename(earlier)
    partial.rename(folder)
    shutil.rmtree(earlier, ignore_errors=True)
    on_progress(100.0, f"Set up: {version}")
    return str(environment_python(folder))
