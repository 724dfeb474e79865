"""Admin: ``/tracebot config`` and the maintainer checks other features share."""

from __future__ import annotations

from discord.ext import commands

from bot.client import TracebotBot
from bot.exts.admin.cog import Admin


async def setup(bot: commands.Bot) -> None:
    """Load the feature with the services the client carries."""
    if not isinstance(bot, TracebotBot):
        raise TypeError("the admin feature needs a TracebotBot (it carries the services)")
    await bot.add_cog(Admin(bot.services))
