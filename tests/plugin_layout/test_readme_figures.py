"""The README's speed tables are made from the bench's results files, never typed."""

from __future__ import annotations

import importlib.util
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def _readme_table():
    path = REPO / "bench" / "readme_table.py"
    spec = importlib.util.spec_from_file_location("sitecheck_bench_readme_table", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_readme_speed_tables_are_those_of_the_results_files():
    table = _readme_table()
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert readme == table.readme_with_table(readme, REPO / "bench" / "results"), (
        "README.md's speed tables differ from bench/results: run python bench/readme_table.py"
    )


def test_each_results_file_is_a_row():
    table = _readme_table()
    rows = table.speed_table(REPO / "bench" / "results").splitlines()
    files = sorted((REPO / "bench" / "results").glob("measure_*.json"))
    assert len([row for row in rows if row.startswith("| ") and row[2].isdigit()]) == 2 * len(files)
