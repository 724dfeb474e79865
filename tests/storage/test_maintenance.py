"""Backups and integrity checks: a backup is a sound copy or nothing under the target name."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from records.errors import StorageError
from storage.database import Database, SqliteDatabase
from storage.importer import import_paths
from storage.maintenance import backup, integrity_problems
from tests.conftest import SEEDS_JSONL


@pytest.fixture
def db(sqlite_db: SqliteDatabase) -> SqliteDatabase:
    """An SQLite database: this module tests what only the SQLite backend has."""
    return sqlite_db


async def test_a_backup_is_a_sound_copy_of_the_live_database(db: Database, tmp_path: Path) -> None:
    await import_paths(db, [SEEDS_JSONL])
    target = tmp_path / "copy.db"
    assert await backup(db, target) == []
    assert integrity_problems(target) == [] and not (tmp_path / "copy.db.partial").exists()
    with sqlite3.connect(target) as copy:
        copied = copy.execute("SELECT count(*) FROM records").fetchone()[0]
    assert copied == len(await db.fetch("SELECT id FROM records")) > 0


async def test_a_backup_replaces_an_older_file_under_the_target_name(db: Database, tmp_path: Path) -> None:
    target = tmp_path / "copy.db"
    target.write_text("an older, unrelated file")
    assert await backup(db, target) == []
    assert integrity_problems(target) == []


async def test_a_directory_as_the_target_is_refused(db: Database, tmp_path: Path) -> None:
    with pytest.raises(StorageError, match="is a directory"):
        await backup(db, tmp_path)


async def test_a_target_in_a_missing_folder_is_one_storage_error(db: Database, tmp_path: Path) -> None:
    with pytest.raises(StorageError, match="cannot create the backup file"):
        await backup(db, tmp_path / "no" / "such" / "copy.db")


def test_integrity_problems_of_a_sound_a_damaged_and_a_missing_file(tmp_path: Path) -> None:
    sound = tmp_path / "sound.db"
    with sqlite3.connect(sound) as conn:
        conn.execute("CREATE TABLE t (x)")
        conn.executemany("INSERT INTO t VALUES (?)", [(i,) for i in range(2000)])
    conn.close()
    assert integrity_problems(sound) == []
    damaged = tmp_path / "damaged.db"
    data = bytearray(sound.read_bytes())
    data[4096:8192] = b"\xff" * 4096  # the second page: garbage where a b-tree page should be
    damaged.write_bytes(bytes(data))
    assert integrity_problems(damaged) != []
    assert integrity_problems(tmp_path / "missing.db") != []
