"""Backups and integrity checks of the database file."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from records.errors import StorageError
from storage.database import Database, SqliteDatabase


async def backup(db: Database, target: Path) -> list[str]:
    """Copy the live database to ``target`` with SQLite's online backup API; return integrity problems.

    The copy is written to a temporary name, checked with ``PRAGMA integrity_check`` and only then
    renamed into place, so a failed backup never leaves a damaged file under the target name.
    """
    if not isinstance(db, SqliteDatabase):
        raise StorageError(
            f"{db.name}: backup copies an SQLite file; back up PostgreSQL with pg_dump, or copy it into an "
            "SQLite file with `tracebot db copy`"
        )
    if target.is_dir():  # noqa: ASYNC240 - one stat call before a long backup
        raise StorageError(f"{target}: is a directory; give a file name for the backup")
    tmp = target.with_name(target.name + ".partial")
    try:
        tmp.unlink(missing_ok=True)
        # The backup runs on aiosqlite's worker thread, so the target may not be thread-bound.
        copy = sqlite3.connect(tmp, check_same_thread=False)
    except (sqlite3.Error, OSError) as exc:
        raise StorageError(f"{target}: cannot create the backup file: {exc}") from None
    try:
        await db.reader.backup(copy)
    except (sqlite3.Error, OSError) as exc:
        copy.close()
        tmp.unlink(missing_ok=True)
        raise StorageError(f"{target}: backup failed: {exc}") from None
    copy.close()
    problems = integrity_problems(tmp)
    if problems:
        tmp.unlink(missing_ok=True)
        return problems
    tmp.replace(target)
    return []


def integrity_problems(path: Path) -> list[str]:
    """Run ``PRAGMA integrity_check`` on a database file; return its problems (empty when sound)."""
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    except sqlite3.Error as exc:
        return [str(exc)]
    try:
        rows = conn.execute("PRAGMA integrity_check").fetchall()
    except sqlite3.Error as exc:
        return [str(exc)]
    finally:
        conn.close()
    return [] if rows == [("ok",)] else [str(r[0]) for r in rows]
