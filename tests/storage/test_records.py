"""storage/records.py: reads of the record store (autocomplete, the index revision)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from records.triage import Observation, PasteOrigin, TriageLimits
from storage.database import Database
from storage.importer import import_paths
from storage.records import RecordRepository
from storage.replies import ReplyRepository
from storage.triage import TriageRepository
from tests.conftest import SEED_IDS, SEEDS_JSONL, make_record


async def test_autocomplete_exact_id_prefixes_and_message_words(db: Database) -> None:
    await import_paths(db, [SEEDS_JSONL])
    repo = RecordRepository(db)
    assert next(s.id for s in await repo.autocomplete(SEED_IDS["cache"])) == SEED_IDS["cache"]
    assert [s.id for s in await repo.autocomplete("4d5e")] == [SEED_IDS["stateful"]]
    assert [s.id for s in await repo.autocomplete("assisted-generation")] == [SEED_IDS["stateful"]]
    assert [s.id for s in await repo.autocomplete("requires a CACHE")] == [SEED_IDS["cache"]]
    assert len(await repo.autocomplete("")) == 3 and await repo.autocomplete("100%_") == []


async def test_the_index_revision_moves_with_every_write_the_index_is_built_from(
    db: Database, write_jsonl: Callable[..., Path]
) -> None:
    repo = RecordRepository(db)
    seen = [(await repo.index_revision())[1]]
    await import_paths(db, [SEEDS_JSONL])  # new records
    seen.append((await repo.index_revision())[1])
    changed = make_record(id=SEED_IDS["cache"], errorMessage="a changed message about {name}")
    await import_paths(db, [write_jsonl([changed])])  # a changed record (staged, published, merged)
    seen.append((await repo.index_revision())[1])
    async with db.transaction() as conn:  # a maintainer's delete on the view
        await conn.execute("DELETE FROM records WHERE id = ?", (SEED_IDS["stateful"],))
    seen.append((await repo.index_revision())[1])
    triage = TriageRepository(db)
    await triage.log(_observation(), _origin(), TriageLimits(), "2026-03-01T10:00:00.000Z")
    seen.append((await repo.index_revision())[1])  # a new triage group is not in the index...
    await triage.link(1, SEED_IDS["cache"], ["bad thing {n} happened"], reviewer=None, now="2026-03-02T10:00:00.000Z")
    seen.append((await repo.index_revision())[1])  # ...its example is
    await triage.reopen(1, reviewer=None, now="2026-03-02T10:00:00.000Z")
    seen.append((await repo.index_revision())[1])
    assert len(set(seen)) == len(seen) - 1 and seen[3] == seen[4]
    version = await db.schema_version()
    assert all(revision.startswith(f"{version}.") for revision in seen)


async def test_reads_leave_the_index_revision_and_it_comes_with_the_watermark(db: Database) -> None:
    await import_paths(db, [SEEDS_JSONL])
    repo = RecordRepository(db)
    watermark, revision = await repo.index_revision()
    assert watermark == await repo.last_update() and watermark is not None
    [_ async for _ in repo.index_entries()]
    await repo.get(SEED_IDS["cache"])
    assert await repo.index_revision() == (watermark, revision)


async def test_two_databases_never_share_an_index_revision(tmp_path: Path) -> None:
    revisions = set()
    for name in ("a.db", "b.db"):
        async with await Database.open(tmp_path / name) as db:
            await import_paths(db, [SEEDS_JSONL])
            revisions.add((await RecordRepository(db).index_revision())[1])
    assert len(revisions) == 2


def _observation() -> Observation:
    return Observation(key="key0001", error_class="ValueError", masked="bad thing number 1 happened", sample="s")


def _origin() -> PasteOrigin:
    return PasteOrigin(channel_id=10, author_id=1, guild_id=100, message_id=1000)


def _release(version: str, line: int, record_id: str) -> dict[str, object]:
    return make_record(id=record_id, origin="mined", libraryVersion=version, lineNumber=line,
                       repo="huggingface/transformers", filePath="src/transformers/core.py")  # fmt: skip


async def test_a_site_record_of_several_releases_retires_the_per_release_ones(
    db: Database, write_jsonl: Callable[..., Path]
) -> None:
    # A database filled before sites carried their releases: one record per site and release.
    old = write_jsonl([_release("5.24.0", 100, "new524"), _release("4.57.6", 120, "old457")], "old.jsonl")
    assert (await import_paths(db, [old])).retired == 0
    replies = ReplyRepository(db)
    await replies.vote(reply_id=1, user_id=7, record_id="old457", helpful=True, guild_id=None)
    await replies.vote(reply_id=2, user_id=8, record_id="new524", helpful=False, guild_id=None)
    site = _release("5.24.0", 100, "site1") | {
        "versions": [{"version": "5.24.0", "lineNumber": 100}, {"version": "4.57.6", "lineNumber": 120}]
    }
    report = await import_paths(db, [write_jsonl([site], "site.jsonl")])
    assert (report.added, report.retired) == (1, 2)
    repo = RecordRepository(db)
    assert [s.id for s in await repo.summaries()] == ["site1"]
    entries = [e async for e in repo.index_entries()]
    assert [(e.id, e.version_lines) for e in entries] == [("site1", (("4.57.6", 120),))]
    counts = await replies.vote_count("site1")  # the votes on both old records now count for the site
    assert (counts.helpful, counts.not_helpful) == (1, 1)
    again = await import_paths(db, [write_jsonl([site], "site.jsonl")])
    assert again.retired == 0  # nothing left to retire
