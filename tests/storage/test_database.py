"""Opening the database: pragmas, migrations, refusing newer or corrupt files, serialized writers."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections.abc import AsyncGenerator
from pathlib import Path
from typing import Any

import aiosqlite
import pytest

from records.errors import DatabaseBusy, DatabaseCorrupt, DatabaseTooNew, StorageError
from storage import migrations
from storage.database import Database, SqliteDatabase
from storage.importer import import_paths
from storage.records import RecordRepository
from storage.replies import ReplyLink, ReplyRepository
from tests.conftest import SEEDS_JSONL, make_record, one_row


@pytest.fixture
def db(sqlite_db: SqliteDatabase) -> SqliteDatabase:
    """An SQLite database: this module tests what only the SQLite backend has."""
    return sqlite_db


@pytest.fixture
async def new_file(tmp_path: Path) -> AsyncGenerator[Database]:
    """A database opened on a path where no file was (the ``db`` fixture copies a migrated one)."""
    database = await Database.open(tmp_path / "new.db")
    yield database
    await database.close()


async def test_fresh_database_has_pragmas_and_latest_schema(new_file: SqliteDatabase) -> None:
    db = new_file
    assert await db.schema_version() == migrations.latest_version()
    async with db.reader.execute("PRAGMA journal_mode") as cur:
        assert await one_row(cur) == ("wal",)
    async with db.transaction() as conn, conn.raw.execute("PRAGMA synchronous") as cur:
        assert await one_row(cur) == (2,)  # FULL
    async with db.reader.execute("PRAGMA busy_timeout") as cur:
        row = await cur.fetchone()
        assert row is not None and row[0] > 0


async def test_reopening_applies_nothing(tmp_path: Path) -> None:
    first = await Database.open(tmp_path / "t.db")
    await first.close()
    second = await Database.open(tmp_path / "t.db")
    try:
        assert await second.migrate() == []
    finally:
        await second.close()


async def test_newer_database_is_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / "future.db"
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA user_version = 999")
    before = path.read_bytes()
    with pytest.raises(DatabaseTooNew, match=r"future\.db: database schema version 999 is newer"):
        await Database.open(path)
    assert path.read_bytes() == before


async def test_corrupt_file_is_named_and_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "corrupt.db"
    path.write_bytes(b"this is not a database" * 100)
    before = path.read_bytes()
    with pytest.raises(DatabaseCorrupt, match=r"corrupt\.db: not a SQLite database"):
        await Database.open(path)
    assert path.read_bytes() == before


async def test_failed_transaction_rolls_back(db: SqliteDatabase) -> None:
    with pytest.raises(RuntimeError):
        async with db.transaction() as conn:
            await conn.execute(
                "INSERT INTO import_runs (started_at, finished_at, source, added, updated, unchanged, "
                "rejected) VALUES ('a', 'b', 'c', 0, 0, 0, 0)"
            )
            raise RuntimeError("boom")
    async with db.reader.execute("SELECT count(*) FROM import_runs") as cur:
        assert await one_row(cur) == (0,)


async def test_concurrent_writers_do_not_interleave(db: SqliteDatabase) -> None:
    order: list[str] = []

    async def writer(name: str) -> None:
        async with db.transaction() as conn:
            order.append(f"{name}-begin")
            await asyncio.sleep(0.01)
            await conn.execute(
                "INSERT INTO import_runs (started_at, finished_at, source, added, updated, unchanged, "
                "rejected) VALUES ('a', 'b', ?, 0, 0, 0, 0)",
                (name,),
            )
            order.append(f"{name}-end")

    await asyncio.gather(*(writer(f"w{i}") for i in range(5)))
    for i in range(0, len(order), 2):
        assert order[i].split("-")[0] == order[i + 1].split("-")[0]


async def test_a_long_index_read_does_not_hold_other_reads_in_an_old_snapshot(tmp_path: Path) -> None:

    async with await Database.open(tmp_path / "t.db") as db:
        records = tmp_path / "many.jsonl"
        records.write_text("".join(json.dumps(make_record(id=f"r{n}")) + "\n" for n in range(2000)))
        await import_paths(db, [SEEDS_JSONL, records])
        entries = RecordRepository(db).index_entries()
        await anext(entries)  # a reload is half way through its cursor
        link = ReplyLink(message_id=1, channel_id=2, guild_id=3, author_id=4, reply_id=5, reply_channel_id=2,
                         status="matched", record_ids=("x",))  # fmt: skip
        await ReplyRepository(db).save(link)
        assert await ReplyRepository(db).get(1) == link  # read back at once, not from before the save
        assert isinstance(entries, AsyncGenerator)  # a generator: closing it ends the reader's cursor
        await entries.aclose()


async def test_a_writer_waits_a_bounded_time_for_another_process_then_says_so(tmp_path: Path) -> None:
    path = tmp_path / "busy.db"
    await (await Database.open(path)).close()  # create it
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # another process holds the write lock
    try:
        async with await Database.open(path, write_wait=1.0, busy_timeout_ms=100) as db:
            with pytest.raises(DatabaseBusy, match="another process has held the write lock"):
                await ReplyRepository(db).vote(reply_id=1, user_id=2, record_id="r", helpful=True, guild_id=None)
            other.execute("ROLLBACK")  # the other writer finishes: the next write goes through
            await ReplyRepository(db).vote(reply_id=1, user_id=2, record_id="r", helpful=True, guild_id=None)
            assert (await ReplyRepository(db).vote_count("r")).helpful == 1
    finally:
        other.close()


async def test_one_attempt_never_waits_longer_than_the_whole_write_wait(tmp_path: Path) -> None:
    # SQLite's busy timeout runs inside each BEGIN: left at 10 s, a write_wait of 0.5 s waited 10 s.
    path = tmp_path / "short.db"
    other = sqlite3.connect(path, isolation_level=None)
    async with await Database.open(path, write_wait=0.5) as db:
        async with db.transaction() as conn, conn.raw.execute("PRAGMA busy_timeout") as cursor:
            assert tuple(await one_row(cursor)) == (500,)
        other.execute("BEGIN IMMEDIATE")
        with pytest.raises(DatabaseBusy, match=r"for over 0\.5 s"):
            await ReplyRepository(db).vote(reply_id=1, user_id=2, record_id="r", helpful=True, guild_id=None)
    other.close()
    async with (
        await Database.open(path) as db,
        db.transaction() as conn,
        conn.raw.execute("PRAGMA busy_timeout") as cursor,
    ):
        assert tuple(await one_row(cursor)) == (10_000,)  # the default attempt when the whole wait is longer


async def test_a_write_retries_until_the_other_writer_lets_go(tmp_path: Path) -> None:
    path = tmp_path / "retry.db"
    await (await Database.open(path)).close()
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    async with await Database.open(path, write_wait=30, busy_timeout_ms=20) as db:
        vote = asyncio.create_task(
            ReplyRepository(db).vote(reply_id=1, user_id=2, record_id="r", helpful=True, guild_id=None)
        )
        await asyncio.sleep(0.3)
        assert not vote.done()  # still waiting, not failed
        other.execute("COMMIT")
        await vote
    other.close()


async def test_a_full_disk_is_one_clear_error_and_nothing_is_half_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with await Database.open(tmp_path / "full.db") as db:
        repo = ReplyRepository(db)
        await repo.vote(reply_id=1, user_id=1, record_id="r", helpful=True, guild_id=None)
        real = db._writer.execute
        calls = {"n": 0}

        def failing(sql: str, *args: object) -> object:  # the disk fills up at the first write
            if sql.lstrip().upper().startswith("INSERT"):
                calls["n"] += 1
                raise sqlite3.OperationalError("database or disk is full")
            return real(sql, *args)

        monkeypatch.setattr(db._writer, "execute", failing)
        with pytest.raises(StorageError, match="the disk is full or failing"):
            await repo.vote(reply_id=2, user_id=2, record_id="r", helpful=True, guild_id=None)
        monkeypatch.undo()
        assert calls["n"] == 1
        assert (await repo.vote_count("r")).helpful == 1  # the acknowledged vote is there, the failed one is not
        await repo.vote(reply_id=3, user_id=3, record_id="r", helpful=True, guild_id=None)  # space back: writes go on
        assert (await repo.vote_count("r")).helpful == 2


class _Opened:
    """Records every aiosqlite connection the database opens, to check that each one is closed."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.connections: list[aiosqlite.Connection] = []
        real = aiosqlite.connect

        def connect(*args: Any, **kwargs: Any) -> aiosqlite.Connection:
            conn = real(*args, **kwargs)
            self.connections.append(conn)
            return conn

        monkeypatch.setattr(aiosqlite, "connect", connect)

    def left_open(self) -> list[aiosqlite.Connection]:
        """Return the connections whose worker thread still runs (never closed)."""
        return [conn for conn in self.connections if conn._running]


async def _hang_in_header_read(monkeypatch: pytest.MonkeyPatch) -> asyncio.Event:
    """Make the next header read of a new connection wait forever; return an event set when it starts."""
    started = asyncio.Event()

    async def hang(conn: aiosqlite.Connection) -> int:
        started.set()
        await asyncio.Event().wait()
        raise AssertionError("unreachable")

    monkeypatch.setattr(migrations, "current_version", hang)
    return started


@pytest.mark.parametrize("where", ["open", "separate reader"])
async def test_a_cancelled_open_closes_the_connections_it_made(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, where: str
) -> None:
    # A reload cancelled by a shutdown while it opened its connection left the connection's thread
    # running; its statement finished after the event loop closed and printed a traceback at exit.
    db = await Database.open(tmp_path / "t.db")
    opened = _Opened(monkeypatch)
    started = await _hang_in_header_read(monkeypatch)

    async def reload() -> None:
        async with db.separate_reader():
            raise AssertionError("unreachable")

    task = asyncio.create_task(Database.open(tmp_path / "t.db") if where == "open" else reload())
    await asyncio.wait_for(started.wait(), 30)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    await db.close()
    left = opened.left_open()
    for conn in left:  # closed here so that a failure fails, not hangs (their threads keep a process alive)
        await conn.close()
    assert opened.connections and left == []


async def test_a_write_cancelled_while_its_begin_ran_leaves_no_transaction_open(
    db: SqliteDatabase, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A heartbeat cancelled at shutdown while the writer's thread ran BEGIN: the BEGIN went through,
    # no one ended it, and the next write failed ("cannot start a transaction within a transaction").
    writer = db._writer  # the connection whose BEGIN is interrupted
    execute = writer.execute

    async def begin_then_cancelled(sql: str, *args: Any) -> Any:
        result = await execute(sql, *args)
        if sql == "BEGIN IMMEDIATE":
            raise asyncio.CancelledError  # the waiter was cancelled after the thread ran it
        return result

    monkeypatch.setattr(writer, "execute", begin_then_cancelled)
    with pytest.raises(asyncio.CancelledError):
        async with db.transaction():
            raise AssertionError("unreachable")
    monkeypatch.undo()
    assert not writer.in_transaction
    async with db.transaction() as conn:  # the next write works
        await conn.execute(
            "INSERT INTO import_runs (started_at, finished_at, source, added, updated, unchanged, "
            "rejected) VALUES ('a', 'b', 'c', 0, 0, 0, 0)"
        )
    async with db.reader.execute("SELECT count(*) FROM import_runs") as cur:
        assert await one_row(cur) == (1,)
