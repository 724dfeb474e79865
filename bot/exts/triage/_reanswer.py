"""Answer the pastes a record now explains: reply to each with the record, as the answers cog would.

A paste that was deleted, or sits in a channel the bot can no longer see or post in, is skipped and
counted, never raised. Each paste is answered once: a deleted one is remembered too, an unreachable
one is tried again the next time (the bot may be let back in).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import discord

from bot.triage_service import Reanswered, ReanswerTarget, TriageService
from bot.views import record_reply
from records.model import Record
from storage.replies import ReplyLink, ReplyRepository

log = logging.getLogger(__name__)

Outcome = Literal["answered", "deleted", "unreachable", "already"]


@dataclass
class Reanswerer:
    """Replies to waiting pastes through the answer builders the answers cog uses."""

    client: discord.Client
    service: TriageService
    replies: ReplyRepository | None = None

    async def run(self, targets: Sequence[ReanswerTarget]) -> Reanswered:
        """Answer each target with its record; return how many were answered and skipped."""
        counts: dict[Outcome, int] = {"answered": 0, "deleted": 0, "unreachable": 0, "already": 0}
        records: dict[str, Record | None] = {}
        done: list[ReanswerTarget] = []
        for target in targets:
            if target.record_id not in records:
                stored = await self.service.records.get(target.record_id)
                records[target.record_id] = stored.record if stored is not None else None
            record = records[target.record_id]
            if record is None:
                continue
            outcome = await self._answer(target, record)
            counts[outcome] += 1
            if outcome != "unreachable":
                done.append(target)
        await self.service.answered(done)
        missing = bool(targets) and all(records.get(t.record_id) is None for t in targets)
        return Reanswered(counts["answered"], counts["deleted"], counts["unreachable"], record_missing=missing)

    async def _answer(self, target: ReanswerTarget, record: Record) -> Outcome:
        if self.replies is not None and await self.replies.get(target.message_id) is not None:
            return "already"  # an edit of the paste matched it: answered already
        channel = await self._channel(target)
        if channel is None:
            return "unreachable"
        content = record_reply(record, None, author_id=target.author_id)
        try:
            message = await channel.fetch_message(target.message_id)
            reply = await message.reply(
                embed=content.embed,
                view=content.view,
                mention_author=False,
                allowed_mentions=discord.AllowedMentions.none(),
            )
        except discord.NotFound:
            return "deleted"
        except discord.HTTPException as exc:
            log.info("triage: paste %d in channel %d unreachable: %s", target.message_id, target.channel_id, exc.status)
            return "unreachable"
        await self._remember(target, reply, content.record_ids)
        log.info("triage: paste %d answered late with %s", target.message_id, record.id)
        return "answered"

    async def _channel(self, target: ReanswerTarget) -> discord.abc.Messageable | None:
        """Return the paste's channel if the bot can still see it and post in it."""
        channel = self.client.get_channel(target.channel_id)
        if channel is None:
            try:
                channel = await self.client.fetch_channel(target.channel_id)
            except discord.HTTPException:
                return None
        if not isinstance(channel, discord.abc.Messageable):
            return None
        if isinstance(channel, discord.abc.GuildChannel):
            me: discord.Member | None = channel.guild.me  # None before the guild is fully loaded
            allowed = channel.permissions_for(me) if me is not None else None
            if allowed is None or not (
                allowed.view_channel and allowed.read_message_history and _can_send(allowed, channel)
            ):
                return None
        return channel

    async def _remember(self, target: ReanswerTarget, reply: discord.Message, record_ids: tuple[str, ...]) -> None:
        """Store the reply link, so deleting or editing the paste takes the answer along."""
        if self.replies is None:
            return
        link = ReplyLink(
            message_id=target.message_id,
            channel_id=target.channel_id,
            guild_id=target.guild_id,
            author_id=target.author_id,
            reply_id=reply.id,
            reply_channel_id=reply.channel.id,
            status="matched",
            record_ids=record_ids,
        )
        await self.replies.save(link)


def _can_send(allowed: discord.Permissions, channel: discord.abc.GuildChannel) -> bool:
    if isinstance(channel, discord.Thread):
        return allowed.send_messages_in_threads
    return allowed.send_messages
