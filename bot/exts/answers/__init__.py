"""Answers: the paste listener, the reply lifecycle, and what the answers' buttons do."""

from __future__ import annotations

from discord.ext import commands

from bot.client import TracebotBot
from bot.exts.answers._actions import AnswerActions
from bot.exts.answers._message import read_paste
from bot.exts.answers.cog import Answers

__all__ = ["AnswerActions", "Answers", "read_paste"]


async def setup(bot: commands.Bot) -> None:
    """Load the feature with the services the client carries."""
    if not isinstance(bot, TracebotBot):
        raise TypeError("the answers feature needs a TracebotBot (it carries the services)")
    await bot.add_cog(Answers(bot, bot.services))
    bot.component_actions = AnswerActions(bot, bot.services)


async def teardown(bot: commands.Bot) -> None:
    """Stop handling the answers' buttons."""
    if isinstance(bot, TracebotBot):
        bot.component_actions = None
