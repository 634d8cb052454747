"""Open QGIS desktop with the plugin in a throwaway profile and the sample village project.

    python3 tools/run_qgis.py sample_data              # make qgis
    python3 tools/run_qgis.py sample_data --screenshot docs/images/dock.png   # make screenshot

The profile (recreated each time, under the sample folder) has the plugin
enabled and no first-run dialogs; QGIS_PLUGINPATH points at a folder that
holds this repository as ``sitecheck_qgis``; the engine is the repository's
.venv (or $SITECHECK_PYTHON). With --screenshot QGIS runs under Xvfb, the
panel checks a project parcel, and the window is saved as a PNG.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

PROFILE_SETTINGS = """[PythonPlugins]
sitecheck_qgis=true
processing=true

[qgis]
showTips=false
checkVersion=false
allowVersionCheck=false
firstRunDone=true
newProjectDefault=false

[UI]
hidebrowser=false

[app]
projections\\unknownCrsBehavior=UseProjectCrs
"""


def prepare(sample: Path) -> tuple[Path, Path]:
    """A fresh profile folder and a plugin folder holding this repository."""
    base = sample / "qgis"
    shutil.rmtree(base, ignore_errors=True)
    profile = base / "profiles" / "profiles" / "default" / "QGIS"
    profile.mkdir(parents=True)
    (profile / "QGIS3.ini").write_text(PROFILE_SETTINGS, encoding="utf-8")
    plugins = base / "plugins"
    plugins.mkdir()
    (plugins / "sitecheck_qgis").symlink_to(ROOT, target_is_directory=True)
    return base / "profiles", plugins


def desktop_environment(plugins: Path) -> dict[str, str]:
    """QGIS's environment: system paths first, no pyenv or Python variables.

    QGIS embeds Debian's Python; with another Python's directories first on
    PATH it finds that Python's standard library and cannot load its own
    modules. The desktop needs a real display platform (tests run offscreen).
    """
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("PYENV", "PYTHON", "VIRTUAL_ENV", "_PYENV", "QT_QPA_PLATFORM"))
    }
    system = ["/usr/local/bin", "/usr/bin", "/bin", "/usr/sbin", "/sbin"]
    others = [
        p
        for p in env.get("PATH", "").split(os.pathsep)
        if p and p not in system and ".pyenv" not in p
    ]
    env["PATH"] = os.pathsep.join(system + others)
    env["QGIS_PLUGINPATH"] = str(plugins)
    env["SITECHECK_PYTHON"] = os.environ.get("SITECHECK_PYTHON") or str(
        ROOT / ".venv" / "bin" / "python"
    )
    return env


@contextlib.contextmanager
def virtual_display():
    """An Xvfb display for the screenshot, stopped afterwards."""
    number = next(n for n in range(99, 199) if not Path(f"/tmp/.X{n}-lock").exists())
    server = subprocess.Popen(
        ["Xvfb", f":{number}", "-screen", "0", "1600x1000x24", "-nolisten", "tcp"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        for _ in range(100):
            if Path(f"/tmp/.X11-unix/X{number}").exists():
                break
            time.sleep(0.1)
        yield f":{number}"
    finally:
        server.terminate()
        server.wait(timeout=30)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sample", type=Path, help="folder with village.qgz (tools/make_project.py)")
    parser.add_argument(
        "--screenshot", type=Path, help="save a screenshot there and quit (under Xvfb)"
    )
    parser.add_argument("--status", type=Path, help="where the session writes its JSON status")
    parser.add_argument(
        "--code",
        type=Path,
        default=ROOT / "tools" / "qgis_session.py",
        help="start-up code to run instead of the panel session (under Xvfb, like --screenshot)",
    )
    args = parser.parse_args()
    sample = args.sample.resolve()
    project = sample / "village.qgz"
    if not project.is_file():
        raise SystemExit(f"no project {project}: run tools/make_project.py {sample} first")
    profiles, plugins = prepare(sample)
    env = desktop_environment(plugins)
    command = [
        "qgis",
        "--profiles-path",
        str(profiles),
        "--nologo",
        "--noversioncheck",
        "--code",
        str(args.code.resolve()),
        str(project),
    ]
    scripted = args.code.resolve() != (ROOT / "tools" / "qgis_session.py")
    if args.screenshot or scripted:
        if args.screenshot:
            args.screenshot.parent.mkdir(parents=True, exist_ok=True)
            env["SITECHECK_SCREENSHOT"] = str(args.screenshot.resolve())
        status = (args.status or sample / "qgis" / "session.json").resolve()
        env["SITECHECK_SESSION_STATUS"] = str(status)
        log = sample / "qgis" / "qgis.log"
        with virtual_display() as display, open(log, "w", encoding="utf-8") as handle:
            subprocess.run(
                command,
                env=dict(env, DISPLAY=display),
                timeout=600,
                check=False,
                stdout=handle,
                stderr=subprocess.STDOUT,
            )
        if not status.is_file():
            raise SystemExit(f"QGIS ended without a session status; its output is in {log}")
        result = json.loads(status.read_text())
        print(json.dumps(result))
        return 0 if result.get("ok") else 1
    return subprocess.run(command, env=env, check=False).returncode


if __name__ == "__main__":
    sys.exit(main())
