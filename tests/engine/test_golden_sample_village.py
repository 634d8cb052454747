"""Golden results: every pack's outcomes for the sample village's projects.

A change to a pack, a metric or the generator that moves any outcome shows up
here as a diff to review. After reviewing, regenerate with
``SITECHECK_UPDATE_GOLDEN=1 .venv/bin/pytest tests/engine/test_golden_sample_village.py``.

These are change detectors, not coverage of the law: they compare the code
with its own earlier output, which was regenerated whenever a reviewed change
moved it. Every value a user relies on is also pinned by a test with an
answer worked independently: the law's thresholds and sections in
``test_rules_larchmont.py``, ``test_rules_homer.py`` and
``test_rules_scarsdale.py``; measured areas by hand in ``test_measure_hand.py``;
slopes against gdaldem in ``test_slope.py``; runoff against TR-55's tables,
cnkit and tr55 in ``test_runoff.py`` and ``test_runoff_peers.py``; flood zones
against FEMA's NFHL schema in ``test_source_nfhl.py``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pyogrio
import pytest

from sitecheck.app.cli import main
from sitecheck.schema.packs import BUNDLED

from .conftest import SharedVillage

GOLDEN = Path(__file__).resolve().parent / "golden"
LAYERS = (
    "impervious_existing",
    "impervious_proposed",
    "floodplain",
    "wetlands",
    "watercourses",
    "sda",
    "zoning",
    "impaired_watersheds",
)


@pytest.fixture(scope="module")
def village(shared_village: SharedVillage) -> dict[str, Path]:
    return shared_village()


def _project_outcomes(village: dict[str, Path], pack: str, folder: Path) -> dict:
    gpkg = village["gpkg"]
    report = folder / f"{pack}.json"
    argv = [
        "check",
        "--quiet",
        "--ordinance",
        pack,
        "--parcels",
        f"{gpkg}:parcels",
        "--disturbance",
        f"{gpkg}:disturbance",
        "--dem",
        str(village["dem"]),
        "--out",
        str(folder / f"{pack}.gpkg"),
        "--json-layout",
        "full",
        "--json",
        str(report),
    ]
    for name in LAYERS:
        argv += [f"--{name.replace('_', '-')}", f"{gpkg}:{name}"]
    assert main(argv) == 0
    document = json.loads(report.read_text())
    projects = pyogrio.read_dataframe(gpkg, layer="projects", read_geometry=False)
    by_id = {p["parcel_id"]: p for p in document["parcels"]}
    out = {}
    for name, parcel_id in zip(projects["name"], projects["parcel_id"], strict=True):
        parcel = by_id[parcel_id]
        out[name] = {
            "parcel_id": parcel_id,
            "highest_severity": parcel["highest_severity"],
            "design_storm_years": parcel["design_storm_years"],
            "triggered": sorted(
                t["rule_id"] for t in parcel["triggers"] if t["outcome"] == "triggered"
            ),
            "needs_review": sorted(
                t["rule_id"] for t in parcel["triggers"] if t["outcome"] == "needs_review"
            ),
        }
    return out


@pytest.mark.parametrize("pack", BUNDLED)
def test_sample_village_outcomes_match_the_golden_file(village, pack, tmp_path):
    got = _project_outcomes(village, pack, tmp_path)
    golden = GOLDEN / f"sample_village_{pack}.json"
    if os.environ.get("SITECHECK_UPDATE_GOLDEN"):
        golden.write_text(json.dumps(got, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    expected = json.loads(golden.read_text(encoding="utf-8"))
    assert got == expected
