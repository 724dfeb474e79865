"""Run the real ``TracebotBot`` in SimCord: a seeded database, a fake paste source, a guild with people.

Import the fixtures in a test module: ``from tests.bot.simbot import sim_fixture, simcord_bot_fixture``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

import discord
import pytest
import simcord

from bot.client import Services, TracebotBot
from bot.engine import Engine
from bot.exts.answers import Answers
from bot.settings import Settings
from storage.database import Database
from tests.conftest import SEEDS_JSONL, database_file

DEV_GUILD = 1_300_000_000_000_000_001
STATEFUL = (
    "Traceback (most recent call last):\n"
    '  File "/home/a/spec.py", line 12, in <module>\n'
    "    out = model.generate(**inputs, assistant_model=draft)\n"
    '  File "/home/a/.venv/lib/python3.11/site-packages/transformers/generation/utils.py", line 1581, in generate\n'
    "    raise ValueError(\n"
    "ValueError: assisted generation is not supported with stateful models, such as MambaForCausalLM\n"
)
CACHE = "RuntimeError: assisted decoding requires a cache"
UNMATCHED = "ValueError: the quantum flux capacitor refused configuration zeta-nine"


@dataclass
class FakePastes:
    """A paste source serving canned texts by URL (no network)."""

    texts: dict[str, str] = field(default_factory=dict)
    fetched: list[str] = field(default_factory=list)

    def links(self, text: str) -> list[str]:
        """Return the known URLs that appear in ``text``."""
        return [url for url in self.texts if url in text]

    async def fetch(self, url: str) -> str | None:
        """Return the canned text of ``url``."""
        self.fetched.append(url)
        return self.texts.get(url)


def settings_for_tests(db_path: Path, **overrides: Any) -> Settings:
    """Return settings for a bot under test: dev guild pinned, no cooldowns, no background loops."""
    values: dict[str, Any] = {
        "db": db_path,
        "dev_guild": DEV_GUILD,
        "user_cooldown": 0,
        "channel_cooldown": 0,
        "global_budget": 0,
        "heartbeat_interval": 0,
        "reload_interval": 0,
    }
    return Settings(_env_file=None, **(values | overrides))


async def seeded_services(tmp_path: Path, pastes: FakePastes | None = None, **overrides: Any) -> Services:
    """Open a fresh database with the seed records and build the bot's services over it."""
    db = await Database.open(database_file(tmp_path / "tracebot.db", SEEDS_JSONL))
    engine = await Engine.load(db)
    return Services.build(settings_for_tests(db.path, **overrides), db, engine, pastes)


@dataclass
class Sim:
    """A running SimCord environment with tracebot in a guild."""

    env: simcord.Env
    bot: TracebotBot
    services: Services
    pastes: FakePastes
    guild: simcord.GuildHandle
    help: simcord.ChannelHandle
    other: simcord.ChannelHandle
    owner: simcord.MemberActor
    member: simcord.MemberActor
    stranger: simcord.MemberActor
    events: dict[str, list[Any]]

    @property
    def me(self) -> discord.ClientUser:
        """The bot's own user: SimCord has logged the bot in before any test runs."""
        me = self.bot.user
        assert me is not None, "the bot is not logged in"
        return me


def _record_events(bot: TracebotBot, events: dict[str, list[Any]]) -> None:
    async def on_paste_unmatched(event: Any) -> None:
        events["paste_unmatched"].append(event)

    async def on_answer_not_helpful(event: Any) -> None:
        events["answer_not_helpful"].append(event)

    bot.add_listener(on_paste_unmatched)
    bot.add_listener(on_answer_not_helpful)


@pytest.fixture(name="simcord_bot")
async def simcord_bot_fixture(tmp_path: Path) -> AsyncIterator[TracebotBot]:
    """Build tracebot over a seeded database (SimCord's ``simcord_env`` runs it)."""
    services = await seeded_services(tmp_path, FakePastes())
    bot = TracebotBot(services)
    try:
        yield bot
    finally:
        await services.db.close()


@pytest.fixture(name="sim")
async def sim_fixture(simcord_env: simcord.Env, simcord_bot: TracebotBot) -> Sim:
    """A guild (#help, #other) with its owner alice, a member bob and a stranger carol."""
    env, bot = simcord_env, simcord_bot
    events: dict[str, list[Any]] = {"paste_unmatched": [], "answer_not_helpful": []}
    _record_events(bot, events)
    owner_user = env.create_user("alice")
    guild = env.create_guild("Tracebot Test", id=DEV_GUILD, owner=owner_user)
    help_channel, other = guild.create_text_channel("help"), guild.create_text_channel("other")
    owner = guild.add_member(owner_user)
    member = guild.add_member(env.create_user("bob"))
    stranger = guild.add_member(env.create_user("carol"))
    await env.settle()
    pastes = bot.services.pastes
    assert isinstance(pastes, FakePastes)
    return Sim(env, bot, bot.services, pastes, guild, help_channel, other, owner, member, stranger, events)


def answers(sim: Sim, channel: simcord.ChannelHandle) -> list[discord.Message]:
    """Return tracebot's own messages in a channel, oldest first."""
    return [m for m in channel.history() if m.author.id == sim.me.id]


def answers_cog(sim: Sim) -> Answers:
    """Return the running answers cog.

    By name, not by ``isinstance``: a bot that closes unloads its extensions, which drops their modules,
    so the next bot loads a fresh copy of the ``Answers`` class.
    """
    cog = sim.bot.get_cog("Answers")
    assert cog is not None and type(cog).__qualname__ == Answers.__qualname__, f"no answers cog: {cog!r}"
    return cast(Answers, cog)  # the same class, loaded again: see above


def response_of(result: simcord.InteractionResult) -> simcord.ResponseMessage:
    """Return the message the bot answered an interaction with; fail the test if it sent none."""
    response = result.response
    assert response is not None, f"the bot answered with no message: {result!r}"
    return response


def footer_text(message: discord.Message | simcord.ResponseMessage) -> str:
    """Return the footer text of a message's first embed; fail the test if it has none."""
    assert message.embeds, f"no embed in {message!r}"
    text = message.embeds[0].footer.text
    assert text is not None, f"the first embed of {message!r} has no footer"
    return text


def posted_bodies(sim: Sim) -> list[dict[str, Any]]:
    """Return the JSON bodies of every message the bot created (sent or followed up), oldest first."""
    posts = [r for r in sim.env.http_requests if r.method == "POST" and r.path.endswith("/messages")]
    return [r.json for r in posts if isinstance(r.json, dict)]
