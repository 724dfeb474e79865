"""Tests for storage.triage: grouping, counts, places, capped samples, per-user caps, purge, review."""

from __future__ import annotations

from pathlib import Path

import pytest

from records.errors import TriageError, UnknownRecord, UnknownReport
from records.triage import Observation, PasteOrigin, TriageLimits
from storage.database import Database
from storage.importer import import_paths
from storage.triage import TriageRepository
from storage.triage_models import example_id
from tests.conftest import SEED_IDS

LIMITS = TriageLimits(samples_per_group=3, user_daily_pastes=50, user_daily_groups=10)
DAY1 = "2026-03-01T10:00:00.000Z"
DAY2 = "2026-03-02T10:00:00.000Z"


def obs(n: int = 1, *, libraries: dict[str, str | None] | None = None, sample: str = "sample") -> Observation:
    return Observation(
        key=f"key{n:04d}",
        error_class="ValueError",
        masked=f"bad thing number {n} happened at <path> with value <n>",
        sample=sample,
        libraries=libraries or {},
    )


def origin(author: int = 1, channel: int = 10, guild: int | None = 100, source: str = "unmatched") -> PasteOrigin:
    return PasteOrigin(
        channel_id=channel,
        author_id=author,
        guild_id=guild,
        message_id=author * 1000 + channel,
        jump_url=f"https://discord.com/channels/{guild or '@me'}/{channel}/{author}",
        source=source,
    )


@pytest.fixture
def repo(db: Database) -> TriageRepository:
    return TriageRepository(db)


@pytest.fixture
async def seeded(db: Database, seeds_dir: Path) -> Database:
    await import_paths(db, [seeds_dir])
    return db


async def test_a_group_counts_pastes_and_remembers_where(repo: TriageRepository) -> None:
    first = await repo.log(obs(libraries={"torch": None}), origin(author=1), LIMITS, DAY1)
    assert first.outcome == "logged" and first.new_group and first.sample_stored
    again = await repo.log(obs(libraries={"torch": "2.3.0"}), origin(author=2, channel=11), LIMITS, DAY2)
    dm = await repo.log(obs(), origin(author=3, channel=12, guild=None, source="not_helpful"), LIMITS, DAY2)
    assert not again.new_group and again.group is not None and dm.group is not None
    group = dm.group
    assert group.id == first.group.id if first.group else False
    assert (group.count, group.not_helpful, group.guilds, group.channels) == (3, 1, 1, 3)
    assert (group.first_seen, group.last_seen) == (DAY1, DAY2)
    assert group.libraries == {"torch": "2.3.0"}
    assert group.status == "new" and group.last_jump_url == "https://discord.com/channels/@me/12/3"
    report = await repo.report(group.id)
    assert report is not None
    assert [p.guild_id for p in report.places] == [100, 100, None]
    assert [s.source for s in report.samples] == ["not_helpful", "unmatched", "unmatched"]


async def test_samples_are_capped_newest_kept_one_per_author(repo: TriageRepository) -> None:
    for author in range(1, 6):
        await repo.log(obs(sample=f"sample {author}"), origin(author=author), LIMITS, DAY1)
    again = await repo.log(obs(sample="sample 5 again"), origin(author=5), LIMITS, DAY1)
    assert not again.sample_stored
    report = await repo.report(1)
    assert report is not None and report.group.count == 6
    assert [s.text for s in report.samples] == ["sample 5", "sample 4", "sample 3"]


async def test_one_user_cannot_flood_the_tables(repo: TriageRepository, db: Database) -> None:
    outcomes = [(await repo.log(obs(n), origin(author=666), LIMITS, DAY1)).outcome for n in range(200)]
    assert outcomes.count("logged") == LIMITS.user_daily_groups
    assert outcomes.count("group_limit") == LIMITS.user_daily_pastes - LIMITS.user_daily_groups
    assert outcomes.count("user_limit") == 200 - LIMITS.user_daily_pastes
    assert await repo.count() == LIMITS.user_daily_groups
    row = await db.fetch_one("SELECT count(*) AS n FROM triage_samples")
    assert row is not None and row["n"] == LIMITS.user_daily_groups
    # Others are not affected, and the flooder gets a fresh allowance the next day.
    assert (await repo.log(obs(5_000), origin(author=1), LIMITS, DAY1)).outcome == "logged"
    assert (await repo.log(obs(5_001), origin(author=666), LIMITS, DAY2)).outcome == "logged"


async def test_a_capped_user_still_counts_in_existing_groups(repo: TriageRepository) -> None:
    limits = TriageLimits(samples_per_group=3, user_daily_pastes=5, user_daily_groups=1)
    await repo.log(obs(1), origin(author=7), limits, DAY1)
    assert (await repo.log(obs(2), origin(author=7), limits, DAY1)).outcome == "group_limit"
    assert (await repo.log(obs(1), origin(author=7), limits, DAY1)).outcome == "logged"
    group = await repo.get(1)
    assert group is not None and group.count == 2


async def test_purge_deletes_old_samples_and_keeps_counts(repo: TriageRepository) -> None:
    await repo.log(obs(1), origin(author=1), LIMITS, "2026-01-01T00:00:00.000Z")
    await repo.log(obs(1), origin(author=2), LIMITS, DAY2)
    purged = await repo.purge("2026-02-01T00:00:00.000Z", "2026-03-01")
    assert (purged.samples, purged.user_days) == (1, 1)
    report = await repo.report(1)
    assert report is not None and report.group.count == 2
    assert [s.created_at for s in report.samples] == [DAY2]


async def test_groups_are_listed_by_count_and_filtered(repo: TriageRepository) -> None:
    for n, times in ((1, 1), (2, 3), (3, 2)):
        for author in range(times):
            await repo.log(obs(n), origin(author=author), LIMITS, DAY1)
    assert [g.id for g in await repo.groups()] == [2, 3, 1]
    assert [g.id for g in await repo.groups(limit=2, offset=1)] == [3, 1]
    await repo.dismiss(3, "noise", reviewer=42, now=DAY2)
    assert [g.id for g in await repo.groups(status="new")] == [2, 1]
    assert [g.id for g in await repo.groups(status="dismissed")] == [3]
    assert (await repo.count("dismissed"), await repo.count()) == (1, 3)


async def test_link_adds_examples_and_reopen_removes_them(repo: TriageRepository, seeded: Database) -> None:
    await repo.log(obs(1), origin(), LIMITS, DAY1)
    record = SEED_IDS["stateful"]
    review = await repo.link(1, record, ["bad thing {n} happened"], reviewer=42, now=DAY2)
    assert review.group.status == "linked" and review.group.record_id == record
    assert review.group.reviewed_by == 42
    [example] = review.added
    entry = example.index_entry()
    assert entry.id == example_id(record, 1) == f"{record}~ex1" and entry.alias_of == record
    assert entry.repo == "huggingface/transformers" and entry.file_path == "src/transformers/generation/utils.py"
    assert [e.id async for e in repo.example_entries()] == [entry.id]
    reopened = await repo.reopen(1, reviewer=42, now=DAY2)
    assert reopened.group.status == "new" and reopened.group.record_id is None
    assert reopened.removed == [entry.id]
    assert [e async for e in repo.example_entries()] == []
    assert await repo.removed_example_ids() == [entry.id]
    relinked = await repo.link(1, record, ["bad thing {n} happened"], reviewer=None, now=DAY2)
    assert [e.entry_id for e in relinked.added] == [entry.id]  # the same example comes back
    assert await repo.removed_example_ids() == []


async def test_dismissing_a_linked_group_drops_its_examples(repo: TriageRepository, seeded: Database) -> None:
    await repo.log(obs(1), origin(), LIMITS, DAY1)
    await repo.link(1, SEED_IDS["cache"], ["bad thing {n} happened"], reviewer=None, now=DAY2)
    review = await repo.dismiss(1, "a user typo", reviewer=9, now=DAY2)
    assert review.group.status == "dismissed" and review.group.reason == "a user typo"
    assert review.removed == [example_id(SEED_IDS["cache"], 1)]


async def snapshot(db: Database) -> list[object]:
    rows: list[object] = []
    for table in ("triage_groups", "triage_examples", "triage_samples", "triage_places", "triage_user_days"):
        rows.append([tuple(r) for r in await db.fetch(f"SELECT * FROM {table} ORDER BY 1")])
    return rows


async def test_unknown_report_or_record_changes_nothing(repo: TriageRepository, seeded: Database) -> None:
    await repo.log(obs(1), origin(), LIMITS, DAY1)
    before = await snapshot(seeded)
    with pytest.raises(UnknownReport, match="no triage report with id 99"):
        await repo.link(99, SEED_IDS["cache"], ["bad thing {n}"], reviewer=None, now=DAY2)
    with pytest.raises(UnknownRecord, match="no record with id or slug 'nope'"):
        await repo.link(1, "nope", ["bad thing {n}"], reviewer=None, now=DAY2)
    with pytest.raises(UnknownReport):
        await repo.dismiss(99, "x", reviewer=None, now=DAY2)
    with pytest.raises(UnknownReport):
        await repo.reopen(99, reviewer=None, now=DAY2)
    assert await snapshot(seeded) == before
    assert await repo.get(99) is None and await repo.report(99) is None


def framed(n: int, frame: str = "", detail: str = "") -> Observation:
    """An observation of error n, with or without a library frame (its key then differs)."""
    plain = obs(n)
    key = f"key{n:04d}" + (f"@{frame}" if frame else "")
    return Observation(
        key=key, error_class=plain.error_class, masked=plain.masked, sample=f"sample {detail}",
        frame=frame, loose_key=plain.key, detail=detail or plain.masked,
    )  # fmt: skip


async def test_a_bare_final_line_and_a_traceback_of_one_error_group_together(repo: TriageRepository) -> None:
    traced = await repo.log(framed(1, "lib/core.py:run"), origin(author=1), LIMITS, DAY1)
    bare = await repo.log(framed(1), origin(author=2), LIMITS, DAY1)
    elsewhere = await repo.log(framed(1, "lib/other.py:go"), origin(author=3), LIMITS, DAY1)
    assert traced.group is not None and bare.group is not None and elsewhere.group is not None
    assert bare.group.id == traced.group.id and bare.group.people == 2
    assert elsewhere.group.id != traced.group.id  # raised elsewhere in the library: another error
    assert traced.group.frame == "lib/core.py:run"


async def test_a_message_cut_short_finds_its_group(repo: TriageRepository) -> None:
    long = Observation(
        key="a", error_class="OSError", masked="Can't load tokenizer for '<repo>'. Check the path.", sample="s"
    )
    cut = Observation(key="b", error_class="OSError", masked="Can't load tokenizer for '<path>'", sample="s")
    short = Observation(key="c", error_class="OSError", masked="Can't load", sample="s")
    first = await repo.log(long, origin(author=1), LIMITS, DAY1)
    again = await repo.log(cut, origin(author=2), LIMITS, DAY1)
    other = await repo.log(short, origin(author=3), LIMITS, DAY1)
    assert first.group and again.group and other.group
    assert again.group.id == first.group.id and other.group.id != first.group.id  # too short to say


async def test_merge_moves_everything_and_routes_future_pastes(repo: TriageRepository) -> None:
    a = await repo.log(obs(1, libraries={"torch": "2.3.0"}), origin(author=1), LIMITS, DAY1)
    b = await repo.log(obs(2, libraries={"torch": "2.4.1"}), origin(author=2, channel=11), LIMITS, DAY2)
    await repo.log(obs(2), origin(author=3, channel=11), LIMITS, DAY2)
    assert a.group is not None and b.group is not None
    review = await repo.merge(b.group.id, a.group.id, DAY2)
    group = review.group
    assert (group.id, group.count, group.people, group.channels) == (a.group.id, 3, 3, 2)
    assert group.versions == {"torch": ["2.3.0", "2.4.1"]} and (group.first_seen, group.last_seen) == (DAY1, DAY2)
    assert await repo.get(b.group.id) is None and await repo.merged_into(b.group.id) == a.group.id
    later = await repo.log(obs(2), origin(author=4), LIMITS, DAY2)
    assert later.group is not None and later.group.id == a.group.id and not later.new_group
    report = await repo.report(a.group.id)
    assert report is not None and len(report.samples) == LIMITS.samples_per_group


@pytest.mark.parametrize(
    ("source", "into", "message"),
    [(1, 1, "cannot merge report #1 into itself"), (1, 99, "no triage report with id 99"), (99, 1, "id 99")],
)
async def test_bad_merges_change_nothing(repo: TriageRepository, source: int, into: int, message: str) -> None:
    await repo.log(obs(1), origin(author=1), LIMITS, DAY1)
    before = await repo.report(1)
    with pytest.raises(TriageError, match=message):
        await repo.merge(source, into, DAY2)
    assert await repo.report(1) == before


async def test_merging_a_linked_group_into_a_new_one_keeps_the_link(seeded: Database) -> None:
    repo = TriageRepository(seeded)
    await repo.log(obs(1), origin(author=1), LIMITS, DAY1)
    await repo.log(obs(2), origin(author=2), LIMITS, DAY1)
    await repo.link(2, SEED_IDS["stateful"], ["bad thing number {n} happened"], None, DAY1)
    review = await repo.merge(2, 1, DAY2)
    assert review.group.status == "linked" and review.group.record_id == SEED_IDS["stateful"]
    assert review.removed == [] and len([e async for e in repo.example_entries()]) == 1


async def test_split_moves_samples_and_its_rule_routes_future_pastes(repo: TriageRepository) -> None:
    for author, detail in ((1, "one"), (2, "two"), (3, "one")):
        await repo.log(framed(1, detail=detail), origin(author=author), LIMITS, DAY1)
    report = await repo.report(1)
    assert report is not None
    moved = [s.id for s in report.samples if s.detail == "two"]
    new_id = await repo.split(1, sample_ids=moved, part="message", values=["two"], now=DAY2)
    old, new = await repo.get(1), await repo.get(new_id)
    assert old is not None and new is not None
    assert (old.count, old.people, new.count, new.people) == (2, 2, 1, 1)
    later = await repo.log(framed(1, detail="two"), origin(author=4), LIMITS, DAY2)
    stays = await repo.log(framed(1, detail="one"), origin(author=5), LIMITS, DAY2)
    assert later.group is not None and later.group.id == new_id
    assert stays.group is not None and stays.group.id == 1
    # Merging the split group back drops its rule: pastes come home again.
    await repo.merge(new_id, 1, DAY2)
    back = await repo.log(framed(1, detail="two"), origin(author=6), LIMITS, DAY2)
    assert back.group is not None and back.group.id == 1


async def test_unanswered_samples_are_recent_replyable_and_answered_once(repo: TriageRepository) -> None:
    await repo.log(obs(1), origin(author=1), LIMITS, DAY1)
    await repo.log(obs(1), origin(author=2), LIMITS, DAY2)
    waiting = await repo.unanswered(DAY2, 1)
    assert [(s.author_id, s.message_id, s.channel_id) for s in waiting] == [(2, 2010, 10)]
    await repo.mark_answered([s.id for s in waiting], DAY2)
    assert [s.author_id for s in await repo.unanswered(DAY1)] == [1]  # older, still waiting
