"""Triage in Discord: log unexplained pastes, warn about leaked tokens, and ``/triage`` review commands.

The service comes in with the others (``Services.triage``, built by ``Services.build`` from
``settings.triage`` and the running engine). Maintainers are decided
by the admin feature's shared check (Manage Server, the server's maintainer role, bot owners).
"""

from __future__ import annotations

from typing import Any

import discord
from discord.ext import commands

from bot.access import interaction_is_maintainer
from bot.client import TracebotBot
from bot.exts.triage._cog import TriageCog

__all__ = ["TriageCog", "setup"]


async def setup(bot: commands.Bot) -> None:
    """Add the triage cog, using the service the entry point built and the shared maintainer check."""
    if not isinstance(bot, TracebotBot):
        raise TypeError("the triage feature needs a TracebotBot (it reads bot.services)")
    services = bot.services
    service = services.triage

    async def is_maintainer(interaction: discord.Interaction[Any]) -> bool:
        return await interaction_is_maintainer(interaction, services.guilds, services.settings.owner_ids)

    await bot.add_cog(TriageCog(bot, service, is_maintainer, services.replies))
