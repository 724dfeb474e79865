"""Run tracebot with triage in SimCord: a guild with #help and #triage, its owner and a member, helpers.

Import the fixtures in a test module: ``from tests.bot.exts.triage.simtriage import sim_fixture, simcord_bot_fixture``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import discord
import pytest
import simcord

from bot.client import Services, TracebotBot
from bot.engine import Engine
from bot.settings import Settings, TriageSettings
from bot.triage_service import TriageService
from records.triage import PasteOrigin
from storage.database import Database
from tests.conftest import SEED_IDS, SEEDS_JSONL, database_file

DEV_GUILD = 1_300_000_000_000_000_011
RECORD = SEED_IDS["stateful"]
TOKEN = "hf_COGq7Zt3Wv9Xy2Bn4Mk6Lp8Rs1Tu5Vw0abcd"
OTHER_TOKEN = "hf_ZZZq7Zt3Wv9Xy2Bn4Mk6Lp8Rs1Tu5Vw0wxyz"


def paste(token: str = TOKEN, status: int = 403, words: str = "access denied") -> str:
    return (
        "Traceback (most recent call last):\n"
        '  File "/home/alice/app/main.py", line 8, in <module>\n'
        "    client.fetch(repo)\n"
        f"PermissionError: {words} for token {token} while reading /home/alice/x.bin (status {status})\n"
    )


@dataclass
class Sim:
    env: simcord.Env
    bot: TracebotBot
    service: TriageService
    guild: simcord.GuildHandle
    help: simcord.ChannelHandle
    triage: simcord.ChannelHandle
    owner: simcord.MemberActor
    member: simcord.MemberActor


@pytest.fixture(name="simcord_bot")
async def simcord_bot_fixture(tmp_path: Path) -> AsyncIterator[TracebotBot]:
    db = await Database.open(database_file(tmp_path / "tracebot.db", SEEDS_JSONL))
    engine = await Engine.load(db)
    triage_settings = TriageSettings(page_size=2, notify_count=3)
    settings = Settings(
        _env_file=None, db=db.path, dev_guild=DEV_GUILD, user_cooldown=0, channel_cooldown=0,
        global_budget=0, heartbeat_interval=0, reload_interval=0, triage=triage_settings,
    )  # fmt: skip
    bot = TracebotBot(Services.build(settings, db, engine, None), extensions=("bot.exts.answers", "bot.exts.triage"))
    try:
        yield bot
    finally:
        await db.close()


@pytest.fixture(name="sim")
async def sim_fixture(simcord_env: simcord.Env, simcord_bot: TracebotBot) -> Sim:
    env = simcord_env
    alice = env.create_user("alice")
    guild = env.create_guild("Triage Test", id=DEV_GUILD, owner=alice)
    help_channel, triage_channel = guild.create_text_channel("help"), guild.create_text_channel("triage")
    owner = guild.add_member(alice)
    member = guild.add_member(env.create_user("bob"))
    service = simcord_bot.services.triage
    service.settings.notify_channel_id = triage_channel.id
    await env.settle()
    return Sim(env, simcord_bot, service, guild, help_channel, triage_channel, owner, member)


def bot_messages(sim: Sim, channel: simcord.ChannelHandle) -> list[discord.Message]:
    me = sim.bot.user
    assert me is not None
    return [m for m in channel.history() if m.author.id == me.id]


async def log_directly(sim: Sim, text: str, author: int) -> int:
    result = await sim.service.log_paste(
        text, PasteOrigin(channel_id=sim.help.id, author_id=author, guild_id=DEV_GUILD)
    )
    assert result.group is not None
    return result.group.id


KEY_PASTE = (
    "Traceback (most recent call last):\n"
    '  File "/home/{user}/run.py", line 3, in <module>\n'
    "    model = AutoModel.from_pretrained(path)\n"
    '  File "/venv/lib/python3.11/site-packages/tokenmap/maps.py", line 40, in lookup\n'
    "    raise KeyError(key)\n"
    "KeyError: '{key}' not found in token map\n"
)


def key_paste(user: str = "alice", key: str = "input_ids") -> str:
    return KEY_PASTE.format(user=user, key=key)


def answers_to(sim: Sim, message: discord.Message) -> list[discord.Message]:
    return [m for m in bot_messages(sim, sim.help) if m.reference and m.reference.message_id == message.id and m.embeds]
