"""Two bot processes, two shards each, on one PostgreSQL database, through the local Discord server.

Discord sends each server's events to one shard (``(guild_id >> 22) % shards``; the local server
does the same): every paste is answered exactly once, by the process that runs its server's shard,
and an unexplained error seen in servers of both processes is one triage group.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from storage.database import Database
from storage.importer import import_paths
from storage.triage import TriageRepository
from tests import pg
from tests.bot.simbot import CACHE, STATEFUL, UNMATCHED
from tests.conftest import SEEDS_JSONL
from tests.e2e.test_bot_e2e import CACHE_ID, REPLY, BotProcess, footer
from tests.fakediscord import FakeDiscord
from tests.fakediscord import payloads as p

pytestmark = [pytest.mark.e2e]
SHARDS = 4
SERVERS = 8
PASTES = 48


def add_servers(fake: FakeDiscord) -> list[int]:
    """Add ``SERVERS`` servers (two on each shard), each with the bot, a member and a help channel."""
    world, cast = fake.world, fake.cast
    base = (world.ids.next() >> 22) // SHARDS * SHARDS
    channels = []
    for n in range(SERVERS):
        guild_id = world.add_guild(f"Server {n}", cast.owner, guild_id=(base + n) << 22)
        role = world.add_role(guild_id, "tracebot", permissions=p.ADMINISTRATOR)
        world.add_member(guild_id, cast.bot, [role])
        world.add_member(guild_id, cast.member)
        channels.append(int(world.add_channel(guild_id, "help")["id"]))
    return channels


def shard_of(fake: FakeDiscord, channel_id: int) -> int:
    """Return the shard Discord sends a channel's messages to."""
    guild_id = fake.world.guild_id_of(channel_id)
    assert guild_id is not None
    return (guild_id >> 22) % SHARDS


def replies_per_paste(fake: FakeDiscord) -> collections.Counter[str]:
    """Count the bot's replies to each message."""
    counts: collections.Counter[str] = collections.Counter()
    for message in fake.sent_messages():
        reference = message.get("message_reference") or {}
        if "message_id" in reference:
            counts[str(reference["message_id"])] += 1
    return counts


@contextlib.asynccontextmanager
async def two_sharded_bots(
    fake: FakeDiscord, url: str, workdir: Path, extra: dict[str, str] | None = None, *, swapped: bool = False
) -> AsyncIterator[list[BotProcess]]:
    """Run two bot processes on ``url``, shards 0,1 and 2,3 of 4 (``swapped``: the other way round).

    They are stopped after the block, and must have exited 0.
    """
    bots = []
    for name, ids in (("a", "2,3" if swapped else "0,1"), ("b", "0,1" if swapped else "2,3")):
        (workdir / name).mkdir(exist_ok=True)
        shards = {"TRACEBOT_DB": url, "TRACEBOT_SHARD_COUNT": str(SHARDS), "TRACEBOT_SHARD_IDS": ids}
        bots.append(BotProcess(fake, url, workdir / name, settings=shards | (extra or {})))
    try:
        await asyncio.gather(*(bot.start() for bot in bots))
        await fake.recorder.wait_until(lambda: fake.gateway.ready_count() >= SHARDS or None, 120, "4 shards")
        yield bots
    finally:
        statuses = [await bot.stop() for bot in bots]
    assert statuses == [0, 0], [bot.log_tail() for bot in bots]


async def wait_for_replies(fake: FakeDiscord, wanted: Callable[[collections.Counter[str]], bool]) -> None:
    """Wait until the replies satisfy ``wanted`` (a bound against a bot that never answers, not a speed figure)."""
    for _ in range(600):
        if wanted(replies_per_paste(fake)):
            break
        await asyncio.sleep(0.1)
    await asyncio.sleep(1)  # a reply too many would arrive by now


async def test_two_processes_answer_their_own_shards_once_each_and_share_triage(tmp_path: Path) -> None:
    async with pg.fresh_database() as url, FakeDiscord() as fake:
        db = await Database.open(url)
        try:
            await import_paths(db, [SEEDS_JSONL])
            channels = add_servers(fake)
            assert {shard_of(fake, c) for c in channels} == set(range(SHARDS))
            async with two_sharded_bots(fake, url, tmp_path) as bots:
                sent = []
                for n in range(PASTES):
                    text = UNMATCHED if n % 4 == 3 else CACHE
                    sent.append((await fake.create_message(channels[n % SERVERS], fake.member_user, text), text))
                answerable = {m["id"] for m, t in sent if t != UNMATCHED}
                await wait_for_replies(fake, lambda replies: answerable <= set(replies))
            replies = replies_per_paste(fake)
            assert {m: replies[m] for m in answerable} == dict.fromkeys(answerable, 1)
            groups = await TriageRepository(db).groups()
            assert [g.count for g in groups] == [PASTES // 4]  # one group, from servers of both processes
            for bot in bots:
                log = bot.log_tail(2000).lower()
                assert "deadlock" not in log and "serializ" not in log and "traceback" not in log, bot.log_tail()
        finally:
            await db.close()


async def test_the_global_budget_is_one_budget_for_both_processes(tmp_path: Path) -> None:
    budget = 6
    async with pg.fresh_database() as url, FakeDiscord() as fake:
        db = await Database.open(url)
        try:
            await import_paths(db, [SEEDS_JSONL])
            channels = add_servers(fake)
            limits = {"TRACEBOT_GLOBAL_BUDGET": str(budget), "TRACEBOT_GLOBAL_WINDOW": "3600"}
            async with two_sharded_bots(fake, url, tmp_path, limits):
                for n in range(4 * budget):  # every server, both processes, four times the budget
                    await fake.create_message(channels[n % SERVERS], fake.member_user, CACHE)
                await wait_for_replies(fake, lambda replies: sum(replies.values()) >= budget)
                # Each process alone would have sent `budget`; together they send it once. The rest wait.
                assert sum(replies_per_paste(fake).values()) == budget
        finally:
            await db.close()


async def test_a_reply_made_by_one_process_is_updated_by_the_other(tmp_path: Path) -> None:
    # The servers change hands between the processes (restarted with their shards swapped): the
    # reply link in the shared database lets the new owner edit the first owner's reply.
    async with pg.fresh_database() as url, FakeDiscord() as fake:
        db = await Database.open(url)
        try:
            await import_paths(db, [SEEDS_JSONL])
            channels = add_servers(fake)
            async with two_sharded_bots(fake, url, tmp_path):
                pastes = [await fake.create_message(c, fake.member_user, STATEFUL) for c in channels]
                await wait_for_replies(fake, lambda replies: {m["id"] for m in pastes} <= set(replies))
            replies = {str(m["message_reference"]["message_id"]): m for m in fake.sent_messages()
                       if (m.get("message_reference") or {}).get("message_id")}  # fmt: skip
            async with two_sharded_bots(fake, url, tmp_path, swapped=True):
                start = len(fake.requests)
                for paste in pastes:
                    await fake.edit_message(int(paste["id"]), content=CACHE)
                for paste in pastes:
                    edit = await fake.wait_for_request(_edit_of(replies[paste["id"]]["id"]), start=start)
                    assert edit.status == 200 and f"record {CACHE_ID}" in footer(edit.json)
        finally:
            await db.close()


def _edit_of(reply_id: str) -> Callable[[Any], bool]:
    """Match the request that edits the reply ``reply_id``."""
    return lambda request: bool(request.is_("PATCH", REPLY) and request.path.endswith(reply_id))
