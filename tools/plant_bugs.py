"""Plant known one-line bugs in a scratch copy of the engine and check a test catches each.

Issue 32 planted nine bugs by hand and found tests that stayed green for some
of them. This replays them: for each bug it copies ``sitecheck/`` and
``tests/`` to a scratch folder, makes the one-line change, runs the tests
written for that bug there, and reports whether they failed (the bug is
caught). The unchanged copy must pass the same tests first, or the result
means nothing. ``make mutants`` runs it; exit code 1 when any bug goes
uncaught.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Bug:
    """A one-line change to the engine and the tests that must fail for it."""

    name: str
    path: str
    before: str
    after: str
    tests: tuple[str, ...]


BUGS = (
    Bug(
        "'>=' behaves as '>'",
        "sitecheck/rules/ranges.py",
        '    ">=": frozenset(">="),',
        '    ">=": frozenset(">"),',
        ("tests/engine/test_rules_larchmont.py", "tests/engine/test_rules_homer.py", "-k", "at_"),
    ),
    Bug(
        "a metre CRS is not converted to feet",
        "sitecheck/io/crs.py",
        '    return metres / INTERNATIONAL_FOOT_M, "sq ft"',
        '    return 1.0, "sq ft"',
        (
            "tests/engine/test_measure_hand.py",
            "tests/engine/test_source_crs_outliers.py",
            "-k",
            "metre",
        ),
    ),
    Bug(
        "impervious cover CN 98 becomes 96",
        "sitecheck/data/tr55_curve_numbers.toml",
        "cn = { A = 98, B = 98, C = 98, D = 98 }",
        "cn = { A = 96, B = 96, C = 96, D = 96 }",
        ("tests/engine/test_runoff.py",),
    ),
    Bug(
        "the wetland adjacent area defaults to 50 ft",
        "sitecheck/schema/wetlands.py",
        "WETLAND_ADJACENT_FT = 100.0",
        "WETLAND_ADJACENT_FT = 50.0",
        ("tests/engine/test_source_nwi.py", "-k", "new_yorks"),
    ),
    Bug(
        "an exemption under review is treated as applying",
        "sitecheck/rules/outcome.py",
        "if first[other].outcome == TRIGGERED]",
        "if first[other].outcome != NOT_TRIGGERED]",
        (
            "tests/engine/test_rules_larchmont.py",
            "tests/engine/test_rules_homer.py",
            "-k",
            "exemption",
        ),
    ),
    Bug(
        "an exemption that applies clears no rule",
        "sitecheck/rules/outcome.py",
        "        if exemptions and trigger.outcome != NOT_TRIGGERED:",
        "        if False:",
        ("tests/engine/test_rules_larchmont.py", "-k", "exemption"),
    ),
    Bug(
        "outputs are written in place, not through a temporary",
        "sitecheck/io/output_set.py",
        '            self._temporaries[option] = target.with_name(f".{target.name}'
        '{TEMPORARY_MARK}{own}")',
        "            self._temporaries[option] = target",
        ("tests/engine/test_output_set.py", "-k", "sigterm_while_writing or file_size_limit"),
    ),
    Bug(
        "larger_common_plan is dropped from the project fields",
        "sitecheck/schema/fields.py",
        '    "larger_common_plan",\n    "existing_cultivated",',
        '    "existing_cultivated",',
        ("tests/engine/test_rules_larchmont.py", "-k", "common_plan"),
    ),
)


def scratch_copy() -> Path:
    """The engine, its tests and the pytest settings in a folder of their own."""
    folder = Path(tempfile.mkdtemp(prefix="sitecheck-mutant-"))
    for part in ("sitecheck", "tests"):
        shutil.copytree(REPO / part, folder / part, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(REPO / "pyproject.toml", folder / "pyproject.toml")
    return folder


def tests_pass(folder: Path, tests: tuple[str, ...]) -> bool:
    """Whether the tests pass with the engine imported from ``folder``."""
    command = [sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", *tests]
    env = {**os.environ, "PYTHONPATH": str(folder)}
    done = subprocess.run(command, cwd=folder, env=env, capture_output=True, text=True)
    return done.returncode == 0


def plant(folder: Path, bug: Bug) -> None:
    """Make the bug's change in the scratch copy; refuse a change whose line is gone."""
    path = folder / bug.path
    text = path.read_text(encoding="utf-8")
    if text.count(bug.before) != 1:
        raise SystemExit(f"{bug.path}: the line to change for '{bug.name}' is not there once")
    path.write_text(text.replace(bug.before, bug.after), encoding="utf-8")


def main() -> int:
    uncaught = 0
    for bug in BUGS:
        folder = scratch_copy()
        try:
            if not tests_pass(folder, bug.tests):
                print(f"BROKEN   {bug.name}: its tests fail without the bug")
                uncaught += 1
                continue
            plant(folder, bug)
            caught = not tests_pass(folder, bug.tests)
            print(f"{'caught ' if caught else 'MISSED '}  {bug.name}")
            uncaught += not caught
        finally:
            shutil.rmtree(folder, ignore_errors=True)
    return 1 if uncaught else 0


if __name__ == "__main__":
    sys.exit(main())
