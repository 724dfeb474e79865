"""storage/pg_import.py: a PostgreSQL import is one transaction, invisible to readers until it commits."""

from __future__ import annotations

from typing import Any

import pytest

from storage.database import Database
from storage.importer import import_paths
from storage.records import RecordRepository
from tests import pg
from tests.conftest import make_record


async def test_readers_see_none_of_a_run_until_it_commits_then_all_of_it(
    write_jsonl: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with pg.fresh_database() as url:
        db = await Database.open(url)
        try:
            repo = RecordRepository(db)
            await import_paths(db, [write_jsonl([make_record(id="old", errorMessage="old text")])])
            seen_during: list[tuple[int, str | None]] = []
            real = RecordRepository.add_import_run

            async def look_from_outside(self: RecordRepository, conn: Any, run: dict[str, Any]) -> int:
                old = await repo.get("old")
                seen_during.append((await repo.count(), old.record.error_message if old else None))
                return await real(self, conn, run)

            monkeypatch.setattr(RecordRepository, "add_import_run", look_from_outside)
            changed = [make_record(id="old", errorMessage="new text"), *(make_record(id=f"n{i}") for i in range(30))]
            report = await import_paths(db, [write_jsonl(changed, name="second.jsonl")])
            assert (report.added, report.updated) == (30, 1)
            assert seen_during == [(1, "old text")]  # copied, published, not yet committed: invisible
            new = await repo.get("old")
            assert await repo.count() == 31 and new is not None and new.record.error_message == "new text"
            runs = await repo.import_runs()
            assert [r.added for r in runs] == [30, 1]
        finally:
            await db.close()


async def test_after_a_bulk_import_the_reload_query_reads_the_updated_at_index(write_jsonl: Any) -> None:
    async with pg.fresh_database() as url:
        db = await Database.open(url)
        try:
            await import_paths(db, [write_jsonl([make_record(id=f"b{n}") for n in range(1500)])])
            plan = await db.fetch("EXPLAIN SELECT id FROM records WHERE updated_at >= '2099'")
            text = "\n".join(str(row[0]) for row in plan)
            assert "records_updated_at" in text, text  # not a scan of every row through import_run
        finally:
            await db.close()
