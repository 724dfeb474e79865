"""Meta-tests over the command tree: every app command and option is described; sync stays local."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import discord
import pytest
from discord import app_commands

from bot.client import EXTENSIONS, TracebotBot
from tests.bot.simbot import Sim, seeded_services, sim_fixture, simcord_bot_fixture  # noqa: F401
from tests.conftest import SIM_SETTLE_SECONDS

DEFAULT_DESCRIPTION = "…"  # what discord.py puts where a description is missing


@pytest.fixture(name="tree")
async def tree_fixture(tmp_path: Path) -> AsyncIterator[app_commands.CommandTree[Any]]:
    """Load every feature `tracebot run` loads (triage included) into a bot that never connects."""
    services = await seeded_services(tmp_path)
    bot = TracebotBot(services)
    for extension in EXTENSIONS:
        await bot.load_extension(extension)
    try:
        yield bot.tree
    finally:
        await bot.close()
        await services.db.close()


def walk(commands: list[Any]) -> Iterator[app_commands.Command[Any, ..., Any] | app_commands.Group]:
    """Yield every slash command and group, depth first."""
    for command in commands:
        if isinstance(command, app_commands.Group):
            yield command
            yield from walk(command.commands)
        elif isinstance(command, app_commands.Command):
            yield command


async def test_every_slash_command_and_option_has_a_description(tree: app_commands.CommandTree[Any]) -> None:
    commands = list(walk(tree.get_commands()))
    names = {c.qualified_name for c in commands}
    assert {"error", "explain", "search", "tracebot", "tracebot config"} <= names
    for command in commands:
        assert command.description and command.description != DEFAULT_DESCRIPTION, command.qualified_name
        assert len(command.description) <= 100, command.qualified_name
        for parameter in getattr(command, "parameters", []):
            where = f"{command.qualified_name} {parameter.display_name}"
            assert parameter.description and parameter.description != DEFAULT_DESCRIPTION, where
            assert len(parameter.description) <= 100, where


async def test_the_message_command_is_registered(tree: app_commands.CommandTree[Any]) -> None:
    menus = tree.get_commands(type=discord.AppCommandType.message)
    assert [m.name for m in menus] == ["Explain this error"]


async def test_simcord_waits_for_the_bot_as_long_as_a_busy_machine_needs(sim: Sim) -> None:
    assert sim.env.settle_timeout == SIM_SETTLE_SECONDS  # set for every test by tests/conftest.py


async def test_start_up_syncs_the_development_guild_only(sim: Sim) -> None:
    syncs = [r.path for r in sim.env.http_requests if r.method == "PUT" and r.path.endswith("/commands")]
    assert syncs == [f"/applications/{sim.bot.application_id}/guilds/{sim.guild.id}/commands"]


async def test_a_ready_that_arrives_while_the_bot_closes_starts_no_heartbeat(tmp_path: Path) -> None:
    # A SIGTERM during the connect: READY came while close() ran, and the heartbeat it started wrote
    # after the database had closed ("heartbeat write failed" in the log of a clean stop).
    services = await seeded_services(tmp_path, heartbeat_interval=60)
    bot = TracebotBot(services)
    try:
        await bot.close()
        await bot.on_ready()
        assert bot._heartbeat is None
    finally:
        await services.db.close()
