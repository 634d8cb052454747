"""Talk to a persistent engine worker (``python -m sitecheck serve``) without blocking QGIS.

The worker runs in its own process, like every engine run; QProcess delivers
its replies through the Qt event loop, so the interface never waits on it.
"""

from __future__ import annotations

import itertools
import json
import time

from qgis.core import Qgis, QgsMessageLog
from qgis.PyQt.QtCore import QObject, QProcess, QProcessEnvironment, pyqtSignal

from .engine import ENGINE_LAUNCH, engine_environment

LOG_TAG = "SiteCheck"
RESTARTS_ALLOWED = 3
"""Restarts of a worker that died within RESTART_WINDOW_S; one more means it cannot run."""
RESTART_WINDOW_S = 60.0


class WorkerClient(QObject):
    """One engine worker process; requests go in as dicts, replies come back as signals.

    Signals
    -------
    replied(dict)
        A reply, with the ``id`` of its request.
    failed(str)
        The worker could not start or stopped unexpectedly.
    restarted(str)
        A worker that had stopped was started again and its session reopened
        (the last ``open`` request sent again) before the request that needed it.
    """

    replied = pyqtSignal(dict)
    failed = pyqtSignal(str)
    restarted = pyqtSignal(str)

    def __init__(self, interpreter: str, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.interpreter = interpreter
        self.process: QProcess | None = None
        self._buffer = b""
        self._ids = itertools.count(1)
        self._stopping = False
        self._session: dict | None = None  # the last open request, sent again after a restart
        self._stopped_because = ""  # why the last process ended, when it ended on its own
        self._restarts: list[float] = []

    def is_running(self) -> bool:
        return self.process is not None and self.process.state() != QProcess.ProcessState.NotRunning

    def start(self) -> None:
        """Start the worker process (nothing happens if it runs already)."""
        if self.is_running():
            return
        process = QProcess(self)
        environment = QProcessEnvironment()
        for key, value in engine_environment().items():
            environment.insert(key, value)
        process.setProcessEnvironment(environment)
        process.readyReadStandardOutput.connect(self._read_replies)
        process.readyReadStandardError.connect(self._read_log)
        process.finished.connect(self._finished)
        process.errorOccurred.connect(self._error)
        self._stopping = False
        self._buffer = b""
        self.process = process
        process.start(self.interpreter, ["-c", ENGINE_LAUNCH, "serve"])

    def send(self, request: dict) -> int:
        """Send a request; returns its id (the reply carries it).

        After the worker died, the first request starts it again and, unless it
        is an ``open`` itself, sends the session's ``open`` before it.

        Raises
        ------
        RuntimeError
            When the worker died more than RESTARTS_ALLOWED times in a minute.
        """
        if request.get("op") == "open":
            self._session = dict(request)
        if self._stopped_because and not self.is_running():
            self._restart(reopen=request.get("op") != "open")
        self.start()
        return self._write(request)

    def _restart(self, reopen: bool) -> None:
        now = time.monotonic()
        self._restarts = [t for t in self._restarts if now - t < RESTART_WINDOW_S]
        if len(self._restarts) >= RESTARTS_ALLOWED:
            raise RuntimeError(
                f"the SiteCheck worker stopped {len(self._restarts) + 1} times within a minute "
                f"({self._stopped_because}); see the SiteCheck log"
            )
        self._restarts.append(now)
        why, self._stopped_because = self._stopped_because, ""
        self.start()
        if reopen and self._session is not None:
            self._write(self._session)
        self.restarted.emit(why)

    def _write(self, request: dict) -> int:
        request = dict(request, id=next(self._ids))
        assert self.process is not None
        self.process.write((json.dumps(request) + "\n").encode("utf-8"))
        return int(request["id"])

    def stop(self) -> None:
        """Ask the worker to quit, and kill it if it does not."""
        if not self.is_running():
            return
        assert self.process is not None
        self._stopping = True
        self.process.write(b'{"op": "quit"}\n')
        if not self.process.waitForFinished(3000):
            self.process.kill()
            self.process.waitForFinished(3000)

    def _read_replies(self) -> None:
        assert self.process is not None
        self._buffer += bytes(self.process.readAllStandardOutput())
        while b"\n" in self._buffer:
            line, self._buffer = self._buffer.split(b"\n", 1)
            if not line.strip():
                continue
            try:
                reply = json.loads(line.decode("utf-8"))
            except ValueError:
                QgsMessageLog.logMessage(
                    f"worker wrote: {line[:200]!r}", LOG_TAG, Qgis.MessageLevel.Warning
                )
                continue
            self.replied.emit(reply)

    def _read_log(self) -> None:
        assert self.process is not None
        text = bytes(self.process.readAllStandardError()).decode("utf-8", "replace").strip()
        if text:
            QgsMessageLog.logMessage(text, LOG_TAG, Qgis.MessageLevel.Info)

    def _finished(self, code: int, status) -> None:
        if not self._stopping:
            self._stopped_because = f"the SiteCheck worker stopped (exit code {code})"
            self.failed.emit(self._stopped_because)

    def _error(self, error) -> None:
        if not self._stopping and error == QProcess.ProcessError.FailedToStart:
            self.failed.emit(f"the SiteCheck worker could not start ({self.interpreter})")
