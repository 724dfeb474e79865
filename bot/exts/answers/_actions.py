"""What the answer components do: count votes, delete answers, show a picked record.

The persistent components (``bot.views.components``) find these through ``client.component_actions``.
Handlers that touch the database defer first; refusals and thanks are ephemeral.
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord.ext import commands

from bot.access import interaction_is_moderator
from bot.client import Services
from bot.constants import NO_MENTIONS
from bot.exts.answers._message import paste_event, read_paste
from bot.views import record_reply
from bot.views.components import BY_MESSAGE
from storage.replies import ReplyLink

log = logging.getLogger(__name__)
REFUSED_DELETE = "Only the person who posted the error, or a moderator, can delete this answer."


class AnswerActions:
    """The ``ComponentActions`` of tracebot's answers."""

    def __init__(self, bot: commands.Bot, services: Services) -> None:
        self.bot = bot
        self.services = services

    async def vote(self, interaction: discord.Interaction[Any], record_id: str, helpful: bool) -> None:
        """Count one person's vote on the record an answer shows; report Not helpful to listeners."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        reply_id = interaction.message.id if interaction.message else 0
        link = await self.services.replies.by_reply(reply_id)
        if record_id == BY_MESSAGE:
            record_id = link.record_ids[0] if link and link.record_ids else ""
        if not record_id:
            await self._tell(interaction, "I cannot tell which record this answer showed any more.")
            return
        await self.services.replies.vote(
            reply_id=reply_id,
            user_id=interaction.user.id,
            record_id=record_id,
            helpful=helpful,
            guild_id=interaction.guild_id,
        )
        if self.services.metrics is not None:
            self.services.metrics.votes.labels("helpful" if helpful else "not_helpful").inc()
        count = await self.services.replies.vote_count(record_id)
        log.info("vote on record %s: %s (%d up, %d down)", record_id, helpful, count.helpful, count.not_helpful)
        thanks = "Thanks, glad it helped" if helpful else "Thanks, the maintainers will look at this record"
        await self._tell(interaction, f"{thanks} ({count.helpful} helpful, {count.not_helpful} not helpful so far).")
        if not helpful and link is not None:
            await self._report_not_helpful(link, record_id)

    async def delete(self, interaction: discord.Interaction[Any], author_id: int) -> None:
        """Delete an answer, for the paste's author or a moderator only."""
        settings = self.services.settings
        allowed = interaction.user.id == author_id or await interaction_is_moderator(
            interaction, self.services.guilds, settings.owner_ids
        )
        if not allowed or interaction.message is None:
            await interaction.response.send_message(REFUSED_DELETE, ephemeral=True, allowed_mentions=NO_MENTIONS)
            return
        await interaction.response.defer()
        await self.services.replies.forget_reply(interaction.message.id)
        try:
            await interaction.message.delete()
        except discord.NotFound:
            log.debug("answer %s was already deleted", interaction.message.id)
        log.info("answer %s deleted by %s", interaction.message.id, interaction.user.id)

    async def pick(self, interaction: discord.Interaction[Any], author_id: int, record_id: str) -> None:
        """Show the chosen record: in place for the paste's author or a moderator, else privately."""
        message = interaction.message
        owner = interaction.user.id == author_id or await interaction_is_moderator(
            interaction, self.services.guilds, self.services.settings.owner_ids
        )
        if owner and message is not None:
            await interaction.response.defer()
        else:
            await interaction.response.defer(ephemeral=True, thinking=True)
        stored = await self.services.engine.records.get(record_id)
        if stored is None:
            await self._tell(interaction, "That record is no longer available.")
            return
        if not owner or message is None:
            content = record_reply(
                stored.record,
                None,
                author_id=interaction.user.id,
                deletable=False,
                link_hosts=self.services.settings.link_hosts,
            )
            await interaction.followup.send(
                embed=content.embed, view=content.view, ephemeral=True, allowed_mentions=NO_MENTIONS
            )
            return
        note = "picked from the closest matches"
        content = record_reply(
            stored.record, None, author_id=author_id, deletable=not message.flags.ephemeral, note=note,
            link_hosts=self.services.settings.link_hosts,
        )  # fmt: skip
        await interaction.edit_original_response(embed=content.embed, view=content.view, allowed_mentions=NO_MENTIONS)
        link = await self.services.replies.by_reply(message.id)
        if link is not None:
            await self.services.replies.save(link.model_copy(update={"status": "matched", "record_ids": (record_id,)}))

    async def _report_not_helpful(self, link: ReplyLink, record_id: str) -> None:
        channel = self.bot.get_partial_messageable(link.channel_id, guild_id=link.guild_id)
        try:
            original = await channel.fetch_message(link.message_id)
        except discord.HTTPException:
            log.info("not-helpful vote on %s: paste %s is gone", record_id, link.message_id)
            return
        text = await read_paste(original, self.bot, self.services)
        answer = await self.services.engine.answer(text)
        self.bot.dispatch("answer_not_helpful", paste_event(original, text, answer, record_id=record_id))

    async def _tell(self, interaction: discord.Interaction[Any], text: str) -> None:
        await interaction.followup.send(text, ephemeral=True, allowed_mentions=NO_MENTIONS)
