"""Import record files into the store: upsert by id, atomically, reporting every rejected record.

All valid records of a run are committed in one transaction together with the import-run row, so a
killed process leaves either the whole run or nothing. Each file is wrapped in a savepoint: a file
that turns out to be unreadable halfway (a truncated .gz) is dropped whole, never half imported.
With ``strict`` the first problem aborts the run and the database is left exactly as it was.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import aiosqlite

from records.errors import ImportAborted, RecordFileError, RecordProblem
from records.matching.patterns import check_pattern
from records.model import Record
from records.reader import DEFAULT_MAX_FILE_BYTES, LoadedRecord, expand_paths, read_file
from storage.database import Database
from storage.models import ImportReport
from storage.records import RecordRepository, utc_now

log = logging.getLogger(__name__)

BATCH_SIZE = 1000


@dataclass
class _FileCounts:
    added: int = 0
    updated: int = 0
    unchanged: int = 0
    problems: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    dataset_version: str | None = None
    new_ids: list[str] = field(default_factory=list)  # ids this file introduced to `seen`


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
    async with db.transaction() as conn:
        for file in _files(paths, totals, strict):
            await _import_file(conn, repo, file, totals, seen, strict=strict, max_bytes=max_bytes)
        report = ImportReport(
            source=source,
            added=totals.added,
            updated=totals.updated,
            unchanged=totals.unchanged,
            problems=totals.problems,
            warnings=totals.warnings,
            dataset_version=totals.dataset_version,
        )
        report.run_id = await repo.add_import_run(conn, _run_row(report, started))
    log.info(
        "import %s: %d added, %d updated, %d unchanged, %d rejected",
        source,
        report.added,
        report.updated,
        report.unchanged,
        report.rejected,
    )
    return report


def _files(paths: list[Path], totals: _FileCounts, strict: bool) -> Iterator[Path]:
    for path in paths:
        try:
            yield from expand_paths(path)
        except RecordFileError as exc:
            _reject(totals, str(exc), strict)


async def _import_file(
    conn: aiosqlite.Connection,
    repo: RecordRepository,
    file: Path,
    totals: _FileCounts,
    seen: dict[str, str],
    *,
    strict: bool,
    max_bytes: int,
) -> None:
    counts = _FileCounts()
    await conn.execute("SAVEPOINT import_file")
    try:
        batch: list[LoadedRecord] = []
        for item in read_file(file, max_bytes=max_bytes):
            if isinstance(item, RecordProblem):
                _reject(counts, str(item), strict)
            elif _first_occurrence(item, counts, seen, strict):
                _check_pattern(item, counts)
                batch.append(item)
            if len(batch) >= BATCH_SIZE:
                await _write_batch(conn, repo, batch, counts)
                batch = []
        await _write_batch(conn, repo, batch, counts)
    except RecordFileError as exc:
        await conn.execute("ROLLBACK TO import_file")
        await conn.execute("RELEASE import_file")
        for rid in counts.new_ids:
            del seen[rid]
        _reject(totals, f"{exc} (file skipped, none of its records imported)", strict)
        return
    await conn.execute("RELEASE import_file")
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


async def _write_batch(
    conn: aiosqlite.Connection, repo: RecordRepository, batch: list[LoadedRecord], counts: _FileCounts
) -> None:
    if not batch:
        return
    existing = await repo.existing_hashes(conn, [item.record.id for item in batch])
    changed: list[tuple[Record, str | None]] = []
    for item in batch:
        old = existing.get(item.record.id)
        if old is None:
            counts.added += 1
        elif old != item.record.content_hash():
            counts.updated += 1
        else:
            counts.unchanged += 1
            continue
        changed.append((item.record, item.dataset_version))
        counts.dataset_version = item.dataset_version or counts.dataset_version
    await repo.upsert(conn, changed, utc_now())


def _reject(counts: _FileCounts, problem: str, strict: bool) -> None:
    if strict:
        raise ImportAborted(problem)
    counts.problems.append(problem)


def _merge(totals: _FileCounts, counts: _FileCounts) -> None:
    totals.added += counts.added
    totals.updated += counts.updated
    totals.unchanged += counts.unchanged
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
