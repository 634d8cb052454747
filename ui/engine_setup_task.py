"""The engine set-up as a background QGIS task: progress in the task bar, Cancel, one result."""

from __future__ import annotations

from pathlib import Path

from qgis.core import QgsApplication, QgsTask
from qgis.PyQt.QtCore import pyqtSignal

from ..bridge.engine import SETTING_NAME, forget_checked_interpreters
from ..bridge.engine_install import set_up_engine
from ..bridge.engine_setup import BasePython, SetupCanceledError, SetupError, engine_folder
from ..bridge.i18n import tr


class EngineSetupTask(QgsTask):
    """Makes the engine's environment in a QGIS profile folder and installs its libraries.

    Signals
    -------
    step(str)
        What the set-up is doing now (pip's own line while it collects packages).
    done(bool, str)
        Once, in the main thread: whether the engine is ready, and the
        interpreter's path or what went wrong and what to do.
    """

    step = pyqtSignal(str)
    done = pyqtSignal(bool, str)

    def __init__(self, base: BasePython, profile_folder: str | Path, wheels: str | None) -> None:
        super().__init__(tr("Setting up the SiteCheck engine"), QgsTask.Flag.CanCancel)
        self.base = base
        self.folder = engine_folder(profile_folder)
        self.wheels = wheels or None
        self.interpreter = ""
        self.error = ""

    def run(self) -> bool:  # in a background thread
        try:
            self.interpreter = set_up_engine(
                self.base, self.folder, self.wheels, self._progress, self.isCanceled
            )
        except SetupCanceledError:
            self.error = tr("Canceled: nothing was installed, an earlier engine is kept.")
            return False
        except SetupError as error:
            self.error = str(error)
            return False
        except OSError as error:  # the profile folder cannot be written, the disk is full
            self.error = tr("The engine could not be written to {0}: {1}").format(
                self.folder, error.strerror or error
            )
            return False
        return True

    def _progress(self, percent: float, text: str) -> None:
        self.setProgress(percent)
        self.step.emit(text)

    def finished(self, result: bool) -> None:  # in the main thread
        if result:
            store_interpreter(self.interpreter)
            self.done.emit(True, self.interpreter)
        else:
            self.done.emit(False, self.error or tr("Canceled: nothing was installed."))


def store_interpreter(path: str) -> None:
    """Make ``path`` the engine for the panel and for Processing (the provider setting)."""
    from processing.core.ProcessingConfig import ProcessingConfig

    if SETTING_NAME in ProcessingConfig.settings:
        ProcessingConfig.setSettingValue(SETTING_NAME, path)
    else:  # the provider is not loaded: write where it reads its setting from
        from qgis.core import QgsSettings

        QgsSettings().setValue(f"Processing/Configuration/{SETTING_NAME}", path)
    forget_checked_interpreters()


def start(task: EngineSetupTask) -> None:
    """Hand the task to QGIS's task manager (its progress and Cancel show in the status bar)."""
    QgsApplication.taskManager().addTask(task)
