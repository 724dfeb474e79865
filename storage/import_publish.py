"""Publish a staged import without holding the write lock for more than a moment.

The ``records`` view every reader uses shows the rows of published import runs only. So an import:

1. copies its new records into ``records_all``, marked with its (unpublished) run number, and the
   new versions of its changed records into ``records_next``, in short transactions with a pause
   between them that lets other writers in; readers see none of it;
2. publishes in one short transaction: raises the published run number (the new rows appear) and,
   when records changed, replaces the view by one that shows ``records_next`` in place of the old
   versions (the changed rows appear), with the import-run row;
3. merges ``records_next`` into ``records_all`` in short transactions (what readers see does not
   change) and puts the plain view back.

A process killed in 1 leaves rows no reader sees: the next import deletes them before it stages
anything. Killed in 3, it leaves the merging view, which shows the right records: the next import
finishes the merge. Imports take turns through a lock file beside the database, so rows of an
unpublished run are always an interrupted import's.
"""

from __future__ import annotations

import asyncio
import errno
import fcntl
import logging
import os
import socket
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import aiosqlite

from records.errors import DatabaseBusy, StorageError
from storage.connection import Connection, SqliteConnection
from storage.database import SqliteDatabase
from storage.records import RECORD_COLUMNS, UPSERT_CONFLICT, RecordRepository

log = logging.getLogger(__name__)

# Each copy transaction aims at this long; the first is small, later ones are sized from how long
# the last took (a loaded machine gets smaller ones).
COPY_SECONDS = 0.2
FIRST_COPY_ROWS = 500
# Between copy transactions the write lock is free this long. SQLite's busy handler (which other
# writers wait in) retries every 100 ms once it has waited a while: a shorter gap could be missed.
COPY_PAUSE_SECONDS = 0.11
# A second import waits this long in all for the first to finish before it gives up.
IMPORT_WAIT_SECONDS = 600.0
# An interrupted import's rows are deleted this many at a time.
CLEAN_ROWS = 2000

_PUBLISHED_FILTER = "+import_run <= (SELECT published FROM import_state)"
# The view readers use, in its two forms (same columns as the `records` table before migration 0006).
PLAIN_VIEW = f"CREATE VIEW records AS SELECT {RECORD_COLUMNS} FROM records_all WHERE {_PUBLISHED_FILTER}"
MERGING_VIEW = (
    f"CREATE VIEW records AS SELECT {RECORD_COLUMNS} FROM records_all WHERE {_PUBLISHED_FILTER} "
    f"AND id NOT IN (SELECT id FROM records_next) UNION ALL SELECT {RECORD_COLUMNS} FROM records_next"
)
# Dropping the view drops its trigger: it is made again with each form.
_DELETE_TRIGGER = (
    "CREATE TRIGGER records_delete INSTEAD OF DELETE ON records BEGIN "
    "DELETE FROM records_all WHERE id = old.id; DELETE FROM records_next WHERE id = old.id; END"
)
# Copies take a range of a staging table's rowids; new rows carry the run (unpublished until raised).
_COPY = {
    "added": f"INSERT INTO main.records_all ({RECORD_COLUMNS}, import_run) "
    f"SELECT {RECORD_COLUMNS}, :run FROM staged.added WHERE rowid BETWEEN :low AND :high",
    "records": f"INSERT INTO main.records_next ({RECORD_COLUMNS}) "
    f"SELECT {RECORD_COLUMNS} FROM staged.records WHERE rowid BETWEEN :low AND :high",
}
# `WHERE true`: tells SQLite's parser the ON CONFLICT is the upsert's.
_MERGE = (
    f"INSERT INTO records_all AS records ({RECORD_COLUMNS}) SELECT {RECORD_COLUMNS} FROM records_next "
    "WHERE true ORDER BY id LIMIT ?" + UPSERT_CONFLICT
)
_MERGED = "DELETE FROM records_next WHERE id IN (SELECT id FROM records_next ORDER BY id LIMIT ?)"
_UNPUBLISHED_ROW = "SELECT 1 FROM records_all WHERE import_run > (SELECT published FROM import_state) LIMIT 1"
_DROP_UNPUBLISHED = (
    "DELETE FROM records_all WHERE id IN (SELECT id FROM records_all "
    "WHERE import_run > (SELECT published FROM import_state) LIMIT ?)"
)
_DROP_NEXT = "DELETE FROM records_next WHERE id IN (SELECT id FROM records_next LIMIT ?)"


@asynccontextmanager
async def import_lock(path: Path, wait: float | None = None) -> AsyncIterator[None]:
    """Hold the lock file beside the database that lets one import at a time run.

    An advisory ``flock``: the kernel releases it when the holder exits, however it exits, so a
    killed import never leaves it taken. The file names its holder for the one who waits.
    """
    lock_path = path.with_name(path.name + ".import-lock")
    try:
        fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as exc:
        raise _lock_error(path, lock_path, exc) from None
    try:
        await _take(fd, path, lock_path, IMPORT_WAIT_SECONDS if wait is None else wait)
        os.ftruncate(fd, 0)
        os.write(fd, f"pid {os.getpid()} on {socket.gethostname()}\n".encode())
        yield
    finally:
        os.close(fd)  # releases the lock; the file stays (removing it would race with a waiter's open)


async def finish_interrupted(db: SqliteDatabase) -> None:
    """Finish what an interrupted import left: merge a published run, delete an unpublished one.

    Takes no write lock when there is nothing to do.
    """
    state = await db.fetch_one("SELECT merging FROM import_state")
    if state is not None and state["merging"]:
        log.info("finishing the merge of an earlier import")
        await merge(db)
        return
    if await db.fetch_one("SELECT 1 FROM records_next LIMIT 1") is not None:
        log.info("removing the changed rows of an interrupted import")
        await _delete_in_batches(db, _DROP_NEXT)
    if await db.fetch_one(_UNPUBLISHED_ROW) is not None:
        log.info("removing the new rows of an interrupted import")
        await _delete_in_batches(db, _DROP_UNPUBLISHED)


async def next_run(db: SqliteDatabase) -> int:
    """Return the number the next import run publishes under."""
    row = await db.fetch_one("SELECT published FROM import_state")
    return (int(row["published"]) if row is not None else 0) + 1


async def copy_staged(db: SqliteDatabase, staging: aiosqlite.Connection, staging_path: Path, run: int) -> None:
    """Copy the staged new and changed rows into the store, out of sight, in short transactions."""
    for table in ("added", "records"):
        bounds = await SqliteConnection(staging).fetch_one(f"SELECT min(rowid), max(rowid) FROM {table}")  # ours
        if bounds is None or bounds[0] is None:
            continue
        low, high, size = int(bounds[0]), int(bounds[1]), FIRST_COPY_ROWS
        while low <= high:
            started = time.monotonic()
            async with db.transaction(attach={"staged": staging_path}) as conn:
                await conn.execute(_COPY[table], {"run": run, "low": low, "high": low + size - 1})
            low += size
            size = next_size(size, time.monotonic() - started)
            await asyncio.sleep(COPY_PAUSE_SECONDS)


def next_size(size: int, elapsed: float) -> int:
    """Size the next transaction to take about COPY_SECONDS, changing by at most half or double."""
    wanted = int(size * COPY_SECONDS / max(elapsed, 0.001))
    return max(50, min(wanted, size * 2, 50_000), size // 2)


async def publish(db: SqliteDatabase, run: int, run_row: dict[str, object], *, changed: bool) -> int:
    """Make the whole run visible in one short transaction; return the import-run id."""
    async with db.transaction() as conn:
        moved = await conn.execute("UPDATE import_state SET published = ? WHERE published = ?", (run, run - 1))
        if moved != 1:  # only another import could have moved it, and imports take turns
            raise StorageError(f"{db.path}: another import published while this one ran; nothing was imported")
        if changed:
            await _replace_view(conn, MERGING_VIEW, merging=True)
        return await RecordRepository(db).add_import_run(conn, run_row)


async def merge(db: SqliteDatabase) -> None:
    """Move published changed rows from records_next into records_all; put the plain view back."""
    size = FIRST_COPY_ROWS
    while await db.fetch_one("SELECT 1 FROM records_next LIMIT 1") is not None:
        started = time.monotonic()
        async with db.transaction() as conn:
            # Same rows, same order, one transaction: what the merging view shows does not change.
            await conn.execute(_MERGE, (size,))
            await conn.execute(_MERGED, (size,))
        size = next_size(size, time.monotonic() - started)
        await asyncio.sleep(COPY_PAUSE_SECONDS)
    async with db.transaction() as conn:
        await _replace_view(conn, PLAIN_VIEW, merging=False)


async def _replace_view(conn: Connection, view: str, *, merging: bool) -> None:
    await conn.execute("DROP VIEW records")
    await conn.execute(view)
    await conn.execute(_DELETE_TRIGGER)
    await conn.execute("UPDATE import_state SET merging = ?", (int(merging),))


async def _delete_in_batches(db: SqliteDatabase, statement: str) -> None:
    while True:
        async with db.transaction() as conn:
            deleted = await conn.execute(statement, (CLEAN_ROWS,))
        if deleted < CLEAN_ROWS:
            return
        await asyncio.sleep(COPY_PAUSE_SECONDS)


async def _take(fd: int, path: Path, lock_path: Path, wait: float) -> None:
    deadline = time.monotonic() + wait
    pause = 0.05
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            holder = lock_path.read_text(errors="replace").strip() or "another process"  # noqa: ASYNC240
            if time.monotonic() + pause > deadline:
                raise DatabaseBusy(
                    f"{path}: another import ({holder}) has been running for over {wait:.0f} s; "
                    "try again when it is done"
                ) from None
            if pause == 0.05:
                log.info("waiting for another import (%s) to finish", holder)
            await asyncio.sleep(pause)
            pause = min(pause * 2, 1.0)


def _lock_error(path: Path, lock_path: Path, exc: OSError) -> StorageError:
    if exc.errno in {errno.EACCES, errno.EROFS, errno.EPERM}:
        return StorageError(
            f"{path}: the database directory is read-only ({lock_path}: {exc.strerror}); nothing was imported"
        )
    return StorageError(f"{lock_path}: cannot create the import lock: {exc.strerror}; nothing was imported")
