"""Publishing an import: new rows copied in short batches out of sight, shown in one final transaction.

Readers see the record set before an import or after it, never between; a run killed before it
published leaves the previous set visible, and the next import deletes its rows.
"""

from __future__ import annotations

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

from records.errors import DatabaseBusy
from storage import import_publish
from storage.database import SqliteDatabase
from storage.importer import import_paths
from storage.records import RecordRepository
from tests.conftest import ROOT, database_file, make_record


@pytest.fixture
def db(sqlite_db: SqliteDatabase) -> SqliteDatabase:
    """An SQLite database: this module tests what only the SQLite backend has."""
    return sqlite_db


def _visible(path: Path) -> dict[str, str]:
    """Return id -> content hash of what readers see, read by another connection."""
    with sqlite3.connect(path) as conn:
        return dict(conn.execute("SELECT id, content_hash FROM records").fetchall())


def _stored_rows(path: Path) -> int:
    """Count every row in the table, published or not."""
    with sqlite3.connect(path) as conn:
        return int(conn.execute("SELECT count(*) FROM records_all").fetchone()[0])


def _unpublished(path: Path) -> int:
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as conn:
        row = conn.execute(
            "SELECT count(*) FROM records_all WHERE import_run > (SELECT published FROM import_state)"
        ).fetchone()
    return int(row[0])


def _next_rows(path: Path) -> int:
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as conn:
        return int(conn.execute("SELECT count(*) FROM records_next").fetchone()[0])


async def _merging(db: SqliteDatabase) -> int:
    row = await db.fetch_one("SELECT merging FROM import_state")
    assert row is not None
    return int(row["merging"])


async def _base(db: SqliteDatabase, write_jsonl: Callable[..., Path]) -> dict[str, str]:
    await import_paths(db, [write_jsonl([make_record(id="old1"), make_record(id="old2")], name="base.jsonl")])
    return _visible(db.path)


def _next_import(write_jsonl: Callable[..., Path], count: int = 40) -> Path:
    changed = make_record(id="old1", documentation="a changed explanation")
    return write_jsonl([changed, *(make_record(id=f"new{i:03d}") for i in range(count))], name="next.jsonl")


async def test_copied_rows_stay_out_of_sight_and_others_write_between_batches(
    db: SqliteDatabase, write_jsonl: Callable[..., Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    before = await _base(db, write_jsonl)
    between: list[tuple[int, int, dict[str, str]]] = []

    def probe(size: int, elapsed: float) -> int:
        # Called after each copy transaction committed: another process's writer must get in at
        # once, and a reader must still see the record set from before the import.
        other = sqlite3.connect(db.path, timeout=0, isolation_level=None)
        try:
            other.execute("BEGIN IMMEDIATE")
            other.execute("INSERT INTO bot_status (key, value, updated_at) VALUES ('probe', '{}', 'now') "
                          "ON CONFLICT (key) DO UPDATE SET value = excluded.value")  # fmt: skip
            other.execute("COMMIT")
        finally:
            other.close()
        between.append((_unpublished(db.path), _next_rows(db.path), _visible(db.path)))
        return 10

    monkeypatch.setattr(import_publish, "FIRST_COPY_ROWS", 10)
    monkeypatch.setattr(import_publish, "COPY_PAUSE_SECONDS", 0)
    monkeypatch.setattr(import_publish, "next_size", probe)
    report = await import_paths(db, [_next_import(write_jsonl)])
    assert (report.added, report.updated) == (40, 1)
    after = _visible(db.path)
    assert len(after) == 42 and after["old1"] != before["old1"]
    # Four copies of new rows, one of the changed row, all out of sight; then (published) the merge.
    assert between == [
        (10, 0, before),
        (20, 0, before),
        (30, 0, before),
        (40, 0, before),
        (40, 1, before),
        (0, 0, after),
    ]
    assert _unpublished(db.path) == _next_rows(db.path) == 0
    assert await _merging(db) == 0


async def test_a_run_that_never_published_is_invisible_and_cleaned_by_the_next_import(
    db: SqliteDatabase, write_jsonl: Callable[..., Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    before = await _base(db, write_jsonl)
    source = _next_import(write_jsonl)

    async def killed(*args: object, **kwargs: object) -> None:
        raise RuntimeError("killed before the final transaction")

    monkeypatch.setattr(import_publish, "publish", killed)
    with pytest.raises(RuntimeError):
        await import_paths(db, [source])
    assert _visible(db.path) == before  # the changed record too: still its old version
    assert (_unpublished(db.path), _next_rows(db.path)) == (40, 1)
    assert await db.fetch_one("SELECT id FROM records WHERE id = 'new000'") is None
    monkeypatch.undo()

    report = await import_paths(db, [source])
    assert (report.added, report.updated, report.unchanged) == (40, 1, 0)
    assert _unpublished(db.path) == _next_rows(db.path) == 0
    assert _stored_rows(db.path) == len(_visible(db.path)) == 42


async def test_killed_while_merging_shows_the_new_versions_and_the_next_import_finishes(
    db: SqliteDatabase, write_jsonl: Callable[..., Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    before = await _base(db, write_jsonl)
    merge = import_publish.merge

    async def killed(*args: object, **kwargs: object) -> None:
        raise RuntimeError("killed after the final transaction")

    monkeypatch.setattr(import_publish, "merge", killed)
    with pytest.raises(RuntimeError):
        await import_paths(db, [_next_import(write_jsonl)])
    published = _visible(db.path)
    assert len(published) == 42 and published["old1"] != before["old1"] and published["old2"] == before["old2"]
    assert (await _merging(db), _next_rows(db.path)) == (1, 1)
    repo = RecordRepository(db)
    stored = await repo.get("old1")
    assert stored is not None and stored.record.documentation == "a changed explanation"
    assert await repo.count() == 42
    assert [s.id for s in await repo.summaries(limit=3)] == ["new000", "new001", "new002"]

    monkeypatch.setattr(import_publish, "merge", merge)
    report = await import_paths(db, [write_jsonl([make_record(id="old2")], name="same.jsonl")])
    assert (report.added, report.updated, report.unchanged) == (0, 0, 1)
    assert (await _merging(db), _next_rows(db.path)) == (0, 0)
    assert _visible(db.path) == published and _stored_rows(db.path) == 42


async def test_leftovers_are_cleaned_even_by_an_import_that_changes_nothing(
    db: SqliteDatabase, write_jsonl: Callable[..., Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    await _base(db, write_jsonl)

    async def killed(*args: object, **kwargs: object) -> None:
        raise RuntimeError("killed before the final transaction")

    publish = import_publish.publish
    monkeypatch.setattr(import_publish, "publish", killed)
    monkeypatch.setattr(import_publish, "CLEAN_ROWS", 7)  # several cleaning transactions
    with pytest.raises(RuntimeError):
        await import_paths(db, [_next_import(write_jsonl)])
    monkeypatch.setattr(import_publish, "publish", publish)
    report = await import_paths(db, [write_jsonl([make_record(id="old2")], name="same.jsonl")])
    assert (report.added, report.updated, report.unchanged) == (0, 0, 1)
    assert _unpublished(db.path) == 0 and _stored_rows(db.path) == 2


async def test_a_second_import_waits_for_the_first_and_gives_up_naming_it(
    db: SqliteDatabase, write_jsonl: Callable[..., Path]
) -> None:
    source = write_jsonl([make_record(id="w1")])
    async with import_publish.import_lock(db.path):
        with pytest.raises(DatabaseBusy, match=rf"another import \(pid {os.getpid()} on .*\) has been running"):
            async with import_publish.import_lock(db.path, wait=0.2):
                pass
    report = await import_paths(db, [source])  # the lock is free again
    assert report.added == 1


async def test_a_maintainer_delete_through_the_view_removes_the_row(
    db: SqliteDatabase, write_jsonl: Callable[..., Path]
) -> None:
    await _base(db, write_jsonl)
    async with db.transaction() as conn:
        await conn.execute("DELETE FROM records WHERE id = 'old1'")
    assert set(_visible(db.path)) == {"old2"} and _stored_rows(db.path) == 1


def _import_process(source: Path, db_file: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "bot", "records", "import", str(source), "--db", str(db_file)],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def _bulk(path: Path, count: int) -> Path:
    with path.open("w") as fh:
        for i in range(count):
            fh.write(json.dumps(make_record(id=f"k{i:06d}", documentation="d" * 400)) + "\n")
    return path


def _base_file(tmp_path: Path, write_jsonl: Callable[..., Path]) -> tuple[Path, dict[str, str]]:
    db_file = tmp_path / "kill.db"
    base = write_jsonl([make_record(id="old1"), make_record(id="old2")], name="base.jsonl")
    database_file(db_file, base)  # in this process: only the big import needs to be one that can be killed
    return db_file, _visible(db_file)


def test_kill_9_while_batches_are_copied_leaves_the_old_set_and_the_next_import_cleans(
    tmp_path: Path, write_jsonl: Callable[..., Path]
) -> None:
    db_file, before = _base_file(tmp_path, write_jsonl)
    source = _bulk(tmp_path / "big.jsonl", 6_000)
    proc = _import_process(source, db_file)
    deadline = time.monotonic() + 120
    while _unpublished(db_file) == 0 and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.005)
    caught = proc.poll() is None
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    if not caught:
        pytest.skip("the import published before the test saw one of its batches")
    assert _unpublished(db_file) > 0
    assert _visible(db_file) == before

    again = _import_process(source, db_file)
    assert again.wait(timeout=300) == 0
    assert _unpublished(db_file) == 0
    assert len(_visible(db_file)) == _stored_rows(db_file) == 6_002


def test_a_reader_sees_the_set_before_or_after_an_import_never_between(
    tmp_path: Path, write_jsonl: Callable[..., Path]
) -> None:
    db_file, _ = _base_file(tmp_path, write_jsonl)
    proc = _import_process(_bulk(tmp_path / "big.jsonl", 6_000), db_file)
    counts: set[int] = set()
    with sqlite3.connect(db_file) as conn:
        while proc.poll() is None:
            counts.add(int(conn.execute("SELECT count(*) FROM records").fetchone()[0]))
            time.sleep(0.01)
        counts.add(int(conn.execute("SELECT count(*) FROM records").fetchone()[0]))
    assert proc.returncode == 0
    assert counts <= {2, 6_002} and 6_002 in counts
