"""The dead-code check of ``make lint`` sees every product module and finds what none uses."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
ALLOWED = "tools/dead_code_allowed.py"


def _scope() -> list[str]:
    makefile = (REPO / "Makefile").read_text(encoding="utf-8")
    found = re.search(r"^DEAD_CODE_SCOPE := (.+)$", makefile, re.M)
    assert found, "the Makefile names the dead-code check's scope"
    return found.group(1).split()


def _vulture(root: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "vulture", *_scope(), ALLOWED, "--min-confidence", "60"],
        cwd=root,
        capture_output=True,
        text=True,
        check=False,
    )


def test_the_scope_holds_every_folder_of_product_code():
    product = {
        path.parent.relative_to(REPO).parts[0]
        for path in REPO.glob("*/**/*.py")
        if path.relative_to(REPO).parts[0] not in {"tests", "sample_data", "build", "dist"}
        and not path.relative_to(REPO).parts[0].startswith(".")
    }
    assert product - set(_scope()) == set()
    assert {"plugin.py", "__init__.py"} <= set(_scope())


def _left_out(directory: str, names: list[str]) -> set[str]:
    """Byte code, and the villages ``make bench`` generates (``bench/work``, a gigabyte)."""
    generated = {"work"} if Path(directory) == REPO / "bench" else set()
    return {name for name in names if name == "__pycache__" or name in generated}


def test_a_function_nothing_calls_is_reported_and_the_product_has_none(tmp_path):
    copy = tmp_path / "repo"
    for name in _scope():
        source = REPO / name
        if source.is_dir():
            shutil.copytree(source, copy / name, ignore=_left_out)
        else:
            (copy / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(source, copy / name)
    shutil.copy(REPO / ALLOWED, copy / ALLOWED)
    clean = _vulture(copy)
    assert clean.returncode == 0, clean.stdout
    planted = copy / "sitecheck" / "io" / "planted.py"
    planted.write_text("def forgotten_helper() -> int:\n    return 1\n", encoding="utf-8")
    found = _vulture(copy)
    assert found.returncode != 0
    assert "unused function 'forgotten_helper'" in found.stdout
