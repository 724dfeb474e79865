"""Read what the pure helpers need out of a ``discord.Message``: its facts, and the paste text.

Attachments are filtered by name and size before anything is downloaded; paste links go through the
injected ``PasteSource`` (allow-list, size cap, timeout). Failures leave a part out, never the whole.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

import discord

from bot.engine import Answer
from bot.events import PasteEvent
from bot.exts.answers._policy import Facts
from bot.exts.answers._reading import compose, pick_attachments, strip_mentions
from bot.pastes import PasteSource
from records.text import clean_text, decode_bytes

if TYPE_CHECKING:  # bot.client loads the features: importing it here at run time would be circular
    from bot.client import Services

log = logging.getLogger(__name__)


def facts_of(message: discord.Message, me: discord.abc.User | None) -> Facts:
    """Return the facts the policy decides on."""
    channel = message.channel
    in_thread = isinstance(channel, discord.Thread)
    my_id = me.id if me is not None else None
    return Facts(
        guild_id=message.guild.id if message.guild else None,
        channel_id=channel.id,
        author_id=message.author.id,
        parent_id=channel.parent_id if isinstance(channel, discord.Thread) else None,
        thread_owner_id=channel.owner_id if isinstance(channel, discord.Thread) else None,
        in_thread=in_thread,
        from_self=my_id is not None and message.author.id == my_id,
        from_bot=message.author.bot,
        from_webhook=message.webhook_id is not None,
        is_system=message.is_system(),
        mentions_me=my_id is not None and any(user.id == my_id for user in message.mentions),
    )


async def read_paste(message: discord.Message, bot: discord.Client, services: Services) -> str:
    """Return what a message pastes, as every feature reads it: ``paste_text`` with the bot's settings."""
    me_id = bot.user.id if bot.user else None
    return await paste_text(
        message, services.pastes, max_attachment_bytes=services.settings.max_attachment_bytes, me_id=me_id
    )


async def paste_text(
    message: discord.Message, pastes: PasteSource | None, *, max_attachment_bytes: int, me_id: int | None
) -> str:
    """Return the message text with its readable attachments and paste links appended."""
    content = strip_mentions(message.content or "", me_id)
    files = [(a.filename, a.size) for a in message.attachments]
    reads = [_read_attachment(message.attachments[i]) for i in pick_attachments(files, max_attachment_bytes)]
    links = pastes.links(content) if pastes is not None else []
    fetches = [pastes.fetch(url) for url in links] if pastes is not None else []
    extras = await asyncio.gather(*reads, *fetches)
    return clean_text(compose(content, [text for text in extras if text]))


async def _read_attachment(attachment: discord.Attachment) -> str | None:
    try:
        data = await attachment.read()
    except (discord.HTTPException, discord.NotFound) as exc:
        log.info("attachment %s not read: %s", attachment.id, type(exc).__name__)
        return None
    return decode_bytes(data)


def paste_event(message: discord.Message, text: str, answer: Answer, record_id: str | None = None) -> PasteEvent:
    """Build the event other features listen to (raw text: listeners must redact it)."""
    return PasteEvent(
        guild_id=message.guild.id if message.guild else None,
        channel_id=message.channel.id,
        message_id=message.id,
        author_id=message.author.id,
        jump_url=message.jump_url,
        text=text,
        result=answer.result,
        record_id=record_id,
    )
