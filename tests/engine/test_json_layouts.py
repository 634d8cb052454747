"""The compact JSON, the newline-delimited lines and the full layout say the same things.

The full layout (``--json-layout full``) is the reference: every rule's outcome, title,
quote and requirements under every parcel. The compact layout (the default) must let
a reader rebuild every triggered rule and every rule under review with the same reason,
every metric, severity, storm, review and nearest threshold, and say each rule's
description once; the ``--jsonl`` lines must say the same, one parcel a line.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sitecheck.app.cli import main
from sitecheck.sample.village import generate_village

from .village_runs import village_check_argv


@pytest.fixture(scope="module")
def village(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return generate_village(tmp_path_factory.mktemp("village"))


@pytest.fixture(scope="module", params=["scarsdale", "larchmont", "homer"])
def documents(request, village: dict[str, Path]) -> dict[str, object]:
    """One run's compact JSON and lines, and a second run's full JSON, of the same village."""
    folder = village["gpkg"].parent / request.param
    folder.mkdir()
    arguments = village_check_argv(village, request.param)
    compact, lines, full = folder / "c.json", folder / "c.jsonl", folder / "f.json"
    out = ["--out", str(folder / "c.gpkg"), "--json", str(compact), "--jsonl", str(lines)]
    assert main([*arguments, *out]) == 0
    out = ["--out", str(folder / "f.gpkg"), "--json", str(full), "--json-layout", "full"]
    assert main([*arguments, *out]) == 0
    return {
        "compact": json.loads(compact.read_text(encoding="utf-8")),
        "full": json.loads(full.read_text(encoding="utf-8")),
        "lines": [json.loads(line) for line in lines.read_text(encoding="utf-8").splitlines()],
    }


def precision(metric: str) -> float:
    """How far a compact metric may be from the full layout's: half its last digit (runoff
    volumes to the cubic foot, curve numbers to a tenth, the rest to a hundredth)."""
    if "_cuft" in metric:
        return 0.5
    if metric.startswith("cn_"):
        return 0.05
    return 0.006


def listed(entry: dict) -> list[dict]:
    """The full layout's rules that a compact entry lists: triggered or under review."""
    return [t for t in entry["triggers"] if t["outcome"] != "not_triggered"]


def test_the_layouts_say_which_they_are(documents):
    assert documents["compact"]["layout"] == "compact"
    assert documents["full"]["layout"] == "full"


def test_each_rule_is_described_once_as_the_full_layout_describes_it(documents):
    compact, full = documents["compact"], documents["full"]
    rules = compact["rules"]
    ids = [rule["rule_id"] for rule in rules]
    assert len(ids) == len(set(ids))
    assert len(ids) == sum(pack["rule_count"] for pack in compact["packs"])
    by_id = {rule["rule_id"]: rule for rule in rules}
    seen = 0
    for entry in full["parcels"]:
        for trigger in entry["triggers"]:
            described = by_id[trigger["rule_id"]]
            for key in ("citation", "title", "severity", "requirement", "requirements", "quote"):
                assert described[key] == trigger[key], (trigger["rule_id"], key)
            assert described["design_storms"] == trigger["design_storms"]
            assert described["pack"] == entry["jurisdiction"]
            seen += 1
    assert seen > 0


def test_every_parcel_says_the_same_in_both_layouts(documents):
    compact, full = documents["compact"], documents["full"]
    columns = compact["metric_columns"]
    assert [p["parcel_id"] for p in compact["parcels"]] == [p["parcel_id"] for p in full["parcels"]]
    for small, whole in zip(compact["parcels"], full["parcels"], strict=True):
        metrics = dict(zip(columns, small["metrics"], strict=True))
        # A text metric is a key of the parcel's own, left out where null.
        metrics |= {name: small.get(name) for name in ("runoff_note",) if name in whole["metrics"]}
        assert set(metrics) == set(whole["metrics"])
        for name, value in whole["metrics"].items():
            if isinstance(value, float):
                assert metrics[name] == pytest.approx(value, abs=precision(name)), name
            else:
                assert metrics[name] == value, name
        for key in ("jurisdiction", "highest_severity", "design_storm_years"):
            assert small.get(key) == whole[key], key
        assert small.get("design_storm_review_years") == whole["design_storm_review_years"]
        assert "design_storm" not in small  # its wording is the years'; the full layout has it
        attributes = {k: v for k, v in whole["attributes"].items() if v is not None}
        assert small.get("attributes", {}) == attributes
        facts = small.get("facts", [])
        assert len(facts) == len(set(facts)), "a fact is listed twice"
        rebuilt = [
            (t["rule_id"], t["outcome"], t.get("reason") or "; ".join(facts[i] for i in t["facts"]))
            for t in small.get("triggers", [])
        ]
        assert rebuilt == [(t["rule_id"], t["outcome"], t["reason"]) for t in listed(whole)]
        reviews = [(r["cause"], r["rule_ids"], r["could_raise"]) for r in whole["reviews"]]
        assert [
            (r["cause"], r["rule_ids"], r["could_raise"]) for r in small.get("reviews", [])
        ] == reviews
        nearest = whole["margin"]
        if nearest is None:
            assert "margin" not in small
        else:
            margin = small["margin"]
            for key in ("metric", "threshold_sqft", "direction"):
                assert margin[key] == nearest[key], key
            assert metrics[margin["metric"]] == pytest.approx(nearest["value_sqft"], abs=0.006)
            assert margin["changes"] == {c["rule_id"]: c["to"] for c in nearest["changes"]}


def test_a_rule_the_compact_parcel_leaves_out_was_not_triggered(documents):
    compact, full = documents["compact"], documents["full"]
    pack_rules = {}
    for rule in compact["rules"]:
        pack_rules.setdefault(rule["pack"], set()).add(rule["rule_id"])
    for small, whole in zip(compact["parcels"], full["parcels"], strict=True):
        if not whole["triggers"]:
            continue
        named = {t["rule_id"] for t in small.get("triggers", [])}
        left_out = pack_rules[small["jurisdiction"]] - named
        outcomes = {t["rule_id"]: t["outcome"] for t in whole["triggers"]}
        assert left_out and all(outcomes[rule] == "not_triggered" for rule in left_out)


def test_no_compact_entry_holds_a_null_or_empty_key(documents):
    for entry in [*documents["compact"]["parcels"], *documents["compact"].get("projects", [])]:
        for key, value in entry.items():
            assert value is not None and value != [] and value != {}, key


def test_compact_projects_are_those_checked_on_a_site_of_several_lots(documents):
    compact, full = documents["compact"], documents["full"]
    several = [p for p in full.get("projects", []) if len(p["lots"]) > 1]
    assert [p["project_id"] for p in compact.get("projects", [])] == [
        p["project_id"] for p in several
    ]
    for small, whole in zip(compact.get("projects", []), several, strict=True):
        assert small["lots"] == whole["lots"]
        assert small.get("highest_severity") == whole["highest_severity"]
        facts = small.get("facts", [])
        rebuilt = [
            (t["rule_id"], t.get("reason") or "; ".join(facts[i] for i in t["facts"]))
            for t in small.get("triggers", [])
        ]
        assert rebuilt == [(t["rule_id"], t["reason"]) for t in listed(whole)]


def test_a_line_is_a_parcel_whole_in_itself(documents):
    compact, full, lines = documents["compact"], documents["full"], documents["lines"]
    several = [p for p in full.get("projects", []) if len(p["lots"]) > 1]
    assert len(lines) == len(full["parcels"]) + len(several)
    assert {line["run_id"] for line in lines} == {compact["run_id"]}
    parcels = [line for line in lines if "parcel_id" in line]
    projects = [line for line in lines if "project_id" in line]
    assert [p["project_id"] for p in projects] == [p["project_id"] for p in several]
    for line, whole in zip(parcels, full["parcels"], strict=True):
        assert line["parcel_id"] == whole["parcel_id"]
        measured = {k: v for k, v in whole["metrics"].items() if v is not None}
        assert set(line["metrics"]) == set(measured)
        for name, value in measured.items():
            assert line["metrics"][name] == pytest.approx(value, abs=precision(name)), name
        assert line.get("triggers", []) == [
            {k: t[k] for k in ("rule_id", "citation", "outcome", "reason")} for t in listed(whole)
        ]


def test_the_compact_json_is_a_tenth_of_the_full_one(village, tmp_path):
    """On the sample village (Scarsdale, every layer, soils) the full layout repeats every rule's
    description under each of its eleven parcels with work; the compact one says it once."""
    arguments = village_check_argv(village, "scarsdale")
    sizes = {}
    for layout in ("compact", "full"):
        path = tmp_path / f"{layout}.json"
        out = ["--out", str(tmp_path / f"{layout}.gpkg"), "--json", str(path)]
        assert main([*arguments, *out, "--json-layout", layout]) == 0
        sizes[layout] = path.stat().st_size
    assert sizes["compact"] * 8 < sizes["full"]
