"""Import record files into the store: upsert by id, atomically, reporting every rejected record.

An import never holds the write lock while it reads files, nor for more than a moment at a time
(other writers, a running bot's heartbeat and votes among them, would wait behind it):

1. stage: read and validate every file, compare each record's content hash with the stored one (on
   the reader connection), and write the new and changed rows to a private staging database. Each
   file is staged inside a savepoint: a file that turns out to be unreadable halfway (a truncated
   .gz) is dropped whole, never half imported.
2. publish (storage/import_publish.py): copy the staged rows into the store out of sight in short
   transactions, then make them visible in one short final transaction, so a killed process leaves
   either the whole run or nothing visible (and the next import cleans up). On PostgreSQL, whose
   readers keep their snapshot, the whole publish is one transaction (storage/pg_import.py). An import
   that changes nothing takes no write lock at all (and records no run).

With ``strict`` the first problem aborts the run and the database is left exactly as it was.
"""

from __future__ import annotations

import contextlib
import logging
import tempfile
from collections.abc import AsyncIterator, Iterable, Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import aiosqlite

from records.errors import ImportAborted, RecordFileError, RecordProblem
from records.matching.patterns import check_pattern
from records.model import MINED, Record
from records.reader import DEFAULT_MAX_FILE_BYTES, LoadedRecord, expand_paths, read_file
from storage import import_publish, pg_import
from storage.connection import SqliteConnection
from storage.database import Database, SqliteDatabase
from storage.models import ImportReport
from storage.records import RECORD_COLUMNS, RecordRepository, utc_now

if TYPE_CHECKING:
    from storage.postgres import PostgresDatabase

log = logging.getLogger(__name__)

BATCH_SIZE = 1000
# The staging tables take the store's upsert unchanged (same columns, a primary key on id):
# `records` holds changed records, `added` new ones.
_STAGING_COLUMNS = RECORD_COLUMNS.replace(", ", " , ").replace("id ,", "id PRIMARY KEY,", 1)
_STAGING_TABLES = (f"CREATE TABLE records ({_STAGING_COLUMNS})", f"CREATE TABLE added ({_STAGING_COLUMNS})")


@dataclass
class _FileCounts:
    added: int = 0
    updated: int = 0
    unchanged: int = 0
    problems: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    dataset_version: str | None = None
    new_ids: list[str] = field(default_factory=list)  # ids this file introduced to `seen`
    mined: int = 0  # mined records among the added and updated (only they can retire or be retired)


async def import_paths(
    db: Database,
    paths: Iterable[Path],
    *,
    strict: bool = False,
    max_bytes: int = DEFAULT_MAX_FILE_BYTES,
) -> ImportReport:
    """Import every record file under ``paths``; raise ImportAborted in strict mode on a problem."""
    paths = list(paths)
    source = ", ".join(str(p) for p in paths)
    repo = RecordRepository(db)
    started = utc_now()
    totals = _FileCounts()
    seen: dict[str, str] = {}  # id -> location of its first occurrence in this run
    async with _import_lock(db), _staging() as (staging, staging_path):
        if isinstance(db, SqliteDatabase):
            await import_publish.finish_interrupted(db)
        for file in _files(paths, totals, strict):
            await _stage_file(
                staging, file, db=db, repo=repo, totals=totals, seen=seen, strict=strict, max_bytes=max_bytes
            )
        report = ImportReport(
            source=source,
            added=totals.added,
            updated=totals.updated,
            unchanged=totals.unchanged,
            problems=totals.problems,
            warnings=totals.warnings,
            dataset_version=totals.dataset_version,
        )
        if report.added or report.updated:
            await staging.execute("COMMIT")  # the staged rows must be on disk for the ATTACH
            if isinstance(db, SqliteDatabase):
                run = await import_publish.next_run(db)
                await import_publish.copy_staged(db, staging, staging_path, run)
                report.run_id = await import_publish.publish(
                    db, run, _run_row(report, started), changed=bool(report.updated)
                )
                if report.updated:  # still holding the import lock: the next import finds it done
                    await import_publish.merge(db)
            else:
                report.run_id = await pg_import.publish_whole(_postgres(db), staging, _run_row(report, started))
            # Only a mined record (a site of several releases, or one of a single release) can make
            # another one superseded: an import of curated records skips the check (a full scan).
            report.retired = await repo.retire_superseded() if totals.mined else 0
    log.info(
        "import %s: %d added, %d updated, %d unchanged, %d rejected, %d per-release records retired",
        source,
        report.added,
        report.updated,
        report.unchanged,
        report.rejected,
        report.retired,
    )
    return report


def _files(paths: list[Path], totals: _FileCounts, strict: bool) -> Iterator[Path]:
    for path in paths:
        try:
            yield from expand_paths(path)
        except RecordFileError as exc:
            _reject(totals, str(exc), strict)


def _import_lock(db: Database) -> contextlib.AbstractAsyncContextManager[None]:
    """Return the lock one import at a time holds: a lock file beside SQLite's, an advisory lock on PostgreSQL."""
    if isinstance(db, SqliteDatabase):
        return import_publish.import_lock(db.path)
    return _postgres(db).import_lock(import_publish.IMPORT_WAIT_SECONDS)


def _postgres(db: Database) -> PostgresDatabase:
    from storage.postgres import PostgresDatabase  # noqa: PLC0415  # asyncpg only when it is used

    assert isinstance(db, PostgresDatabase)  # not SQLite: the other backend
    return db


@asynccontextmanager
async def _staging() -> AsyncIterator[tuple[aiosqlite.Connection, Path]]:
    """Open a private, throw-away staging database with tables shaped like the store's ``records``."""
    with tempfile.TemporaryDirectory(prefix="tracebot-import-") as tmp:
        path = Path(tmp) / "staged.db"
        conn = await aiosqlite.connect(path, isolation_level=None)
        try:
            # Throw-away: nothing here needs to survive a crash, the store's own commit does. The journal
            # stays (in memory): a file dropped halfway is rolled back to its savepoint.
            await conn.execute("PRAGMA journal_mode = MEMORY")
            await conn.execute("PRAGMA synchronous = OFF")
            for table in _STAGING_TABLES:
                await conn.execute(table)
            await conn.execute("BEGIN")
            yield conn, path
        finally:
            await conn.close()


async def _stage_file(
    staging: aiosqlite.Connection,
    file: Path,
    *,
    db: Database,
    repo: RecordRepository,
    totals: _FileCounts,
    seen: dict[str, str],
    strict: bool,
    max_bytes: int,
) -> None:
    counts = _FileCounts()
    await staging.execute("SAVEPOINT import_file")
    try:
        batch: list[LoadedRecord] = []
        for item in read_file(file, max_bytes=max_bytes):
            if isinstance(item, RecordProblem):
                _reject(counts, str(item), strict)
            elif _first_occurrence(item, counts, seen, strict):
                _check_pattern(item, counts)
                batch.append(item)
            if len(batch) >= BATCH_SIZE:
                await _stage_batch(staging, db, repo, batch, counts)
                batch = []
        await _stage_batch(staging, db, repo, batch, counts)
    except RecordFileError as exc:
        await staging.execute("ROLLBACK TO import_file")
        await staging.execute("RELEASE import_file")
        for rid in counts.new_ids:
            del seen[rid]
        _reject(totals, f"{exc} (file skipped, none of its records imported)", strict)
        return
    await staging.execute("RELEASE import_file")
    _merge(totals, counts)


def _check_pattern(item: LoadedRecord, counts: _FileCounts) -> None:
    pattern = item.record.message_pattern
    if not pattern:
        return
    check = check_pattern(pattern)
    if not check.usable:
        counts.warnings.append(
            f"{item.location}: messagePattern: {check.problem}; the record matches by its template text instead"
        )


def _first_occurrence(item: LoadedRecord, counts: _FileCounts, seen: dict[str, str], strict: bool) -> bool:
    first = seen.get(item.record.id)
    if first is not None:
        _reject(counts, f"{item.location}: id: duplicate id in this import (first at {first})", strict)
        return False
    seen[item.record.id] = item.location
    counts.new_ids.append(item.record.id)
    return True


async def _stage_batch(
    staging: aiosqlite.Connection, db: Database, repo: RecordRepository, batch: list[LoadedRecord], counts: _FileCounts
) -> None:
    if not batch:
        return
    existing = await repo.existing_hashes([item.record.id for item in batch])
    added: list[tuple[Record, str | None]] = []
    changed: list[tuple[Record, str | None]] = []
    for item in batch:
        old = existing.get(item.record.id)
        if old is None:
            counts.added += 1
            added.append((item.record, item.dataset_version))
        elif old != item.record.content_hash():
            counts.updated += 1
            changed.append((item.record, item.dataset_version))
        else:
            counts.unchanged += 1
            continue
        counts.dataset_version = item.dataset_version or counts.dataset_version
        counts.mined += item.record.origin == MINED
    now = utc_now()
    await repo.upsert(SqliteConnection(staging), added, now, table="added")
    await repo.upsert(SqliteConnection(staging), changed, now)


def _reject(counts: _FileCounts, problem: str, strict: bool) -> None:
    if strict:
        raise ImportAborted(problem)
    counts.problems.append(problem)


def _merge(totals: _FileCounts, counts: _FileCounts) -> None:
    totals.added += counts.added
    totals.updated += counts.updated
    totals.unchanged += counts.unchanged
    totals.mined += counts.mined
    totals.problems.extend(counts.problems)
    totals.warnings.extend(counts.warnings)
    totals.dataset_version = counts.dataset_version or totals.dataset_version


def _run_row(report: ImportReport, started: str) -> dict[str, object]:
    return {
        "started_at": started,
        "finished_at": utc_now(),
        "source": report.source[:2000],
        "dataset_version": report.dataset_version,
        "added": report.added,
        "updated": report.updated,
        "unchanged": report.unchanged,
        "rejected": report.rejected,
    }
