"""One connection interface over aiosqlite and asyncpg, so the repositories hold no driver code.

A repository runs ``execute`` (which returns the rows it changed), ``executemany``, ``fetch``,
``fetch_one`` and ``stream`` on what :meth:`storage.database.Database.transaction` yields, with
``?`` or ``:name`` placeholders whatever the engine (:mod:`storage.dialect` numbers them for asyncpg).
Rows are read by column name (``row["error_class"]``), never by position.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import AsyncGenerator, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, Protocol

import aiosqlite

from storage.dialect import POSTGRESQL, SQLITE, Dialect, Params

if TYPE_CHECKING:
    import asyncpg

# Rows per trip when streaming: aiosqlite fetches 64 rows per trip to its thread by default, and the
# trips, not SQLite, were most of an index load's time.
STREAM_CHUNK = 4096


class Row(Protocol):
    """A result row of either driver: by column name, by position, and ``dict(row)``."""

    def __getitem__(self, key: str | int, /) -> Any: ...

    def keys(self) -> Iterable[str]:
        """Return the column names."""
        ...

    def __iter__(self) -> Iterator[Any]: ...

    def __len__(self) -> int: ...


class Connection(ABC):
    """A connection (inside a transaction, or the reader) of either engine."""

    dialect: Dialect

    @abstractmethod
    async def execute(self, sql: str, params: Params = ()) -> int:
        """Run one statement; return how many rows it inserted, updated or deleted."""

    @abstractmethod
    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        """Run one statement once per parameter row."""

    @abstractmethod
    async def fetch(self, sql: str, params: Params = ()) -> list[Row]:
        """Run a query and return every row."""

    @abstractmethod
    async def fetch_one(self, sql: str, params: Params = ()) -> Row | None:
        """Run a query and return its first row, or None."""

    @abstractmethod
    def stream(self, sql: str, params: Params = (), chunk: int = STREAM_CHUNK) -> AsyncGenerator[Row, None]:
        """Yield a query's rows, fetched ``chunk`` at a time."""


class SqliteConnection(Connection):
    """An aiosqlite connection behind the common interface."""

    dialect = SQLITE

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self.raw = conn

    async def execute(self, sql: str, params: Params = ()) -> int:
        """Run one statement; return how many rows it changed."""
        cursor = await self.raw.execute(sql, params)
        try:
            return max(0, cursor.rowcount)
        finally:
            await cursor.close()

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        """Run one statement once per parameter row."""
        await self.raw.executemany(sql, rows)

    async def fetch(self, sql: str, params: Params = ()) -> list[Row]:
        """Run a query and return every row."""
        async with self.raw.execute(sql, params) as cursor:
            return list(await cursor.fetchall())

    async def fetch_one(self, sql: str, params: Params = ()) -> Row | None:
        """Run a query and return its first row, or None."""
        async with self.raw.execute(sql, params) as cursor:
            row: Row | None = await cursor.fetchone()
            return row

    async def stream(self, sql: str, params: Params = (), chunk: int = STREAM_CHUNK) -> AsyncGenerator[Row, None]:
        """Yield a query's rows, ``chunk`` at a time."""
        async with self.raw.execute(sql, params) as cursor:
            while rows := await cursor.fetchmany(chunk):
                for row in rows:
                    yield row


class PostgresConnection(Connection):
    """An asyncpg connection behind the common interface (placeholders numbered by the dialect)."""

    dialect = POSTGRESQL

    def __init__(self, conn: asyncpg.Connection[Any]) -> None:
        self.raw = conn

    async def execute(self, sql: str, params: Params = ()) -> int:
        """Run one statement; return how many rows it changed."""
        text, args = self.dialect.prepare(sql, params)
        status: str = await self.raw.execute(text, *args)
        # A status tag such as 'UPDATE 3' or 'INSERT 0 1': the last word counts the rows.
        last = status.rsplit(" ", 1)[-1]
        return int(last) if last.isdigit() else 0

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        """Run one statement once per parameter row."""
        text, _ = self.dialect.prepare(sql, ())
        batch = [tuple(row) for row in rows]
        if batch:
            await self.raw.executemany(text, batch)

    async def fetch(self, sql: str, params: Params = ()) -> list[Row]:
        """Run a query and return every row."""
        text, args = self.dialect.prepare(sql, params)
        return list(await self.raw.fetch(text, *args))

    async def fetch_one(self, sql: str, params: Params = ()) -> Row | None:
        """Run a query and return its first row, or None."""
        text, args = self.dialect.prepare(sql, params)
        row: Row | None = await self.raw.fetchrow(text, *args)
        return row

    async def stream(self, sql: str, params: Params = (), chunk: int = STREAM_CHUNK) -> AsyncGenerator[Row, None]:
        """Yield a query's rows, ``chunk`` at a time."""
        text, args = self.dialect.prepare(sql, params)
        if self.raw.is_in_transaction():
            async for row in self.raw.cursor(text, *args, prefetch=chunk):
                yield row
            return
        # A server-side cursor lives in a transaction: a read-only one sees one snapshot throughout.
        async with self.raw.transaction(readonly=True):
            async for row in self.raw.cursor(text, *args, prefetch=chunk):
                yield row
