"""Triage in Discord: log unexplained pastes, warn about leaked tokens, and ``/triage`` review commands.

The entry point builds one ``TriageService`` (with ``settings.triage`` and the running engine) and
sets it on the bot as ``bot.triage_service`` before loading this extension. Maintainers are decided
by the admin feature's shared check (Manage Server, the server's maintainer role, bot owners).
"""

from __future__ import annotations

from typing import Any

import discord
from discord.ext import commands

from bot.client import TracebotBot
from bot.exts.admin._access import interaction_is_maintainer
from bot.exts.triage._cog import TriageCog
from bot.triage_service import TriageService

__all__ = ["TriageCog", "setup"]


async def setup(bot: commands.Bot) -> None:
    """Add the triage cog, using the service the entry point built and the shared maintainer check."""
    service = getattr(bot, "triage_service", None)
    if not isinstance(bot, TracebotBot) or not isinstance(service, TriageService):
        raise TypeError("the triage feature needs a TracebotBot with bot.triage_service (a TriageService) set")
    services = bot.services

    async def is_maintainer(interaction: discord.Interaction[Any]) -> bool:
        return await interaction_is_maintainer(interaction, services.guilds, services.settings.owner_ids)

    await bot.add_cog(TriageCog(bot, service, is_maintainer))
