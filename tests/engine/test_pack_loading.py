"""Rule packs that are wrong are refused with the file, the rule and the line; nothing runs."""

from __future__ import annotations

from pathlib import Path

import pytest

from sitecheck.app.cli import main
from sitecheck.rules.pack import load_pack
from sitecheck.rules.pack_model import PackError
from sitecheck.schema.packs import BUNDLED

HEADER = """\
[pack]
id = "testville"
name = "Village of Testville"
chapter = "Chapter 1"
version = "1"

[parameters]
threshold = { value = "500 sqft", label = "threshold" }
"""

GOOD_RULE = """
[[rules]]
id = "testville.swppp"
citation = "§ 1-1"
title = "SWPPP"
severity = "submittal_required"
requirement = "Submit a SWPPP."
quote = "A SWPPP shall be submitted."
when = "disturbed_area_sqft >= threshold"
"""


def write_pack(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "testville.toml"
    path.write_text(HEADER + body, encoding="utf-8")
    return path


def rule_with(when: str, rule_id: str = "testville.bad") -> str:
    return GOOD_RULE.replace('id = "testville.swppp"', f'id = "{rule_id}"').replace(
        'when = "disturbed_area_sqft >= threshold"', f"when = {when}"
    )


def test_a_good_pack_loads(tmp_path):
    pack = load_pack(str(write_pack(tmp_path, GOOD_RULE)))
    assert [rule.id for rule in pack.rules] == ["testville.swppp"]
    assert len(pack.sha256) == 64


@pytest.mark.parametrize("bundled", BUNDLED)
def test_bundled_packs_load(bundled):
    pack = load_pack(bundled)
    assert pack.id == bundled
    assert all(rule.citation.startswith("§ ") for rule in pack.rules)
    assert len({rule.id for rule in pack.rules}) == len(pack.rules)


@pytest.mark.parametrize(
    ("when", "message"),
    [
        ('"disturbed_area_sqft >= "', "expected"),
        ('"disturbed_area_sqft >= 500 sqft and"', "expected"),
        ('"no_such_metric > 5 sqft"', "unknown name"),
        ('"__import__(\\"os\\").system(\\"rm -rf /\\") > 0"', "not allowed"),
        ('"disturbed_area_sqft.real > 5 sqft"', "attribute access"),
        ('"open(\\"x\\") > 0"', "not allowed"),
        ('"eval(\\"1\\") > 0"', "not allowed"),
        ('"disturbed_area_sqft > 5 ft"', "area"),
    ],
)
def test_bad_conditions_name_file_rule_and_line(tmp_path, when, message):
    path = write_pack(tmp_path, GOOD_RULE + rule_with(when))
    with pytest.raises(PackError) as caught:
        load_pack(str(path))
    text = str(caught.value)
    assert str(path) in text
    assert "rule testville.bad" in text
    when_line = path.read_text().splitlines().index(f"when = {when}") + 1
    assert f"(line {when_line})" in text
    assert message in text.lower()


def test_error_in_a_multi_line_condition_points_at_its_own_line(tmp_path):
    when = '"""\ndisturbed_area_sqft >= threshold\nand bogus_name > 1 sqft\n"""'
    path = write_pack(tmp_path, GOOD_RULE + rule_with(when))
    with pytest.raises(PackError) as caught:
        load_pack(str(path))
    bad_line = path.read_text().splitlines().index("and bogus_name > 1 sqft") + 1
    assert f"(line {bad_line})" in str(caught.value)
    assert "^" in str(caught.value)


def test_duplicate_rule_ids_are_refused(tmp_path):
    path = write_pack(tmp_path, GOOD_RULE + GOOD_RULE)
    with pytest.raises(PackError, match="duplicate rule id"):
        load_pack(str(path))


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (('severity = "submittal_required"', 'severity = "urgent"'), "severity 'urgent'"),
        (('citation = "§ 1-1"', 'citation = "section 1"'), "citation"),
        (('title = "SWPPP"', 'titel = "SWPPP"'), "unknown key"),
        (('requirement = "Submit a SWPPP."', ""), "needs a text 'requirement'"),
    ],
)
def test_malformed_rules_are_refused(tmp_path, change, message):
    path = write_pack(tmp_path, GOOD_RULE.replace(*change))
    with pytest.raises(PackError, match=message):
        load_pack(str(path))


def test_unknown_unless_target_is_refused(tmp_path):
    body = GOOD_RULE.replace(
        'when = "disturbed_area_sqft >= threshold"',
        'when = "disturbed_area_sqft >= threshold"\nunless = ["testville.nope"]',
    )
    with pytest.raises(PackError, match=r"unknown rule testville\.nope"):
        load_pack(str(write_pack(tmp_path, body)))


def test_not_toml_is_refused(tmp_path):
    path = tmp_path / "broken.toml"
    path.write_text("[pack\nid=", encoding="utf-8")
    with pytest.raises(PackError, match="not valid TOML"):
        load_pack(str(path))


def test_unknown_pack_lists_the_known_ones():
    with pytest.raises(PackError, match="larchmont, homer, scarsdale"):
        load_pack("springfield")


def test_validate_command(tmp_path, capsys):
    good = write_pack(tmp_path, GOOD_RULE)
    assert main(["validate", str(good)]) == 0
    assert "valid pack 'testville' with 1 rules" in capsys.readouterr().out
    bad = tmp_path / "bad" / "testville.toml"
    bad.parent.mkdir()
    bad.write_text(HEADER + rule_with('"__import__(\\"os\\")"'), encoding="utf-8")
    assert main(["validate", str(bad)]) == 2
    assert "rule testville.bad" in capsys.readouterr().err


def test_a_bad_pack_stops_check_before_measuring(tmp_path, capsys):
    bad = write_pack(tmp_path, rule_with('"open(\\"/etc/passwd\\") > 0"'))
    code = main(
        [
            "check",
            "--ordinance",
            str(bad),
            "--parcels",
            str(tmp_path / "missing.gpkg"),
            "--disturbance",
            str(tmp_path / "missing.gpkg"),
            "--out",
            str(tmp_path / "o.gpkg"),
        ]
    )
    assert code == 2
    err = capsys.readouterr().err
    assert "rule testville.bad" in err and "missing.gpkg" not in err


def test_rules_command_prints_a_table(capsys):
    assert main(["rules", "--ordinance", "scarsdale"]) == 0
    out = capsys.readouterr().out
    assert "§ 254-7E" in out and "scarsdale.permit" in out and "permit_required" in out
