"""``tracebot health``: the database is writable and the bot's heartbeat recent, or one line and status 1."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from bot.cli import main
from storage.database import Database
from storage.guilds import StatusRepository
from storage.importer import import_paths
from tests.conftest import SEEDS_JSONL


@pytest.fixture(autouse=True)
def no_ambient_settings(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Keep the developer's token and .env out of these tests."""
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    monkeypatch.delenv("TRACEBOT_DISCORD_TOKEN", raising=False)
    monkeypatch.chdir(tmp_path)


def test_health_without_a_database(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["health", "--db", str(tmp_path / "none.db")]) == 1
    assert "no such database file" in capsys.readouterr().err


async def _database(path: Path, *, beat: bool) -> None:
    db = await Database.open(path)
    await import_paths(db, [SEEDS_JSONL])
    if beat:
        await StatusRepository(db).beat(latency_ms=40.0, guilds=1, pid=1)
    await db.close()


def test_health_needs_a_heartbeat(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "t.db"
    asyncio.run(_database(path, beat=False))
    assert main(["health", "--db", str(path)]) == 1
    captured = capsys.readouterr()
    assert "database: ok" in captured.out and "no heartbeat recorded" in captured.err
    asyncio.run(_database(path, beat=True))
    assert main(["health", "--db", str(path)]) == 0
    assert "gateway: heartbeat 0s ago, latency 40 ms, 1 guilds" in capsys.readouterr().out
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE bot_status SET updated_at = '2000-01-01T00:00:00.000Z' WHERE key = 'heartbeat'")
    assert main(["health", "--db", str(path)]) == 1
    assert "last heartbeat" in capsys.readouterr().err


def test_health_beside_a_writer_holding_the_lock_answers_without_waiting_for_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "t.db"
    asyncio.run(_database(path, beat=True))
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # an import publishing, or a bot writing, in another process
    try:
        status = main(["health", "--db", str(path)])
    finally:
        other.close()
    out = capsys.readouterr().out
    # Reads go on beside the writer (WAL); the write probe gives up after its short wait and says why.
    assert status == 0
    assert "database: ok" in out and "another process is writing now" in out and "gateway: heartbeat" in out
