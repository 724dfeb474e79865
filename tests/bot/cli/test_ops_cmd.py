"""``tracebot config check`` and ``tracebot db``: settings, backups, migrations, damaged files."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from bot.cli import main
from tests.conftest import SEEDS_JSONL

TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GaBcDe.abcdefghijklmnopqrstuvwxyz0123456789AB"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_config_check_masks_the_token(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    monkeypatch.setenv("TRACEBOT_DB", "/tmp/somewhere.db")
    status, out, _ = run(capsys, "config", "check", "--json")
    data = json.loads(out)
    assert status == 0 and TOKEN not in out
    assert data["discord_token"] == "***" + TOKEN[-4:] and data["db"] == "/tmp/somewhere.db"


@pytest.mark.parametrize(
    ("name", "value"),
    [("TRACEBOT_LOG_LEVEL", "LOUD"), ("TRACEBOT_DEV_GUILD", "not-a-number"), ("TRACEBOT_MAX_FILE_BYTES", "-5")],
)
def test_invalid_setting_is_one_line_naming_it(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, name: str, value: str
) -> None:
    monkeypatch.setenv(name, value)
    status, out, err = run(capsys, "config", "check")
    assert status == 2 and out == ""
    assert err.startswith(f"tracebot: error: invalid setting: {name}:") and err.count("\n") == 1
    assert value not in err or value.isdigit()  # the offending value is not echoed


def test_backup_while_another_connection_reads(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    db = tmp_path / "live.db"
    assert run(capsys, "records", "import", str(SEEDS_JSONL), "--db", str(db))[0] == 0
    reader = sqlite3.connect(db)  # the running bot holds a connection and an open read
    reader.execute("BEGIN")
    reader.execute("SELECT count(*) FROM records").fetchone()
    try:
        status, out, _ = run(capsys, "db", "backup", str(tmp_path / "copy.db"), "--db", str(db))
    finally:
        reader.close()
    assert status == 0 and "integrity_check: ok" in out
    with sqlite3.connect(tmp_path / "copy.db") as copy:
        assert copy.execute("SELECT count(*) FROM records").fetchone()[0] == 3
    assert not (tmp_path / "copy.db.partial").exists()


def test_backup_to_a_directory_is_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    status, _, err = run(capsys, "db", "backup", str(tmp_path), "--db", str(tmp_path / "x.db"))
    assert status == 1 and "is a directory" in err


def test_migrate_and_check(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    db = str(tmp_path / "m.db")
    status, out, _ = run(capsys, "db", "migrate", "--db", db)
    assert status == 0 and out.startswith("schema 0 -> ")
    assert run(capsys, "db", "migrate", "--db", db)[1].endswith("up to date\n")
    assert run(capsys, "db", "check", "--db", db)[1].endswith("integrity_check: ok\n")


def test_newer_and_corrupt_databases_are_refused_and_left_alone(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    newer = tmp_path / "newer.db"
    with sqlite3.connect(newer) as conn:
        conn.execute("PRAGMA user_version = 500")
    status, _, err = run(capsys, "records", "stats", "--db", str(newer))
    assert status == 1 and "newer than this tracebot supports" in err
    corrupt = tmp_path / "corrupt.db"
    corrupt.write_bytes(b"garbage" * 1000)
    before = corrupt.read_bytes()
    status, _, err = run(capsys, "records", "stats", "--db", str(corrupt))
    assert status == 1 and f"{corrupt}: not a SQLite database" in err and err.count("\n") == 1
    assert corrupt.read_bytes() == before


def test_database_path_that_cannot_be_created(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    status, _, err = run(capsys, "records", "stats", "--db", str(blocker / "sub" / "t.db"))
    assert status == 1 and "cannot create the database directory" in err
