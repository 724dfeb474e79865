"""Numbered schema migrations, tracked in ``PRAGMA user_version`` (SQLite) or ``tracebot_schema``.

Each ``NNNN_name.sql`` file moves the schema from version NNNN-1 to NNNN; ``postgresql/`` holds the
PostgreSQL form of each, numbered alike (a test holds them to the same names). A migration runs in one
transaction together with the version bump, so a crash leaves the database at the old version or the
new one, never between. The SQLite runner is here; the PostgreSQL one is in :mod:`storage.postgres`.
"""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass
from importlib import resources

import aiosqlite

from records.errors import DatabaseCorrupt, DatabaseTooNew

_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")


@dataclass(frozen=True, slots=True)
class Migration:
    """One schema step."""

    version: int
    name: str
    sql: str


def available(dialect: str = "sqlite") -> list[Migration]:
    """Return the shipped migrations of a dialect in order, checking they are numbered without gaps."""
    found: list[Migration] = []
    folder = resources.files(__package__)
    if dialect != "sqlite":
        folder = folder / dialect
    for entry in folder.iterdir():
        match = _NAME.match(entry.name)
        if match:
            found.append(Migration(int(match[1]), entry.name, entry.read_text(encoding="utf-8")))
    found.sort(key=lambda m: m.version)
    for expected, migration in enumerate(found, start=1):
        if migration.version != expected:
            raise RuntimeError(f"migration {migration.name} is out of sequence (expected {expected:04d})")
    return found


def latest_version() -> int:
    """Return the schema version this tracebot writes."""
    return len(available())


async def current_version(conn: aiosqlite.Connection) -> int:
    """Return the schema version recorded in the database."""
    async with conn.execute("PRAGMA user_version") as cursor:
        row = await cursor.fetchone()
    return int(row[0]) if row else 0


async def pending(conn: aiosqlite.Connection, path: str) -> list[Migration]:
    """Return the migrations not yet applied; refuse a database from a newer tracebot."""
    version = await current_version(conn)
    migrations = available()
    if version > len(migrations):
        raise DatabaseTooNew(
            f"{path}: database schema version {version} is newer than this tracebot supports "
            f"({len(migrations)}); upgrade tracebot instead of opening it with an older one"
        )
    return migrations[version:]


async def apply(conn: aiosqlite.Connection, migration: Migration, path: str = "the database") -> None:
    """Apply one migration and its version bump atomically (the connection is in autocommit mode).

    A statement the file's schema refuses (a table the migration expects is missing: a file changed by
    hand or by an unreleased tracebot) rolls back and raises :class:`DatabaseCorrupt` naming both.
    """
    await conn.execute("BEGIN IMMEDIATE")
    try:
        for statement in _statements(migration.sql):
            await conn.execute(statement)
        # PRAGMA cannot take a bound parameter; the version is our own integer.
        await conn.execute(f"PRAGMA user_version = {int(migration.version)}")
    except sqlite3.DatabaseError as exc:
        await conn.execute("ROLLBACK")
        if isinstance(exc, sqlite3.OperationalError) and "locked" in str(exc):
            raise
        raise DatabaseCorrupt(
            f"{path}: migration {migration.name} failed ({exc}): the schema is not one a tracebot release "
            "wrote; nothing was changed (restore a backup, or move the file aside and import again)"
        ) from None
    except BaseException:
        await conn.execute("ROLLBACK")
        raise
    await conn.execute("COMMIT")


def _statements(sql: str) -> list[str]:
    # Migrations are our own files: statements end with ';' at the end of a line, no triggers with
    # inner semicolons. executescript() would commit on its own and break the one-transaction rule.
    body = "\n".join(line for line in sql.splitlines() if not line.strip().startswith("--"))
    return [part.strip() for part in body.split(";\n") if part.strip().rstrip(";").strip()]
