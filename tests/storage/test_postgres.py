"""storage/postgres.py: what only the PostgreSQL backend has, and each bad input it must name."""

from __future__ import annotations

import asyncio
import logging
import socket
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import asyncpg
import pytest

from records.errors import DatabaseTooNew, StorageError
from storage import migrations, postgres
from storage.database import Database
from storage.importer import import_paths
from storage.postgres import PostgresDatabase, safe_url
from storage.records import RecordRepository
from storage.replies import ReplyRepository
from tests import pg
from tests.conftest import make_record


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_migrations_of_both_engines_are_numbered_and_named_alike() -> None:
    sqlite = [m.name for m in migrations.available()]
    assert sqlite == [m.name for m in migrations.available("postgresql")]
    assert len(sqlite) == migrations.latest_version()


async def test_an_unreachable_server_is_one_clear_error() -> None:
    url = f"postgresql://tracebot@127.0.0.1:{_free_port()}/tracebot"
    with pytest.raises(StorageError, match=r"cannot reach the PostgreSQL server"):
        await Database.open(url)


async def test_a_database_that_does_not_exist_is_named() -> None:
    url = pg.database_url(pg.server_url(), "no_such_database")
    with pytest.raises(StorageError, match=r"no_such_database: the database does not exist"):
        await Database.open(url)


async def test_a_database_of_another_application_is_refused_untouched() -> None:
    async with pg.fresh_database(migrated=False) as url:
        other = await asyncpg.connect(url)
        try:
            await other.execute("CREATE TABLE customers (id int); CREATE TABLE orders (id int)")
            with pytest.raises(StorageError, match=r"tables of another application \(2: customers, orders\)"):
                await Database.open(url)
            tables = await other.fetch("SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'")
            assert sorted(r["table_name"] for r in tables) == ["customers", "orders"]
        finally:
            await other.close()


async def test_a_server_older_than_13_is_refused_by_version() -> None:
    old = SimpleNamespace(get_server_version=lambda: SimpleNamespace(major=12, minor=17))
    with pytest.raises(StorageError, match=r"PostgreSQL 12\.17 is older than tracebot supports \(13 or newer\)"):
        await postgres._check_server(old, "postgresql://h/db")  # a double: the version is all it reads


async def test_a_database_from_a_newer_tracebot_is_refused() -> None:
    async with pg.fresh_database() as url:
        conn = await asyncpg.connect(url)
        try:
            await conn.execute("UPDATE tracebot_schema SET version = 999")
        finally:
            await conn.close()
        with pytest.raises(DatabaseTooNew, match=r"schema version 999 is newer"):
            await Database.open(url)


async def test_two_processes_starting_together_migrate_once(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="storage.postgres")
    async with pg.fresh_database(migrated=False) as url:
        first, second = await asyncio.gather(Database.open(url), Database.open(url))
        try:
            assert await first.schema_version() == await second.schema_version() == migrations.latest_version()
            applied = [r for r in caplog.records if r.getMessage().startswith("applying migration")]
            assert len(applied) == migrations.latest_version()  # once each, not once per process
            row = await first.fetch_one("SELECT count(*) AS n FROM tracebot_schema")
            assert row is not None and row["n"] == 1
        finally:
            await first.close()
            await second.close()


async def test_a_connection_lost_in_the_middle_of_an_import_leaves_nothing(
    write_jsonl: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with pg.fresh_database() as url:
        db = await Database.open(url)
        try:
            real = RecordRepository.add_import_run

            async def lose_connection(self: RecordRepository, conn: Any, run: dict[str, Any]) -> int:
                # The rows are copied; the server now drops this connection before the commit.
                await conn.execute("SELECT pg_terminate_backend(pg_backend_pid())")
                return await real(self, conn, run)

            monkeypatch.setattr(RecordRepository, "add_import_run", lose_connection)
            path: Path = write_jsonl([make_record(id=f"r{n}") for n in range(50)])
            with pytest.raises(
                StorageError, match=r"connection to PostgreSQL was lost.*nothing of this write was kept"
            ):
                await import_paths(db, [path])
            monkeypatch.undo()
            assert await RecordRepository(db).count() == 0
            state = await db.fetch_one("SELECT published FROM import_state")
            assert state is not None and state["published"] == 0
            report = await import_paths(db, [path])  # the pool replaced the connection: the next import works
            assert report.added == 50 and await RecordRepository(db).count() == 50
        finally:
            await db.close()


async def test_a_commit_in_another_process_is_announced(write_jsonl: Any) -> None:
    async with pg.fresh_database() as url:
        watcher, writer = await Database.open(url), await Database.open(url)
        try:
            assert isinstance(watcher, PostgresDatabase)
            async with watcher.listen() as notified:
                before = await watcher.data_version()
                await import_paths(writer, [write_jsonl([make_record(id="new")])])
                await asyncio.wait_for(notified.wait(), 30)  # a hang guard, not a speed claim
                assert await watcher.data_version() != before
        finally:
            await watcher.close()
            await writer.close()


async def test_an_unreachable_listener_is_one_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    async with pg.fresh_database() as url:
        db = await Database.open(url)
        try:
            assert isinstance(db, PostgresDatabase)
            monkeypatch.setattr(db, "url", f"postgresql://tracebot@127.0.0.1:{_free_port()}/x")
            with pytest.raises(StorageError, match="cannot open the listening connection"):
                async with db.listen():
                    pass
        finally:
            await db.close()


def test_a_password_never_shows_in_messages() -> None:
    assert (
        safe_url("postgresql://bot:s3cret@db.example:5433/tracebot") == "postgresql://bot:***@db.example:5433/tracebot"
    )
    assert safe_url("postgresql://bot@db/tracebot") == "postgresql://bot@db/tracebot"


async def test_votes_cast_through_either_process_count_in_both() -> None:
    async with pg.fresh_database() as url:
        first, second = await Database.open(url), await Database.open(url)
        try:
            await ReplyRepository(first).vote(reply_id=1, user_id=7, record_id="r1", helpful=True, guild_id=5)
            await ReplyRepository(second).vote(reply_id=2, user_id=8, record_id="r1", helpful=False, guild_id=6)
            counts = [await ReplyRepository(db).vote_count("r1") for db in (first, second)]
            assert [(c.helpful, c.not_helpful) for c in counts] == [(1, 1), (1, 1)]
        finally:
            await first.close()
            await second.close()
