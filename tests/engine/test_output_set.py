"""A run's outputs are one set: all of them from one run, or the previous ones untouched.

Real processes, real signals and real limits: two runs racing for the same
files, SIGTERM and SIGKILL in the middle of writing, a file size limit, a folder
the user may not write in, and the temporaries a killed run leaves behind.
"""

from __future__ import annotations

import hashlib
import json
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from contextlib import suppress
from pathlib import Path

import geopandas as gpd
import pyogrio
import pytest
from shapely.geometry import Polygon

from sitecheck.app.cli import main
from sitecheck.errors import InputError
from sitecheck.io.output_set import Named, OutputSet
from sitecheck.sample.village import generate_village

pytestmark = pytest.mark.slow  # runs of 1,200 parcels, killed and timed


@pytest.fixture(scope="module")
def town(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A village large enough that writing its report takes a moment."""
    folder = tmp_path_factory.mktemp("town")
    generate_village(folder, parcels=1200)
    return folder


def check_command(town: Path, out: Path, report: bool = True) -> list[str]:
    gpkg = town / "village.gpkg"
    words = [sys.executable, "-m", "sitecheck", "check", "--ordinance", "scarsdale"]
    for layer in ("parcels", "disturbance", "floodplain", "wetlands", "zoning", "sda"):
        words += [f"--{layer}", f"{gpkg}:{layer}"]
    words += ["--dem", str(town / "dem.tif"), "--all-parcels", "--quiet"]
    words += ["--out", str(out / "o.gpkg"), "--json", str(out / "o.json")]
    return words + (["--report", str(out / "o.html")] if report else [])


def hidden(folder: Path) -> list[str]:
    """The temporaries and lock files in a folder."""
    return sorted(p.name for p in folder.iterdir() if ".sitecheck-" in p.name)


def run_ids(folder: Path) -> tuple[str, str]:
    """The run id the GeoPackage's audit and the JSON document each carry."""
    audit = pyogrio.read_info(folder / "o.gpkg", layer="parcels")["dataset_metadata"]
    document = json.loads((folder / "o.json").read_text(encoding="utf-8"))
    return json.loads(audit["SITECHECK_AUDIT"])["run_id"], document["run_id"]


def digest(folder: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir())}


def wait_for(run: subprocess.Popen, folder: Path, predicate) -> bool:
    """Wait until ``predicate(names in folder)`` holds while the run lives; whether it did."""
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline and run.poll() is None:
        if predicate(hidden(folder)):
            return True
        time.sleep(0.001)
    return False


def _marked(destination: str):
    """A stage: the run has made a temporary of ``destination``."""
    prefix = f".{destination}.sitecheck-"
    return lambda names: any(n.startswith(prefix) and ".tmp" in n for n in names)


def start_and_wait_for(command: list[str], folder: Path, temporary_of: str) -> subprocess.Popen:
    """Start a run and return once its temporary of ``temporary_of`` exists (it is writing)."""
    run = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if not wait_for(run, folder, _marked(temporary_of)):
        run.kill()
        raise AssertionError(f"the run ended before writing {temporary_of}: {run.communicate()}")
    return run


def test_two_runs_on_the_same_outputs_leave_one_runs_set(town: Path, tmp_path: Path) -> None:
    """The first run is stopped (SIGSTOP) holding its locks while the second starts."""
    first = subprocess.Popen(check_command(town, tmp_path), stderr=subprocess.PIPE, text=True)
    wait_for(first, tmp_path, lambda names: ".o.html.sitecheck-lock" in names)
    first.send_signal(signal.SIGSTOP)
    try:
        second = subprocess.run(check_command(town, tmp_path), capture_output=True, text=True)
    finally:
        first.send_signal(signal.SIGCONT)
    first_err = first.communicate()[1]
    assert first.returncode == 0, first_err
    assert second.returncode == 2, second.stderr
    assert "another SiteCheck run is writing" in second.stderr and "--out" in second.stderr
    gpkg_run, json_run = run_ids(tmp_path)
    assert gpkg_run == json_run
    assert hidden(tmp_path) == []


def test_sigterm_while_writing_removes_the_temporaries_and_keeps_the_old_set(
    town: Path, tmp_path: Path
) -> None:
    assert subprocess.run(check_command(town, tmp_path)).returncode == 0
    old = digest(tmp_path)
    run = start_and_wait_for(check_command(town, tmp_path), tmp_path, "o.gpkg")
    run.send_signal(signal.SIGTERM)
    _, err = run.communicate(timeout=120)
    assert run.returncode == 128 + signal.SIGTERM, err
    assert "Traceback" not in err
    assert hidden(tmp_path) == []
    assert digest(tmp_path) == old


def test_sigterm_to_a_dask_driver_removes_its_temporaries(town: Path, tmp_path: Path) -> None:
    """The driver appends partition by partition: stopped between two, nothing is left."""
    command = check_command(town, tmp_path, report=False)
    command += ["--engine", "dask", "--workers", "1", "--partition-size", "50"]
    run = start_and_wait_for(command, tmp_path, "o.gpkg")
    run.send_signal(signal.SIGTERM)
    _, err = run.communicate(timeout=120)
    assert run.returncode == 128 + signal.SIGTERM, err
    assert "Traceback" not in err
    assert hidden(tmp_path) == [] and list(tmp_path.iterdir()) == []


def test_a_killed_runs_temporaries_are_removed_by_the_next_run(town: Path, tmp_path: Path) -> None:
    run = start_and_wait_for(check_command(town, tmp_path), tmp_path, "o.gpkg")
    run.send_signal(signal.SIGKILL)
    run.communicate(timeout=60)
    left = hidden(tmp_path)
    assert any(name.startswith(".o.gpkg.sitecheck-") for name in left)
    assert not (tmp_path / "o.gpkg").exists() and not (tmp_path / "o.json").exists()
    assert subprocess.run(check_command(town, tmp_path)).returncode == 0
    assert hidden(tmp_path) == []
    assert run_ids(tmp_path)[0] == run_ids(tmp_path)[1]


def test_a_held_lock_refuses_at_once(town: Path, tmp_path: Path, capsys) -> None:
    """Refused before any feature is read: a disturbance layer that reading would refuse
    (a vertex that is not a number) is never reached."""
    broken = tmp_path.parent / f"{tmp_path.name}-broken.gpkg"
    nan_vertex = Polygon([(0, 0), (100, 0), (float("nan"), 50), (100, 100), (0, 100)])
    gpd.GeoDataFrame(geometry=[nan_vertex], crs="EPSG:2260").to_file(broken, layer="work")
    argv = check_command(town, tmp_path, report=False)[3:]
    argv[argv.index(f"{town / 'village.gpkg'}:disturbance")] = f"{broken}:work"
    held = OutputSet([Named("--json", tmp_path / "o.json")], [])
    with held:
        code = main(argv)
    err = capsys.readouterr().err
    assert code == 2 and "--json: another SiteCheck run is writing" in err
    assert "not numbers" not in err
    assert sorted(p.name for p in tmp_path.iterdir()) == []


def test_a_file_size_limit_is_one_line_and_loses_nothing(town: Path, tmp_path: Path) -> None:
    assert subprocess.run(check_command(town, tmp_path, report=False)).returncode == 0
    old = digest(tmp_path)

    def limit_files() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (64 * 1024, 64 * 1024))

    limited = subprocess.run(
        check_command(town, tmp_path, report=False),
        capture_output=True,
        text=True,
        preexec_fn=limit_files,
    )
    errors = [line for line in limited.stderr.splitlines() if line.startswith("sitecheck: error:")]
    assert limited.returncode == 2, limited.stderr
    assert len(errors) == 1 and "could not write" in errors[0]
    assert "--out" in errors[0] or "--json" in errors[0]
    assert "Traceback" not in limited.stderr
    assert digest(tmp_path) == old and hidden(tmp_path) == []


def test_a_folder_the_user_may_not_write_in_is_refused_before_the_work(town: Path) -> None:
    """As root every folder is writable: the run then drops to the 'nobody' user."""
    shared = Path(tempfile.mkdtemp(prefix="readonly-outputs-", dir="/tmp"))
    try:
        shared.chmod(0o755)
        shutil.copy(town / "village.gpkg", shared / "village.gpkg")
        (shared / "village.gpkg").chmod(0o644)
        locked = shared / "locked"
        locked.mkdir(mode=0o555)
        locked.chmod(0o555)
        errors = shared / "err.txt"
        errors.write_text("")
        errors.chmod(0o666)
        argv = check_command(shared, locked, report=False)[3:]
        argv = [word for word in argv if word != "--dem" and not word.endswith("dem.tif")]
        pid = os.fork()
        if pid == 0:  # pragma: no cover - the child reports through its exit code
            with open(errors, "w") as stream:
                os.dup2(stream.fileno(), 2)
                sys.stderr = stream
                if os.geteuid() == 0:
                    os.setgid(65534)
                    os.setuid(65534)
                code = main(argv)
                sys.stderr.flush()
            os._exit(code)
        _, status = os.waitpid(pid, 0)
        assert os.waitstatus_to_exitcode(status) == 2
        text = errors.read_text()
        assert "--out: cannot write in" in text and "permission denied" in text, text
        assert list(locked.iterdir()) == []
    finally:
        shutil.rmtree(shared, ignore_errors=True)


def test_a_lock_path_taken_by_a_folder_is_one_line_naming_the_option(
    town: Path, tmp_path: Path, capsys
) -> None:
    (tmp_path / ".o.gpkg.sitecheck-lock").mkdir()
    code = main(check_command(town, tmp_path, report=False)[3:])
    errors = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(errors) == 1, errors
    assert errors[0].startswith("sitecheck: error: --out: ")
    assert ".o.gpkg.sitecheck-lock is a folder" in errors[0] and "Errno" not in errors[0]
    assert not (tmp_path / "o.gpkg").exists() and not (tmp_path / "o.json").exists()


@pytest.mark.parametrize(
    "engine", [[], ["--engine", "dask", "--workers", "1"]], ids=["cli", "dask"]
)
def test_what_a_run_killed_outright_leaves_goes_with_any_later_run_in_the_folder(
    town: Path, tmp_path: Path, engine: list[str]
) -> None:
    """A later run writing other files into the folder clears the locks and temporaries."""
    killed = start_and_wait_for(
        check_command(town, tmp_path, report=not engine) + engine, tmp_path, "o.gpkg"
    )
    killed.send_signal(signal.SIGKILL)
    killed.communicate(timeout=60)
    left = hidden(tmp_path)
    assert ".o.gpkg.sitecheck-lock" in left and ".o.json.sitecheck-lock" in left, left
    later = tmp_path / "later"
    command = check_command(town, tmp_path, report=False)
    command[command.index(str(tmp_path / "o.gpkg"))] = str(tmp_path / "p.gpkg")
    command[command.index(str(tmp_path / "o.json"))] = str(later / "p.json")
    later.mkdir()
    assert subprocess.run(command, capture_output=True).returncode == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["later", "p.gpkg"]


def test_a_previous_output_a_killed_run_had_moved_aside_is_put_back(tmp_path: Path) -> None:
    """Killed between moving the old JSON aside and putting the new one in place."""
    aside = tmp_path / ".o.json.sitecheck-4242-k3jd.previous"
    aside.write_text('{"run_id": "before"}')
    (tmp_path / ".o.json.sitecheck-4242-k3jd.tmp.json").write_text('{"run_id": "half')
    (tmp_path / ".o.json.sitecheck-lock").write_text("")
    with OutputSet([Named("--out", tmp_path / "other.gpkg")], []):
        pass
    assert sorted(p.name for p in tmp_path.iterdir()) == ["o.json"]
    assert json.loads((tmp_path / "o.json").read_text()) == {"run_id": "before"}


def test_a_lock_a_live_run_holds_is_left_to_it(tmp_path: Path) -> None:
    held = OutputSet([Named("--json", tmp_path / "o.json")], [])
    with held:
        with OutputSet([Named("--out", tmp_path / "other.gpkg")], []):
            pass
        assert hidden(tmp_path) == [".o.json.sitecheck-lock"]
    assert hidden(tmp_path) == []


def test_a_destination_made_a_folder_during_the_run_fails_it_keeping_the_old_set(
    town: Path, tmp_path: Path
) -> None:
    assert subprocess.run(check_command(town, tmp_path)).returncode == 0
    before = run_ids(tmp_path)
    old_gpkg = hashlib.sha256((tmp_path / "o.gpkg").read_bytes()).hexdigest()
    run = start_and_wait_for(check_command(town, tmp_path), tmp_path, "o.gpkg")
    (tmp_path / "o.json").unlink()
    (tmp_path / "o.json").mkdir()
    _, err = run.communicate(timeout=300)
    errors = [line for line in err.splitlines() if line.startswith("sitecheck: error:")]
    assert run.returncode == 2 and len(errors) == 1, err
    assert errors[0].startswith("sitecheck: error: --json: ") and "Errno" not in errors[0]
    assert hashlib.sha256((tmp_path / "o.gpkg").read_bytes()).hexdigest() == old_gpkg
    assert (tmp_path / "o.json").is_dir() and hidden(tmp_path) == []
    assert (
        json.loads(
            pyogrio.read_info(tmp_path / "o.gpkg", layer="parcels")["dataset_metadata"][
                "SITECHECK_AUDIT"
            ]
        )["run_id"]
        == before[0]
    )


def test_a_rename_that_fails_half_way_puts_every_previous_output_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The third of three renames fails (EIO from the file system, injected)."""
    names = ("a.json", "b.html", "c.csv")
    for name in names:
        (tmp_path / name).write_text(f"old {name}")
    real_replace = os.replace

    def replace(source, destination):
        if Path(destination).name == "c.csv" and ".tmp" in Path(source).name:
            raise OSError(5, "Input/output error")
        real_replace(source, destination)

    outputs = OutputSet([Named(f"--{n[0]}", tmp_path / n) for n in names], [])
    with pytest.raises(InputError) as raised, outputs:
        for name in names:
            with outputs.writing(f"--{name[0]}") as temporary:
                temporary.write_text(f"new {name}")
        monkeypatch.setattr(os, "replace", replace)
        outputs.commit()
    monkeypatch.undo()
    message = str(raised.value)
    assert message.startswith("--c: could not put") and "every previous output" in message
    assert {n: (tmp_path / n).read_text() for n in names} == {n: f"old {n}" for n in names}
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(names)


@pytest.fixture(scope="module")
def old_set(town: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, float]:
    """A whole set written by one run, and how long that run took."""
    folder = tmp_path_factory.mktemp("old-set")
    started = time.monotonic()
    assert subprocess.run(check_command(town, folder)).returncode == 0
    return folder, time.monotonic() - started


MARKED_STAGES = {
    "locked": lambda names: ".o.html.sitecheck-lock" in names,
    "writing the GeoPackage": _marked("o.gpkg"),
    "writing the JSON": _marked("o.json"),
    "writing the report": _marked("o.html"),
}
TIMED_STAGES = (0.2, 0.4, 0.6, 0.8, 0.9, 0.95, 0.98, 1.0)
"""Fractions of a whole run's time, to reach the moments no file marks."""


@pytest.mark.parametrize("stage", [*MARKED_STAGES, *TIMED_STAGES])
def test_sigterm_at_any_stage_leaves_one_whole_set_and_nothing_else(
    town: Path, old_set: tuple[Path, float], tmp_path: Path, stage: str | float
) -> None:
    folder, seconds = old_set
    for name in ("o.gpkg", "o.json", "o.html"):
        shutil.copy2(folder / name, tmp_path / name)
    old = digest(tmp_path)
    run = subprocess.Popen(
        check_command(town, tmp_path), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
    )
    if isinstance(stage, str):
        wait_for(run, tmp_path, MARKED_STAGES[stage])
        assert run.poll() is None, f"the run ended before {stage}"
    else:
        with suppress(subprocess.TimeoutExpired):
            run.wait(timeout=seconds * stage)
    run.send_signal(signal.SIGTERM)
    _, err = run.communicate(timeout=120)
    assert "Traceback" not in err
    assert hidden(tmp_path) == []
    assert sorted(p.name for p in tmp_path.iterdir()) == ["o.gpkg", "o.html", "o.json"]
    # -SIGTERM: stopped while Python started, before the run made anything
    assert run.returncode in (0, 128 + signal.SIGTERM, -signal.SIGTERM), err
    now = digest(tmp_path)
    # the old set whole, or the new one whole (the signal came after it was in place)
    assert now == old or all(now[name] != old[name] for name in old), (run.returncode, err)
    if run.returncode == 0:
        assert now != old
    gpkg_run, json_run = run_ids(tmp_path)
    assert gpkg_run == json_run and gpkg_run in (tmp_path / "o.html").read_text()


def test_a_folder_on_a_read_only_file_system_is_called_read_only(
    town: Path, tmp_path: Path
) -> None:
    """A tmpfs mounted read-only: no permission change would help, and the line says so."""
    mounted = tmp_path / "mounted"
    mounted.mkdir()
    made = subprocess.run(["mount", "-t", "tmpfs", "-o", "ro,size=1m", "tmpfs", str(mounted)])
    if made.returncode != 0:
        pytest.skip("mounting a file system needs root with CAP_SYS_ADMIN; not counted")
    try:
        argv = check_command(town, mounted, report=False)
        ran = subprocess.run(argv, capture_output=True, text=True)
        errors = [line for line in ran.stderr.splitlines() if line.startswith("sitecheck: error:")]
        assert ran.returncode == 2 and len(errors) == 1, ran.stderr
        assert errors[0] == (
            f"sitecheck: error: --out: cannot write in {mounted} (the file system is read-only)"
        )
    finally:
        subprocess.run(["umount", str(mounted)], check=True)
