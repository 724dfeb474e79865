"""Schema upgrades: a database made by the first schema version reaches the current one, data kept."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from records.errors import DatabaseCorrupt
from storage import migrations
from storage.database import Database
from storage.records import RecordRepository


def _first_schema_database(path: Path) -> None:
    first = migrations.available()[0]
    with sqlite3.connect(path) as conn:
        conn.executescript(first.sql)
        conn.execute("PRAGMA user_version = 1")
        conn.execute(
            "INSERT INTO records (id, error_message, content_hash, data, created_at, updated_at) "
            "VALUES ('old1', 'an old message', 'h', ?, 't', 't')",
            ('{"errorMessage":"an old message","id":"old1"}',),
        )


async def test_upgrade_from_first_schema_keeps_data(tmp_path: Path) -> None:
    path = tmp_path / "v1.db"
    _first_schema_database(path)
    db = await Database.open(path)
    try:
        assert await db.schema_version() == migrations.latest_version()
        stored = await RecordRepository(db).get("old1")
        assert stored is not None and stored.record.error_message == "an old message"
    finally:
        await db.close()


async def test_migrate_without_auto_migration_reports_pending(tmp_path: Path) -> None:
    path = tmp_path / "v1.db"
    _first_schema_database(path)
    db = await Database.open(path, migrate=False)
    try:
        assert await db.schema_version() == 1
        applied = await db.migrate()
        assert len(applied) == migrations.latest_version() - 1
    finally:
        await db.close()


async def test_a_schema_a_migration_does_not_expect_is_one_error_naming_both_and_changes_nothing(
    tmp_path: Path,
) -> None:
    # A file at version 6 whose side table is missing (changed by hand, or by an unreleased build).
    path = tmp_path / "odd.db"
    async with await Database.open(path, migrate=False) as db:
        for migration in migrations.available()[:6]:
            await migrations.apply(db._writer, migration)
    with sqlite3.connect(path) as conn:
        conn.execute("DROP TABLE records_next")
    with pytest.raises(DatabaseCorrupt, match=rf"{path}: migration 0007_\w+\.sql failed \(no such table"):
        await Database.open(path)
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone() == (6,)
        assert conn.execute("SELECT count(*) FROM sqlite_master WHERE name = 'index_revision'").fetchone() == (0,)


def test_migrations_are_numbered_without_gaps() -> None:
    numbers = [m.version for m in migrations.available()]
    assert numbers == list(range(1, len(numbers) + 1))


async def test_votes_migrate_to_one_per_person_keeping_the_latest(tmp_path: Path) -> None:
    path = tmp_path / "votes.db"
    with sqlite3.connect(path) as conn:
        for migration in migrations.available()[:3]:
            conn.executescript(migration.sql)
        conn.execute(f"PRAGMA user_version = {migrations.available()[2].version}")
        rows = [(1, 7, "abc", 1, "2026-01-01"), (2, 7, "abc", 0, "2026-01-02"), (3, 8, "abc", 1, "2026-01-01")]
        conn.executemany(
            "INSERT INTO votes (reply_id, user_id, record_id, helpful, guild_id, voted_at) VALUES (?, ?, ?, ?, 1, ?)",
            rows,
        )
    async with await Database.open(path) as db:
        votes = await db.fetch("SELECT user_id, helpful, reply_id FROM votes ORDER BY user_id")
    assert [tuple(row) for row in votes] == [(7, 0, 2), (8, 1, 3)]
