"""Requirements of the law a pack leaves out are listed with the reason, never dropped.

An independent reading of the three texts found requirements that no pack
evaluates (issue 13, item 9). Each is listed in its pack's ``[[not_evaluated]]``,
by the section the law gives it, and shown by ``sitecheck rules`` and the reports.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from sitecheck.app.cli import main
from sitecheck.rules.pack import load_pack, load_pack_file
from sitecheck.rules.pack_model import PackError

LAWS = Path(__file__).resolve().parent / "laws"

# The sections, and words of the law each item reads (checked against the text).
ABSENT = {
    "scarsdale": {
        "§ 254-5(5)": "Activities of the Village in regard to the permitting provisions.",
        "§ 254-5(8)": "for which a building permit has been approved on or before the effective date",
        "§ 254-6": "the Village Engineer may grant a waiver, in writing, from any requirement",
        "§ 254-10": "shall provide access to the Village",
    },
    "homer": {
        "§ 228-77D(3)": "subject to review and approval by the Village of Homer Planning Board",
        "§ 228-78B(1)(b)": "must keep the SWPPP current",
        "§ 228-79B": "Construction completion guarantee.",
        "§ 228-78D(4)": "Maintenance after construction. The owner or operator of permanent",
        "§ 228-79A": "the landowner shall grant to the Village of Homer",
        "§ 228-79C": "The Village of Homer may issue a stop-work order",
        "§ 228-79D": "may require any person undertaking land development activities",
    },
    "larchmont": {
        "§ 335-23D(3)": "subject to review and approval by the Village of Larchmont Planning Board",
        "§ 335-27A(1)": "shall at all times properly operate and maintain all facilities",
        "§ 335-23E(5)": "a plat for the subdivision has been approved by the Village of Larchmont",
        "§ 335-23E(6)": "for which a building permit has been approved on or before the effective",
        "§ 335-7": "The construction, use, maintenance or continued existence of illicit",
        "§ 335-13": "has information of any known or suspected release of materials",
        "§ 335-8, §§ 335-14 to 335-22": "may appeal the determination to the Village Planning Board",
        "§ 335-27C": "Maintenance after construction. The owner or operator of permanent",
    },
}
LAW_FILES = {
    "scarsdale": "scarsdale-ch254-stormwater.txt",
    "homer": "homer-ch228-art12-stormwater.txt",
    "larchmont": "larchmont-ch335-stormwater.txt",
}


@pytest.mark.parametrize("pack_id", sorted(ABSENT))
def test_each_absent_requirement_is_listed_with_its_reason(pack_id):
    law = " ".join((LAWS / LAW_FILES[pack_id]).read_text(encoding="utf-8").split())
    listed = {item.citation: item for item in load_pack(pack_id).not_evaluated}
    for citation, words in ABSENT[pack_id].items():
        assert words in law, (citation, "the test's own quote must be the law's words")
        assert citation in listed, citation
        assert listed[citation].reason.strip()


@pytest.mark.parametrize("pack_id", sorted(ABSENT))
def test_sitecheck_rules_shows_them(pack_id, capsys):
    assert main(["rules", "--ordinance", pack_id]) == 0
    out = capsys.readouterr().out
    assert "Not evaluated" in out
    for citation in ABSENT[pack_id]:
        assert citation in out


def test_an_item_without_a_reason_is_refused(tmp_path):
    pack = (Path(load_pack("scarsdale").path)).read_text(encoding="utf-8")
    broken = pack + '\n[[not_evaluated]]\ncitation = "§ 254-99"\nrequirement = "x"\n'
    path = tmp_path / "broken.toml"
    path.write_text(broken, encoding="utf-8")
    number = len(load_pack("scarsdale").not_evaluated) + 1
    with pytest.raises(PackError, match=rf"\[\[not_evaluated\]\] #{number}: needs a text 'reason'"):
        load_pack_file(path)
