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

from sitecheck.rules.conditions import condition_entries
from sitecheck.rules.errors import RuleLanguageError
from sitecheck.rules.pack_checks import unless_errors, unused_parameters
from sitecheck.rules.pack_measuring import measuring_section
from sitecheck.rules.pack_model import (
    MeasuringSection,
    Pack,
    PackError,
    PackNames,
    ParameterValue,
    Rule,
    RunoffSection,
    base_names,
)
from sitecheck.rules.pack_parameters import pack_parameters
from sitecheck.rules.pack_tables import (
    PACK_KEYS,
    TOP_LEVEL_KEYS,
    not_evaluated_items,
    pack_conditions,
    pack_rule,
    pack_table,
    refuse_unknown_keys,
    rule_lines,
    runoff_section,
    shape_problems,
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
    """Read and check a pack file.

    Raises
    ------
    PackError
        Naming every problem found, one per line, each with its rule and line.
    """
    where = str(path)
    raw, text, data = _read_toml(path)
    problems = _Problems()
    header = _header(data, where, problems)
    names = PackNames(base_names())
    parameters: dict[str, ParameterValue] = {}
    try:
        parameters = pack_parameters(data, names.infos, where, text)
    except PackError as error:
        problems.extend(list(error.problems))
        problems.raise_any()  # every rule naming a broken parameter would fail again
    names.lists = {k: v for k, v in parameters.items() if isinstance(v, tuple)}
    try:
        entries = condition_entries(data.get("conditions"), where)
    except RuleLanguageError as error:
        problems.add(f"{where}: [conditions]: {error}")
        entries = []
    with problems:
        pack_conditions(entries, names, where, text)
    rules = _rules(data, names, where, text, problems)
    written_ids = {
        str(table.get("id")) for table in data.get("rules", []) or [] if isinstance(table, dict)
    }
    problems.extend(unless_errors(rules, written_ids))
    runoff = RunoffSection()
    with problems:
        runoff = runoff_section(data, names, where, text)
    measuring = MeasuringSection()
    with problems:
        measuring = measuring_section(data, parameters, names, where)
    not_evaluated: tuple = ()
    with problems:
        not_evaluated = not_evaluated_items(data, where)
    problems.raise_any()
    warnings = unused_parameters(parameters, names.used)
    warnings += [
        f"condition {entry.name} is never used"
        for entry in names.written
        if entry.name not in names.used
    ]
    return Pack(
        id=header["id"].strip(),
        name=header["name"].strip(),
        chapter=header["chapter"].strip(),
        version=header["version"].strip(),
        amendments=tuple(str(a) for a in header.get("amendments", [])),
        path=where,
        sha256=hashlib.sha256(raw).hexdigest(),
        names=names.infos,
        rules=tuple(rules),
        notes=str(header.get("notes", "")),
        parameters=parameters,
        runoff=runoff,
        measuring=measuring,
        not_evaluated=not_evaluated,
        conditions=tuple(names.written),
        warnings=tuple(warnings),
    )


def _read_toml(path: Path) -> tuple[bytes, str, dict]:
    """A pack file's bytes, its text and its TOML tables; PackError if any cannot be read."""
    where = str(path)
    try:
        raw = path.read_bytes()
    except OSError as error:
        raise PackError(f"{where}: cannot read the pack ({error.strerror})") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        line = raw[: error.start].count(b"\n") + 1
        raise PackError(
            f"{where}: line {line}: not UTF-8 text (byte 0x{raw[error.start]:02x}); "
            "save the pack as UTF-8"
        ) from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise PackError(f"{where}: not valid TOML: {error}") from error
    except RecursionError:
        raise PackError(
            f"{where}: not a pack: its arrays or tables are nested too deeply to read"
        ) from None
    return raw, text, data


def _header(data: dict, where: str, problems: _Problems) -> dict:
    """The ``[pack]`` table, once the file's tables have a pack's shape and the header its keys.

    Raises PackError (through ``problems``) at the first stage that has problems:
    what follows cannot be read without it.
    """
    unknown_tables = sorted(set(data) - TOP_LEVEL_KEYS)
    if unknown_tables:
        problems.add(
            f"{where}: unknown table(s) {', '.join(unknown_tables)}; "
            f"a pack has {', '.join(sorted(TOP_LEVEL_KEYS))}"
        )
    problems.extend(shape_problems(data, where))
    problems.raise_any()  # nothing below can read a pack of the wrong shape
    header = pack_table(data, "pack", where)
    with problems:
        refuse_unknown_keys(header, PACK_KEYS, f"{where}: [pack]")
    for key in ("id", "name", "chapter", "version"):
        if not isinstance(header.get(key), str) or not header[key].strip():
            problems.add(f"{where}: [pack] needs a text '{key}'")
    amendments = header.get("amendments", [])
    if not isinstance(amendments, list) or not all(isinstance(a, str) for a in amendments):
        problems.add(f"{where}: [pack] 'amendments' is a list of texts, one per local law")
    problems.raise_any()  # the header is needed below
    return header


def _rules(data: dict, names: PackNames, where: str, text: str, problems: _Problems) -> list[Rule]:
    rule_tables = data.get("rules")
    if not isinstance(rule_tables, list) or not rule_tables:
        problems.add(f"{where}: no [[rules]]")
        return []
    lines = rule_lines(text)
    rules: list[Rule] = []
    seen: dict[str, int] = {}
    for index, table in enumerate(rule_tables):
        line = lines[index] if index < len(lines) else 0
        with problems:
            rule = pack_rule(table, names, where, line, text)
            if rule.id in seen:
                raise PackError(
                    f"{where}: rule {rule.id} (line {line}): duplicate rule id, "
                    f"first at line {seen[rule.id]}"
                )
            seen[rule.id] = line
            rules.append(rule)
    return rules


class _Problems:
    """Every problem of a pack, gathered so that one run of validate names them all."""

    def __init__(self) -> None:
        self.messages: list[str] = []

    def add(self, message: str) -> None:
        self.messages.append(message)

    def extend(self, messages: list[str]) -> None:
        self.messages.extend(messages)

    def __enter__(self) -> _Problems:
        return self

    def __exit__(self, kind: type | None, error: BaseException | None, trace: object) -> bool:
        if isinstance(error, PackError):
            self.messages.append(str(error))
            return True
        return False

    def raise_any(self) -> None:
        if len(self.messages) == 1:
            raise PackError(self.messages[0], problems=(self.messages[0],))
        if self.messages:
            raise PackError(
                f"{len(self.messages)} problems:\n" + "\n".join(self.messages),
                problems=tuple(self.messages),
            )
