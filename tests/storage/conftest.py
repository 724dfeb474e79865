"""The storage tests run against both backends: ``db`` is an SQLite file, then a PostgreSQL database.

A test of what only one engine has (SQLite's pragmas, WAL files and batched publishing) asks for
``sqlite_db`` instead, or overrides ``db`` in its module.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from storage.database import Database, SqliteDatabase
from tests import pg
from tests.conftest import database_file


@pytest.fixture(params=["sqlite", "postgresql"])
async def db(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Database]:
    """A fresh, migrated database of each backend in turn."""
    if request.param == "sqlite":
        database: Database = await SqliteDatabase.open_file(database_file(tmp_path / "tracebot.db"))
        yield database
        await database.close()
        return
    async with pg.fresh_database() as url:
        database = await Database.open(url)
        yield database
        await database.close()


@pytest.fixture
async def sqlite_db(tmp_path: Path) -> AsyncIterator[SqliteDatabase]:
    """A fresh, migrated SQLite database file (for what only SQLite has)."""
    database = await SqliteDatabase.open_file(database_file(tmp_path / "tracebot.db"))
    yield database
    await database.close()
