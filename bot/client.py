"""The Discord client: a ``commands.Bot`` built from injected services, and where it connects to.

The entry point builds ``Services`` once (settings, database, engine, repositories, paste fetcher)
and hands them to ``TracebotBot``; extensions read them from ``bot.services``. ``setup_hook`` loads
the features, registers the persistent answer components and syncs commands to the development guild
only; global sync is ``tracebot sync-commands``.
"""

from __future__ import annotations

import asyncio
import logging
import math
import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import discord
import yarl
from discord import app_commands
from discord.ext import commands

from bot.constants import NO_MENTIONS
from bot.engine import Engine
from bot.metrics import Metrics
from bot.pastes import PasteSource
from bot.settings import Settings
from bot.triage_service import TriageService
from bot.views import PERSISTENT_ITEMS, ComponentActions
from records.errors import StorageError
from storage.database import Database
from storage.guilds import GuildRepository, StatusRepository
from storage.replies import ReplyRepository

log = logging.getLogger(__name__)

EXTENSIONS = ("bot.exts.answers", "bot.exts.lookup", "bot.exts.admin", "bot.exts.triage")


@dataclass
class Services:
    """Everything the features need, built once by the entry point."""

    settings: Settings
    db: Database
    engine: Engine
    guilds: GuildRepository
    replies: ReplyRepository
    status: StatusRepository
    triage: TriageService
    pastes: PasteSource | None = None
    metrics: Metrics | None = None

    @classmethod
    def build(
        cls,
        settings: Settings,
        db: Database,
        engine: Engine,
        pastes: PasteSource | None,
        metrics: Metrics | None = None,
    ) -> Services:
        """Create the repositories and the triage service over ``db``."""
        repos = GuildRepository(db), ReplyRepository(db), StatusRepository(db)
        triage = TriageService(db, settings.triage, engine=engine)
        return cls(settings, db, engine, *repos, triage, pastes=pastes, metrics=metrics)


def point_discord_at(api_url: str, gateway_url: str | None) -> None:
    """Send discord.py's REST calls to ``api_url`` and its gateway connection to ``gateway_url``."""
    # Both are read when used (Route.BASE when a route is built, DEFAULT_GATEWAY on connect), so this
    # must run before login; discord.py 2.7 needs both for a proxy or a local Discord-compatible server.
    discord.http.Route.BASE = api_url.rstrip("/")
    if gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)


def default_intents() -> discord.Intents:
    """Return the intents tracebot needs: guilds, messages and (privileged) message content."""
    intents = discord.Intents.default()
    intents.message_content = True
    intents.typing = intents.presences = intents.members = False
    return intents


class TracebotBot(commands.Bot):
    """tracebot on Discord: answers pastes, slash commands and the answers' buttons."""

    def __init__(
        self,
        services: Services,
        *,
        intents: discord.Intents | None = None,
        extensions: Sequence[str] = EXTENSIONS,
        **options: Any,
    ) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents or default_intents(),
            allowed_mentions=NO_MENTIONS,
            help_command=None,
            **options,
        )
        self.services = services
        self.feature_modules = tuple(extensions)
        self.component_actions: ComponentActions | None = None
        self._heartbeat: asyncio.Task[None] | None = None
        self._watcher: asyncio.Task[None] | None = None
        self._closing = False  # set when close() starts; discord.py's is_closed() only later
        self.fatal: str | None = None  # why the bot stopped itself, for the exit line

    async def setup_hook(self) -> None:
        """Load the features, register persistent components, sync commands to the dev guild."""
        for extension in self.feature_modules:
            await self.load_extension(extension)
        self.add_dynamic_items(*PERSISTENT_ITEMS)
        interval = self.services.settings.reload_interval
        if interval > 0:  # records imported into the live database are answered without a restart
            self._watcher = asyncio.create_task(self._watch(interval), name="tracebot-reload")
        self.tree.error(self.on_app_command_error)
        if self.services.settings.dev_guild:
            await self._sync_dev_guild(self.services.settings.dev_guild)

    async def _sync_dev_guild(self, guild_id: int) -> None:
        guild = discord.Object(guild_id)
        self.tree.copy_global_to(guild=guild)
        try:
            synced = await self.tree.sync(guild=guild)
        except discord.HTTPException as exc:  # a wrong dev guild must not keep the bot from answering
            log.error("could not sync commands to development guild %s: %s %s", guild_id, exc.status, exc.text)
            return
        log.info("synced %d commands to development guild %s", len(synced), guild_id)

    async def on_ready(self) -> None:
        """Log the connection and start the heartbeat ``tracebot health`` checks."""
        log.info("connected as %s (%s) to %d guilds", self.user, self.user and self.user.id, len(self.guilds))
        interval = self.services.settings.heartbeat_interval
        # A READY can arrive while close() runs (a SIGTERM during the connect): a heartbeat started
        # then would outlive the database, which closes next.
        if interval > 0 and self._heartbeat is None and not self._closing:
            self._heartbeat = asyncio.create_task(self._beat(interval), name="tracebot-heartbeat")

    async def on_message(self, message: discord.Message, /) -> None:
        """Do nothing here: tracebot has no prefix commands; the answers feature listens to messages."""

    async def on_app_command_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        """Log a failed command and tell the caller privately."""
        name = interaction.command.qualified_name if interaction.command else "?"
        log.error("command %s failed", name, exc_info=error)
        text = "Something went wrong while answering that; the error was logged."
        try:
            if interaction.response.is_done():
                await interaction.followup.send(text, ephemeral=True, allowed_mentions=NO_MENTIONS)
            else:
                await interaction.response.send_message(text, ephemeral=True, allowed_mentions=NO_MENTIONS)
        except discord.HTTPException:
            log.warning("could not report the failure of command %s", name)

    async def close(self) -> None:
        """Stop the background tasks, then close the gateway and the HTTP session."""
        self._closing = True
        tasks = [task for task in (self._heartbeat, self._watcher) if task is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._heartbeat = self._watcher = None
        await super().close()

    async def _watch(self, interval: float) -> None:
        """Follow the store's changes; stop the bot, saying why, if the database file is gone."""
        try:
            await self.services.engine.watch(interval)
        except StorageError as exc:
            self.fatal = str(exc)
            log.error("%s: stopping", exc)
            asyncio.get_running_loop().create_task(self.close())

    async def _beat(self, interval: float) -> None:
        while not self.is_closed():
            if self.is_ready():
                latency = self.latency * 1000 if math.isfinite(self.latency) else None
                try:
                    await self.services.status.beat(latency_ms=latency, guilds=len(self.guilds), pid=os.getpid())
                except Exception:  # a failed beat must not stop the next one; health will notice
                    log.exception("heartbeat write failed")
            await asyncio.sleep(interval)


class ShardedTracebotBot(TracebotBot, commands.AutoShardedBot):
    """tracebot running the shards ``shard_ids`` of ``shard_count`` in one process (discord.py's shard manager).

    Processes with different shard ids share one PostgreSQL database: Discord sends each server's
    events to one shard only, and replies, votes and triage live in the database they share.
    """


def make_bot(services: Services, *, intents: discord.Intents | None = None) -> TracebotBot:
    """Return the bot the settings ask for: sharded when a shard count is set, else one connection."""
    settings = services.settings
    if settings.shard_count is None:
        return TracebotBot(services, intents=intents)
    shard_ids = list(settings.shard_ids) if settings.shard_ids is not None else None
    return ShardedTracebotBot(services, intents=intents, shard_count=settings.shard_count, shard_ids=shard_ids)
