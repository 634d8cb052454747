"""Every `sitecheck …` command a pack tells its reader to run exists, with its options.

A requirement that cites ``sitecheck notify --from-activity`` sends a user to an
option the command line refuses. The commands are read from the packs' text and
checked against the command line's own parser: each subcommand, each option and,
where an option has choices, the value given.
"""

from __future__ import annotations

import argparse
import re
import shlex
from importlib import resources

import pytest
import tomllib

from sitecheck.app.arguments import build_parser

PACKS = ("homer", "larchmont", "scarsdale")
CITED = re.compile(r"\bsitecheck ([a-z][a-z-]*(?: --?[a-z][a-z-]*(?: [a-z0-9][\w.-]*)?)*)")


def _texts(value: object):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _texts(item)
    elif isinstance(value, list):
        for item in value:
            yield from _texts(item)


def _cited_commands(pack: str) -> list[str]:
    text = (resources.files("sitecheck") / "ordinances" / f"{pack}.toml").read_text("utf-8")
    document = tomllib.loads(text)
    return [match.group(1) for words in _texts(document) for match in CITED.finditer(words)]


def _subcommands() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    raise AssertionError("the command line has no subcommands")


def test_the_packs_cite_commands() -> None:
    """The check below reads something: Scarsdale's notices cite `sitecheck notify`."""
    assert any(command.startswith("notify") for command in _cited_commands("scarsdale"))


@pytest.mark.parametrize("pack", PACKS)
def test_every_command_a_pack_cites_is_one_the_command_line_takes(pack: str) -> None:
    commands = _subcommands()
    for cited in _cited_commands(pack):
        name, *words = shlex.split(cited)
        assert name in commands, f"{pack}: `sitecheck {cited}`: no command {name}"
        options = {
            flag: action for action in commands[name]._actions for flag in action.option_strings
        }
        for position, word in enumerate(words):
            if not word.startswith("-"):
                continue
            assert word in options, f"{pack}: `sitecheck {cited}`: {name} has no {word}"
            choices = options[word].choices
            if choices is not None and position + 1 < len(words):
                value = words[position + 1]
                assert value in choices, f"{pack}: `sitecheck {cited}`: {word} takes {choices}"
