"""The tracebot database: one interface, two backends.

:class:`Database` is what the repositories and the bot hold. ``Database.open`` takes a path (the
embedded SQLite file, the default) or a ``postgresql://`` URL (:mod:`storage.postgres`). Everything
that differs between the engines lives behind it and in :mod:`storage.dialect`.

SQLite (:class:`SqliteDatabase`): one connection writes, behind an asyncio lock, so concurrent writers
never interleave transactions; a second connection reads, so lookups do not wait behind a long import
(WAL lets them see the last committed state).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sqlite3
import time
from abc import ABC, abstractmethod
from collections.abc import AsyncGenerator, AsyncIterator
from contextlib import aclosing, asynccontextmanager
from pathlib import Path
from types import TracebackType
from typing import Self, overload

import aiosqlite

from records.errors import DatabaseBusy, DatabaseCorrupt, StorageError
from storage import migrations
from storage.connection import STREAM_CHUNK, Connection, Row, SqliteConnection
from storage.dialect import SQLITE, Dialect, Params

log = logging.getLogger(__name__)

BUSY_TIMEOUT_MS = 10_000
# A writer that finds the write lock taken (another process's import publishing, a CLI command) waits
# in SQLite's busy handler, then retries with growing pauses, for at most this long in all.
WRITE_WAIT_SECONDS = 30.0

__all__ = ["BUSY_TIMEOUT_MS", "WRITE_WAIT_SECONDS", "Connection", "Database", "Row", "SqliteDatabase", "is_url"]


def is_url(target: Path | str) -> bool:
    """Tell whether a database target is a PostgreSQL URL rather than an SQLite path."""
    return isinstance(target, str) and target.startswith(("postgresql://", "postgres://"))


class Database(ABC):
    """A tracebot database of either backend: migrations, transactions, reads, change detection."""

    dialect: Dialect
    # Where the database is, as messages name it: the file, or the URL without its password.
    name: str
    # The SQLite file (None on PostgreSQL): import lock files and backups sit beside it.
    path: Path | None
    # Whether several bot processes may use this database at once (then what must be global, such as
    # the answer budget, is kept in it): a server, yes; an SQLite file has one bot (the run lock).
    shared: bool = False

    @overload
    @classmethod
    async def open(
        cls, target: Path, *, migrate: bool = True, write_wait: float = ..., busy_timeout_ms: int = ...
    ) -> SqliteDatabase: ...

    @overload
    @classmethod
    async def open(
        cls, target: Path | str, *, migrate: bool = True, write_wait: float = ..., busy_timeout_ms: int = ...
    ) -> Database: ...

    @classmethod
    async def open(
        cls,
        target: Path | str,
        *,
        migrate: bool = True,
        write_wait: float = WRITE_WAIT_SECONDS,
        busy_timeout_ms: int = BUSY_TIMEOUT_MS,
    ) -> Database:
        """Open the database at ``target`` (a path, or a ``postgresql://`` URL), migrating it unless told not to."""
        if is_url(target):
            from storage.postgres import PostgresDatabase  # noqa: PLC0415  # asyncpg only when it is used

            return await PostgresDatabase.connect(str(target), migrate=migrate, write_wait=write_wait)
        return await SqliteDatabase.open_file(
            Path(target), migrate=migrate, write_wait=write_wait, busy_timeout_ms=busy_timeout_ms
        )

    @abstractmethod
    async def migrate(self) -> list[str]:
        """Apply pending migrations; return their names."""

    @abstractmethod
    async def schema_version(self) -> int:
        """Return the schema version recorded in the database."""

    @abstractmethod
    async def data_version(self) -> int | str:
        """Return a value that moves whenever another connection commits a change the index reads."""

    @abstractmethod
    def transaction(self) -> contextlib.AbstractAsyncContextManager[Connection]:
        """Run a write transaction: committed on success, rolled back on any exception."""

    @abstractmethod
    async def fetch(self, sql: str, params: Params = ()) -> list[Row]:
        """Run a query outside any transaction and return every row."""

    @abstractmethod
    async def fetch_one(self, sql: str, params: Params = ()) -> Row | None:
        """Run a query outside any transaction and return its first row, or None."""

    @abstractmethod
    def stream(self, sql: str, params: Params = (), chunk: int = STREAM_CHUNK) -> AsyncGenerator[Row, None]:
        """Yield a long query's rows (an index load) from one snapshot, without holding up other reads."""

    def still_in_place(self) -> bool:
        """Tell whether the database opened is still the one its name names (always, on a server)."""
        return True

    @asynccontextmanager
    async def listen(self) -> AsyncIterator[asyncio.Event]:
        """Yield an event set when another connection commits, where the engine can say so at once.

        SQLite cannot: its event is never set, and a watcher polls :meth:`data_version` instead.
        """
        yield asyncio.Event()

    @abstractmethod
    async def close(self) -> None:
        """Close every connection."""

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.close()


class SqliteDatabase(Database):
    """The embedded SQLite database: one writer connection with a lock, one reader connection."""

    dialect = SQLITE

    def __init__(
        self,
        path: Path,
        writer: aiosqlite.Connection,
        reader: aiosqlite.Connection,
        *,
        write_wait: float = WRITE_WAIT_SECONDS,
        busy_timeout_ms: int = BUSY_TIMEOUT_MS,
    ) -> None:
        self.path: Path = path
        self.name = str(path)
        self._writer = writer
        self._reader = reader
        self._write_lock = asyncio.Lock()
        self.write_wait = write_wait
        self.busy_timeout_ms = busy_timeout_ms
        self._identity = _identity(path)  # the file opened: a file deleted or replaced later is not it

    @classmethod
    async def open_file(
        cls,
        path: Path | str,
        *,
        migrate: bool = True,
        write_wait: float = WRITE_WAIT_SECONDS,
        busy_timeout_ms: int = BUSY_TIMEOUT_MS,
    ) -> SqliteDatabase:
        """Open (creating if needed) the database at ``path`` and bring its schema up to date.

        ``write_wait`` bounds how long a write waits for another process's write lock in all;
        ``busy_timeout_ms`` how long one attempt waits (``tracebot health`` keeps both short).
        """
        path = Path(path)
        _prepare_directory(path)
        # One attempt never waits longer than the whole write_wait allows (SQLite waits busy_timeout
        # inside each BEGIN before _begin's own retries start).
        busy_timeout_ms = min(busy_timeout_ms, max(1, int(write_wait * 1000)))
        writer = await _connect(path, busy_timeout_ms)
        reader: aiosqlite.Connection | None = None
        try:
            # Refuse a newer or damaged file before any pragma writes to it.
            await migrations.pending(writer, str(path))
            await _configure(writer, path)
            reader = await _connect(path, busy_timeout_ms)
            await _configure(reader, path)
        except BaseException:
            if reader is not None:
                await reader.close()
            await writer.close()
            raise
        db = cls(path, writer, reader, write_wait=write_wait, busy_timeout_ms=busy_timeout_ms)
        if migrate:
            try:
                await db.migrate()
            except BaseException:
                await db.close()
                raise
        return db

    async def migrate(self) -> list[str]:
        """Apply pending migrations; return their names."""
        async with self._write_lock:
            todo = await migrations.pending(self._writer, str(self.path))
            for migration in todo:
                log.info("applying migration %s", migration.name)
                await migrations.apply(self._writer, migration, str(self.path))
        return [m.name for m in todo]

    async def schema_version(self) -> int:
        """Return the schema version recorded in the file."""
        return await migrations.current_version(self._reader)

    async def data_version(self) -> int | str:
        """Return SQLite's ``data_version`` as the reader sees it.

        It moves when any other connection (another process's import included) commits.
        """
        async with self._reader.execute("PRAGMA data_version") as cursor:
            row = await cursor.fetchone()
        return int(row[0]) if row else 0

    @asynccontextmanager
    async def transaction(self, *, attach: dict[str, Path] | None = None) -> AsyncIterator[SqliteConnection]:
        """Run a write transaction: committed on success, rolled back on any exception.

        ``attach`` names other database files to ATTACH for the transaction (and detach after): an
        import copies its staged rows with one INSERT ... SELECT instead of holding the lock while
        it reads files.
        """
        async with self._write_lock:
            for name, path in (attach or {}).items():
                await self._writer.execute("ATTACH DATABASE ? AS " + _identifier(name), (str(path),))
            try:
                try:
                    await self._begin()
                except BaseException:
                    # Cancelled while the connection's thread ran BEGIN (a task stopped at shutdown):
                    # the BEGIN still happens, and a transaction no one ends would make every later
                    # write fail with "cannot start a transaction within a transaction".
                    await asyncio.shield(_rollback(self._writer))
                    raise
                try:
                    yield SqliteConnection(self._writer)
                    await self._writer.execute("COMMIT")
                except sqlite3.OperationalError as exc:  # disk full, read-only file: nothing was written
                    await _rollback(self._writer)
                    raise _database_error(self.path, exc) from None
                except BaseException:
                    await _rollback(self._writer)
                    raise
            finally:
                for name in attach or {}:
                    await self._writer.execute("DETACH DATABASE " + _identifier(name))

    def still_in_place(self) -> bool:
        """Tell whether the path still names the file that was opened (not deleted, not replaced)."""
        return self._identity is not None and _identity(self.path) == self._identity

    async def _begin(self) -> None:
        """Take the write lock, waiting (with growing pauses) at most ``write_wait`` seconds for it."""
        deadline = time.monotonic() + self.write_wait
        pause = 0.05
        while True:
            try:
                await self._writer.execute("BEGIN IMMEDIATE")
                return
            except sqlite3.OperationalError as exc:
                if not _is_busy(exc):
                    raise _database_error(self.path, exc) from None
                if time.monotonic() + pause > deadline:
                    raise DatabaseBusy(
                        f"{self.path}: another process has held the write lock for over {self.write_wait:g} s "
                        "(an import or a bot using this database); try again when it is done"
                    ) from None
                log.info("database busy: retrying the write in %.2f s", pause)
                await asyncio.sleep(pause)
                pause = min(pause * 2, 2.0)

    async def fetch(self, sql: str, params: Params = ()) -> list[Row]:
        """Run a query on the reader and return every row (columns by name)."""
        return await SqliteConnection(self._reader).fetch(sql, params)

    async def fetch_one(self, sql: str, params: Params = ()) -> Row | None:
        """Run a query on the reader and return its first row, or None."""
        return await SqliteConnection(self._reader).fetch_one(sql, params)

    async def stream(self, sql: str, params: Params = (), chunk: int = STREAM_CHUNK) -> AsyncGenerator[Row, None]:
        """Yield a long query's rows from a connection of its own (see :meth:`separate_reader`)."""
        async with self.separate_reader() as conn, aclosing(SqliteConnection(conn).stream(sql, params, chunk)) as rows:
            async for row in rows:
                yield row

    @asynccontextmanager
    async def separate_reader(self) -> AsyncIterator[aiosqlite.Connection]:
        """Open a connection of its own for a long read (an index load or reload), closed afterwards.

        A cursor kept open on the shared reader holds one snapshot for as long as it runs: every other
        read on that connection would see the database as it was when the cursor started.
        """
        conn = await _connect(self.path, self.busy_timeout_ms)
        try:
            yield conn
        finally:
            await conn.close()

    @property
    def reader(self) -> aiosqlite.Connection:
        """The read-only connection (sees the last committed state)."""
        return self._reader

    async def close(self) -> None:
        """Close both connections (checkpointing the WAL on the writer)."""
        await self._reader.close()
        await self._writer.close()


def _identifier(name: str) -> str:
    if not name.isidentifier():
        raise ValueError(f"not an SQL identifier: {name!r}")
    return name


def _prepare_directory(path: Path) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise StorageError(f"{path}: cannot create the database directory: {exc.strerror}") from None


def _identity(path: Path) -> tuple[int, int] | None:
    try:
        info = path.stat()
    except OSError:
        return None
    return info.st_dev, info.st_ino


def _is_busy(exc: sqlite3.OperationalError) -> bool:
    text = str(exc)
    return "database is locked" in text or "database is busy" in text


async def _connect(path: Path, busy_timeout_ms: int = BUSY_TIMEOUT_MS) -> aiosqlite.Connection:
    """Open a connection and prove the file is a readable SQLite database."""
    try:
        # isolation_level=None: autocommit; transactions are explicit BEGIN/COMMIT so we own them.
        conn = await aiosqlite.connect(path, isolation_level=None)
        conn.row_factory = aiosqlite.Row
    except sqlite3.Error as exc:
        raise StorageError(f"{path}: cannot open the database: {exc}") from None
    try:
        await conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
        await migrations.current_version(conn)  # reads the header: fails on a damaged file
    except sqlite3.DatabaseError as exc:
        await conn.close()
        raise _database_error(path, exc) from None
    except BaseException:
        # Cancelled (a reload stopped by a shutdown): a connection left open keeps its thread, which
        # finished its statement after the event loop had closed and printed a traceback at exit.
        await conn.close()
        raise
    return conn


async def _configure(conn: aiosqlite.Connection, path: Path) -> None:
    try:
        async with conn.execute("PRAGMA journal_mode = WAL") as cursor:
            await cursor.fetchone()
        await conn.execute("PRAGMA synchronous = FULL")
        await conn.execute("PRAGMA foreign_keys = ON")
    except sqlite3.DatabaseError as exc:
        raise _database_error(path, exc) from None


async def _rollback(conn: aiosqlite.Connection) -> None:
    # SQLite may already have rolled back (a full disk does that): a second ROLLBACK then fails.
    with contextlib.suppress(sqlite3.OperationalError):
        await conn.execute("ROLLBACK")


def _database_error(path: Path, exc: sqlite3.DatabaseError) -> StorageError:
    text = str(exc)
    if "disk is full" in text or "disk I/O error" in text:
        return StorageError(f"{path}: the disk is full or failing ({text}); nothing of this write was kept")
    if "not a database" in text or "malformed" in text:
        return DatabaseCorrupt(f"{path}: not a SQLite database or damaged ({text}); the file was left untouched")
    if "readonly" in text or "read-only" in text:
        return StorageError(f"{path}: the database is read-only ({text}); nothing of this write was kept")
    if "unable to open" in text and not os.access(path.parent, os.W_OK):
        # WAL mode keeps -wal and -shm files beside the database: a read-only directory stops even reads.
        return StorageError(
            f"{path}: the database directory {path.parent} is read-only (SQLite needs to create its -wal and "
            "-shm files there); nothing was written"
        )
    return StorageError(f"{path}: cannot use the database: {text}")
