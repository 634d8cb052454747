"""Field values as users type them: codes in any case and spacing, unknown codes, odd phases.

Scarsdale § 254-5 exempts exterior alterations that add no impervious cover
unless a demolition permit is sought (the pack's rule
``scarsdale.exempt.listed_activity``): a permit typed "Demolition" is a
demolition permit, and a permit no one can read is a question, not an answer.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from shapely.geometry import box

from sitecheck.app.cli import main

from .conftest import write_layer

RULE = "scarsdale.exempt.listed_activity"


def _check(tmp_path: Path, work: dict, capsys) -> tuple[int, dict, str]:
    gpkg = tmp_path / "site.gpkg"
    lot = box(0, 0, 150, 150)  # 22,500 sq ft
    layers = {
        "parcels": write_layer(gpkg, "parcels", [{"parcel_id": "L1", "geometry": lot}]),
        "disturbance": write_layer(
            gpkg, "disturbance", [{"parcel_id": "L1", **work, "geometry": box(20, 20, 80, 70)}]
        ),
        "impervious-existing": write_layer(gpkg, "existing", [{"geometry": box(30, 30, 55, 50)}]),
        "impervious-proposed": write_layer(gpkg, "proposed", [{"geometry": box(30, 30, 55, 50)}]),
    }
    argv = ["check", "--quiet", "--ordinance", "scarsdale", "--out", str(tmp_path / "o.gpkg")]
    argv += ["--json-layout", "full", "--json", str(tmp_path / "o.json")]
    for flag, spec in layers.items():
        argv += [f"--{flag}", spec]
    code = main(argv)
    err = capsys.readouterr().err
    if code != 0:
        return code, {}, err
    parcel = json.loads((tmp_path / "o.json").read_text())["parcels"][0]
    return code, {t["rule_id"]: t for t in parcel["triggers"]}, err


@pytest.mark.parametrize(
    ("permit", "outcome"),
    [
        ("demolition", "not_triggered"),
        ("Demolition", "not_triggered"),
        (" DEMOLITION ", "not_triggered"),
        ("none", "triggered"),
        ("None", "triggered"),
    ],
)
def test_codes_are_read_whatever_their_case_and_spacing(tmp_path, capsys, permit, outcome):
    work = {"activity": "Exterior Alteration", "permit": permit}
    code, triggers, err = _check(tmp_path, work, capsys)
    assert code == 0, err
    assert triggers[RULE]["outcome"] == outcome, triggers[RULE]["reason"]
    assert "not a value the rules know" not in err


def test_an_unknown_code_is_a_question_and_a_warning_naming_it(tmp_path, capsys):
    work = {"activity": "exterior_alteration", "permit": "Demolishion"}
    code, triggers, err = _check(tmp_path, work, capsys)
    assert code == 0, err
    assert triggers[RULE]["outcome"] == "needs_review"
    assert "field 'permit': 'Demolishion' on 1 lot(s) is not a value the rules know" in err
    assert "(known: building, demolition, none)" in err


@pytest.mark.parametrize("phase", [-2, 1e19, 2.5, float("inf")])
def test_a_phase_that_is_no_phase_stops_the_run_naming_the_feature(tmp_path, capsys, phase):
    code, _, err = _check(tmp_path, {"phase": phase}, capsys)
    assert code == 2 and err.count("\n") == 1
    assert "field 'phase' holds" in err and "(FID 1)" in err
    assert "a phase is a whole number from 0 to 10,000" in err
    assert not (tmp_path / "o.gpkg").exists()
