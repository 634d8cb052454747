"""The plugin's check of an engine Python: every library of engine-requirements.txt.

An engine Python set up by an earlier plugin lacks a library added since; found
lacking, it is refused with the set-up's help instead of failing at its first run.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def _engine():
    if str(REPO / "tools") not in sys.path:
        sys.path.insert(0, str(REPO / "tools"))
    from bridge_alone import bridge_module

    return bridge_module("engine")


def _requirements() -> list[str]:
    lines = (REPO / "engine-requirements.txt").read_text(encoding="utf-8").splitlines()
    return [line.split("==")[0] for line in lines if "==" in line and not line.startswith("#")]


def _python_without(library: str, folder: Path) -> Path:
    """This test's Python (which has every engine library), with ``library`` unimportable."""
    path = folder / f"python-without-{library}"
    hide = f"import sys; sys.modules[{library!r}] = None; exec(sys.argv[1])"
    path.write_text(f'#!/bin/sh\nexec "{sys.executable}" -c "{hide}" "$2"\n')
    path.chmod(0o755)
    return path


def test_a_python_with_every_engine_library_is_taken():
    assert _engine()._checked_interpreter(sys.executable) == sys.executable


@pytest.mark.parametrize("library", ["orjson", "pyarrow", "geopandas"])
def test_a_python_lacking_one_engine_library_is_refused(library, tmp_path):
    assert library in _requirements()
    assert _engine()._checked_interpreter(str(_python_without(library, tmp_path))) is None
