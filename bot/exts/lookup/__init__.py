"""Lookup: ``/error``, ``/explain``, ``/search`` and the "Explain this error" message command."""

from __future__ import annotations

from discord.ext import commands

from bot.client import TracebotBot
from bot.exts.lookup.cog import Lookup


async def setup(bot: commands.Bot) -> None:
    """Load the feature with the services the client carries."""
    if not isinstance(bot, TracebotBot):
        raise TypeError("the lookup feature needs a TracebotBot (it carries the services)")
    await bot.add_cog(Lookup(bot, bot.services))
