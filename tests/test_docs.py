"""Every command of the command line is documented in the README (sqlite-utils' habit)."""

from __future__ import annotations

import argparse

import pytest

from bot.cli import build_parser
from tests.conftest import ROOT

README = (ROOT / "README.md").read_text(encoding="utf-8")


def _commands(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    found: list[tuple[str, ...]] = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                children = _commands(sub, (*path, name))
                found.extend(children or [(*path, name)])
    return found


@pytest.mark.parametrize("command", _commands(build_parser()), ids=" ".join)
def test_command_is_in_the_readme(command: tuple[str, ...]) -> None:
    full = "tracebot " + " ".join(command)
    if full in README:
        return
    group = "tracebot " + " ".join(command[:-1])
    lines = [line for line in README.splitlines() if group in line]
    assert any(f"`{command[-1]}" in line or f" {command[-1]} " in line for line in lines), full
