"""``tracebot triage``: list, show, link, dismiss, reopen, export, draft, purge; one-line errors."""

from __future__ import annotations

import argparse
import asyncio
import csv
import io
import json
import logging
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.cli import build_parser, main
from bot.settings import TriageSettings
from bot.triage_service import TriageService
from records.triage import PasteOrigin
from storage.database import Database
from tests.conftest import SEED_IDS

TOKEN = "hf_CLIq7Zt3Wv9Xy2Bn4Mk6Lp8Rs1Tu5Vw0abcd"
RECORD = SEED_IDS["stateful"]


@pytest.fixture(autouse=True)
def restore_logging() -> Iterator[None]:
    """``main`` configures the root logger on the captured stderr; put it back for later tests."""
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    yield
    root.handlers[:] = handlers
    root.setLevel(level)


def paste(n: int = 1) -> str:
    return (
        "Traceback (most recent call last):\n"
        '  File "/home/alice/app/main.py", line 8, in <module>\n'
        "    client.fetch(repo)\n"
        f"PermissionError: access denied{' again' * n} for token {TOKEN} while reading /home/alice/x.bin (status 403)\n"
    )


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


async def fill(path: Path, pastes: list[tuple[str, int]]) -> None:
    db = await Database.open(path)
    try:
        service = TriageService(db, TriageSettings())
        for text, author in pastes:
            await service.log_paste(text, PasteOrigin(channel_id=10, author_id=author, guild_id=100))
    finally:
        await db.close()


@pytest.fixture
def dbfile(tmp_path: Path, seeds_dir: Path, capsys: pytest.CaptureFixture[str]) -> str:
    path = tmp_path / "cli.db"
    assert main(["records", "import", str(seeds_dir), "--db", str(path)]) == 0
    asyncio.run(fill(path, [(paste(1), 1), (paste(1), 2), (paste(1), 3), (paste(2), 1)]))
    capsys.readouterr()
    return str(path)


def test_list_text_and_json(capsys: pytest.CaptureFixture[str], dbfile: str) -> None:
    status, out, _ = run(capsys, "triage", "list", "--db", dbfile)
    lines = out.splitlines()
    assert status == 0 and len(lines) == 2
    assert lines[0].startswith("#1     new            3  PermissionError: access denied again for token [REDACTED:")
    status, out, _ = run(capsys, "triage", "list", "--json", "--db", dbfile)
    groups = json.loads(out)
    assert [(g["id"], g["count"], g["status"]) for g in groups] == [(1, 3, "new"), (2, 1, "new")]
    first = groups[0]
    assert first["errorClass"] == "PermissionError"
    assert (
        first["message"]
        == "access denied again for token [REDACTED:huggingface_token] while reading <path> (status <n>)"
    )
    assert len(first["samples"]) == 3 and all("[REDACTED:huggingface_token]" in s["text"] for s in first["samples"])
    assert TOKEN not in out
    status, out, _ = run(capsys, "triage", "list", "--status", "dismissed", "--json", "--db", dbfile)
    assert json.loads(out) == []


def test_show_link_dismiss_reopen(capsys: pytest.CaptureFixture[str], dbfile: str) -> None:
    status, out, _ = run(capsys, "triage", "show", "#1", "--db", dbfile)
    assert status == 0 and out.startswith("report #1 (new): PermissionError: access denied again")
    assert "count: 3 (0 not helpful)" in out and "servers: 1; channels: 1" in out and TOKEN not in out
    status, out, _ = run(capsys, "triage", "link", "1", RECORD, "--db", dbfile)
    assert (status, out) == (0, f"report #1 linked to record {RECORD} (1 example(s) added)\n")
    status, out, _ = run(capsys, "triage", "show", "1", "--json", "--db", dbfile)
    shown = json.loads(out)
    assert shown["status"] == "linked" and shown["recordId"] == RECORD
    status, out, _ = run(capsys, "ask", paste(1).replace(TOKEN, "hf_" + "Z9" * 20), "--json", "--db", dbfile)
    assert json.loads(out)["status"] == "matched"
    status, out, _ = run(capsys, "triage", "dismiss", "1", "--reason", f"leaked {TOKEN}, not ours", "--db", dbfile)
    assert (status, out) == (0, "report #1 dismissed: leaked [REDACTED:huggingface_token], not ours\n")
    status, out, _ = run(capsys, "triage", "reopen", "1", "--db", dbfile)
    assert (status, out) == (0, "report #1 reopened\n")


@pytest.mark.parametrize(
    ("argv", "error"),
    [
        (["show", "99"], "no triage report with id 99"),
        (["show", "abc"], "report ids are numbers such as 12 or #12, not 'abc'"),
        (["link", "99", RECORD], "no triage report with id 99"),
        (["link", "1", "no-such-record"], "no record with id or slug 'no-such-record'"),
        (["dismiss", "99"], "no triage report with id 99"),
        (["reopen", "99"], "no triage report with id 99"),
        (["draft", "99"], "no triage report with id 99"),
    ],
)
def test_bad_ids_are_one_line_and_change_nothing(
    capsys: pytest.CaptureFixture[str], dbfile: str, argv: list[str], error: str
) -> None:
    _, before, _ = run(capsys, "triage", "list", "--json", "--db", dbfile)
    status, out, err = run(capsys, "triage", *argv, "--db", dbfile)
    assert (status, out, err) == (1, "", f"tracebot: error: {error}\n")
    _, after, _ = run(capsys, "triage", "list", "--json", "--db", dbfile)
    assert after == before


def test_export_json_and_csv(capsys: pytest.CaptureFixture[str], dbfile: str, tmp_path: Path) -> None:
    status, out, err = run(capsys, "triage", "export", "--format", "json", "--db", dbfile)
    assert status == 0 and err == "exported 2 reports\n"
    assert [g["count"] for g in json.loads(out)] == [3, 1]
    target = tmp_path / "triage.csv"
    status, out, _ = run(capsys, "triage", "export", "--format", "csv", "--out", str(target), "--db", dbfile)
    rows = list(csv.DictReader(io.StringIO(target.read_text(encoding="utf-8"))))
    assert [r["id"] for r in rows] == ["1", "2"] and rows[0]["count"] == "3"
    assert "[REDACTED:huggingface_token]" in rows[0]["sample"] and TOKEN not in target.read_text(encoding="utf-8")


def test_draft_imports_as_a_record(capsys: pytest.CaptureFixture[str], dbfile: str, tmp_path: Path) -> None:
    status, out, _ = run(capsys, "triage", "draft", "1", "--db", dbfile)
    draft = json.loads(out)
    assert status == 0 and draft["record"]["errorClass"] == "PermissionError"
    assert draft["record"]["errorMessage"].startswith("access denied again for token {redacted} while reading {path}")
    path = tmp_path / "draft.json"
    draft["record"]["documentation"] = "The hub refused the token."
    path.write_text(json.dumps(draft), encoding="utf-8")
    status, out, _ = run(capsys, "records", "import", str(path), "--db", dbfile)
    assert status == 0 and out.startswith("1 added")
    status, out, _ = run(capsys, "triage", "link", "1", draft["record"]["id"], "--db", dbfile)
    assert status == 0 and "linked" in out


def test_purge(capsys: pytest.CaptureFixture[str], dbfile: str) -> None:
    status, out, _ = run(capsys, "triage", "purge", "--db", dbfile)
    assert (status, out) == (0, "purged 0 samples older than 30 days (counts kept)\n")


def test_invalid_triage_setting_is_one_line(
    capsys: pytest.CaptureFixture[str], dbfile: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TRACEBOT_TRIAGE_SAMPLE_CHARS", "lots")
    status, _out, err = run(capsys, "triage", "list", "--db", dbfile)
    assert status == 2 and err.startswith("tracebot: error: invalid setting: TRACEBOT_TRIAGE_SAMPLE_CHARS:")


def triage_commands() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    triage = commands.choices["triage"]
    sub = next(a for a in triage._actions if isinstance(a, argparse._SubParsersAction))
    return dict(sub.choices)


def test_every_triage_command_has_help_and_db() -> None:
    commands = triage_commands()
    assert set(commands) == {"list", "show", "link", "dismiss", "reopen", "merge", "split", "export", "draft", "purge"}
    for name, parser in commands.items():
        options = {o for a in parser._actions for o in a.option_strings}
        assert {"--help", "--db"} <= options, name
        assert parser.description, name
        assert all(a.help for a in parser._actions if a.dest != "help"), name


def engine_paste(word: str, user: str) -> str:
    return (
        "Traceback (most recent call last):\n"
        f'  File "/home/{user}/run.py", line 3, in <module>\n'
        "    go()\n"
        '  File "/venv/lib/python3.11/site-packages/engine/core.py", line 9, in run\n'
        "    raise RuntimeError(msg)\n"
        f"RuntimeError: engine {word} stalled\n"
    )


def test_merge_and_split(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "regroup.db"
    pastes = [(engine_paste("one", "a"), 1), (engine_paste("two", "b"), 2), (engine_paste("two", "c"), 3)]
    asyncio.run(fill(path, pastes))
    db = str(path)
    status, out, err = run(capsys, "triage", "merge", "1", "1", "--db", db)
    assert status != 0 and err.strip().endswith("cannot merge report #1 into itself") and not out
    status, out, _ = run(capsys, "triage", "merge", "#2", "1", "--db", db)
    assert status == 0 and out == "report #2 merged into #1 (3 pastes)\n"
    status, out, _ = run(capsys, "triage", "show", "1", "--json", "--db", db)
    shown = json.loads(out)
    assert shown["people"] == 3 and shown["groupedBy"]["frame"] == "engine/core.py:run"
    assert shown["title"] == "RuntimeError: engine one stalled"
    two = [s["id"] for s in shown["samples"] if "two" in s["text"]]
    status, out, err = run(capsys, "triage", "split", "1", str(two[0]), "--db", db)  # the other "two" stays
    assert status != 0 and "nothing tells them apart" in err and not out
    status, out, err = run(capsys, "triage", "split", "1", *map(str, two), "--json", "--db", db)
    assert status == 0, err
    done = json.loads(out)
    assert done["new"]["count"] == 2 and done["rule"] == {"message": ["engine two stalled"]}
    status, out, _ = run(capsys, "triage", "show", "2", "--db", db)
    assert status != 0
