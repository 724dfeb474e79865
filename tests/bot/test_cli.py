"""Tests for bot.cli: the parser, --version, plain help, usage errors, closed pipes, lazy imports."""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from bot.cli import COMMANDS, build_parser, main, plain
from storage.database import Database
from storage.records import RecordRepository
from tests import pg
from tests.conftest import SEEDS_JSONL, database_file

ROOT = Path(__file__).resolve().parents[2]


def _subcommand_parsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def _helps(parser: argparse.ArgumentParser) -> dict[str, str]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return {choice.dest: choice.help or "" for choice in action._choices_actions}
    return {}


def test_the_command_table_lists_every_command_with_its_own_help() -> None:
    full = build_parser()
    assert set(_subcommand_parsers(full)) == set(COMMANDS)
    assert _helps(full) == {name: help_text for name, (_, help_text) in COMMANDS.items()}


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_command_parsed_alone_is_the_same_as_in_the_full_parser(command: str) -> None:
    alone = _subcommand_parsers(build_parser(command))[command]
    full = _subcommand_parsers(build_parser())[command]
    assert alone.format_help() == full.format_help()


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["--version"])
    assert exit_.value.code == 0
    assert capsys.readouterr().out.startswith("tracebot ")


def test_every_command_asks_blas_for_one_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENBLAS_NUM_THREADS", raising=False)
    with pytest.raises(SystemExit):
        main(["--version"])
    assert os.environ["OPENBLAS_NUM_THREADS"] == "1"


def test_a_blas_thread_count_the_user_set_is_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "4")
    with pytest.raises(SystemExit):
        main(["--version"])
    assert os.environ["OPENBLAS_NUM_THREADS"] == "4"


def test_a_bad_option_shows_the_subcommands_usage(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["ask", "--jsn", "x"])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("usage: tracebot ask ")
    assert "unrecognized arguments: --jsn" in err


def test_a_bad_option_of_a_nested_command_shows_its_own_usage(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["records", "list", "--bogus"])
    assert capsys.readouterr().err.startswith("usage: tracebot records list ")


@pytest.mark.parametrize("how", ["--db", "TRACEBOT_DB"])
def test_a_database_url_is_one_line_and_creates_nothing(
    how: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    url = "mysql://user@localhost:5432/tracebot"
    argv = ["records", "import", str(SEEDS_JSONL)]
    if how == "--db":
        argv += ["--db", url]
    else:
        monkeypatch.setenv("TRACEBOT_DB", url)
    with pytest.raises(SystemExit) as exit_:
        status = main(argv)
        raise SystemExit(status)
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert "mysql:// URLs are not supported: give the path of an SQLite database file or a postgresql:// URL" in err
    assert (how in err) if how == "TRACEBOT_DB" else ("argument --db" in err)
    assert not any(tmp_path.iterdir())  # no 'mysql:' directory, no database file


@pytest.mark.parametrize("how", ["--db", "TRACEBOT_DB"])
def test_a_postgresql_url_imports_into_the_server_and_creates_no_file(
    how: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)

    async def import_and_count() -> int:
        async with pg.fresh_database() as url:
            argv = ["records", "import", str(SEEDS_JSONL)] + (["--db", url] if how == "--db" else [])
            if how == "TRACEBOT_DB":
                monkeypatch.setenv("TRACEBOT_DB", url)
            assert await asyncio.to_thread(main, argv) == 0
            db = await Database.open(url)
            try:
                return await RecordRepository(db).count()
            finally:
                await db.close()

    assert asyncio.run(import_and_count()) == 3
    assert "3 added" in capsys.readouterr().out
    assert not any(tmp_path.iterdir())  # no 'postgresql:' directory, no database file


def test_an_unreachable_postgresql_url_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    status = main(["records", "stats", "--db", f"postgresql://bot:pw@127.0.0.1:{port}/tracebot"])
    err = capsys.readouterr().err.strip()
    assert status != 0 and len(err.splitlines()) == 1, err
    assert "cannot reach the PostgreSQL server" in err and "pw" not in err


def _every_parser(parser: argparse.ArgumentParser) -> list[argparse.ArgumentParser]:
    found = [parser]
    for child in dict.fromkeys(_subcommand_parsers(parser).values()):
        found.extend(_every_parser(child))
    return found


def test_help_is_plain_text() -> None:
    for parser in _every_parser(build_parser()):
        text = parser.format_help()
        assert "``" not in text and ":func:" not in text, parser.prog


def test_plain_strips_literals_and_roles() -> None:
    assert plain("run ``tracebot db migrate`` or :func:`main` now") == "run tracebot db migrate or main now"


def _run(code: str) -> str:
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    ).stdout.strip()


def test_help_and_the_offline_commands_do_not_import_discord() -> None:
    code = (
        "import sys, contextlib, io\n"
        "from bot.cli import build_parser\n"
        "with contextlib.suppress(SystemExit), contextlib.redirect_stdout(io.StringIO()):\n"
        "    build_parser('').parse_args(['--help'])\n"
        "for command in ('ask', 'records', 'triage', 'db'):\n"
        "    build_parser(command)\n"
        "print(sorted(m for m in ('discord', 'aiohttp', 'rich') if m in sys.modules))\n"
    )
    assert _run(code) == "[]"


# What a one-shot `tracebot ask` never uses once its index is saved: Discord, triage and redaction.
_NOT_FOR_ASK = (
    "discord",
    "aiohttp",
    "rich",
    "records.triage",
    "records.redact",
    "records.fingerprint",
    "storage.triage",
)


def test_ask_with_a_saved_index_imports_neither_discord_nor_triage_nor_redaction(tmp_path: Path) -> None:
    db = database_file(tmp_path / "t.db", SEEDS_JSONL)
    code = (
        "import sys\n"
        "from bot.cli import main\n"
        "status = main(['ask', '--db', sys.argv[1], 'RuntimeError: assisted decoding requires a cache'])\n"
        f"print(status, sorted(m for m in {_NOT_FOR_ASK!r} if m in sys.modules), file=sys.stderr)\n"
    )
    ask = [sys.executable, "-c", code, str(db)]
    built = subprocess.run(ask, capture_output=True, text=True, check=True, cwd=ROOT)
    assert "storage.triage" in built.stderr  # the first ask builds the index, with the triage examples
    loaded = subprocess.run(ask, capture_output=True, text=True, check=True, cwd=ROOT)
    assert loaded.stderr.strip() == "0 []"
    assert loaded.stdout == built.stdout and "assisted decoding requires a cache" in loaded.stdout


def test_export_into_a_closed_pipe_ends_quietly(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    records = tmp_path / "r.jsonl"
    line = {"id": "x{n}", "errorMessage": "broken thing number {n}", "repo": "a/b"}
    records.write_text("".join(json.dumps(line).replace("{n}", str(n)) + "\n" for n in range(3000)))
    database_file(db, records)  # set up in this process: a tracebot process more costs a second of CPU
    tracebot = [sys.executable, "-m", "bot"]
    export = subprocess.Popen(
        [*tracebot, "records", "export", "--db", str(db)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT
    )
    assert export.stdout is not None and export.stderr is not None
    with export, export.stdout, export.stderr:
        export.stdout.readline()
        export.stdout.close()  # the reader goes away, as `| head -1` does
        err = export.stderr.read().decode()
        assert export.wait(timeout=60) == 0
    assert "Traceback" not in err and "Exception" not in err, err


def test_a_command_that_cannot_write_says_so_in_one_line_and_exits_2(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    records = tmp_path / "r.jsonl"
    records.write_text(json.dumps({"id": "a1", "errorMessage": "broken widget {n}", "repo": "a/b"}) + "\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TRACEBOT_", "DISCORD_"))}
    env["TRACEBOT_WRITE_WAIT"] = "0.5"
    tracebot = [sys.executable, "-m", "bot"]
    database_file(db)
    other = sqlite3.connect(db, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # an import in another process, publishing
    try:
        done = subprocess.run(
            [*tracebot, "records", "import", str(records), "--db", str(db)],
            capture_output=True, text=True, cwd=ROOT, env=env, check=False,
        )  # fmt: skip
    finally:
        other.close()
    assert done.returncode == 2
    [line] = done.stderr.strip().splitlines()
    assert line.startswith("tracebot: error: ") and "another process has held the write lock" in line
