"""The PostgreSQL backend (asyncpg): the same repositories, several bot processes on one database.

Writers take turns as SQLite's do: each write transaction first takes one transaction-level advisory
lock, so the repositories' read-then-write steps (a triage paste finding or creating its group) mean
the same on both engines, and no two processes ever deadlock or fail to serialize. Reads run on the
pool beside them and see the last committed state. Migrations take a session advisory lock, so two
processes starting together migrate once. The index token's triggers NOTIFY ``tracebot_index``:
:meth:`PostgresDatabase.changes` lets a bot reload the moment another process commits.
"""

from __future__ import annotations

import asyncio
import logging
import socket
from collections.abc import AsyncGenerator, AsyncIterator
from contextlib import aclosing, asynccontextmanager
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import asyncpg

from records.errors import DatabaseBusy, DatabaseTooNew, StorageError
from storage import migrations
from storage.connection import STREAM_CHUNK, PostgresConnection, Row
from storage.database import WRITE_WAIT_SECONDS, Database
from storage.dialect import POSTGRESQL, Params

log = logging.getLogger(__name__)

MIN_SERVER_VERSION = 13  # gen_random_uuid() without an extension, and every statement the migrations use
CONNECT_TIMEOUT_SECONDS = 10.0
POOL_SIZE = 4
# Advisory lock keys (one 64-bit space per database): "tracebot" in ASCII, then one per purpose.
_KEY = 0x7472616365626F74
WRITE_LOCK = _KEY
MIGRATE_LOCK = _KEY + 1
IMPORT_LOCK = _KEY + 2
CHANNEL = "tracebot_index"
_SCHEMA_TABLE = "tracebot_schema"


class PostgresDatabase(Database):
    """A tracebot database on a PostgreSQL server, shared by any number of processes."""

    dialect = POSTGRESQL
    path = None
    shared = True

    def __init__(self, url: str, pool: asyncpg.Pool[Any], *, write_wait: float = WRITE_WAIT_SECONDS) -> None:
        self.url = url
        self.name = safe_url(url)
        self._pool = pool
        self.write_wait = write_wait

    @classmethod
    async def connect(
        cls, url: str, *, migrate: bool = True, write_wait: float = WRITE_WAIT_SECONDS
    ) -> PostgresDatabase:
        """Connect to the server at ``url``, check it is fit for tracebot, and migrate unless told not to."""
        name = safe_url(url)
        pool = await _pool(url, name)
        db = cls(url, pool, write_wait=write_wait)
        try:
            async with pool.acquire() as conn:
                await _check_server(conn, name)
                await _check_owner(conn, name)
            if migrate:
                await db.migrate()
        except BaseException:
            await pool.close()
            raise
        return db

    async def migrate(self) -> list[str]:
        """Apply pending migrations under a session advisory lock (a second process waits, then finds none)."""
        async with self._pool.acquire() as conn:
            await conn.execute("SELECT pg_advisory_lock($1)", MIGRATE_LOCK)
            try:
                todo = await _pending(conn, self.name)
                for migration in todo:
                    log.info("applying migration %s", migration.name)
                    await _apply(conn, migration, self.name)
            finally:
                await conn.execute("SELECT pg_advisory_unlock($1)", MIGRATE_LOCK)
        return [m.name for m in todo]

    async def schema_version(self) -> int:
        """Return the schema version recorded in ``tracebot_schema`` (0 before the first migration)."""
        async with self._pool.acquire() as conn:
            return await _version(conn)

    async def data_version(self) -> str:
        """Return the index token, which every write to what the index reads replaces."""
        row = await self.fetch_one("SELECT token FROM index_revision")
        return str(row["token"]) if row is not None else ""

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[PostgresConnection]:
        """Run a write transaction behind the database-wide write lock (waiting at most ``write_wait``)."""
        try:
            async with self._pool.acquire() as conn, conn.transaction():
                await conn.execute(f"SET LOCAL lock_timeout = {int(self.write_wait * 1000)}")
                try:
                    await conn.execute("SELECT pg_advisory_xact_lock($1)", WRITE_LOCK)
                except asyncpg.LockNotAvailableError:
                    raise DatabaseBusy(
                        f"{self.name}: another process has held the write lock for over {self.write_wait:g} s "
                        "(an import or a bot using this database); try again when it is done"
                    ) from None
                await conn.execute("SET LOCAL lock_timeout = 0")
                yield PostgresConnection(conn)
        except (asyncpg.PostgresConnectionError, asyncpg.InterfaceError, OSError) as exc:
            raise StorageError(
                f"{self.name}: the connection to PostgreSQL was lost ({exc}); nothing of this write was kept"
            ) from None

    async def fetch(self, sql: str, params: Params = ()) -> list[Row]:
        """Run a query on a pooled connection and return every row."""
        async with self._pool.acquire() as conn:
            return await PostgresConnection(conn).fetch(sql, params)

    async def fetch_one(self, sql: str, params: Params = ()) -> Row | None:
        """Run a query on a pooled connection and return its first row, or None."""
        async with self._pool.acquire() as conn:
            return await PostgresConnection(conn).fetch_one(sql, params)

    async def stream(self, sql: str, params: Params = (), chunk: int = STREAM_CHUNK) -> AsyncGenerator[Row, None]:
        """Yield a long query's rows through a server-side cursor, from one snapshot."""
        async with self._pool.acquire() as conn, aclosing(PostgresConnection(conn).stream(sql, params, chunk)) as rows:
            async for row in rows:
                yield row

    @asynccontextmanager
    async def import_lock(self, wait: float) -> AsyncIterator[None]:
        """Hold the lock that lets one import at a time run, across every process on this database."""
        async with self._pool.acquire() as conn:
            try:
                await asyncio.wait_for(conn.execute("SELECT pg_advisory_lock($1)", IMPORT_LOCK), wait)
            except TimeoutError:
                raise DatabaseBusy(
                    f"{self.name}: another import has been running for over {wait:.0f} s; try again when it is done"
                ) from None
            try:
                yield
            finally:
                await conn.execute("SELECT pg_advisory_unlock($1)", IMPORT_LOCK)

    @asynccontextmanager
    async def listen(self) -> AsyncIterator[asyncio.Event]:
        """Set the event each time a commit changes what the index reads (LISTEN ``tracebot_index``).

        The listener has a connection of its own, outside the pool, held for as long as the block runs.
        """
        event = asyncio.Event()

        def notified(*_: object) -> None:
            event.set()

        try:
            conn = await asyncpg.connect(self.url, timeout=CONNECT_TIMEOUT_SECONDS)
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError, TimeoutError) as exc:
            raise StorageError(f"{self.name}: cannot open the listening connection: {exc}") from None
        try:
            await conn.add_listener(CHANNEL, notified)
            yield event
        finally:
            await conn.close()

    async def close(self) -> None:
        """Close the pool's connections."""
        await self._pool.close()


def safe_url(url: str) -> str:
    """Return ``url`` without its password, as messages and logs may show it."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.hostname or ""
    netloc = f"{parts.username}:***@{host}" + (f":{parts.port}" if parts.port else "")
    return urlunsplit(parts._replace(netloc=netloc))


async def _pool(url: str, name: str) -> asyncpg.Pool[Any]:
    try:
        return await asyncpg.create_pool(
            url, min_size=1, max_size=POOL_SIZE, timeout=CONNECT_TIMEOUT_SECONDS, command_timeout=None
        )
    except (OSError, socket.gaierror, TimeoutError) as exc:
        raise StorageError(f"{name}: cannot reach the PostgreSQL server ({exc.__class__.__name__}: {exc})") from None
    except asyncpg.InvalidCatalogNameError:
        raise StorageError(f"{name}: the database does not exist on that server; create it first") from None
    except asyncpg.InvalidAuthorizationSpecificationError as exc:
        raise StorageError(f"{name}: the server refused the login: {exc}") from None
    except asyncpg.InvalidPasswordError:
        raise StorageError(f"{name}: the server refused the password") from None
    except (asyncpg.PostgresError, asyncpg.InterfaceError, ValueError) as exc:
        raise StorageError(f"{name}: cannot connect to PostgreSQL: {exc}") from None


async def _check_server(conn: asyncpg.Connection[Any], name: str) -> None:
    version = conn.get_server_version()
    if version.major < MIN_SERVER_VERSION:
        raise StorageError(
            f"{name}: PostgreSQL {version.major}.{version.minor} is older than tracebot supports "
            f"({MIN_SERVER_VERSION} or newer)"
        )


async def _check_owner(conn: asyncpg.Connection[Any], name: str) -> None:
    """Refuse a database that holds another application's tables (and no tracebot schema)."""
    tables = [
        str(row["table_name"])
        for row in await conn.fetch(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY table_name"
        )
    ]
    if tables and _SCHEMA_TABLE not in tables:
        shown = ", ".join(tables[:5]) + (", ..." if len(tables) > 5 else "")
        raise StorageError(
            f"{name}: the database holds tables of another application ({len(tables)}: {shown}) and no "
            "tracebot schema; give tracebot a database of its own"
        )


async def _version(conn: asyncpg.Connection[Any]) -> int:
    exists = await conn.fetchval("SELECT to_regclass($1) IS NOT NULL", _SCHEMA_TABLE)
    if not exists:
        return 0
    return int(await conn.fetchval(f"SELECT version FROM {_SCHEMA_TABLE}") or 0)


async def _pending(conn: asyncpg.Connection[Any], name: str) -> list[migrations.Migration]:
    version = await _version(conn)
    shipped = migrations.available("postgresql")
    if version > len(shipped):
        raise DatabaseTooNew(
            f"{name}: database schema version {version} is newer than this tracebot supports "
            f"({len(shipped)}); upgrade tracebot instead of opening it with an older one"
        )
    return shipped[version:]


async def _apply(conn: asyncpg.Connection[Any], migration: migrations.Migration, name: str) -> None:
    """Apply one migration and its version bump in one transaction (the whole file at once)."""
    try:
        async with conn.transaction():
            await conn.execute(f"CREATE TABLE IF NOT EXISTS {_SCHEMA_TABLE} (version BIGINT NOT NULL)")
            await conn.execute(migration.sql)
            await conn.execute(f"DELETE FROM {_SCHEMA_TABLE}")
            await conn.execute(f"INSERT INTO {_SCHEMA_TABLE} (version) VALUES ($1)", migration.version)
    except asyncpg.PostgresError as exc:
        raise StorageError(
            f"{name}: migration {migration.name} failed ({exc.__class__.__name__}: {exc}); nothing was changed"
        ) from None
