"""Golden outputs of ``make demo``: the JSON document, the GeoPackage and the HTML report.

The test reads the demo's ``sitecheck check`` command from the Makefile, runs
it on a freshly generated sample village and compares every output with the
files in ``tests/engine/golden/demo/``, after taking out what differs between
two runs of the same code on the same data (the time and id of the run, stage
timings, the folders of the checkout and of the generated village, the hash of the village
GeoPackage, whose header records when it was written) and, in the HTML
report, the inline styles and the PNG bytes of the maps, so a report can be
restyled without moving the golden file while its every word and value stays
pinned.

A change that moves any of them shows up as a diff to review. After reviewing,
regenerate with ``SITECHECK_UPDATE_GOLDEN=1 .venv/bin/pytest tests/engine/test_golden_demo.py``.

Like ``test_golden_sample_village.py``, these detect change and are not coverage of
the law; that module's docstring names the tests whose answers are worked
independently.
"""

from __future__ import annotations

import json
import os
import re
import shlex
from pathlib import Path

import pyogrio
import pytest
import shapely

from sitecheck.app.cli import main
from sitecheck.io.fingerprint import file_sha256
from sitecheck.sample.village import generate_village

REPO = Path(__file__).resolve().parents[2]
GOLDEN = Path(__file__).resolve().parent / "golden" / "demo"
UPDATE = os.environ.get("SITECHECK_UPDATE_GOLDEN") == "1"


def demo_arguments(sample: Path, out: Path) -> list[str]:
    """The arguments of the ``sitecheck`` call in the Makefile's ``demo`` target."""
    lines = (REPO / "Makefile").read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("demo:"))
    recipe = []
    for line in lines[start + 1 :]:
        if not line.startswith("\t"):
            break
        recipe.append(line.strip())
    commands = "\n".join(recipe).replace("\\\n", " ").splitlines()
    command = next(c for c in commands if c.startswith("$(VENV)/bin/sitecheck"))
    command = command.replace("$(SAMPLE)", str(sample)).replace("$(DEMO_OUT)", str(out))
    words = shlex.split(command)
    assert words[0] == "$(VENV)/bin/sitecheck", words[0]
    return words[1:]


@pytest.fixture(scope="module")
def demo(tmp_path_factory) -> dict[str, Path]:
    sample = tmp_path_factory.mktemp("demo") / "sample_data"
    sample.mkdir()
    generate_village(sample)
    out = sample / "out"
    out.mkdir()
    arguments = demo_arguments(sample, out)
    assert arguments[0] == "check"
    assert main([*arguments, "--quiet"]) == 0
    return {"sample": sample, "out": out}


def _relative(text: str, sample: Path) -> str:
    """Paths as a checkout and a generated village have them wherever they lie."""
    return text.replace(str(sample), "sample_data").replace(str(REPO), "<repository>")


def _normalised_document(path: Path, sample: Path) -> dict:
    document = json.loads(_relative(path.read_text(encoding="utf-8"), sample))
    document.pop("generated")
    document.pop("run_id")
    document.pop("timings_s")
    for record in document["inputs"]:
        if record["path"].endswith(".gpkg"):
            record["sha256"] = "<written by the run's sample-village>"
    return document


def _layer_records(path: Path, layer: str) -> list[dict]:
    frame = pyogrio.read_dataframe(path, layer=layer)
    geometries = shapely.normalize(frame.geometry.to_numpy())
    table = frame.drop(columns=frame.geometry.name)
    records = json.loads(table.to_json(orient="records", double_precision=6))
    for record, geometry in zip(records, geometries, strict=True):
        record["geometry"] = shapely.to_wkt(geometry, rounding_precision=3)
    return records


def _audit_rows(path: Path, sample: Path) -> dict[str, object]:
    table = pyogrio.read_dataframe(path, layer="sitecheck_audit", read_geometry=False)
    values = [_relative(str(value), sample) for value in table["value"]]
    rows: dict[str, object] = dict(zip(table["entry"], values, strict=True))
    rows.pop("generated")
    rows.pop("run_id")
    inputs = json.loads(str(rows["inputs"]))
    for record in inputs:
        if record["path"].endswith(".gpkg"):
            record["sha256"] = "<written by the run's sample-village>"
    rows["inputs"] = inputs
    return rows


_STYLE = re.compile(r"<style>.*?</style>", re.S)
_MAP = re.compile(r'src="data:image/svg\+xml,[^"]*"')
_GENERATED = re.compile(r"\d{4}-\d\d-\d\d[ T]\d\d:\d\d(:\d\d)?( ?UTC|\+00:00)?")
_REPORT_DATE = re.compile(r"(Report date <strong>)\d{4}-\d\d-\d\d(</strong>)")
"""The report's date alone: the day of the run (a golden file made yesterday must still match)."""
_RUN_ID = re.compile(r"<code>[0-9a-f]{32}</code>")
"""The run id of the audit table, new on every run."""


def _normalised_report(path: Path, sample: Path) -> str:
    text = path.read_text(encoding="utf-8")
    text = _STYLE.sub("<style/>", text)
    text = _MAP.sub('src="data:image/svg+xml,<map>"', text)
    text = _relative(text, sample)
    text = re.sub(r"\b[0-9a-f]{64}\b", _keep_stable_hash(text, sample), text)
    text = _REPORT_DATE.sub(r"\1<day of the run>\2", text)
    text = _RUN_ID.sub("<code><run id></code>", text)
    return _GENERATED.sub("<time of the run>", text)


def _keep_stable_hash(text: str, sample: Path):
    """Hashes of files the test generates afresh (the village GeoPackage) are masked."""
    unstable = set()
    unstable.add(file_sha256(str(sample / "village.gpkg")))

    def replace(match: re.Match) -> str:
        return "<sha256 of village.gpkg>" if match.group(0) in unstable else match.group(0)

    return replace


def _compare(name: str, value: object) -> None:
    path = GOLDEN / name
    text = value if isinstance(value, str) else json.dumps(value, indent=1, sort_keys=True) + "\n"
    if UPDATE:
        GOLDEN.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    expected = path.read_text(encoding="utf-8")
    assert text == expected, f"{name} differs from the golden file (see the module docstring)"


def test_demo_json_matches_golden(demo):
    _compare("sitecheck.json", _normalised_document(demo["out"] / "sitecheck.json", demo["sample"]))


@pytest.mark.parametrize("layer", ["parcels", "flags"])
def test_demo_geopackage_layer_matches_golden(demo, layer):
    _compare(f"gpkg_{layer}.json", _layer_records(demo["out"] / "sitecheck.gpkg", layer))


def test_demo_geopackage_audit_matches_golden(demo):
    _compare("gpkg_audit.json", _audit_rows(demo["out"] / "sitecheck.gpkg", demo["sample"]))


def test_demo_report_matches_golden(demo):
    _compare("report.html", _normalised_report(demo["out"] / "report.html", demo["sample"]))


def test_demo_command_is_the_makefiles():
    """The test runs what ``make demo`` runs: every layer of the village and all three outputs."""
    arguments = demo_arguments(Path("S"), Path("O"))
    for flag in ("--ordinance", "--parcels", "--dem", "--soils", "--out", "--json", "--report"):
        assert flag in arguments
