"""The engine: loads the index from the store and follows imports made by other processes."""

from __future__ import annotations

import asyncio
import contextlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks.evalset import shipped_records
from bot.engine import Engine, saved_index_path
from records.errors import DatabaseMoved
from records.matching import IndexEntry, MatchIndex, persist
from storage.database import Database, SqliteDatabase
from storage.importer import import_paths
from tests import pg
from tests.conftest import SEED_IDS, SEEDS_JSONL, make_record

NEW_ERROR = "ValueError: the quantum flux capacitor refused configuration zeta-nine"


async def test_engine_answers_from_the_store(db: SqliteDatabase) -> None:
    await import_paths(db, [SEEDS_JSONL])
    engine = await Engine.load(db)
    answer = await engine.answer("RuntimeError: assisted decoding requires a cache")
    assert answer.result.status == "matched"
    record = answer.record(SEED_IDS["cache"])
    assert record is not None and record.solutions


async def test_watch_sees_an_import_from_another_process(db: SqliteDatabase, tmp_path: Path) -> None:
    await import_paths(db, [SEEDS_JSONL])
    engine = await Engine.load(db)
    assert (await engine.answer(NEW_ERROR)).result.status == "unmatched"
    watcher = asyncio.create_task(engine.watch(interval=0.2))
    try:
        records = tmp_path / "new.jsonl"
        new = make_record(id="flux1", errorMessage="the quantum flux capacitor refused configuration {name}")
        records.write_text(json.dumps(new) + "\n")
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", "records", "import", str(records), "--db", str(db.path),
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        assert await proc.wait() == 0
        # How soon is benchmarks/bench_reload.py's figure; the bound (60 s) only stops a watch that never sees it.
        for _ in range(600):
            if (await engine.answer(NEW_ERROR)).result.status == "matched":
                break
            await asyncio.sleep(0.1)
        result = (await engine.answer(NEW_ERROR)).result
        assert result.status == "matched" and result.matches[0].id == "flux1"
    finally:
        watcher.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await watcher


async def test_on_postgresql_a_notification_wakes_the_watch_long_before_its_poll(tmp_path: Path) -> None:
    # An hour between polls: an answer that changes within the test came from the NOTIFY of the
    # other process's commit. The 60 s bound only stops a watch that never sees it.
    async with pg.fresh_database() as url:
        db = await Database.open(url)
        try:
            await import_paths(db, [SEEDS_JSONL])
            engine = await Engine.load(db)
            watcher = asyncio.create_task(engine.watch(interval=3600))
            try:
                await asyncio.sleep(0.5)  # the listener is in place
                records = tmp_path / "new.jsonl"
                new = make_record(id="flux1", errorMessage="the quantum flux capacitor refused configuration {name}")
                records.write_text(json.dumps(new) + "\n")
                proc = await asyncio.create_subprocess_exec(
                    sys.executable, "-m", "bot", "records", "import", str(records), "--db", url,
                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                )  # fmt: skip
                assert await proc.wait() == 0
                for _ in range(600):
                    if (await engine.answer(NEW_ERROR)).result.status == "matched":
                        break
                    await asyncio.sleep(0.1)
                result = (await engine.answer(NEW_ERROR)).result
                assert result.status == "matched" and result.matches[0].id == "flux1"
            finally:
                watcher.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await watcher
        finally:
            await db.close()


async def test_reload_picks_up_changed_records(db: SqliteDatabase, tmp_path: Path) -> None:
    await import_paths(db, [SEEDS_JSONL])
    engine = await Engine.load(db)
    records = tmp_path / "r.jsonl"
    records.write_text(json.dumps(make_record(id="z1", errorMessage="zebra stripes misaligned by {n} pixels")) + "\n")
    await import_paths(db, [records])
    assert await engine.reload() == 1
    assert await engine.reload() == 0  # nothing new


async def test_seed_answer_shows_seed_text_at_the_mined_location(db: SqliteDatabase, tmp_path: Path) -> None:
    # The seeds and every shipped record of their file in both releases: the fold, not the volume.
    mined = tmp_path / "generation-utils.jsonl"
    same_file = [r for r in shipped_records() if r.file_path == "src/transformers/generation/utils.py"]
    mined.write_text("".join(r.canonical_json() + "\n" for r in same_file), encoding="utf-8")
    await import_paths(db, [SEEDS_JSONL, mined])
    engine = await Engine.load(db)
    answer = await engine.answer("ValueError: assisted generation is not supported with stateful models, such as X")
    record = answer.record(SEED_IDS["stateful"])
    assert record is not None
    assert record.solutions[0].startswith("Remove `assistant_model`")  # the seed's text
    assert (record.line_number, record.library_version) == (1888, "5.24.0")  # the newest mined location
    assert record.github_url is not None and "/blob/v5.24.0/" in record.github_url


async def test_matching_in_threads_while_the_index_changes_never_sees_half_a_change(db: SqliteDatabase) -> None:

    engine = await Engine.load(db)
    base = [IndexEntry(id=f"keep{n}", error_message=f"steady widget number {n} failed to spin") for n in range(200)]
    await engine.update_index(added=base)
    churn = [IndexEntry(id=f"churn{n}", error_message=f"steady widget number {n} failed to wobble") for n in range(200)]
    stop = False
    failures: list[BaseException] = []

    def match_forever() -> int:
        count = 0
        while not stop:
            try:
                result = engine.match_text("ValueError: steady widget number 7 failed to spin")
                assert result.matches and result.matches[0].id == "keep7", result.status
            except BaseException as exc:  # collected, reported below
                failures.append(exc)
                return count
            count += 1
        return count

    workers = [asyncio.create_task(asyncio.to_thread(match_forever)) for _ in range(3)]
    try:
        # Add and drop 200 similar entries while three threads match. Without the engine's lock a
        # match breaks within the first round (a BufferError from the posting lists, seen in 9 of 9
        # tries at 5, 10 and 40 rounds); ten rounds leave room.
        for _ in range(10):
            await engine.update_index(added=churn)
            await engine.update_index(removed=[entry.id for entry in churn])
    finally:  # a change that fails (a match broke the index) must still stop the threads, or the test hangs
        stop = True
    counts = await asyncio.gather(*workers)
    assert not failures, failures[0]
    assert sum(counts) > 0


@pytest.mark.parametrize("how", ["deleted", "replaced"])
async def test_the_watcher_stops_when_the_database_file_goes(tmp_path: Path, how: str) -> None:
    path = tmp_path / "moving.db"
    db = await Database.open(path)
    try:
        engine = await Engine.load(db)
        if how == "deleted":
            path.unlink()
        else:
            other = tmp_path / "other.db"
            await (await Database.open(other)).close()
            other.replace(path)
        with pytest.raises(DatabaseMoved, match="deleted or replaced under the bot"):
            await asyncio.wait_for(engine.watch(interval=0.05), 30)
    finally:
        await db.close()


def _no_build(entries: object) -> None:
    raise AssertionError("the index was built instead of loaded")


async def test_a_load_saves_the_index_and_the_next_load_reads_it(
    db: SqliteDatabase, monkeypatch: pytest.MonkeyPatch
) -> None:
    await import_paths(db, [SEEDS_JSONL])
    first = await Engine.load(db)
    assert saved_index_path(db.path).is_file()
    monkeypatch.setattr(MatchIndex, "build", _no_build)
    second = await Engine.load(db)
    for paste in ("RuntimeError: assisted decoding requires a cache", NEW_ERROR):
        assert (await second.answer(paste)).result == (await first.answer(paste)).result
    assert second.shipped == first.shipped and second.record_count == first.record_count == 3


async def test_a_write_after_the_save_makes_the_next_load_build_again(
    db: SqliteDatabase, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    await import_paths(db, [SEEDS_JSONL])
    await Engine.load(db)
    new = make_record(id="flux1", errorMessage="the quantum flux capacitor refused configuration {name}")
    records = tmp_path / "new.jsonl"
    records.write_text(json.dumps(new) + "\n")
    await import_paths(db, [records])
    result = (await (await Engine.load(db)).answer(NEW_ERROR)).result
    assert result.status == "matched" and result.matches[0].id == "flux1"
    monkeypatch.setattr(MatchIndex, "build", _no_build)  # and that build was saved in turn
    assert (await (await Engine.load(db)).answer(NEW_ERROR)).result == result


async def test_a_damaged_saved_index_is_rebuilt_and_saved_again(db: SqliteDatabase) -> None:
    await import_paths(db, [SEEDS_JSONL])
    await Engine.load(db)
    path = saved_index_path(db.path)
    path.write_bytes(path.read_bytes()[:-10])
    engine = await Engine.load(db)
    assert (await engine.answer("RuntimeError: assisted decoding requires a cache")).result.status == "matched"
    _, revision = await engine.records.index_revision()
    assert persist.load(path, revision) is not None


async def test_a_reload_drops_the_per_release_records_a_site_record_replaces(
    db: SqliteDatabase, tmp_path: Path
) -> None:
    def release(record_id: str, version: str, line: int, **extra: object) -> dict[str, object]:
        return make_record(id=record_id, origin="mined", libraryVersion=version, lineNumber=line,
                           repo="huggingface/transformers", filePath="src/transformers/core.py", **extra)  # fmt: skip

    old = tmp_path / "old.jsonl"
    old.write_text(json.dumps(release("r524", "5.24.0", 10)) + "\n" + json.dumps(release("r457", "4.57.6", 30)) + "\n")
    await import_paths(db, [old])
    engine = await Engine.load(db)
    site = tmp_path / "site.jsonl"
    versions = [{"version": "5.24.0", "lineNumber": 10}, {"version": "4.57.6", "lineNumber": 30,
                 "githubUrl": "https://github.com/huggingface/transformers/blob/v4.57.6/src/transformers/core.py#L22-L38"}]  # fmt: skip
    site.write_text(json.dumps(release("site1", "5.24.0", 10, versions=versions)) + "\n")
    assert (await import_paths(db, [site])).retired == 2
    await engine.reload()
    assert engine.record_count == 1 and engine.matcher.index.get("r457") is None
    paste = (
        'Traceback (most recent call last):\n  File "/venv/lib/python3.11/site-packages/transformers/core.py", '
        "line 30, in f\nValueError: something went wrong with foo"
    )
    answer = await engine.answer(paste)
    assert answer.result.matches[0].located_version == "4.57.6"
    record = answer.record("site1")  # shown where the release the traceback matches raises it
    assert record is not None and record.line_number == 30 and "/blob/v4.57.6/" in (record.github_url or "")
