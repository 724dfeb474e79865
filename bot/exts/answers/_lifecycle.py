"""The reply lifecycle: one reply per paste, updated when the paste is edited, deleted with it.

The link between a paste and its reply is stored, so this survives restarts.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import discord

from bot.constants import NO_MENTIONS
from bot.embeds.text import clip
from bot.views import ReplyContent
from storage.guilds import ReplyStyle
from storage.replies import ReplyLink, ReplyRepository

log = logging.getLogger(__name__)

THREAD_NAME = 100


class KeyedLocks:
    """One lock per message id, so a paste, its edits and its deletion are handled in order."""

    def __init__(self) -> None:
        self._locks: dict[int, tuple[asyncio.Lock, int]] = {}

    @asynccontextmanager
    async def hold(self, key: int) -> AsyncIterator[None]:
        """Hold the lock of ``key`` for the block; forget it when nobody else waits."""
        lock, users = self._locks.get(key, (asyncio.Lock(), 0))
        self._locks[key] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            lock, users = self._locks[key]
            if users <= 1:
                del self._locks[key]
            else:
                self._locks[key] = (lock, users - 1)

    def __len__(self) -> int:
        return len(self._locks)


class ReplyKeeper:
    """Posts, updates and removes the bot's replies, keeping the stored links in step."""

    def __init__(self, client: discord.Client, replies: ReplyRepository) -> None:
        self._client = client
        self._replies = replies

    async def post(self, message: discord.Message, content: ReplyContent, style: ReplyStyle) -> ReplyLink | None:
        """Answer a paste (as a reply, or in a new thread on it); store and return the link."""
        try:
            reply = await self._send(message, content, style)
        except discord.HTTPException as exc:
            log.warning("reply to message %s failed: %s %s", message.id, exc.status, exc.code)
            return None
        link = ReplyLink(
            message_id=message.id,
            channel_id=message.channel.id,
            guild_id=message.guild.id if message.guild else None,
            author_id=message.author.id,
            reply_id=reply.id,
            reply_channel_id=reply.channel.id,
            status=content.status,
            record_ids=content.record_ids,
        )
        await self._replies.save(link)
        return link

    async def update(self, link: ReplyLink, content: ReplyContent) -> ReplyLink | None:
        """Show new content in an existing reply; return the new link (None if the reply is gone)."""
        if (link.status, link.record_ids) == (content.status, content.record_ids):
            return link
        reply = self._partial(link)
        try:
            await reply.edit(embed=content.embed, view=content.view, allowed_mentions=NO_MENTIONS)
        except discord.NotFound:
            await self._replies.forget(link.message_id)
            return None
        updated = link.model_copy(update={"status": content.status, "record_ids": content.record_ids})
        await self._replies.save(updated)
        return updated

    async def remove(self, link: ReplyLink) -> None:
        """Delete a reply and forget its link."""
        await self._replies.forget(link.message_id)
        try:
            await self._partial(link).delete()
        except discord.NotFound:
            log.debug("reply %s was already gone", link.reply_id)
        except discord.HTTPException as exc:
            log.warning("deleting reply %s failed: %s", link.reply_id, exc.status)

    async def _send(self, message: discord.Message, content: ReplyContent, style: ReplyStyle) -> discord.Message:
        if style == "thread" and isinstance(message.channel, discord.TextChannel) and message.guild:
            name = clip(content.embed.title or "Your error", THREAD_NAME)
            thread = await message.create_thread(name=name)
            return await thread.send(embed=content.embed, view=content.view, allowed_mentions=NO_MENTIONS)
        return await message.reply(
            embed=content.embed, view=content.view, mention_author=False, allowed_mentions=NO_MENTIONS
        )

    def _partial(self, link: ReplyLink) -> discord.PartialMessage:
        channel = self._client.get_partial_messageable(link.reply_channel_id, guild_id=link.guild_id)
        return channel.get_partial_message(link.reply_id)
