"""storage/guilds.py: per-server settings, the heartbeat and the write probe."""

from __future__ import annotations

from storage.database import Database
from storage.guilds import GuildRepository, StatusRepository


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
    row = await db.fetch_one("SELECT count(*) AS n FROM channel_settings")
    assert row is not None and row["n"] == 0


async def test_heartbeat_and_write_probe(db: Database) -> None:
    status = StatusRepository(db)
    assert await status.heartbeat() is None
    await status.probe_write()
    await status.beat(latency_ms=41.5, guilds=2, pid=123)
    beat = await status.heartbeat()
    assert beat is not None and (beat.latency_ms, beat.guilds, beat.pid) == (41.5, 2, 123) and beat.at.endswith("Z")
