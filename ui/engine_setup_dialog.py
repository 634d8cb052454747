"""Plugins > SiteCheck > Set up the SiteCheck engine: one dialog, from no engine to a checked one.

Either a new engine (a virtual environment in the QGIS profile folder, filled
by pip from the package index or from a folder of wheels, in a background task
with progress and Cancel), or an engine Python the user already has. Every
path field says what is wrong with it as it is typed: nothing waits for Enter.
"""

from __future__ import annotations

import os
import threading

from qgis.core import QgsApplication
from qgis.PyQt.QtCore import QDir, QTimer, pyqtSignal
from qgis.PyQt.QtWidgets import (
    QButtonGroup,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QProgressBar,
    QPushButton,
    QRadioButton,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from ..bridge.engine_install import wheel_folder_problem
from ..bridge.engine_setup import (
    SetupError,
    engine_folder,
    engine_problem,
    expanded,
    find_base_python,
    probe,
)
from ..bridge.i18n import tr
from ..bridge.python_finder import OUTSIDE, QGIS_OWN, Computer, qgis_interpreter
from .engine_setup_task import EngineSetupTask, start, store_interpreter

CHECK_DELAY_MS = 400  # a field is checked once typing pauses this long


class CheckedPath(QWidget):
    """A path field with a "…" button and a line saying, as it is typed, whether the path will do.

    ``check`` runs in a background thread (it may start the interpreter) and
    returns None when the path is good, or the reason it is not.
    """

    checked = pyqtSignal(str, object)  # the text checked, its problem (None: good)

    def __init__(self, check, folder: bool = False, placeholder: str = "", parent=None) -> None:
        super().__init__(parent)
        self.check = check
        self.folder = folder
        self.problem: str | None = tr("not checked yet")
        self.line = QLineEdit()
        self.line.setPlaceholderText(placeholder)
        browse = QToolButton()
        browse.setText("…")
        browse.clicked.connect(self.browse)
        self.verdict = QLabel("")
        self.verdict.setWordWrap(True)
        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.line, 1)
        row.addWidget(browse)
        column = QVBoxLayout(self)
        column.setContentsMargins(0, 0, 0, 0)
        column.addLayout(row)
        column.addWidget(self.verdict)
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.setInterval(CHECK_DELAY_MS)
        self.timer.timeout.connect(self._check_now)
        self.line.textChanged.connect(self._typed)
        self.checked.connect(self._show)

    def text(self) -> str:
        return expanded(self.line.text())

    def set_text(self, text: str) -> None:
        self.line.setText(text)
        self._check_now()

    def browse(self) -> None:
        """A file dialog that shows hidden folders (an engine often lives in one)."""
        dialog = QFileDialog(self, tr("Choose a folder") if self.folder else tr("Choose Python"))
        dialog.setOption(QFileDialog.Option.DontUseNativeDialog, True)
        dialog.setFilter(QDir.Filter.AllEntries | QDir.Filter.Hidden | QDir.Filter.NoDotAndDotDot)
        dialog.setFileMode(
            QFileDialog.FileMode.Directory if self.folder else QFileDialog.FileMode.ExistingFile
        )
        if self.text():
            dialog.selectFile(self.text())
        if dialog.exec() and dialog.selectedFiles():
            self.set_text(dialog.selectedFiles()[0])

    def _typed(self) -> None:
        self.problem = tr("checking…")
        self.verdict.setText(tr("checking…"))
        self.timer.start()

    def _check_now(self) -> None:
        self.timer.stop()
        text = self.text()
        threading.Thread(
            target=lambda: self.checked.emit(text, self.check(text)), daemon=True
        ).start()

    def _show(self, text: str, problem) -> None:
        if text != self.text():
            return  # typed on since; a newer check is coming
        self.problem = problem
        self.verdict.setText(tr("✔ good") if problem is None else f"✘ {problem}")


class EngineSetupDialog(QDialog):
    """Set up the engine; ``engine_ready(path)`` when the panel and Processing can use it."""

    engine_ready = pyqtSignal(str)

    def __init__(self, profile_folder: str | None = None, parent=None) -> None:
        super().__init__(parent)
        self.setWindowTitle(tr("Set up the SiteCheck engine"))
        self.profile_folder = profile_folder or QgsApplication.qgisSettingsDirPath()
        self.task: EngineSetupTask | None = None
        self.message = ""  # the last outcome, in words
        folder = engine_folder(self.profile_folder)
        intro = QLabel(
            tr(
                "SiteCheck measures in a Python of its own, outside QGIS (QGIS's own libraries "
                "would give wrong answers). This makes one in {0} and installs the engine's "
                "libraries there (about 700 MB). An earlier engine there is kept until the new "
                "one works."
            ).format(folder)
        )
        intro.setWordWrap(True)

        new = QGroupBox(tr("Set up a new engine"))
        form = QFormLayout(new)
        self.base = CheckedPath(_base_problem, placeholder=tr("Python 3.11 or later"))
        form.addRow(tr("Python to set up from"), self.base)
        self.from_index = QRadioButton(tr("the Python Package Index (pypi.org, needs internet)"))
        self.from_wheels = QRadioButton(tr("a folder of wheels (no internet needed)"))
        self.sources = QButtonGroup(self)
        for button in (self.from_index, self.from_wheels):
            self.sources.addButton(button)
        self.from_index.setChecked(True)
        self.wheels = CheckedPath(wheel_folder_problem, folder=True)
        self.wheels.setEnabled(False)
        self.from_wheels.toggled.connect(self.wheels.setEnabled)
        form.addRow(tr("Install from"), self.from_index)
        form.addRow("", self.from_wheels)
        form.addRow(tr("Wheel folder"), self.wheels)
        self.progress = QProgressBar()
        self.progress.setRange(0, 100)
        self.progress.setValue(0)
        self.step = QLabel("")
        self.step.setWordWrap(True)
        self.set_up_button = QPushButton(tr("Set up"))
        self.set_up_button.clicked.connect(self.set_up)
        self.cancel_button = QPushButton(tr("Cancel the set-up"))
        self.cancel_button.setEnabled(False)
        self.cancel_button.clicked.connect(self.cancel)
        row = QHBoxLayout()
        row.addWidget(self.progress, 1)
        row.addWidget(self.set_up_button)
        row.addWidget(self.cancel_button)
        form.addRow(row)
        form.addRow(self.step)

        existing = QGroupBox(tr("Or use an engine Python you already have"))
        existing_form = QFormLayout(existing)
        self.existing = CheckedPath(engine_problem, placeholder="~/.sitecheck-engine/bin/python")
        self.use_button = QPushButton(tr("Use this Python"))
        self.use_button.clicked.connect(self.use_existing)
        existing_form.addRow(tr("Engine Python"), self.existing)
        existing_form.addRow("", self.use_button)

        # Closing leaves a running set-up running: its progress and Cancel stay in QGIS's task bar.
        close = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        close.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        for widget in (intro, new, existing, close):
            layout.addWidget(widget)
        self.resize(640, self.sizeHint().height())
        self._suggest_base()

    def _suggest_base(self) -> None:
        try:
            found = find_base_python(_this_computer())
        except SetupError as error:
            self.step.setText(str(error))
            return
        self.base.set_text(found.path)
        if found.origin == QGIS_OWN:
            self.step.setText(
                tr(
                    "No Python 3.11 or later is installed outside QGIS, so the engine's "
                    "environment will be made from the Python QGIS runs on ({0}). It is an "
                    "environment of its own: the engine still runs outside QGIS. If a QGIS "
                    "upgrade replaces that Python, set the engine up again."
                ).format(found.describe())
            )

    def set_up(self) -> None:
        """Start the set-up task with what the fields say, or say which field is wrong."""
        typed = expanded(self.base.text())
        own = qgis_interpreter(_this_computer())
        same = own is not None and os.path.realpath(typed) == os.path.realpath(own)
        base = probe(typed, QGIS_OWN if same else OUTSIDE)
        if isinstance(base, str):
            self.step.setText(tr("Python to set up from: {0}").format(base))
            return
        wheels = self.wheels.text() if self.from_wheels.isChecked() else None
        if wheels is not None:
            problem = wheel_folder_problem(wheels)
            if problem:
                self.step.setText(problem)
                return
        self.task = EngineSetupTask(base, self.profile_folder, wheels)
        self.task.progressChanged.connect(lambda value: self.progress.setValue(int(value)))
        self.task.step.connect(self.step.setText)
        self.task.done.connect(self._done)
        self.set_up_button.setEnabled(False)
        self.cancel_button.setEnabled(True)
        self.progress.setValue(0)
        start(self.task)

    def cancel(self) -> None:
        if self.task is not None:
            self.task.cancel()

    def _done(self, ok: bool, message: str) -> None:
        self.task = None
        self.set_up_button.setEnabled(True)
        self.cancel_button.setEnabled(False)
        self.message = (
            tr("The engine is set up: {0}. SiteCheck uses it from now on.").format(message)
            if ok
            else message
        )
        self.step.setText(self.message)
        if ok:
            self.progress.setValue(100)
            self.engine_ready.emit(message)

    def use_existing(self) -> None:
        path = self.existing.text()
        problem = engine_problem(path)
        if problem:
            self.message = problem
            self.existing.verdict.setText(f"✘ {problem}")
            return
        store_interpreter(path)
        self.message = tr("SiteCheck uses {0} from now on.").format(path)
        self.existing.verdict.setText(f"✔ {self.message}")
        self.engine_ready.emit(path)


def _base_problem(path: str) -> str | None:
    found = probe(path)
    return found if isinstance(found, str) else None


def _this_computer() -> Computer:
    return Computer.this_one(qgis_prefix=QgsApplication.prefixPath())
