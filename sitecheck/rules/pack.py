"""Load and check an ordinance rule pack (TOML).

A pack is data: its header, named parameters with units, and rules whose
``when`` conditions are in the rule language. Loading checks everything a
pack author can get wrong before any parcel is evaluated, and every message
names the pack file, the rule and the line.
"""

from __future__ import annotations

import hashlib
from importlib import resources
from pathlib import Path

import tomllib

from sitecheck.rules.pack_model import Pack, PackError, Rule, base_names
from sitecheck.rules.pack_tables import (
    PACK_KEYS,
    TOP_LEVEL_KEYS,
    not_evaluated_items,
    pack_parameters,
    pack_rule,
    pack_table,
    refuse_unknown_keys,
    rule_lines,
    runoff_section,
)
from sitecheck.schema.packs import BUNDLED


def bundled_pack_path(pack_id: str) -> Path:
    """Path of a pack shipped with SiteCheck."""
    return Path(str(resources.files("sitecheck") / "ordinances" / f"{pack_id}.toml"))


def load_pack(reference: str) -> Pack:
    """Load a bundled pack by id (``larchmont``, ``homer``, ``scarsdale``) or a pack file.

    Raises
    ------
    PackError
        When the pack is unknown, unreadable or wrong anywhere.
    """
    if reference in BUNDLED:
        return load_pack_file(bundled_pack_path(reference))
    path = Path(reference)
    if path.suffix.lower() != ".toml" or not path.is_file():
        raise PackError(
            f"ordinance: no pack '{reference}'; "
            f"give one of {', '.join(BUNDLED)} or a .toml pack file"
        )
    return load_pack_file(path)


def load_pack_file(path: Path) -> Pack:
    """Read and check a pack file."""
    raw = path.read_bytes()
    text = raw.decode("utf-8")
    where = str(path)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise PackError(f"{where}: not valid TOML: {error}") from error
    unknown_tables = sorted(set(data) - TOP_LEVEL_KEYS)
    if unknown_tables:
        raise PackError(
            f"{where}: unknown table(s) {', '.join(unknown_tables)}; "
            f"a pack has {', '.join(sorted(TOP_LEVEL_KEYS))}"
        )
    header = pack_table(data, "pack", where)
    refuse_unknown_keys(header, PACK_KEYS, f"{where}: [pack]")
    for key in ("id", "name", "chapter", "version"):
        if not isinstance(header.get(key), str) or not header[key].strip():
            raise PackError(f"{where}: [pack] needs a text '{key}'")
    names = base_names()
    parameters = pack_parameters(data, names, where, text)
    rule_tables = data.get("rules")
    if not isinstance(rule_tables, list) or not rule_tables:
        raise PackError(f"{where}: no [[rules]]")
    lines = rule_lines(text)
    rules: list[Rule] = []
    seen: dict[str, int] = {}
    for index, table in enumerate(rule_tables):
        line = lines[index] if index < len(lines) else 0
        rule = pack_rule(table, names, where, line, text)
        if rule.id in seen:
            raise PackError(
                f"{where}: rule {rule.id} (line {line}): duplicate rule id, "
                f"first at line {seen[rule.id]}"
            )
        seen[rule.id] = line
        rules.append(rule)
    for rule in rules:
        for other in rule.unless:
            if other not in seen:
                raise PackError(
                    f"{where}: rule {rule.id} (line {rule.line}): "
                    f"'unless' names unknown rule {other}"
                )
    return Pack(
        id=header["id"].strip(),
        name=header["name"].strip(),
        chapter=header["chapter"].strip(),
        version=header["version"].strip(),
        amendments=tuple(str(a) for a in header.get("amendments", [])),
        path=where,
        sha256=hashlib.sha256(raw).hexdigest(),
        names=names,
        rules=tuple(rules),
        notes=str(header.get("notes", "")),
        parameters=parameters,
        runoff=runoff_section(data, names, where, text),
        not_evaluated=not_evaluated_items(data, where),
    )
