"""Real QGIS for the plugin tests (Debian's python3-qgis, offscreen).

The repository root is the plugin folder. Tests import it the way QGIS does
from a plugin path: as a package named ``sitecheck_qgis``, through a symlink in
a temporary plugin folder. The engine runs in the interpreter named by
``SITECHECK_PYTHON`` (``make test`` points it at the repository's .venv).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import unicodedata
from html.parser import HTMLParser
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

REPO = Path(__file__).resolve().parents[2]
PLUGIN_NAME = "sitecheck_qgis"
ENGINE_PYTHON = os.environ.get("SITECHECK_PYTHON") or str(REPO / ".venv" / "bin" / "python")
os.environ["SITECHECK_PYTHON"] = ENGINE_PYTHON
_plugin_root = Path(tempfile.mkdtemp(prefix="sitecheck-plugins-"))
(_plugin_root / PLUGIN_NAME).symlink_to(REPO, target_is_directory=True)
# `python -m pytest` puts the working directory (this repository) first on the path,
# where the plugin's own `processing` package would hide QGIS's.
sys.path[:] = [p for p in sys.path if p not in ("", ".", str(REPO))]
sys.path.insert(0, str(_plugin_root))
sys.path.insert(1, "/usr/share/qgis/python/plugins")

try:
    from qgis.core import (
        QgsApplication,
        QgsFeature,
        QgsFeatureRequest,
        QgsGeometry,
        QgsProject,
        QgsRectangle,
    )
    from qgis.PyQt.QtCore import QCoreApplication, QEvent, QEventLoop, QTimer
except ImportError as error:  # one line saying what to install, not a collection traceback
    pytest.exit(
        f"QGIS missing: {sys.executable} cannot import qgis ({error}); run these tests with "
        "Debian's python3 after `make test` installs qgis, python3-qgis and qgis-providers",
        returncode=4,
    )

_app = QgsApplication([], False)
_app.initQgis()

from processing.core.Processing import Processing  # noqa: E402

Processing.initialize()

LAYERS = (
    "impervious_existing",
    "impervious_proposed",
    "floodplain",
    "wetlands",
    "watercourses",
    "sda",
    "zoning",
    "impaired_watersheds",
    "soils",
)


def pytest_configure(config: pytest.Config) -> None:
    """A QGIS call of the plugin's that this QGIS deprecates fails the test that makes it.

    SIP reports a deprecated method as a DeprecationWarning from the calling
    module, so this filter catches the plugin's calls (under either of the
    names the tests import it by) and not QGIS's own.
    """
    config.addinivalue_line("filterwarnings", r"error::DeprecationWarning:sitecheck_\w+")


_session_status = 0


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    global _session_status
    _session_status = int(exitstatus)


@pytest.hookimpl(trylast=True)
def pytest_unconfigure(config: pytest.Config) -> None:
    """End the process with the session's status once pytest has reported it.

    After every test has passed, QGIS 3.44 under Python 3.14 (Debian unstable)
    aborted with std::bad_alloc, or segfaulted, in 5 of 6 runs that held
    Processing's batch-dialog test (2026-12-04), while Python's finalizer
    destroyed the wrappers still alive (Processing's own batch dialog machinery
    among them) after QgsApplication. Seen with and without
    the plugin's last changes, in a run of test_provider.py alone. The report
    and the JUnit file are written by now; skipping the finalizer keeps an exit
    crash from standing for a failed run.
    """
    # os._exit skips atexit: the plugin folder goes here, its link first, so
    # nothing is followed into the repository.
    (_plugin_root / PLUGIN_NAME).unlink(missing_ok=True)
    _plugin_root.rmdir()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(_session_status)


_slot_errors: list[str] = []


def _record_slot_error(kind, value, trace) -> None:
    """An exception raised in a Qt slot: PyQt calls this instead of aborting the process.

    Without a hook of its own, PyQt 5.5+ ends the whole test run on the first
    exception in a slot; QGIS desktop shows such errors in a dialog.
    """
    import traceback

    _slot_errors.append("".join(traceback.format_exception(kind, value, trace)))


sys.excepthook = _record_slot_error


@pytest.fixture(autouse=True)
def no_error_in_a_slot():
    """A test fails when a slot the plugin connected raised while it ran."""
    _slot_errors.clear()
    yield
    errors, _slot_errors[:] = list(_slot_errors), []
    assert not errors, "an exception in a Qt slot:\n" + "\n".join(errors)


@pytest.fixture(scope="session")
def qgis_app() -> QgsApplication:
    """The running QgsApplication with Processing initialised."""
    return _app


@pytest.fixture(scope="session")
def plugin_root() -> Path:
    """A plugin folder holding this repository as ``sitecheck_qgis``."""
    return _plugin_root


@pytest.fixture(scope="session")
def plugin(qgis_app):
    """The plugin loaded through classFactory, its provider registered."""
    import importlib

    package = importlib.import_module(PLUGIN_NAME)
    instance = package.classFactory(None)
    instance.initProcessing()
    yield instance
    instance.unload()


def engine(*arguments: str, check: bool = True) -> subprocess.CompletedProcess:
    """Run the engine's command line in its own interpreter, as the plugin does."""
    environment = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    return subprocess.run(
        [ENGINE_PYTHON, "-m", "sitecheck", *arguments],
        capture_output=True,
        text=True,
        check=check,
        env=environment,
        cwd=REPO,
    )


@pytest.fixture(scope="session")
def village(tmp_path_factory) -> Path:
    """The sample village, generated by the engine."""
    folder = tmp_path_factory.mktemp("village")
    engine("sample-village", str(folder))
    return folder


@pytest.fixture(scope="session")
def cli_reference(village: Path) -> dict:
    """The CLI's JSON for the sample village checked against Scarsdale's pack."""
    gpkg = village / "village.gpkg"
    out = village / "cli.json"
    arguments = [
        "check",
        "--ordinance",
        "scarsdale",
        "--quiet",
        "--parcels",
        f"{gpkg}:parcels",
        "--disturbance",
        f"{gpkg}:disturbance",
        "--dem",
        str(village / "dem.tif"),
        "--out",
        str(village / "cli.gpkg"),
        "--json-layout",
        "full",
        "--json",
        str(out),
    ]
    for name in LAYERS:
        arguments += [f"--{name.replace('_', '-')}", f"{gpkg}:{name}"]
    engine(*arguments)
    return json.loads(out.read_text())


def village_parameters(village: Path, **extra) -> dict:
    """check_site parameters for the sample village (layers given as OGR sources)."""
    gpkg = village / "village.gpkg"
    parameters = {
        "ORDINANCE": 2,
        "PARCELS": f"{gpkg}|layername=parcels",
        "DISTURBANCE": f"{gpkg}|layername=disturbance",
        "DEM": str(village / "dem.tif"),
        "OUTPUT": "TEMPORARY_OUTPUT",
        "FLAGS": "TEMPORARY_OUTPUT",
        "PROJECTS": "TEMPORARY_OUTPUT",
    }
    for name in LAYERS:
        parameters[name.upper()] = f"{gpkg}|layername={name}"
    parameters.update(extra)
    return parameters


@pytest.fixture(scope="session")
def postgis():
    """The tests' own PostgreSQL + PostGIS server (tests/postgis_server.py), stopped at the end."""
    import importlib.util

    path = REPO / "tests" / "postgis_server.py"
    spec = importlib.util.spec_from_file_location("sitecheck_tests_postgis_server", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    server = module.start()
    yield server
    server.stop()


def make_village_project(village: Path, folder: Path) -> Path:
    """A copy of the village in ``folder`` with its styled project (tools/make_project.py)."""
    for name in ("village.gpkg", "dem.tif"):
        shutil.copy(village / name, folder / name)
    subprocess.run(
        [sys.executable, str(REPO / "tools" / "make_project.py"), str(folder)],
        check=True,
        capture_output=True,
    )
    return folder / "village.qgz"


@pytest.fixture
def project(village, tmp_path, plugin):
    """The styled sample-village project, from a copy of the village."""
    make_village_project(village, tmp_path)
    instance = QgsProject.instance()
    assert instance.read(str(tmp_path / "village.qgz"))
    yield instance
    instance.clear()


@pytest.fixture
def dock(project):
    """The SiteCheck panel on a canvas over the sample project, shut down afterwards."""
    import importlib

    from qgis.gui import QgsMapCanvas

    dock_module = importlib.import_module("sitecheck_qgis.ui.dock")
    canvas = QgsMapCanvas()
    canvas.setDestinationCrs(project.crs())
    canvas.setExtent(project.viewSettings().defaultViewExtent())
    panel = dock_module.SiteCheckDock(canvas)
    yield panel
    panel.shutdown()
    # Deleted here, not whenever Python's cycle collector reaches the panel (it is in cycles):
    # one freed by the collector while Qt lays out its list of triggers, whose delegate is
    # Python and may start a collection, is destroyed under its own call and QGIS segfaults
    # in the delegate (wrapping.text_width), as three full test runs did in a later test.
    for widget in (panel, canvas):
        widget.deleteLater()
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)


def square(centre, area: float) -> QgsGeometry:
    half = area**0.5 / 2
    return QgsGeometry.fromRect(
        QgsRectangle(centre.x() - half, centre.y() - half, centre.x() + half, centre.y() + half)
    )


def wait_for_reply(dock, timeout_ms: int = 60_000) -> dict:
    """Run the event loop until the panel shows a reply."""
    replies: list[dict] = []
    loop = QEventLoop()
    dock.evaluated.connect(lambda reply: (replies.append(reply), loop.quit()))
    QTimer.singleShot(timeout_ms, loop.quit)
    loop.exec()
    dock.evaluated.disconnect()
    assert replies, f"no reply within {timeout_ms} ms; status: {dock.status.text()}"
    return replies[-1]


def disturb_a_covered_lot(dock) -> dict:
    """The panel's reply for the first lot with existing cover and no disturbance, given a
    disturbance of 800 ft² at its centre and no proposed cover (the edit is rolled back)."""
    layers = dock.layers()
    existing, disturbance = layers["impervious_existing"], layers["disturbance"]
    busy = {f["parcel_id"] for f in disturbance.getFeatures()}

    def covered(lot) -> bool:
        near = QgsFeatureRequest().setFilterRect(lot.geometry().boundingBox())
        return any(e.geometry().intersects(lot.geometry()) for e in existing.getFeatures(near))

    lot = min(
        (f for f in layers["parcels"].getFeatures() if f["parcel_id"] not in busy and covered(f)),
        key=lambda f: f["parcel_id"],
    )
    disturbance.startEditing()
    feature = QgsFeature(disturbance.fields())
    feature.setGeometry(square(lot.geometry().centroid().asPoint(), 800.0))
    disturbance.addFeature(feature)
    layers["parcels"].selectByIds([lot.id()])
    try:
        return wait_for_reply(dock)
    finally:
        disturbance.rollBack()


def pdf_words(pdf: Path) -> list[dict]:
    """Every word of the PDF with its page and box (points, from the page's top left)."""
    html = subprocess.run(
        ["pdftotext", "-bbox", str(pdf), "-"], capture_output=True, text=True, check=True
    ).stdout
    words: list[dict] = []

    class Reader(HTMLParser):
        page = 0
        current: dict | None = None

        def handle_starttag(self, tag, attrs):
            values = dict(attrs)
            if tag == "page":
                self.page += 1
            elif tag == "word":
                self.current = {"page": self.page, **{k: float(values[k]) for k in values}}

        def handle_data(self, data):
            if self.current is not None:
                self.current["text"] = unicodedata.normalize("NFKC", data)  # "ﬀ" ligatures
                words.append(self.current)
                self.current = None

    Reader().feed(html)
    return words
