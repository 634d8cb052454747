"""Writing a pack for another village: named conditions, list parameters, and a
validator that reports every problem at once (issue 13, item 14)."""

from __future__ import annotations

from pathlib import Path

import pytest

from sitecheck.app.cli import main
from sitecheck.rules.outcome import evaluate_pack
from sitecheck.rules.pack import load_pack, load_pack_file
from sitecheck.rules.pack_model import PackError

from .test_pack_loading import HEADER


def rule(rule_id: str, when: str, **extra: str) -> str:
    lines = [
        "",
        "[[rules]]",
        f'id = "{rule_id}"',
        f'citation = "{extra.pop("citation", "§ 1-1")}"',
        f'title = "{rule_id}"',
        f'severity = "{extra.pop("severity", "submittal_required")}"',
        'requirement = "Do it."',
        'quote = "It shall be done."',
        f"when = '''{when}'''",
    ]
    lines += [f"{key} = {value}" for key, value in extra.items()]
    return "\n".join(lines) + "\n"


def write(tmp_path: Path, body: str, header: str = HEADER) -> Path:
    path = tmp_path / "testville.toml"
    path.write_text(header + body, encoding="utf-8")
    return path


# --- named conditions and list parameters ---------------------------------------------


def test_a_named_condition_gives_the_answers_and_reasons_of_the_condition_written_out(tmp_path):
    written_out = "disturbed_area_sqft >= threshold and lot_area_sqft > 7500 sqft"
    named = write(
        tmp_path,
        '\n[conditions]\nbig_work = { when = "'
        + written_out
        + '", label = "big work" }\n'
        + rule("testville.a", "big_work")
        + rule("testville.b", "big_work and in_sda"),
    )
    inline = tmp_path / "inline"
    inline.mkdir()
    plain = write(
        inline,
        rule("testville.a", written_out) + rule("testville.b", f"({written_out}) and in_sda"),
    )
    for values in (
        {"disturbed_area_sqft": 600.0, "lot_area_sqft": 10_000.0, "in_sda": True},
        {"disturbed_area_sqft": 400.0, "lot_area_sqft": 10_000.0, "in_sda": True},
        {"disturbed_area_sqft": 600.0, "lot_area_sqft": 10_000.0, "in_sda": None},
        {"disturbed_area_sqft": None, "lot_area_sqft": 10_000.0, "in_sda": False},
    ):
        with_names = evaluate_pack(load_pack_file(named), values, 0.0).triggers
        without = evaluate_pack(load_pack_file(plain), values, 0.0).triggers
        assert [(t.outcome, t.reason) for t in with_names] == [
            (t.outcome, t.reason) for t in without
        ], values


def test_a_list_parameter_serves_in_and_unless(tmp_path):
    header = HEADER + (
        'exempt_activities = { value = ["lawn_maintenance", "fence_sign_or_poles"] }\n'
        'exemptions = { value = ["testville.exempt"] }\n'
    )
    body = rule("testville.exempt", "activity in exempt_activities", severity="exempt") + rule(
        "testville.permit", "disturbed_area_sqft >= threshold", unless='"exemptions"'
    )
    pack = load_pack_file(write(tmp_path, body, header))
    permit = next(r for r in pack.rules if r.id == "testville.permit")
    assert permit.unless == ("testville.exempt",)
    fence = evaluate_pack(pack, {"disturbed_area_sqft": 900.0, "activity": "fence_sign_or_poles"})
    assert [t.outcome for t in fence.triggers] == ["triggered", "not_triggered"]
    assert "exempt under § 1-1" in fence.triggers[1].reason
    house = evaluate_pack(pack, {"disturbed_area_sqft": 900.0, "activity": "construction"})
    assert [t.outcome for t in house.triggers] == ["not_triggered", "triggered"]


def test_the_bundled_scarsdale_pack_uses_them():
    pack = load_pack("scarsdale")
    assert {c.name for c in pack.conditions} >= {"over_permit_threshold", "section_254_9_work"}
    permit = next(r for r in pack.rules if r.id == "scarsdale.permit")
    assert "scarsdale.exempt.lawn_sod" in permit.unless
    assert pack.warnings == ()


# --- the validator ---------------------------------------------------------------------


def test_validate_reports_every_error_at_once(tmp_path, capsys):
    body = (
        rule("testville.one", "disturbed_area_sqft >= threshhold")
        + rule("testville.two", 'project_type == "comercial"')
        + rule("testville.three", "lot_area_sqft > 5 sqft", design_storms="[true]")
    )
    path = write(tmp_path, body)
    assert main(["validate", str(path)]) == 2
    err = capsys.readouterr().err
    assert "3 problems" in err
    assert "rule testville.one" in err and "did you mean threshold" in err
    assert "rule testville.two" in err and "did you mean 'commercial'" in err
    assert "rule testville.three" in err and "design_storms" in err


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (
            rule("testville.exempt", "activity == 'lawn_maintenance'", severity="informational")
            + rule(
                "testville.permit",
                "disturbed_area_sqft >= threshold",
                unless='["testville.exempt"]',
            ),
            "'unless' names exemptions",
        ),
        (
            rule("testville.a", "in_sda", severity="exempt", unless='["testville.b"]')
            + rule("testville.b", "in_sda", severity="exempt", unless='["testville.a"]'),
            "cycle (testville.a -> testville.b -> testville.a)",
        ),
        (rule("testville.a", "in_sda", design_storm_years="true"), "design_storm_years"),
        (rule("testville.a", "in_sda", citation="1-1"), "named state source"),
        (rule("testville.a", "activity in exempt_list"), "unknown list 'exempt_list'"),
        (
            '\n[conditions]\nloop = "loop or in_sda"\n' + rule("testville.a", "loop"),
            "condition loop uses itself",
        ),
        (
            rule("testville.a", "permit in ['building', 'demolishing']"),
            "'demolishing' is not a code",
        ),
    ],
)
def test_the_validator_refuses(tmp_path, body, message):
    with pytest.raises(PackError) as caught:
        load_pack_file(write(tmp_path, body))
    assert message in str(caught.value)


def test_a_header_with_amendments_as_one_text_is_refused(tmp_path):
    header = HEADER.replace('version = "1"', 'version = "1"\namendments = "L.L. No. 1-2020"')
    with pytest.raises(PackError, match="'amendments' is a list of texts"):
        load_pack_file(write(tmp_path, rule("testville.a", "in_sda"), header))


def test_a_citation_may_name_a_state_source(tmp_path):
    body = rule(
        "testville.spdes",
        "disturbed_area_sqft >= 1 acre",
        citation="NYSDEC SPDES General Permit GP-0-25-001, Part I.B",
        severity="state_permit_required",
    )
    pack = load_pack_file(
        write(tmp_path, body + rule("testville.a", "disturbed_area_sqft >= threshold"))
    )
    assert pack.rules[0].citation.startswith("NYSDEC SPDES")


def test_validate_warns_of_unused_parameters_and_conditions(tmp_path, capsys):
    header = HEADER + 'unused_limit = { value = "5 acres" }\n'
    body = '\n[conditions]\nnever = "in_sda"\n' + rule(
        "testville.a", "disturbed_area_sqft >= threshold"
    )
    assert main(["validate", str(write(tmp_path, body, header))]) == 0
    out = capsys.readouterr().out
    assert "warning: parameter unused_limit is never used" in out
    assert "warning: condition never is never used" in out


def test_sitecheck_rules_shows_exemptions_quotes_storms_and_notes(capsys):
    assert main(["rules", "--ordinance", "larchmont"]) == 0
    out = capsys.readouterr().out
    assert "How the text was read" in out
    assert "unless exempt under: larchmont.storm.exception_small" in out
    assert "storms (years): 100; governing: 100" in out
    assert "one-hundred-year design storm" in out  # the § 335-28A quote
    assert "Not evaluated" in out
