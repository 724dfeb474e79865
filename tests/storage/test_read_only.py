"""A read-only database directory: one clear line from every command, nothing acknowledged lost.

The directory is made read-only for real: a read-only bind mount in a private mount namespace
(``unshare -m``) when the tests run as root (chmod does not stop root), else ``chmod 0555``.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from records.errors import StorageError
from storage.database import SqliteDatabase
from tests.conftest import ROOT, TEST_SEEDS
from tests.e2e.test_bot_e2e import clean_environment


@pytest.fixture
def db(sqlite_db: SqliteDatabase) -> SqliteDatabase:
    """An SQLite database: this module tests what only the SQLite backend has."""
    return sqlite_db


# Mounts `$0` read-only over itself, then runs the command given after it, in a private namespace.
_READ_ONLY_MOUNT = 'mount --bind "$0" "$0" && mount -o remount,ro,bind "$0" "$0" && exec "$@"'


def _can_mount() -> bool:
    if os.geteuid() != 0 or shutil.which("unshare") is None:
        return False
    probe = subprocess.run(["unshare", "-m", "true"], capture_output=True, check=False)
    return probe.returncode == 0


@pytest.fixture
def read_only_runner(tmp_path: Path) -> Iterator[tuple[Path, list[str]]]:
    """Yield a database directory and the command prefix that runs a command with it read-only."""
    directory = tmp_path / "data"
    directory.mkdir()
    if _can_mount():
        yield directory, ["unshare", "-m", "sh", "-c", _READ_ONLY_MOUNT, str(directory)]
    elif os.geteuid() != 0:
        directory.chmod(0o555)
        try:
            yield directory, []
        finally:
            directory.chmod(0o755)
    else:
        pytest.skip("running as root without a private mount namespace: nothing makes a directory read-only")


def _tracebot(prefix: list[str], *args: str) -> subprocess.CompletedProcess[str]:
    env = {**clean_environment(), "DISCORD_TOKEN": "not-a-real-token"}
    command = [*prefix, sys.executable, "-m", "bot", *args]
    return subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, check=False)


def _one_line(result: subprocess.CompletedProcess[str]) -> str:
    assert result.returncode != 0
    assert "Traceback" not in result.stderr, result.stderr
    lines = [line for line in (result.stdout + result.stderr).splitlines() if line.strip()]
    assert len(lines) == 1, lines
    return lines[0]


def _existing_database(directory: Path) -> Path:
    db = directory / "tracebot.db"
    done = _tracebot([], "records", "import", str(TEST_SEEDS), "--db", str(db))
    assert done.returncode == 0, done.stderr
    return db


def _records(db: Path) -> int:
    with sqlite3.connect(db) as conn:
        return int(conn.execute("SELECT count(*) FROM records").fetchone()[0])


def test_import_into_a_read_only_directory_says_so_in_one_line(
    read_only_runner: tuple[Path, list[str]], tmp_path: Path
) -> None:
    directory, prefix = read_only_runner
    if not prefix:
        directory.chmod(0o755)
    db = _existing_database(directory)
    if not prefix:
        directory.chmod(0o555)
    line = _one_line(_tracebot(prefix, "records", "import", str(TEST_SEEDS), "--db", str(db)))
    assert "read-only" in line and str(directory) in line, line
    assert _records(db) == 3


def test_run_against_a_read_only_directory_says_so_in_one_line(read_only_runner: tuple[Path, list[str]]) -> None:
    directory, prefix = read_only_runner
    line = _one_line(_tracebot(prefix, "run", "--db", str(directory / "tracebot.db")))
    assert str(directory) in line and ("read-only" in line.lower() or "permission denied" in line.lower()), line


async def test_a_write_refused_as_read_only_is_one_error_and_keeps_what_was_acknowledged(
    db: SqliteDatabase, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A directory made read-only under an open database changes nothing (the kernel will not remount
    # a file system read-only while files are open for writing, and the -wal and -shm files exist);
    # a file the kernel refuses to write is a double here: SQLite's own error at the commit.
    insert = "INSERT INTO bot_status (key, value, updated_at) VALUES (?, '1', 'now')"
    async with db.transaction() as conn:
        await conn.execute(insert, ("acked",))
    writer = db._writer
    real = writer.execute

    async def refuse_commit(sql: str, *args: Any) -> Any:
        if sql == "COMMIT":
            raise sqlite3.OperationalError("attempt to write a readonly database")
        return await real(sql, *args)

    monkeypatch.setattr(writer, "execute", refuse_commit)
    with pytest.raises(StorageError, match=r"read-only .*nothing of this write was kept"):
        async with db.transaction() as conn:
            await conn.execute(insert, ("late",))
    monkeypatch.undo()
    assert {row["key"] for row in await db.fetch("SELECT key FROM bot_status")} == {"acked"}
    async with db.transaction() as conn:  # the database is usable again once it can be written
        await conn.execute(insert, ("after",))
    assert {row["key"] for row in await db.fetch("SELECT key FROM bot_status")} == {"acked", "after"}
