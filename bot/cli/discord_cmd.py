"""The commands that talk to Discord (or draw its replies): ``run``, ``sync-commands``, ``console``.

Imported only when one of them runs (see ``bot.cli.run_cmd``): discord.py and aiohttp take most of a
second to import, which every other command is spared.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import signal

import aiohttp
import discord

from bot.cli._common import db_path, freeze_loaded_heap, open_database
from bot.cli._instance import only_instance
from bot.client import Services, TracebotBot, make_bot, point_discord_at
from bot.console import run_console
from bot.engine import Engine
from bot.metrics import Metrics
from bot.pastes import PasteFetcher
from bot.settings import Settings, shard_plan
from bot.triage_service import TriageService
from records.errors import CliError
from records.matching import Matcher, MatchIndex

log = logging.getLogger(__name__)
NO_TOKEN = "DISCORD_TOKEN is not set (environment or .env); see README, 'Running the Discord bot'"  # noqa: S105
SHUTDOWN_GRACE = 3.0  # seconds a SIGTERM waits for the gateway to close (Docker's stop grace is 10 s)
REJECTED = "Discord rejected the token (401 Unauthorized): check DISCORD_TOKEN"
NO_INTENT = (
    "the Message Content intent is not enabled for this application: enable it in the Developer Portal "
    "(Bot > Privileged Gateway Intents)"
)


async def run_command(args: argparse.Namespace, settings: Settings) -> int:
    """Connect to Discord and answer pastes until SIGTERM or Ctrl-C."""
    token = _token(settings)
    settings = _with_shards(args, settings)
    point_discord_at(settings.discord_api_url, settings.discord_gateway_url)
    with only_instance(db_path(args, settings)):
        return await _run(args, settings, token)


def _with_shards(args: argparse.Namespace, settings: Settings) -> Settings:
    """Return the settings with ``--shards`` and ``--shard-ids`` in place of the environment's, checked."""
    count = getattr(args, "shards", None) or settings.shard_count
    ids = getattr(args, "shard_ids", None) or settings.shard_ids
    try:
        count, ids = shard_plan(count, ids)
    except ValueError as exc:
        raise CliError(f"run: {exc}") from None
    return settings.model_copy(update={"shard_count": count, "shard_ids": ids})


async def _run(args: argparse.Namespace, settings: Settings, token: str) -> int:
    timeout = aiohttp.ClientTimeout(total=settings.paste_timeout)
    async with open_database(args, settings) as db, aiohttp.ClientSession(timeout=timeout) as session:
        engine = await Engine.load(db)
        freeze_loaded_heap()
        metrics = _metrics(settings, engine)
        pastes = PasteFetcher(
            session, hosts=settings.paste_hosts, max_bytes=settings.max_paste_bytes, timeout=settings.paste_timeout
        )
        services = Services.build(settings, db, engine, pastes, metrics)
        bot = make_bot(services)
        await _serve(bot, token)
    if bot.fatal is not None:
        raise CliError(bot.fatal)
    log.info("stopped")
    return 0


def _metrics(settings: Settings, engine: Engine) -> Metrics:
    metrics = Metrics()
    metrics.count_rate_limits_from()
    metrics.records_loaded.set(engine.record_count)
    if settings.metrics_port is not None:
        metrics.serve(settings.metrics_port)
        log.info("metrics on port %d", settings.metrics_port)
    return metrics


async def _serve(bot: TracebotBot, token: str) -> None:
    loop = asyncio.get_running_loop()
    async with bot:
        running = asyncio.create_task(bot.start(token))
        closing: list[asyncio.Task[None]] = []

        def stop() -> None:
            log.info("signal received: closing the gateway")
            closing.append(asyncio.create_task(_close(bot, running)))

        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, stop)
        try:
            await _started(bot, running)
        finally:
            for sig in (signal.SIGTERM, signal.SIGINT):
                loop.remove_signal_handler(sig)
            await asyncio.gather(*closing, return_exceptions=True)


async def _started(bot: TracebotBot, running: asyncio.Task[None]) -> None:
    """Wait for the gateway task to end; map its failures to one line each."""
    try:
        await running
    except asyncio.CancelledError:
        if not running.cancelled():
            raise  # we were cancelled ourselves, not the gateway task by _close
    except discord.LoginFailure:
        raise CliError(REJECTED) from None
    except discord.PrivilegedIntentsRequired:
        raise CliError(NO_INTENT) from None
    except (aiohttp.ClientError, OSError) as exc:
        raise CliError(f"cannot reach Discord: {exc}") from None
    except AttributeError:
        # discord.py 2.x, when its very first gateway connection fails, retries by reading the
        # sequence of a websocket it never opened; that is an unreachable gateway, not our bug.
        if bot.ws is not None:
            raise
        raise CliError("cannot reach the Discord gateway (connection refused or failed)") from None


async def _close(bot: TracebotBot, running: asyncio.Task[None]) -> None:
    """Close the gateway, waiting at most SHUTDOWN_GRACE seconds, then stop the gateway task whatever it does.

    With Discord unreachable, discord.py sits in its reconnect backoff and a close waits for it; a
    container runtime kills a process that takes more than 10 s to stop, so we do not wait for it.
    """
    try:
        await asyncio.wait_for(bot.close(), SHUTDOWN_GRACE)
    except TimeoutError:
        log.warning("the gateway did not close within %.0f s: stopping anyway", SHUTDOWN_GRACE)
    running.cancel()


async def sync_command(args: argparse.Namespace, settings: Settings) -> int:
    """Publish the command tree globally (or to ``--guild``) and exit."""
    token = _token(settings)
    point_discord_at(settings.discord_api_url, settings.discord_gateway_url)
    async with open_database(args, settings) as db:
        # Syncing needs the command tree, not the records: an empty index spares loading them.
        engine = Engine(db, Matcher(MatchIndex.build([])), None)
        services = Services.build(settings.model_copy(update={"dev_guild": None}), db, engine, None)
        async with TracebotBot(services) as bot:
            try:
                await bot.login(token)
            except discord.LoginFailure:
                raise CliError(REJECTED) from None
            guild = discord.Object(args.guild) if args.guild else None
            if guild is not None:
                bot.tree.copy_global_to(guild=guild)
            synced = await bot.tree.sync(guild=guild)
    where = f"to guild {args.guild}" if guild is not None else "globally (may take up to an hour to appear)"
    print(f"synced {len(synced)} commands {where}: {', '.join(sorted(c.name for c in synced))}")
    return 0


async def console_command(args: argparse.Namespace, settings: Settings) -> int:
    """Run the offline console on the terminal."""
    async with open_database(args, settings) as db:
        engine = await Engine.load(db)
        freeze_loaded_heap()
        return await run_console(engine, triage=TriageService(db, settings.triage, engine=engine))


def _token(settings: Settings) -> str:
    token = settings.discord_token.get_secret_value().strip() if settings.discord_token else ""
    if not token:
        raise CliError(NO_TOKEN)
    return token
