"""The vocabulary: one description, and every surface of the engine built from it."""

from __future__ import annotations

import dataclasses
import io
import json
import subprocess
import sys

import pytest

from sitecheck.app.cli import main
from sitecheck.app.worker import serve
from sitecheck.measure.inputs import MeasureInputs
from sitecheck.schema.describe import describe
from sitecheck.schema.kinds import KINDS
from sitecheck.schema.options import OPTIONS
from sitecheck.schema.roles import VECTOR_ROLES

from .conftest import SharedVillage


@pytest.fixture(scope="module")
def village(shared_village: SharedVillage) -> dict:
    return shared_village()


def test_describe_json_is_the_description(tmp_path):
    run = subprocess.run(
        [sys.executable, "-m", "sitecheck", "describe", "--json"],
        capture_output=True,
        text=True,
        check=True,
    )
    printed = json.loads(run.stdout)
    assert printed == json.loads(json.dumps(describe()))
    assert {"roles", "options", "metrics", "flag_kinds", "severities", "packs", "fields"} <= set(
        printed
    )


def test_measure_inputs_take_the_vector_roles_of_the_description():
    fields = [f.name for f in dataclasses.fields(MeasureInputs)]
    plugged = [kind.role.key for kind in KINDS]  # held in MeasureInputs.plugged
    assert [*fields[:-2], *plugged] == [*VECTOR_ROLES]
    assert fields[-2:] == ["dem", "plugged"]
    roles = {role["key"]: role for role in describe()["roles"]}  # type: ignore[union-attr]
    assert [key for key, role in roles.items() if role["required"]] == ["parcels", "disturbance"]


def test_every_metric_the_json_writes_is_described(village, tmp_path):
    gpkg = village["gpkg"]
    out = tmp_path / "m.json"
    argv = ["measure", "--quiet", "--parcels", f"{gpkg}:parcels"]
    argv += ["--disturbance", f"{gpkg}:disturbance", "--out", str(tmp_path / "m.gpkg")]
    assert main([*argv, "--json-layout", "full", "--json", str(out)]) == 0
    written = set(json.loads(out.read_text())["parcels"][0]["metrics"])
    description = describe()
    described = {m["name"] for m in description["metrics"]}  # type: ignore[union-attr]
    described |= set(description["acre_metrics"].values())  # type: ignore[union-attr]
    assert written == described


def test_severities_run_from_least_to_most_demanding():
    keys = [s["key"] for s in describe()["severities"]]  # type: ignore[union-attr]
    # The order the law's own words imply: an exemption asks nothing; a state permit the most.
    assert keys[0] == "exempt" and keys[-1] == "state_permit_required"
    assert keys.index("submittal_required") < keys.index("permit_required")
    assert keys.index("permit_required") < keys.index("board_approval_required")


def test_every_colour_is_a_hex_colour_and_every_label_is_unique():
    description = describe()
    for part in ("severities", "flag_kinds"):
        entries = description[part]
        labels = [entry["label"] for entry in entries]  # type: ignore[union-attr]
        assert len(set(labels)) == len(labels)
        for entry in entries:  # type: ignore[union-attr]
            colour = entry["colour"]
            assert len(colour) == 7 and colour[0] == "#" and int(colour[1:], 16) >= 0


def test_every_flag_kind_names_a_metric():
    metrics = {m["name"] for m in describe()["metrics"]}  # type: ignore[union-attr]
    for kind in describe()["flag_kinds"]:  # type: ignore[union-attr]
        assert kind["metric"] in metrics


NUMERIC_FLAGS = [o.flag for o in OPTIONS if o.kind == "number" and o.name != "distance_ft"]


@pytest.mark.parametrize("flag", NUMERIC_FLAGS)
@pytest.mark.parametrize("value", ["nan", "inf", "-5"])
def test_check_refuses_numbers_without_meaning_naming_the_option(
    village, tmp_path, capsys, flag, value
):
    gpkg = village["gpkg"]
    argv = ["check", "--quiet", "--ordinance", "scarsdale", "--parcels", f"{gpkg}:parcels"]
    argv += ["--disturbance", f"{gpkg}:disturbance", "--out", str(tmp_path / "o.gpkg")]
    assert main([*argv, f"{flag}={value}"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"sitecheck: error: {flag}: ") and err.count("\n") == 1
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize("value", ["nan", "0", "-1"])
def test_notify_refuses_a_distance_without_meaning(village, tmp_path, capsys, value):
    gpkg = village["gpkg"]
    argv = ["notify", "--parcels", f"{gpkg}:parcels", "--lot", "1.1-2-6"]
    assert main([*argv, "--distance-ft", value, "--out", str(tmp_path / "n.gpkg")]) == 2
    assert "--distance-ft:" in capsys.readouterr().err


def _worker(requests: list[dict]) -> list[dict]:
    stdout = io.StringIO()
    serve(io.StringIO("".join(json.dumps(r) + "\n" for r in requests)), stdout)
    return [json.loads(line) for line in stdout.getvalue().splitlines()]


@pytest.mark.parametrize(
    ("setting", "value", "flag"),
    [
        ("wetland_adjacent_ft", "-5", "--wetland-adjacent-ft"),
        ("rear_setback_ft", "nan", "--rear-setback-ft"),
        ("side_setbacks", "A-1=wide", "--side-setbacks"),
        ("nwi_classes", "lake,moon", "--nwi-classes"),
    ],
)
def test_worker_refuses_the_settings_the_cli_refuses(
    village, setting, value, flag, capsys, tmp_path
):
    gpkg = village["gpkg"]
    request = {
        "op": "open",
        "inputs": {"parcels": f"{gpkg}:parcels"},
        "ordinance": "scarsdale",
        "settings": {setting: value},
    }
    (reply,) = _worker([request])
    # The worker names the option as its request does; the panel words it by its label.
    assert reply["ok"] is False and reply["error"].startswith(f"{setting}: ")
    assert reply["option"] == setting and reply["error"].endswith(reply["problem"])
    gpkg = village["gpkg"]
    argv = ["check", "--quiet", "--ordinance", "scarsdale", "--parcels", f"{gpkg}:parcels"]
    argv += ["--disturbance", f"{gpkg}:disturbance", flag, str(value)]
    assert main([*argv, "--out", str(tmp_path / "o.gpkg")]) == 2
    # The command line names the same option by its flag, with the same problem.
    assert capsys.readouterr().err.strip() == f"sitecheck: error: {flag}: {reply['problem']}"


@pytest.mark.parametrize(
    "setting", ["slope_thresholds", "slope_thresholds_pct", "wetland_adjacent", "tolerance"]
)
def test_worker_refuses_a_setting_it_does_not_take(village, setting):
    request = {
        "op": "open",
        "inputs": {"parcels": f"{village['gpkg']}:parcels"},
        "ordinance": "scarsdale",
        "settings": {setting: 1},
    }
    (reply,) = _worker([request])
    assert reply["ok"] is False
    assert reply["error"].startswith(f"open: settings.{setting}: not a setting; known: ")


def test_slope_classes_are_chosen_in_steep_slopes_only(village, tmp_path, capsys):
    # The slope metrics are named for 15% and 25%: check and measure take no other classes.
    gpkg = village["gpkg"]
    argv = ["check", "--quiet", "--ordinance", "scarsdale", "--parcels", f"{gpkg}:parcels"]
    argv += ["--disturbance", f"{gpkg}:disturbance", "--out", str(tmp_path / "o.gpkg")]
    with pytest.raises(SystemExit):
        main([*argv, "--slope-thresholds", "15,25"])
    assert "unrecognized arguments: --slope-thresholds" in capsys.readouterr().err
    out = tmp_path / "slopes.tif"
    assert (
        main(
            [
                "steep-slopes",
                "--dem",
                str(village["dem"]),
                "--slope-thresholds",
                "5,10",
                "--out",
                str(out),
            ]
        )
        == 0
    )
    assert out.is_file()


def test_report_styles_and_maps_take_the_described_colours_and_labels():
    import re

    from sitecheck.reports.html import report_style
    from sitecheck.reports.html_format import severity_badge
    from sitecheck.reports.maps import FLAG_STYLES

    css = report_style()
    for severity in describe()["severities"]:  # type: ignore[union-attr]
        key, colour = severity["key"], severity["colour"]
        found = re.search(rf"\.sev-{key} \{{ background: (#[0-9a-f]{{6}});", css)
        assert found and found.group(1) == colour, key
        assert f">{severity['label']}</span>" in severity_badge(key)
    kinds = {k["key"]: k for k in describe()["flag_kinds"]}  # type: ignore[union-attr]
    assert set(FLAG_STYLES) == set(kinds)
    for key, style in FLAG_STYLES.items():
        assert (style.label, style.colour) == (kinds[key]["label"], kinds[key]["colour"])
