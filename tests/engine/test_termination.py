"""A SIGTERM that lands where Python or a library hides it still ends the run whole.

Python runs the SIGTERM handler at the next bytecode, wherever that is. In a
finalizer the exception it raises is printed as "Exception ignored" and the run goes
on; in a library's C callback (matplotlib's drawing) it comes back as an error of the
library's own. These tests put the signal in exactly those places, in a process of
its own, and check what a user relies on: the outputs are the old ones, no temporary
is left, and the run ends with exit code 143 and one line, no traceback.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

TERMINATED = 128 + signal.SIGTERM

SIGTERM_NOW = """
import os, signal, time

def sigterm_here():
    os.kill(os.getpid(), signal.SIGTERM)
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:  # Python runs the handler on one of these lines
        pass
"""


def run_python(program: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(SIGTERM_NOW) + textwrap.dedent(program)],
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_a_sigterm_swallowed_by_a_finalizer_keeps_the_old_output(tmp_path: Path) -> None:
    destination = tmp_path / "o.json"
    destination.write_text("old")
    ran = run_python(
        f"""
        import sys
        from pathlib import Path
        from sitecheck import termination
        from sitecheck.io.output_set import OutputSet, named

        class Finalized:
            def __del__(self):
                sigterm_here()

        termination.install()
        try:
            with OutputSet([named("--json", {str(destination)!r})], []) as outputs:
                outputs.temporary("--json").write_text("new")
                Finalized()  # dropped at once: the signal is raised inside __del__
                outputs.commit()
        except termination.Terminated:
            sys.exit(143)
        """
    )
    assert ran.returncode == TERMINATED, ran.stderr
    assert "Exception ignored" not in ran.stderr
    assert destination.read_text() == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["o.json"]


def test_a_sigterm_a_library_turned_into_its_own_error_ends_as_terminated() -> None:
    ran = run_python(
        """
        import sys
        from sitecheck.app import cli

        def drawing(args):
            try:  # as matplotlib's Agg renderer does with an exception in its callback
                sigterm_here()
            except BaseException:
                raise ValueError("Invalid bounding box") from None
            return 0

        cli.COMMANDS["describe"] = drawing
        sys.exit(cli.main(["describe"]))
        """
    )
    assert ran.returncode == TERMINATED, ran.stderr
    assert ran.stderr == "sitecheck: terminated\n"


def test_a_sigterm_a_finalizer_swallowed_in_a_run_without_outputs_ends_as_terminated() -> None:
    ran = run_python(
        """
        import sys
        from sitecheck.app import cli

        class Finalized:
            def __del__(self):
                sigterm_here()

        def answer(args):
            Finalized()
            return 0

        cli.COMMANDS["describe"] = answer
        sys.exit(cli.main(["describe"]))
        """
    )
    assert ran.returncode == TERMINATED, ran.stderr
    assert ran.stderr == "sitecheck: terminated\n"


def test_a_sigterm_after_the_run_ended_prints_no_traceback() -> None:
    """Once the run is over nothing is left to stop: the signal ends the process as any
    program's would, never as a traceback from the few lines before it exits."""
    ran = run_python(
        """
        import sys
        from sitecheck.app import cli

        cli.COMMANDS["describe"] = lambda args: 0
        code = cli.main(["describe"])
        assert code == 0
        sigterm_here()  # after main returned: the default action ends the process
        print("not reached", file=sys.stderr)
        """
    )
    assert ran.returncode == -signal.SIGTERM, ran.stderr
    assert ran.stderr == ""


def test_a_sigterm_while_the_thread_pool_starts_a_thread_ends_the_process() -> None:
    """A CI run of test_output_set's SIGTERM at 40% of a check never ended: the signal
    came while the geometry pool had started a thread and not yet registered it, and
    the terminated run waited at exit for a thread no one would tell to stop. The
    signal is put in that window here; the process must end, as terminated."""
    ran = subprocess.run(
        [
            sys.executable,
            "-c",
            textwrap.dedent(
                """
                import os, signal, sys, threading
                import numpy as np, shapely
                from sitecheck import termination
                from sitecheck.geometry import parallel

                started = threading.Thread.start

                def start_then_sigterm(thread):
                    started(thread)
                    if thread.name.startswith("sitecheck"):  # the pool's thread is running
                        os.kill(os.getpid(), signal.SIGTERM)

                threading.Thread.start = start_then_sigterm
                termination.install()
                try:
                    parallel.map_arrays(shapely.buffer, shapely.points(np.arange(5e3), 0), 1.0)
                except termination.Terminated:
                    sys.exit(143)
                """
            ),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "SITECHECK_THREADS": "2"},  # a pool however many cores there are
    )
    assert ran.returncode == TERMINATED, ran.stderr


def test_a_sigterm_while_a_file_starts_hashing_ahead_ends_the_process(tmp_path: Path) -> None:
    """The same window in the thread that hashes a run's input files as it begins
    (fingerprint.hash_ahead): a CI run's SIGTERM at the "locked" stage of a check did not
    end within 120 s. The signal is put between the thread's start and its registering."""
    layer = tmp_path / "village.gpkg"
    layer.write_bytes(b"\0" * 1_000_000)
    ran = subprocess.run(
        [
            sys.executable,
            "-c",
            textwrap.dedent(
                f"""
                import os, signal, sys, threading
                from sitecheck import termination
                from sitecheck.io import fingerprint

                started = threading.Thread.start

                def start_then_sigterm(thread):
                    started(thread)
                    if thread.name.startswith("sitecheck-hash"):  # the hashing thread runs
                        os.kill(os.getpid(), signal.SIGTERM)

                threading.Thread.start = start_then_sigterm
                termination.install()
                try:
                    fingerprint.hash_ahead([{str(layer)!r}])
                except termination.Terminated:
                    sys.exit(143)
                """
            ),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert ran.returncode == TERMINATED, ran.stderr


def test_a_sigterm_another_thread_receives_is_held_back_until_the_block_ends() -> None:
    """The kernel gives a signal sent to the process to a thread that does not block it,
    and Python runs the handler in the main thread all the same: with a geometry thread
    alive, a CI check terminated while it moved its files into place left a previous
    output beside the new ones. Here a thread is alive and the signal comes inside the
    held block: the block runs to its end, and the run ends as terminated after it."""
    ran = run_python(
        """
        import sys, threading
        from sitecheck import termination

        idle = threading.Event()
        threading.Thread(target=idle.wait, daemon=True).start()  # does not block SIGTERM
        termination.install()
        reached = []
        try:
            with termination.held_back():
                sigterm_here()  # five seconds of bytecode, where the handler would run
                reached.append("the block's end")
        except termination.Terminated:
            print(reached, file=sys.stderr)
            sys.exit(143)
        """
    )
    assert ran.returncode == TERMINATED, ran.stderr
    assert ran.stderr.strip() == '["the block\'s end"]'
