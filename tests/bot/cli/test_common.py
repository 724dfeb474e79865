"""The helpers every command uses: lazy handlers, the database path, JSON output, ``--db``."""

from __future__ import annotations

import argparse
import gc
import io
import json
import sys
import types
import weakref
from pathlib import Path

import pytest

from bot.cli._common import add_db_option, db_path, freeze_loaded_heap, lazy, open_database, print_json
from tests.bot.simbot import settings_for_tests


async def test_a_lazy_handler_imports_its_module_only_when_the_command_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[argparse.Namespace, object]] = []

    async def command(args: argparse.Namespace, settings: object) -> int:
        calls.append((args, settings))
        return 7

    module = types.ModuleType("tracebot_lazy_probe")
    module.command = command  # type: ignore[attr-defined]  # a module built on the fly
    handler = lazy("tracebot_lazy_probe:command")  # not importable yet: building the handler imports nothing
    monkeypatch.setitem(sys.modules, "tracebot_lazy_probe", module)
    args = argparse.Namespace(x=1)
    settings = settings_for_tests(Path("unused.db"))
    assert await handler(args, settings) == 7
    assert calls == [(args, settings)]


def test_db_option_wins_over_the_settings(tmp_path: Path) -> None:
    parser = argparse.ArgumentParser()
    add_db_option(parser)
    settings = settings_for_tests(tmp_path / "from-env.db")
    assert db_path(parser.parse_args([]), settings) == tmp_path / "from-env.db"
    assert db_path(parser.parse_args(["--db", "chosen.db"]), settings) == Path("chosen.db")
    assert db_path(argparse.Namespace(), settings) == tmp_path / "from-env.db"  # a command without --db


async def test_open_database_closes_it_afterwards(tmp_path: Path) -> None:
    args = argparse.Namespace(db=tmp_path / "t.db")
    async with open_database(args, settings_for_tests(tmp_path / "other.db")) as db:
        assert db.path == tmp_path / "t.db" and await db.schema_version() >= 1
    assert (tmp_path / "t.db").exists() and not (tmp_path / "other.db").exists()
    with pytest.raises(ValueError, match=r"closed|no active connection"):
        await db.schema_version()


def test_print_json_is_indented_unicode_with_a_final_newline() -> None:
    out = io.StringIO()
    print_json({"message": "ça ne marche pas", "n": [1]}, out)
    assert out.getvalue() == '{\n  "message": "ça ne marche pas",\n  "n": [\n    1\n  ]\n}\n'
    assert json.loads(out.getvalue()) == {"message": "ça ne marche pas", "n": [1]}


class _Cycle:
    """An object that refers to itself: only the cyclic collector frees it."""

    def __init__(self) -> None:
        self.me = self


def test_the_loaded_heap_is_kept_out_of_the_collector_until_unfrozen() -> None:
    loaded = _Cycle()
    alive = weakref.ref(loaded)
    try:
        freeze_loaded_heap()
        del loaded
        gc.collect()
        assert alive() is not None  # frozen: a full pass neither walks nor frees it
    finally:
        gc.unfreeze()
    gc.collect()
    assert alive() is None


def test_an_object_made_after_the_freeze_is_collected() -> None:
    try:
        freeze_loaded_heap()
        later = _Cycle()
        alive = weakref.ref(later)
        del later
        gc.collect()
        assert alive() is None
    finally:
        gc.unfreeze()
