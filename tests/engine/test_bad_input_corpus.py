"""The bad-input corpus, run through the command line as a careless or hostile user would.

For every case: no traceback; an error case exits 2 with one line naming the
option, layer, field or line at fault; an answer case exits 0 with what it asked
for; and in both no file changed, vanished or appeared that the case did not ask
for (temporaries and lock files included). The cases are in ``bad_input_cases``.
"""

from __future__ import annotations

import hashlib
import os
import shutil
from pathlib import Path

import pytest

from sitecheck.app.cli import main
from sitecheck.sample.village import generate_village

from .bad_input_cases import (
    Case,
    check_argv,
    crs_cases,
    disturbance_with,
    format_cases,
    formulas_are_text,
    hard_link_to_village,
    link_to_village,
    notify_argv,
    notify_summary_keeps_the_id_on_its_line,
    option_cases,
    pack_nested_deeply,
    pack_not_utf8,
    pack_with_a_huge_storm,
    pack_with_a_review_without_its_reason,
    pack_with_parameters_a_number,
    pack_with_rainfall,
    pack_with_rules_of_numbers,
    parcels_with,
    plain_argv,
    reason_names_the_value,
    summary_lines_are_whole,
    write_pack,
)

FORGED = "lot\nsitecheck: error: forged"

DATA_LOSS = [
    Case("out over the parcels", "error", check_argv(out="village.gpkg"), ("--out", "--parcels")),
    Case(
        "json over the parcels",
        "error",
        check_argv("--json", "{f}/village.gpkg"),
        ("--json", "--parcels"),
    ),
    Case(
        "report over the parcels",
        "error",
        check_argv("--report", "{f}/village.gpkg"),
        ("--report", "--parcels"),
    ),
    Case(
        "json over the dem",
        "error",
        check_argv("--dem", "{f}/dem.tif", "--json", "{f}/dem.tif"),
        ("--json", "--dem"),
    ),
    Case("json equal to out", "error", check_argv("--json", "{f}/o.gpkg"), ("--out", "--json")),
    Case(
        "report equal to json",
        "error",
        check_argv("--json", "{f}/r.html", "--report", "{f}/r.html"),
        ("--json", "--report"),
    ),
    Case(
        "out through a symbolic link",
        "error",
        check_argv(out="link.gpkg"),
        ("--out", "--parcels"),
        prepare=link_to_village,
    ),
    Case(
        "out through a hard link",
        "error",
        check_argv(out="hard.gpkg"),
        ("--out", "--parcels"),
        prepare=hard_link_to_village,
    ),
    Case(
        "out by another spelling",
        "error",
        check_argv(out="./x/../village.gpkg"),
        ("--out", "--parcels"),
        prepare=lambda f: (f / "x").mkdir(),
    ),
    Case(
        "dask out over the parcels",
        "error",
        check_argv("--engine", "dask", out="village.gpkg"),
        ("--out", "--parcels"),
    ),
    Case(
        "notify csv over the parcels",
        "error",
        notify_argv("--out", "{f}/n.gpkg", "--csv", "{f}/village.gpkg"),
        ("--csv", "--parcels"),
    ),
    Case(
        "notify out over the parcels",
        "error",
        notify_argv("--out", "{f}/village.gpkg"),
        ("--out", "--parcels"),
    ),
    Case(
        "steep slopes over its dem",
        "error",
        plain_argv("steep-slopes", "--dem", "{f}/dem.tif", "--out", "{f}/dem.tif"),
        ("--out", "--dem"),
    ),
    Case(
        "adjoining buffer over its parcels",
        "error",
        plain_argv(
            "adjoining-buffer", "--parcels", "{f}/village.gpkg:parcels", "--out", "{f}/village.gpkg"
        ),
        ("--out", "--parcels"),
    ),
    Case(
        "pack file as the json",
        "error",
        check_argv("--json", "{f}/p.toml", pack="{f}/p.toml"),
        ("--json", "--ordinance"),
        prepare=write_pack(
            "p.toml",
            lambda: (Path(__file__).parents[2] / "sitecheck/ordinances/homer.toml").read_text(
                encoding="utf-8"
            ),
        ),
    ),
]

DESTINATIONS = [
    Case(
        "json folder missing",
        "error",
        check_argv("--json", "{f}/missing/o.json"),
        ("--json", "does not exist"),
    ),
    Case(
        "report folder missing",
        "error",
        check_argv("--report", "{f}/missing/o.html"),
        ("--report", "does not exist"),
    ),
    Case(
        "out is a folder",
        "error",
        check_argv(out="folder.gpkg"),
        ("--out", "folder"),
        prepare=lambda f: (f / "folder.gpkg").mkdir(),
    ),
    Case("out named as a shapefile", "error", check_argv(out="o.shp"), ("--out", ".gpkg")),
    Case(
        "notify out named as a shapefile",
        "error",
        notify_argv("--out", "{f}/n.shp"),
        ("--out", ".gpkg"),
    ),
    Case(
        "steep slopes as a shapefile",
        "error",
        plain_argv("steep-slopes", "--dem", "{f}/dem.tif", "--out", "{f}/s.shp"),
        ("--out", ".gpkg"),
    ),
]

PACKS = [
    Case(f"{command} {name}", "error", argv, names, prepare=write_pack("p.toml", text))
    for name, text, names in (
        ("pack not utf-8", pack_not_utf8, ("p.toml", "line", "UTF-8")),
        ("pack nested deeply", pack_nested_deeply, ("p.toml", "nested")),
        ("rules a list of numbers", pack_with_rules_of_numbers, ("p.toml", "rules")),
        ("parameters a number", pack_with_parameters_a_number, ("p.toml", "parameters")),
        (
            "design storm of 10**30 years",
            pack_with_a_huge_storm,
            ("p.toml", "design_storm_years", "line"),
        ),
        ("rainfall depth nan", pack_with_rainfall("nan"), ("p.toml", "50-year depth", "nan")),
        ("rainfall depth inf", pack_with_rainfall("inf"), ("p.toml", "50-year depth", "inf")),
        (
            "review_when without review_reason",
            pack_with_a_review_without_its_reason,
            ("p.toml", "larchmont.exempt.agricultural", "'review_reason' is missing"),
        ),
    )
    for command, argv in (
        ("validate", plain_argv("validate", "{f}/p.toml")),
        ("rules", plain_argv("rules", "--ordinance", "{f}/p.toml")),
        ("check", check_argv(pack="{f}/p.toml")),
    )
]

LAYERS_AND_VALUES = [
    Case(
        "sample village of 0 lots",
        "error",
        plain_argv("sample-village", "{f}/sv", "--parcels", "0"),
        ("--parcels",),
    ),
    Case(
        "sample village of -5 lots",
        "error",
        plain_argv("sample-village", "{f}/sv", "--parcels", "-5"),
        ("--parcels",),
    ),
    Case(
        "unknown lot with a forged line",
        "error",
        notify_argv("--out", "{f}/n.gpkg", lot=FORGED),
        ("--lot", "lot\\nsitecheck: error: forged"),
    ),
    Case(
        "yes/no field holding maybe",
        "answer",
        plain_argv(
            "check",
            "--ordinance",
            "homer",
            "--parcels",
            "{f}/village.gpkg:parcels",
            "--disturbance",
            "{f}/work.gpkg:disturbance",
            "--out",
            "{f}/o.gpkg",
            "--json",
            "{f}/o.json",
            "--quiet",
        ),
        prepare=disturbance_with("larger_common_plan", "maybe"),
        writes=("o.gpkg", "o.json"),
        check=reason_names_the_value,
    ),
    Case(
        "parcel id holding a forged error line",
        "answer",
        plain_argv(
            "check",
            "--ordinance",
            "scarsdale",
            "--parcels",
            "{f}/hostile.gpkg:parcels",
            "--disturbance",
            "{f}/hostile.gpkg:disturbance",
            "--out",
            "{f}/o.gpkg",
            "--json",
            "{f}/o.json",
            "--quiet",
        ),
        prepare=parcels_with(FORGED),
        writes=("o.gpkg", "o.json"),
        check=summary_lines_are_whole,
    ),
    Case(
        "notify a lot whose id holds a line break",
        "answer",
        plain_argv(
            "notify",
            "--parcels",
            "{f}/hostile.gpkg:parcels",
            "--lot",
            "line1\nline2",
            "--out",
            "{f}/n.gpkg",
        ),
        prepare=parcels_with("line1\nline2"),
        writes=("n.gpkg",),
        check=notify_summary_keeps_the_id_on_its_line,
    ),
    Case(
        "owner holding a spreadsheet formula",
        "answer",
        plain_argv(
            "notify",
            "--parcels",
            "{f}/hostile.gpkg:parcels",
            "--lot",
            "1.1-2-6",
            "--out",
            "{f}/n.gpkg",
            "--csv",
            "{f}/n.csv",
        ),
        prepare=parcels_with("1.1-2-6", owner='=HYPERLINK("http://x.example","click")'),
        writes=("n.gpkg", "n.csv"),
        check=formulas_are_text,
    ),
]

CASES = (
    DATA_LOSS
    + DESTINATIONS
    + PACKS
    + LAYERS_AND_VALUES
    + crs_cases()
    + format_cases()
    + option_cases()
)


@pytest.fixture(scope="module")
def sample(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("village")
    generate_village(folder, parcels=40)
    return folder


def snapshot(folder: Path) -> dict[str, str]:
    """Every file under the folder, hidden ones too, with the SHA-256 of its bytes."""
    files = {}
    for root, _, names in os.walk(folder):
        for name in names:
            path = Path(root) / name
            key = str(path.relative_to(folder))
            if path.is_symlink():
                files[key] = "link"
            elif not path.is_file():
                files[key] = "special"  # a named pipe: reading it would wait for a writer
            else:
                files[key] = hashlib.sha256(path.read_bytes()).hexdigest()
    return files


@pytest.mark.parametrize(
    "case",
    [pytest.param(case, marks=[pytest.mark.slow] if case.slow else []) for case in CASES],
    ids=[case.name for case in CASES],
)
def test_bad_input(
    case: Case, sample: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for name in ("village.gpkg", "dem.tif"):
        shutil.copy(sample / name, tmp_path / name)
    if case.prepare:
        case.prepare(tmp_path)
    before = snapshot(tmp_path)
    code = main(case.argv(tmp_path))
    out, err = capsys.readouterr()
    after = snapshot(tmp_path)
    assert "Traceback" not in err, err
    assert {name for name in before if after.get(name) != before[name]} == set(), (
        "an input changed or vanished"
    )
    assert set(after) - set(before) == set(case.writes), "files appeared the case did not ask for"
    if case.kind == "answer":
        assert code == 0, err
        assert case.check is not None
        case.check(tmp_path, out, err)
        return
    assert code == 2, (out, err)
    errors = [line for line in err.splitlines() if line.startswith("sitecheck: error:")]
    assert len(errors) == 1, err
    for name in case.names:
        assert name in errors[0], (name, errors[0])
    if case.before_work:
        assert not any(line.startswith("[") for line in err.splitlines()), "refused only after work"


def test_json_documents_never_hold_nan_or_infinity(tmp_path: Path) -> None:
    """A value no measurement should give, written anyway, is null: strict readers read it."""
    import json

    from sitecheck.io.writers import write_json

    write_json(tmp_path / "d.json", {"a": float("inf"), "b": [float("nan"), -float("inf"), 1.5]})
    text = (tmp_path / "d.json").read_text(encoding="utf-8")
    assert json.loads(text, parse_constant=lambda c: pytest.fail(c)) == {
        "a": None,
        "b": [None, None, 1.5],
    }
