"""The bot's repositories (storage/guilds.py, storage/replies.py) and the autocomplete read."""

from __future__ import annotations

from storage.database import Database
from storage.guilds import GuildRepository, StatusRepository
from storage.importer import import_paths
from storage.records import RecordRepository
from storage.replies import ReplyLink, ReplyRepository
from tests.conftest import SEED_IDS, SEEDS_JSONL

LINK = ReplyLink(
    message_id=1, channel_id=2, guild_id=3, author_id=4, reply_id=5, reply_channel_id=2, status="matched",
    record_ids=("abc",),
)  # fmt: skip


async def test_a_guild_nobody_configured_gets_the_defaults(db: Database) -> None:
    config = await GuildRepository(db).config(9)
    assert (config.reply_style, config.thread_policy, config.maintainer_role_id) == ("reply", "opener", None)
    assert config.allowed_channels == frozenset() and config.channel_modes == {}


async def test_guild_and_channel_changes_are_kept_and_seen_at_once(db: Database) -> None:
    repo = GuildRepository(db)
    await repo.config(9)  # cached before the change: the change must replace it
    await repo.update_guild(9, maintainer_role_id=77, reply_style="thread")
    await repo.update_channel(9, 100, allowed=True)
    await repo.update_channel(9, 101, mode="mention")
    changed = await repo.update_guild(9, thread_policy="everyone")
    assert changed.maintainer_role_id == 77 and changed.reply_style == "thread" and changed.thread_policy == "everyone"
    fresh = await GuildRepository(db).config(9)
    assert fresh == changed and fresh.allowed_channels == {100} and fresh.channel_modes == {101: "mention"}


async def test_a_channel_reset_to_defaults_is_forgotten(db: Database) -> None:
    repo = GuildRepository(db)
    await repo.update_channel(9, 100, allowed=True, mode="off")
    await repo.update_channel(9, 100, allowed=False, mode=None)
    config = await repo.config(9)
    assert config.allowed_channels == frozenset() and config.channel_modes == {}
    rows = await db.reader.execute_fetchall("SELECT count(*) FROM channel_settings")
    assert [tuple(row) for row in rows] == [(0,)]


async def test_reply_links_round_trip_and_are_forgotten_either_way(db: Database) -> None:
    repo = ReplyRepository(db)
    await repo.save(LINK)
    assert await repo.get(1) == LINK and await repo.by_reply(5) == LINK
    await repo.save(LINK.model_copy(update={"status": "ambiguous", "record_ids": ("a", "b")}))
    assert (await repo.get(1)).record_ids == ("a", "b")  # type: ignore[union-attr]
    assert await repo.forget_reply(5) is not None and await repo.get(1) is None
    await repo.save(LINK)
    assert await repo.forget(1) == LINK and await repo.forget(1) is None


async def test_votes_count_once_per_person_and_can_change(db: Database) -> None:
    repo = ReplyRepository(db)
    for user, helpful in ((1, True), (2, True), (1, False), (3, False)):
        await repo.vote(reply_id=5, user_id=user, record_id="abc", helpful=helpful, guild_id=3)
    count = await repo.vote_count("abc")
    assert (count.helpful, count.not_helpful) == (1, 2)
    assert (await repo.vote_count("none")).helpful == 0


async def test_heartbeat_and_write_probe(db: Database) -> None:
    status = StatusRepository(db)
    assert await status.heartbeat() is None
    await status.probe_write()
    await status.beat(latency_ms=41.5, guilds=2, pid=123)
    beat = await status.heartbeat()
    assert beat is not None and (beat.latency_ms, beat.guilds, beat.pid) == (41.5, 2, 123) and beat.at.endswith("Z")


async def test_autocomplete_exact_id_prefixes_and_message_words(db: Database) -> None:
    await import_paths(db, [SEEDS_JSONL])
    repo = RecordRepository(db)
    assert next(s.id for s in await repo.autocomplete(SEED_IDS["cache"])) == SEED_IDS["cache"]
    assert [s.id for s in await repo.autocomplete("4d5e")] == [SEED_IDS["stateful"]]
    assert [s.id for s in await repo.autocomplete("assisted-generation")] == [SEED_IDS["stateful"]]
    assert [s.id for s in await repo.autocomplete("requires a CACHE")] == [SEED_IDS["cache"]]
    assert len(await repo.autocomplete("")) == 3 and await repo.autocomplete("100%_") == []


async def test_a_vote_counts_once_per_person_whatever_message_carries_the_buttons(db: Database) -> None:
    repo = ReplyRepository(db)
    for reply_id in range(10, 20):  # ten ephemeral /error answers, ten Helpful clicks by one user
        await repo.vote(reply_id=reply_id, user_id=7, record_id="abc", helpful=True, guild_id=3)
    await repo.vote(reply_id=21, user_id=8, record_id="abc", helpful=True, guild_id=3)
    assert (await repo.vote_count("abc")).helpful == 2
    await repo.vote(reply_id=22, user_id=7, record_id="abc", helpful=False, guild_id=3)  # changed their mind
    count = await repo.vote_count("abc")
    assert (count.helpful, count.not_helpful) == (1, 1)
