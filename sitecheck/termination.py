"""SIGTERM as an exception raised where the run is, and remembered until the run ends.

Python runs a signal handler at the next bytecode of the main thread, wherever that
is. Raised there, :class:`Terminated` unwinds the run and its ``finally`` blocks
remove the temporaries. Two places hide it: a finalizer (a weakref callback, a
``__del__``), where Python prints it as "Exception ignored" and goes on, and a
library's C callback (as matplotlib's drawing of the report's maps did), which
turns it into an error of its own. So the request is also remembered: a run checks
it before it moves any output into place (:func:`stop_if_requested`), and the
command line ends a run that failed after it with "terminated", not with a
traceback.
"""

from __future__ import annotations

import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager


class Terminated(BaseException):
    """SIGTERM, raised where the run is so its temporaries are removed on the way out."""


_requested = threading.Event()
_before: list[tuple[object, object]] = []  # the handler and hook install() replaced


def install() -> None:
    """Raise :class:`Terminated` on SIGTERM from now on (main thread only)."""
    if threading.current_thread() is not threading.main_thread():
        return
    _requested.clear()
    _before.append((signal.getsignal(signal.SIGTERM), sys.unraisablehook))
    signal.signal(signal.SIGTERM, _on_sigterm)
    sys.unraisablehook = _keep_termination_quiet


def uninstall() -> None:
    """Put back what :func:`install` replaced, once the run is over.

    A SIGTERM after the run has nothing left to stop; raised as Terminated in the
    few lines between the end of the run and the process's exit, it would only print
    a traceback.
    """
    if threading.current_thread() is not threading.main_thread() or not _before:
        return
    handler, hook = _before.pop()
    # None: a handler not set from Python; the default is what the process had then
    signal.signal(signal.SIGTERM, signal.SIG_DFL if handler is None else handler)  # type: ignore[arg-type]
    sys.unraisablehook = hook  # type: ignore[assignment]


def requested() -> bool:
    """Whether a SIGTERM came during this run, even one a finalizer swallowed."""
    return _requested.is_set()


def stop_if_requested() -> None:
    """Raise :class:`Terminated` if a SIGTERM came, wherever it was raised first."""
    if _requested.is_set():
        raise Terminated


def _on_sigterm(signum: int, frame: object) -> None:
    _requested.set()
    raise Terminated


def _keep_termination_quiet(unraisable: sys.UnraisableHookArgs) -> None:
    """A Terminated swallowed by a finalizer: the request is remembered, nothing to print."""
    if not isinstance(unraisable.exc_value, Terminated):
        sys.__unraisablehook__(unraisable)


@contextmanager
def held_back() -> Iterator[None]:
    """Hold SIGTERM back (in the main thread) while files are moved or removed, so a
    terminated run ends with its outputs whole and its temporaries gone, never half-way.

    Blocking the signal in the main thread is not enough: the kernel gives a signal
    sent to the process to any thread that does not block it (a geometry thread, the
    hashing thread), and Python then runs the handler in the main thread all the same,
    inside the block. A CI run's check, terminated while it moved its files into place,
    left a previous output beside the new ones so. While held, the handler only notes
    the signal; it is raised again as the block ends.
    """
    if not hasattr(signal, "pthread_sigmask") or (
        threading.current_thread() is not threading.main_thread()
    ):
        yield
        return
    caught: list[int] = []
    handler = signal.signal(signal.SIGTERM, lambda signum, frame: caught.append(signum))
    before = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM})
    try:
        yield
    finally:
        # The mask first: a signal between the two lines is noted, never raised with the
        # main thread left blocking SIGTERM.
        signal.pthread_sigmask(signal.SIG_SETMASK, before)
        # None: a handler not set from Python; the default is what the process had then
        signal.signal(signal.SIGTERM, signal.SIG_DFL if handler is None else handler)
        if caught:  # the held signal, to this thread: its handler runs as it would have
            signal.raise_signal(signal.SIGTERM)
