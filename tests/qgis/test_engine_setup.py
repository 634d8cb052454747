"""Plugins > SiteCheck > Set up the SiteCheck engine, in a real QGIS, into fresh profile folders.

The plugin is installed the way a user gets it (the ZIP, extracted into a
plugin folder: no .venv, no Makefile beside it), its panel finds no engine and
offers the set-up; the set-up installs from a folder of wheels with the package
index made unreachable, so only the folder can have served it.
"""

from __future__ import annotations

import contextlib
import dataclasses
import importlib
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from qgis.gui import QgsMapCanvas
from qgis.PyQt.QtCore import QCoreApplication, QEvent, QEventLoop, QTimer
from qgis.PyQt.QtTest import QTest
from qgis.PyQt.QtWidgets import QApplication

from .conftest import ENGINE_PYTHON, REPO, wait_for_reply

DEAD_INDEX = "http://127.0.0.1:9/simple"  # port 9 (discard): nothing answers there
SETTING = "SITECHECK_PYTHON"


@pytest.fixture(scope="session")
def wheels(tmp_path_factory) -> Path:
    """A folder of wheels for the engine's requirements, as an office without internet has one."""
    folder = tmp_path_factory.mktemp("wheels")
    subprocess.run(
        [ENGINE_PYTHON, "-m", "pip", "download", "--quiet", "--only-binary=:all:", "-d",
         str(folder), "-r", str(REPO / "engine-requirements.txt"),
         "-c", str(REPO / "constraints.txt"), "pip"],
        check=True, capture_output=True, timeout=900,
    )  # fmt: skip
    return folder


@pytest.fixture(scope="session")
def base_python() -> str:
    """The Python the test engine was made from (same version as the wheels)."""
    answer = subprocess.run(
        [ENGINE_PYTHON, "-c", "import sys; print(sys._base_executable)"],
        check=True, capture_output=True, text=True,
    )  # fmt: skip
    return os.path.realpath(answer.stdout.strip())


@pytest.fixture(scope="module")
def fresh_plugin(tmp_path_factory, plugin):
    """The plugin as installed from its ZIP, imported under a name of its own."""
    folder = tmp_path_factory.mktemp("installed-plugins")
    archive = folder / "sitecheck_qgis.zip"
    subprocess.run(
        [sys.executable, "-c", "import sys; from pathlib import Path; sys.path.insert(0, sys.argv[1]);"
         " import package; package.build(Path(sys.argv[2]))", str(REPO / "tools"), str(archive)],
        check=True, capture_output=True,
    )  # fmt: skip
    zipfile.ZipFile(archive).extractall(folder)
    (folder / "sitecheck_qgis").rename(folder / "sitecheck_fresh")
    assert not (folder / "sitecheck_fresh" / ".venv").exists()
    sys.path.insert(0, str(folder))
    yield "sitecheck_fresh"
    sys.path.remove(str(folder))


@pytest.fixture
def no_engine_configured(monkeypatch):
    """Neither SITECHECK_PYTHON nor the provider setting names an engine; restored afterwards."""
    from processing.core.ProcessingConfig import ProcessingConfig

    before = ProcessingConfig.getSetting(SETTING)
    monkeypatch.delenv("SITECHECK_PYTHON", raising=False)
    ProcessingConfig.settings[SETTING].value = ""
    yield
    ProcessingConfig.settings[SETTING].value = before
    ProcessingConfig.settings[SETTING].save()


@pytest.fixture
def offline(monkeypatch):
    """pip can reach no index: whatever it installs must come from the wheel folder."""
    monkeypatch.setenv("PIP_CONFIG_FILE", os.devnull)  # no machine-wide index or wheel links
    monkeypatch.setenv("PIP_INDEX_URL", DEAD_INDEX)
    monkeypatch.delenv("PIP_FIND_LINKS", raising=False)
    monkeypatch.delenv("PIP_EXTRA_INDEX_URL", raising=False)
    monkeypatch.setenv("PIP_RETRIES", "1")
    monkeypatch.setenv("PIP_DEFAULT_TIMEOUT", "3")


def run_until_done(start, timeout_s: float = 900) -> tuple[bool, str]:
    """Call ``start`` (it returns the running set-up task); run the event loop until it is done."""
    outcome: list[tuple[bool, str]] = []
    loop = QEventLoop()
    task = start()
    task.done.connect(lambda ok, message: (outcome.append((ok, message)), loop.quit()))
    QTimer.singleShot(int(timeout_s * 1000), loop.quit)
    loop.exec()
    assert outcome, "the set-up did not finish"
    return outcome[0]


def engine_version(interpreter: str, plugin_dir: Path) -> str:
    environment = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    environment["PYTHONPATH"] = str(plugin_dir)
    answer = subprocess.run(
        [interpreter, "-m", "sitecheck", "--version"],
        capture_output=True, text=True, env=environment, check=True,
    )  # fmt: skip
    return answer.stdout.strip()


def metadata_version() -> str:
    for line in (REPO / "metadata.txt").read_text(encoding="utf-8").splitlines():
        if line.startswith("version="):
            return line.split("=", 1)[1].strip()
    raise AssertionError("metadata.txt has no version")


def test_a_fresh_install_offers_the_set_up_then_answers_once_it_is_done(
    fresh_plugin,
    project,
    wheels,
    base_python,
    tmp_path,
    no_engine_configured,
    offline,
):
    engine = importlib.import_module(f"{fresh_plugin}.bridge.engine")
    dock_module = importlib.import_module(f"{fresh_plugin}.ui.dock")
    dialog_module = importlib.import_module(f"{fresh_plugin}.ui.engine_setup_dialog")
    assert not Path(engine.profile_engine_python()).exists(), "the QGIS test profile has an engine"

    canvas = QgsMapCanvas()
    dock = dock_module.SiteCheckDock(canvas)
    try:
        parcels = dock.layers()["parcels"]
        lot = sorted(f["parcel_id"] for f in parcels.getFeatures())[0]
        dock.set_parcel(lot)
        dock.evaluate_now()
        assert dock.engine_missing
        # the parcel's line no longer says "checking…" for an answer that cannot come
        assert dock.parcel_label.text() == f"Parcel {lot}: not checked: SiteCheck needs its engine"
        assert "Set up" in dock.status.text()
        assert "make install" not in dock.status.toolTip()
        assert "Set up the SiteCheck engine" in dock.status.toolTip()

        profile = tmp_path / "profile"
        profile.mkdir()
        dialog = dialog_module.EngineSetupDialog(profile_folder=str(profile))
        dialog.engine_ready.connect(dock.engine_ready)
        dialog.base.set_text(base_python)
        dialog.from_wheels.setChecked(True)
        dialog.wheels.set_text(str(wheels))
        steps: list[str] = []
        progress: list[int] = []
        dialog.progress.valueChanged.connect(progress.append)

        def press_set_up():
            dialog.set_up_button.click()
            assert dialog.task is not None, dialog.step.text()
            dialog.task.step.connect(steps.append)
            assert not dialog.set_up_button.isEnabled() and dialog.cancel_button.isEnabled()
            return dialog.task

        ok, message = run_until_done(press_set_up)
        assert ok, message

        interpreter = profile / "sitecheck-engine" / "bin" / "python"
        assert message == str(interpreter)
        assert "The engine is set up" in dialog.step.text()
        assert dialog.progress.value() == 100
        assert progress == sorted(progress) and progress[-1] == 100
        assert any("numpy" in step for step in steps), steps
        # pip unpacks for most of the time without a line: the bar follows the packages
        # appearing in the environment, every wheel of the folder but pip (the venv has it)
        installing = [step for step in steps if step.startswith("Installing the packages (")]
        counts = [int(step.split("(")[1].split(" of ")[0]) for step in installing]
        listed = int(installing[-1].split(" of ")[1].rstrip(")"))
        assert listed == len(list(wheels.glob("*.whl"))) - 1
        assert counts == sorted(counts) and counts[-1] == listed and len(set(counts)) >= 3
        assert len({value for value in progress if 40 < value < 95}) >= 3, progress
        assert sorted(p.name for p in profile.iterdir()) == ["sitecheck-engine"]  # no .partial
        assert engine_version(str(interpreter), REPO) == f"sitecheck {metadata_version()}"

        from processing.core.ProcessingConfig import ProcessingConfig

        assert ProcessingConfig.getSetting(SETTING) == str(interpreter)
        assert engine.find_interpreter(engine.configured_interpreter()) == str(interpreter)

        reply = wait_for_reply(dock, 120_000)  # the panel tried again by itself
        assert reply["ok"] and reply["parcel_id"] == lot
        assert not dock.engine_missing
    finally:
        dock.shutdown()
        # Deleted here, in the main thread, not whenever Python's collector next runs,
        # which may be during the next test's set-up task, in its thread.
        for widget in (locals().get("dialog"), dock, canvas):
            if widget is not None:
                widget.deleteLater()
        QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)


def set_up_task(package: str, profile: Path, base_python: str, wheels):
    engine_setup = importlib.import_module(f"{package}.bridge.engine_setup")
    task_module = importlib.import_module(f"{package}.ui.engine_setup_task")
    base = engine_setup.probe(base_python)
    assert not isinstance(base, str), base
    task = task_module.EngineSetupTask(base, profile, str(wheels) if wheels else None)

    def start():
        task_module.start(task)
        return task

    return task, start


def test_an_unreachable_index_says_to_use_a_wheel_folder_and_leaves_nothing(
    plugin, base_python, tmp_path, no_engine_configured, offline
):
    from processing.core.ProcessingConfig import ProcessingConfig

    _, started = set_up_task("sitecheck_qgis", tmp_path, base_python, None)
    ok, message = run_until_done(started)
    assert not ok
    assert "could not reach the package index" in message
    assert "folder of wheels" in message and "pip download" in message
    assert list(tmp_path.iterdir()) == []
    assert ProcessingConfig.getSetting(SETTING) == ""


def test_a_wheel_folder_missing_a_package_names_it(
    plugin, wheels, base_python, tmp_path, no_engine_configured, offline
):
    partial = tmp_path / "wheels"
    shutil.copytree(wheels, partial)
    for wheel in partial.glob("rasterio-*.whl"):
        wheel.unlink()
    profile = tmp_path / "profile"
    profile.mkdir()
    _, started = set_up_task("sitecheck_qgis", profile, base_python, partial)
    ok, message = run_until_done(started)
    assert not ok
    assert "has no wheel of rasterio" in message
    assert list(profile.iterdir()) == []


def test_cancel_stops_pip_and_keeps_the_earlier_engine(
    plugin, wheels, base_python, tmp_path, no_engine_configured, offline
):
    earlier = tmp_path / "sitecheck-engine"
    earlier.mkdir()
    (earlier / "earlier-engine").write_text("kept")
    task, started = set_up_task("sitecheck_qgis", tmp_path, base_python, wheels)
    task.step.connect(lambda text: task.cancel() if "Installing" in text else None)
    ok, message = run_until_done(started)
    assert not ok and message.startswith("Canceled")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["sitecheck-engine"]
    assert (earlier / "earlier-engine").read_text() == "kept"
    left = [cmd for cmd in _command_lines() if str(tmp_path) in cmd]
    assert left == [], left


def test_with_no_python_outside_qgis_the_engine_is_made_from_the_one_qgis_runs_on(
    plugin, wheels, tmp_path, no_engine_configured, offline
):
    """The Windows office case, on Linux: no Python but QGIS's, so the set-up makes it from that."""
    from qgis.core import QgsApplication

    finder = importlib.import_module("sitecheck_qgis.bridge.python_finder")
    engine_setup = importlib.import_module("sitecheck_qgis.bridge.engine_setup")
    task_module = importlib.import_module("sitecheck_qgis.ui.engine_setup_task")
    empty = tmp_path / "empty"
    empty.mkdir()
    computer = dataclasses.replace(
        finder.Computer.this_one(QgsApplication.prefixPath()),
        environ={"PATH": str(empty)},  # nothing on the PATH
        root=empty,  # and none in the installers' folders
    )
    found = engine_setup.find_base_python(computer)
    assert found.origin == finder.QGIS_OWN
    # this test runs in the Python that runs QGIS
    assert os.path.realpath(found.path) == os.path.realpath(sys.executable)

    profile = tmp_path / "profile"
    profile.mkdir()
    task = task_module.EngineSetupTask(found, profile, str(wheels))
    ok, message = run_until_done(lambda: (task_module.start(task), task)[1])
    assert ok, message
    interpreter = profile / "sitecheck-engine" / "bin" / "python"
    assert engine_version(str(interpreter), REPO) == f"sitecheck {metadata_version()}"
    # an environment of its own: made from QGIS's Python, it sees none of QGIS
    isolated = subprocess.run(
        [str(interpreter), "-c", "import sys, os; print(os.path.realpath(sys._base_executable));"
         " import qgis"],
        capture_output=True, text=True, env={"PATH": os.environ["PATH"]}, check=False,
    )  # fmt: skip
    assert isolated.stdout.strip() == os.path.realpath(sys.executable)
    assert "No module named 'qgis'" in isolated.stderr


def _command_lines() -> list[str]:
    lines = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                lines.append((entry / "cmdline").read_bytes().replace(b"\0", b" ").decode())
    return lines


def test_path_fields_check_what_is_typed_without_enter(plugin, tmp_path):
    dialog_module = importlib.import_module("sitecheck_qgis.ui.engine_setup_dialog")
    dialog = dialog_module.EngineSetupDialog(profile_folder=str(tmp_path))
    dialog.show()
    field = dialog.existing
    QTest.keyClicks(field.line, str(tmp_path / "no-python-here"))
    _wait_for_verdict(field)
    assert field.verdict.text() == f"✘ {tmp_path / 'no-python-here'} does not exist"
    field.line.clear()
    QTest.keyClicks(field.line, ENGINE_PYTHON)
    _wait_for_verdict(field)
    assert field.problem is None and field.verdict.text().startswith("✔")
    home_relative = "~/" + os.path.relpath(ENGINE_PYTHON, os.path.expanduser("~"))
    field.line.clear()
    QTest.keyClicks(field.line, home_relative)
    _wait_for_verdict(field)
    assert field.problem is None, field.problem
    dialog.close()


def _wait_for_verdict(field, timeout_s: float = 60) -> None:
    import time

    deadline = time.monotonic() + timeout_s
    while field.problem in ("checking…", "not checked yet") and time.monotonic() < deadline:
        QApplication.processEvents()
        time.sleep(0.02)


def test_the_processing_setting_keeps_a_typed_path_when_the_dialog_closes(
    plugin, tmp_path, monkeypatch
):
    """Processing's own Options page: typed, no Enter, focus moves on, Apply; `~` accepted."""
    from processing.core.ProcessingConfig import ProcessingConfig
    from processing.gui.ConfigDialog import ConfigDialog

    before = ProcessingConfig.getSetting(SETTING)
    home_relative = "~/" + os.path.relpath(ENGINE_PYTHON, os.path.expanduser("~"))
    try:
        dialog = ConfigDialog(False)
        dialog.show()
        dialog.activateWindow()
        assert QTest.qWaitForWindowActive(dialog)
        setting = ProcessingConfig.settings[SETTING]
        item = dialog.items[setting]
        index = item.index()
        dialog.tree.expandAll()
        dialog.tree.setCurrentIndex(index)
        dialog.tree.edit(index)
        QApplication.processEvents()
        editor = dialog.tree.indexWidget(index)
        assert editor is QApplication.focusWidget()
        assert editor.metaObject().className() == "QLineEdit"  # not a field that needs Enter
        QTest.keyClicks(editor, home_relative)
        dialog.tree.setFocus()  # the user clicks elsewhere: no Enter
        QApplication.processEvents()
        assert item.text() == home_relative
        # What the dialog's OK does with each setting (the whole OK would also check
        # every other provider's settings, such as an OTB folder this machine lacks).
        setting.setValue(str(item.text()))
        setting.save()
        dialog.close()
        ProcessingConfig.readSettings()
        assert ProcessingConfig.getSetting(SETTING) == home_relative
        engine = importlib.import_module("sitecheck_qgis.bridge.engine")
        engine.forget_checked_interpreters()
        monkeypatch.delenv("SITECHECK_PYTHON")
        found = engine.find_interpreter(engine.configured_interpreter())
        assert found == os.path.expanduser(home_relative)

        provider = importlib.import_module("sitecheck_qgis.processing.provider")
        with pytest.raises(ValueError, match="does not exist"):
            provider.interpreter_setting_problem(str(tmp_path / "missing" / "python"))
    finally:
        ProcessingConfig.setSettingValue(SETTING, before)
