"""storage/copy.py (``tracebot db copy``): a whole database to the other backend and back, checked."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli import main
from records.errors import StorageError
from storage.copy import TABLES, copy_database
from storage.database import Database, SqliteDatabase
from storage.records import RecordRepository
from storage.replies import ReplyRepository
from storage.triage import TriageRepository
from tests import pg
from tests.conftest import SEED_IDS, SEEDS_JSONL, database_file
from tests.storage.test_triage import DAY1, LIMITS, obs, origin


async def _in_use(db: Database) -> None:
    """Give a database of the seeds some of everything: triage groups, a link, samples, votes."""
    triage = TriageRepository(db)
    for n in range(3):
        await triage.log(obs(n), origin(author=n + 1), LIMITS, DAY1)
    await triage.link(1, SEED_IDS["cache"], ["bad thing number {n}"], reviewer=7, now=DAY1)
    votes = ReplyRepository(db)
    await votes.vote(reply_id=5, user_id=9, record_id=SEED_IDS["cache"], helpful=True, guild_id=100)


async def _table_rows(db: Database) -> dict[str, list[tuple[object, ...]]]:
    return {table: [tuple(r) for r in await db.fetch(f"SELECT * FROM {table} ORDER BY 1, 2")] for table in TABLES}


async def test_sqlite_to_postgresql_and_back_keeps_every_row(tmp_path: Path) -> None:
    source = await SqliteDatabase.open_file(database_file(tmp_path / "from.db", SEEDS_JSONL))
    async with pg.fresh_database() as url:
        middle = await Database.open(url)
        back = await Database.open(tmp_path / "back.db")
        try:
            await _in_use(source)
            copied = await copy_database(source, middle)
            assert copied["records_all"] == 3 and copied["triage_groups"] == 3 and copied["votes"] == 1
            await copy_database(middle, back)
            rows = await _table_rows(source)
            assert await _table_rows(middle) == rows and await _table_rows(back) == rows
            exports = [[w async for w in RecordRepository(db).iter_wire()] for db in (source, middle, back)]
            assert exports[0] == exports[1] == exports[2]
            # The copy numbers new rows past the copied ones (PostgreSQL's identity was restarted).
            logged = await TriageRepository(middle).log(obs(99), origin(author=50), LIMITS, DAY1)
            assert logged.group is not None and logged.group.id == 4
        finally:
            await source.close()
            await middle.close()
            await back.close()


async def test_a_target_in_use_is_refused_and_left_as_it_was(tmp_path: Path) -> None:
    source = await SqliteDatabase.open_file(database_file(tmp_path / "from.db", SEEDS_JSONL))
    target = await SqliteDatabase.open_file(database_file(tmp_path / "to.db", SEEDS_JSONL))
    try:
        before = await _table_rows(target)
        with pytest.raises(StorageError, match=r"to\.db: the target is not empty \(3 rows in records_all, 1 rows in"):
            await copy_database(source, target)
        assert await _table_rows(target) == before
    finally:
        await source.close()
        await target.close()


async def test_a_source_with_an_unfinished_import_is_refused(tmp_path: Path) -> None:
    source = await SqliteDatabase.open_file(database_file(tmp_path / "from.db", SEEDS_JSONL))
    target = await Database.open(tmp_path / "to.db")
    try:
        async with source.transaction() as conn:  # what a process killed between copy and publish leaves
            await conn.execute("UPDATE records_all SET import_run = 99 WHERE id = ?", (SEED_IDS["cache"],))
        with pytest.raises(StorageError, match="an interrupted import is not finished"):
            await copy_database(source, target)
        assert await RecordRepository(target).count() == 0
    finally:
        await source.close()
        await target.close()


def test_the_command_copies_and_says_what_it_checked(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = database_file(tmp_path / "from.db", SEEDS_JSONL)
    assert main(["db", "copy", str(source), str(tmp_path / "to.db")]) == 0
    out = capsys.readouterr().out
    assert "(3 records)" in out and "counts and export match" in out


def test_a_missing_source_file_is_one_line_and_creates_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status = main(["db", "copy", str(tmp_path / "absent.db"), str(tmp_path / "to.db")])
    err = capsys.readouterr().err.strip()
    assert status != 0 and err.endswith("absent.db: no such database file") and len(err.splitlines()) == 1
    assert not (tmp_path / "absent.db").exists() and not (tmp_path / "to.db").exists()
