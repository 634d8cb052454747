"""The progress a check reports: one bar for the whole run, moving until the outputs are written.

QGIS reads these lines to move its bar: measuring used to end at 100%, after
which the packs were evaluated and the documents written with the bar standing
still (80-90% in QGIS for 14 of 21 seconds at 30,000 parcels).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from sitecheck.app.cli import main

from .conftest import SharedVillage

LINE = re.compile(r"^\[\s*(\d+)%\] (.*)$")


@pytest.fixture(scope="module")
def village(shared_village: SharedVillage) -> Path:
    return shared_village(parcels=40)["gpkg"]


def progress_lines(argv: list[str], capsys: pytest.CaptureFixture[str]) -> list[tuple[int, str]]:
    assert main(argv) == 0
    err = capsys.readouterr().err
    return [(int(m.group(1)), m.group(2)) for line in err.splitlines() if (m := LINE.match(line))]


def test_a_check_moves_through_evaluating_and_writing_to_100_at_the_end(
    village: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["check", "--ordinance", "scarsdale", "--parcels", f"{village}:parcels"]
    argv += ["--disturbance", f"{village}:disturbance", "--out", str(tmp_path / "o.gpkg")]
    argv += ["--json", str(tmp_path / "o.json"), "--report", str(tmp_path / "o.html")]
    lines = progress_lines(argv, capsys)
    percents = [percent for percent, _ in lines]
    assert percents == sorted(percents), lines
    assert lines[-1] == (100, "done") and percents.count(100) == 1
    stages = [stage for _, stage in lines]
    after = stages[stages.index("measured") :]
    expected = [
        "evaluating the rule packs",
        "checking projects on their sites",
        "writing the GeoPackage",
        "finding each parcel's nearest thresholds",
        "writing the JSON document",
        "writing the HTML report",
        "drawing the report's parcels",
        "done",
    ]
    assert list(dict.fromkeys(s for s in after if s in expected)) == expected
    measured = dict((stage, percent) for percent, stage in lines)["measured"]
    assert measured <= 50  # measuring is a part of the run, not all of it


def test_the_long_stages_move_the_bar_as_they_go(
    shared_village: SharedVillage, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Evaluating, finding the thresholds and drawing the report go parcel by parcel: the bar
    moves within each, where it used to stand at one percent for the whole stage."""
    village = shared_village(parcels=1_000)["gpkg"]
    argv = ["check", "--ordinance", "scarsdale", "--parcels", f"{village}:parcels"]
    argv += ["--disturbance", f"{village}:disturbance", "--out", str(tmp_path / "o.gpkg")]
    argv += ["--json", str(tmp_path / "o.json"), "--report", str(tmp_path / "o.html")]
    lines = progress_lines(argv, capsys)
    for stage in (
        "evaluating the rule packs",
        "finding each parcel's nearest thresholds",
        "drawing the report's parcels",
    ):
        percents = {percent for percent, named in lines if named == stage}
        assert len(percents) >= 3, (stage, lines)


def test_measure_ends_at_100_only_once_its_outputs_are_written(
    village: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["measure", "--parcels", f"{village}:parcels", "--disturbance"]
    argv += [f"{village}:disturbance", "--out", str(tmp_path / "m.gpkg")]
    lines = progress_lines([*argv, "--json", str(tmp_path / "m.json")], capsys)
    assert lines[-1] == (100, "done")
    assert [s for _, s in lines][-3:] == [
        "writing the GeoPackage",
        "writing the JSON document",
        "done",
    ]
