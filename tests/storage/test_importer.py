"""Import semantics: upsert by id, atomic runs, strict mode, files dropped whole."""

from __future__ import annotations

import gzip
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from records.errors import ImportAborted
from storage import importer
from storage.database import Database, SqliteDatabase
from storage.importer import import_paths
from storage.records import RecordRepository
from tests.conftest import SEED_IDS, make_record


async def _snapshot(db: Database) -> list[tuple[object, ...]]:
    rows = [tuple(r) for r in await db.fetch("SELECT id, content_hash, updated_at FROM records ORDER BY id")]
    runs = await db.fetch_one("SELECT count(*) AS n FROM import_runs")
    return [*rows, ("runs", runs["n"] if runs is not None else None)]


async def test_seed_directory_imports_three_records(db: Database, seeds_dir: Path) -> None:
    report = await import_paths(db, [seeds_dir])
    assert (report.added, report.updated, report.unchanged, report.rejected) == (3, 0, 0, 0)
    repo = RecordRepository(db)
    for rid in SEED_IDS.values():
        assert (await repo.get(rid)) is not None
    stored = await repo.get("assisted-generation-is-not-supported-with-stateful")
    assert stored is not None and stored.dataset_version == "2026-08-15T22:17:37.221Z"


async def test_reimport_changes_nothing_and_changed_record_is_updated(
    db: Database, write_jsonl: Callable[..., Path]
) -> None:
    path = write_jsonl([make_record(id="a"), make_record(id="b")])
    await import_paths(db, [path])
    before = await _snapshot(db)
    again = await import_paths(db, [path])
    assert (again.added, again.updated, again.unchanged) == (0, 0, 2)
    assert not again.changed_anything
    assert (await _snapshot(db))[:-1] == before[:-1]  # only a new import-run row
    changed = write_jsonl([make_record(id="a", lineNumber=99), make_record(id="b")], name="v2.jsonl")
    report = await import_paths(db, [changed])
    assert (report.added, report.updated, report.unchanged) == (0, 1, 1)
    stored = await RecordRepository(db).get("a")
    assert stored is not None and stored.record.line_number == 99


async def test_invalid_records_are_rejected_and_valid_ones_kept(db: Database, write_jsonl: Callable[..., Path]) -> None:
    path = write_jsonl([make_record(id="ok1"), make_record(id="bad", lineNumber="abc"), make_record(id="ok2")])
    report = await import_paths(db, [path])
    assert report.added == 2
    assert report.problems == [f"{path}:2: lineNumber: Input should be a valid integer"]
    assert await RecordRepository(db).count() == 2


async def test_duplicate_id_in_one_file(db: Database, write_jsonl: Callable[..., Path]) -> None:
    path = write_jsonl([make_record(id="dup"), make_record(id="dup", lineNumber=2)])
    report = await import_paths(db, [path])
    assert report.added == 1
    assert report.problems == [f"{path}:2: id: duplicate id in this import (first at {path}:1)"]


async def test_strict_aborts_and_leaves_database_exactly_as_it_was(
    db: Database, write_jsonl: Callable[..., Path], seeds_dir: Path
) -> None:
    await import_paths(db, [seeds_dir])
    before = await _snapshot(db)
    path = write_jsonl([make_record(id="new1"), make_record(id="x", errorMessage=""), make_record(id="new2")])
    with pytest.raises(ImportAborted, match=r"records\.jsonl:2: errorMessage: .*database was not changed"):
        await import_paths(db, [path], strict=True)
    assert await _snapshot(db) == before


async def test_truncated_file_is_dropped_whole(db: Database, tmp_path: Path, write_jsonl: Callable[..., Path]) -> None:
    good = write_jsonl([make_record(id="good")])
    lines = "".join(json.dumps(make_record(id=f"t{i}")) + "\n" for i in range(3000))
    data = gzip.compress(lines.encode())
    cut = tmp_path / "cut.jsonl.gz"
    cut.write_bytes(data[: int(len(data) * 0.8)])
    report = await import_paths(db, [good, cut])
    assert report.added == 1
    assert len(report.problems) == 1 and "cut.jsonl.gz: corrupt or truncated gzip" in report.problems[0]
    assert [s.id for s in await RecordRepository(db).summaries()] == ["good"]


async def test_import_run_is_recorded(db: Database, seeds_dir: Path) -> None:
    await import_paths(db, [seeds_dir])
    [run] = await RecordRepository(db).import_runs()
    assert (run.added, run.rejected, run.dataset_version) == (3, 0, "2026-08-15T22:17:37.221Z")
    assert run.source == str(seeds_dir)


def test_killed_import_leaves_no_partial_run(tmp_path: Path) -> None:
    path = tmp_path / "big.jsonl"
    with path.open("w") as fh:
        for i in range(6_000):
            fh.write(json.dumps(make_record(id=f"k{i:06d}", documentation="d" * 400)) + "\n")
    db_file = tmp_path / "kill.db"
    proc = subprocess.Popen(
        [sys.executable, "-m", "bot", "records", "import", str(path), "--db", str(db_file)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 30
    while not _has_records_table(db_file) and time.monotonic() < deadline:
        time.sleep(0.01)
    time.sleep(0.3)  # let the import transaction get under way
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    with sqlite3.connect(db_file) as conn:
        records = conn.execute("SELECT count(*) FROM records").fetchone()[0]
        added = conn.execute("SELECT coalesce(sum(added), 0) FROM import_runs").fetchone()[0]
    assert records in (0, 6_000)
    assert records == added


def _has_records_table(path: Path) -> bool:
    if not path.exists():
        return False
    try:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as conn:
            version: int = conn.execute("PRAGMA user_version").fetchone()[0]
            return version >= 1
    except sqlite3.Error:
        return False


async def test_pattern_the_linear_engine_cannot_run_is_reported_and_record_kept(
    db: Database, write_jsonl: Callable[..., Path]
) -> None:
    path = write_jsonl([make_record(id="backref", messagePattern=r"(\w+) and \1 again")])
    report = await import_paths(db, [path])
    assert report.added == 1 and not report.problems
    assert report.warnings == [
        f"{path}:1: messagePattern: not supported by the linear-time engine (invalid escape sequence); "
        "the record matches by its template text instead"
    ]


async def test_files_are_read_and_compared_without_the_write_lock(
    sqlite_db: SqliteDatabase, write_jsonl: Callable[..., Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    observed: list[bool] = []
    real = importer._stage_batch

    async def stage_and_probe(*args: object, **kwargs: object) -> None:
        await real(*args, **kwargs)  # type: ignore[arg-type]  # passes on exactly what the importer gave
        other = sqlite3.connect(sqlite_db.path, timeout=0)  # another process's writer: must not wait
        try:
            other.execute("BEGIN IMMEDIATE")
            other.execute("ROLLBACK")
            observed.append(True)
        finally:
            other.close()

    monkeypatch.setattr(importer, "_stage_batch", stage_and_probe)
    report = await import_paths(sqlite_db, [write_jsonl([make_record(id=f"w{i}") for i in range(3)])])
    assert report.added == 3 and observed and all(observed)


async def test_an_import_that_changes_nothing_takes_no_write_lock(
    db: Database, write_jsonl: Callable[..., Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write_jsonl([make_record(id="same")])
    await import_paths(db, [path])
    runs = len(await RecordRepository(db).import_runs())

    def no_writes(*args: object, **kwargs: object) -> None:
        raise AssertionError("an unchanged import asked for the write lock")

    monkeypatch.setattr(db, "transaction", no_writes)
    report = await import_paths(db, [path])
    assert (report.added, report.updated, report.unchanged) == (0, 0, 1)
    assert len(await RecordRepository(db).import_runs()) == runs


async def test_an_import_of_curated_records_does_not_look_for_superseded_ones(
    db: Database, write_jsonl: Callable[..., Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    # The look is a scan of every record: only mined records can supersede or be superseded.
    async def no_scan(self: RecordRepository) -> int:
        raise AssertionError("a curated import looked for superseded records")

    monkeypatch.setattr(RecordRepository, "retire_superseded", no_scan)
    report = await import_paths(db, [write_jsonl([make_record(id="curated1")])])
    assert (report.added, report.retired) == (1, 0)
