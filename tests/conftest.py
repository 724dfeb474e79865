"""Shared fixtures: a fresh database per test, the seed files, record factories."""

from __future__ import annotations

import asyncio
import atexit
import json
import os
import shutil
import sys
import tempfile
import textwrap
import threading
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from pathlib import Path
from typing import Any

import aiosqlite
import pytest
from hypothesis import settings

from records.mining import mine_tree
from records.model import Record
from storage.database import Database, SqliteDatabase
from storage.importer import import_paths
from tests import pg

# Speed is measured by the benchmarks, not asserted per example: a busy CI machine must not turn a
# slow example into a failure. Examples are derandomized (drawn from a fixed seed per test) so a
# run on CI draws what the last run here drew: a failing example is a bug to pin with @example, not
# a coin that CI tosses. `HYPOTHESIS_PROFILE=explore` draws ten times as many fresh examples when
# hunting for bugs. Tests leave the count to the profile (100 fixed examples in `make test`), except
# the few whose single example is expensive and which ask for fewer.
settings.register_profile("tracebot", deadline=None, derandomize=True, print_blob=True, max_examples=100)
settings.register_profile("explore", deadline=None, max_examples=1000)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "tracebot"))


# The test modules that take longest (seconds of one worker, quiet machine), in that order. `make
# test` hands whole modules to its two workers in collection order (`--dist loadfile
# --no-loadscope-reorder`); starting with the longest keeps one from running alone at the end while
# the other worker idles (xdist's own order, by test count, put a 13-second module last). A module
# missing from the list only costs speed.
LONGEST_FIRST = (
    "tests/storage/test_import_publish.py",  # 11
    "tests/records/test_mining.py",  # 10
    "tests/e2e/test_bot_e2e.py",  # 8
    "tests/records/matching/test_accuracy.py",  # 8
    "tests/e2e/test_shared_database.py",  # 7
    "tests/records/test_extraction.py",  # 6
    "tests/records/test_redact.py",  # 6
    "tests/records/redact/test_scanner.py",  # 6
    "tests/bot/test_cli.py",  # 5
    "tests/bot/test_engine.py",  # 4
    "tests/records/test_curated_environment.py",  # 4
    "tests/records/test_fingerprint.py",  # 4
)


def pytest_configure(config: pytest.Config) -> None:
    """Start the session's throw-away PostgreSQL cluster (in the controller; workers inherit its URL)."""
    if hasattr(config, "workerinput"):
        return
    config.stash[_PG_DIRECTORY] = pg.prepare_session()


def pytest_unconfigure(config: pytest.Config) -> None:
    """Stop the cluster the session started."""
    directory = config.stash.get(_PG_DIRECTORY, None)
    if directory is not None:
        pg.stop_cluster(directory)


_PG_DIRECTORY = pytest.StashKey[Path | None]()


# SimCord fails a test whose bot has not settled within `settle_timeout` seconds of real time (5 by
# default). On a loaded machine (`make test` at nice 19 beside other jobs, load 5.7) a healthy bot
# missed that once in 14 runs; a bot that really hangs still fails, after this long.
SIM_SETTLE_SECONDS = 30.0


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Put the longest test modules first; give SimCord tests a settle timeout a busy machine meets."""
    rank = {name: position for position, name in enumerate(LONGEST_FIRST)}
    # A stable sort: the tests of a module keep their order.
    items.sort(key=lambda item: rank.get(item.nodeid.partition("::")[0], len(rank)))
    for item in items:
        if item.get_closest_marker("simcord") is None:  # a test's own options win
            item.add_marker(pytest.mark.simcord(settle_timeout=SIM_SETTLE_SECONDS))


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item) -> Iterator[None]:
    """Run tests marked ``sweep`` without coverage's tracer (in xdist workers too).

    A sweep walks every shipped record or evaluation paste through code the unit tests already
    cover; traced, it would take three times as long. pytest-cov's own ``no_cover`` pause does not
    reach the tracer in xdist workers (measured: same CPU paused or not), so the tracer is lifted here.
    """
    tracer = sys.gettrace()
    if item.get_closest_marker("sweep") is None or tracer is None:
        return (yield)
    thread_tracer = threading.gettrace()
    sys.settrace(None)
    threading.settrace(None)
    try:
        return (yield)
    finally:
        threading.settrace(thread_tracer)
        sys.settrace(tracer)


ROOT = Path(__file__).resolve().parent.parent
SEEDS_JSONL = ROOT / "records" / "data" / "seeds.jsonl"
SHARED_SEEDS = ROOT.parent / "shared" / "seeds"
TEST_SEEDS = Path(__file__).resolve().parent / "data" / "seeds"

SEED_IDS = {
    "stateful": "4d5eb924124591f3",
    "decompose": "945e53733269f43c",
    "cache": "98bda666129646d4",
}


@pytest.fixture
def seeds_dir(tmp_path: Path) -> Path:
    """The three seed files in their published forms (a copy, safe to modify)."""
    target = tmp_path / "seeds"
    shutil.copytree(TEST_SEEDS, target)
    return target


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[SqliteDatabase]:
    """A fresh, migrated database file for one test."""
    database = await SqliteDatabase.open_file(database_file(tmp_path / "tracebot.db"))
    yield database
    await database.close()


def database_file(path: Path, *sources: Path) -> Path:
    """Put at ``path`` a new database file, migrated and holding the records of ``sources``.

    It is a copy of one that ``Database.open`` and ``import_paths`` built once per test process
    for these sources: migrating a new file through aiosqlite costs about 50 ms of CPU (twice that
    traced), and some 300 tests start from one. Tests of opening and migrating itself open new
    paths with ``Database.open`` instead. A source rewritten since (another size or change time)
    is built anew.
    """
    shutil.copyfile(_database_template(tuple(sources), _contents_key(sources)), path)
    return path


def _contents_key(sources: Sequence[Path]) -> tuple[tuple[str, int, int], ...]:
    """Name what the sources hold now: every file's path, size and change time (a folder's files)."""
    files = [f for s in sources for f in ([s] if s.is_file() else sorted(p for p in s.rglob("*") if p.is_file()))]
    return tuple((str(f), f.stat().st_size, f.stat().st_mtime_ns) for f in files)


@cache
def _database_template(sources: tuple[Path, ...], contents: tuple[tuple[str, int, int], ...]) -> Path:
    directory = Path(tempfile.mkdtemp(prefix="tracebot-template-"))
    atexit.register(shutil.rmtree, directory, ignore_errors=True)
    path = directory / "tracebot.db"
    # Its own thread and event loop: the first caller may be a test whose loop is already running.
    with ThreadPoolExecutor(max_workers=1) as pool:
        pool.submit(asyncio.run, _build_database(path, sources)).result()
    return path


async def _build_database(path: Path, sources: tuple[Path, ...]) -> None:
    database = await Database.open(path)
    try:
        if sources:
            await import_paths(database, sources)
    finally:
        await database.close()  # checkpoints the WAL: the main file alone holds everything


async def one_row(cursor: aiosqlite.Cursor) -> tuple[Any, ...]:
    """Return the row a query's cursor holds as a tuple; fail the test if the query found none."""
    row = await cursor.fetchone()
    assert row is not None, "the query returned no row"
    return tuple(row)


def make_record(**overrides: Any) -> dict[str, Any]:
    """Return a minimal valid record dict in the wire (camelCase) form."""
    record: dict[str, Any] = {
        "id": "rec0001",
        "repo": "example/lib",
        "slug": "something-went-wrong",
        "errorMessage": "something went wrong with {name}",
        "messagePattern": "something went wrong with (.+?)",
        "errorClass": "ValueError",
        "filePath": "src/lib/core.py",
        "lineNumber": 10,
        "schemaVersion": 2,
    }
    record.update(overrides)
    return record


@pytest.fixture
def write_jsonl(tmp_path: Path) -> Callable[..., Path]:
    """Write records (dicts) as a JSON Lines file and return its path."""

    def write(records: list[dict[str, Any]], name: str = "records.jsonl") -> Path:
        path = tmp_path / name
        path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
        return path

    return write


def mine_sources(root: Path, sources: dict[str, str]) -> list[Record]:
    """Mine example modules (file name -> source, dedented) written to ``root/pkg`` as acme/pkg v1.0."""
    for name, text in sources.items():
        path = root / "pkg" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    return mine_tree(root, repo="acme/pkg", ref="v1.0", library_version="1.0", workers=1).records


def record_starting(records: Sequence[Record], start: str) -> Record:
    """Return the one record whose message starts with ``start``; fail the test when there is not exactly one."""
    found = [r for r in records if r.error_message.startswith(start)]
    assert len(found) == 1, [r.error_message for r in records]
    return found[0]
