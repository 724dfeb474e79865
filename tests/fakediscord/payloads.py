"""Build Discord API objects (users, members, channels, messages) as plain dicts.

Every builder returns the JSON shape Discord documents for API v10, with only the
keys discord.py reads filled in with realistic values.
"""

from __future__ import annotations

import datetime as dt
import itertools
import time
from collections.abc import Iterable
from typing import Any

DISCORD_EPOCH_MS = 1_420_070_400_000
Payload = dict[str, Any]

# Channel types, from the Discord documentation.
GUILD_TEXT = 0
DM = 1
GUILD_CATEGORY = 4
PUBLIC_THREAD = 11
PRIVATE_THREAD = 12
GUILD_FORUM = 15
THREAD_TYPES = frozenset({10, PUBLIC_THREAD, PRIVATE_THREAD})

EVERYONE_PERMISSIONS = str(0x0000_0006_3FFC_FE41)  # a typical default @everyone grant
ADMINISTRATOR = str(1 << 3)


class Snowflakes:
    """Hand out increasing snowflake ids that encode the current time."""

    def __init__(self) -> None:
        self._last = 0
        self._counter = itertools.count()

    def next(self) -> int:
        """Return a fresh id, strictly greater than any id returned before."""
        now_ms = int(time.time() * 1000)
        candidate = ((now_ms - DISCORD_EPOCH_MS) << 22) | (next(self._counter) & 0xFFF)
        self._last = max(candidate, self._last + 1)
        return self._last


def snowflake_time(snowflake: int) -> str:
    """Return the ISO-8601 creation time encoded in a snowflake."""
    ms = (snowflake >> 22) + DISCORD_EPOCH_MS
    return dt.datetime.fromtimestamp(ms / 1000, dt.UTC).isoformat()


def now_iso() -> str:
    """Return the current UTC time in Discord's timestamp format."""
    return dt.datetime.now(dt.UTC).isoformat()


def user_payload(user_id: int, username: str, *, bot: bool = False) -> Payload:
    """Build a user object."""
    return {
        "id": str(user_id),
        "username": username,
        "global_name": username.title(),
        "discriminator": "0",
        "avatar": None,
        "bot": bot,
        "system": False,
        "public_flags": 0,
        "flags": 0,
        "banner": None,
        "accent_color": None,
        "avatar_decoration_data": None,
    }


def role_payload(role_id: int, name: str, *, permissions: str = "0", position: int = 0) -> Payload:
    """Build a role object."""
    return {
        "id": str(role_id),
        "name": name,
        "color": 0,
        "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
        "hoist": False,
        "icon": None,
        "unicode_emoji": None,
        "position": position,
        "permissions": permissions,
        "managed": False,
        "mentionable": True,
        "flags": 0,
    }


def member_payload(user: Payload, *, roles: Iterable[int] = (), joined_at: str | None = None) -> Payload:
    """Build a guild member object that embeds its user."""
    return {
        "user": user,
        "nick": None,
        "avatar": None,
        "banner": None,
        "roles": [str(role) for role in roles],
        "joined_at": joined_at or now_iso(),
        "premium_since": None,
        "deaf": False,
        "mute": False,
        "flags": 0,
        "pending": False,
        "communication_disabled_until": None,
    }


def channel_payload(channel_id: int, guild_id: int, name: str, *, kind: int = GUILD_TEXT, position: int = 0) -> Payload:
    """Build a guild channel object (text, category or forum)."""
    payload: Payload = {
        "id": str(channel_id),
        "type": kind,
        "guild_id": str(guild_id),
        "name": name,
        "position": position,
        "parent_id": None,
        "topic": None,
        "nsfw": False,
        "permission_overwrites": [],
        "rate_limit_per_user": 0,
        "last_message_id": None,
        "flags": 0,
    }
    if kind == GUILD_FORUM:
        payload |= {"available_tags": [], "default_reaction_emoji": None, "default_sort_order": None}
        payload |= {"default_forum_layout": 0, "default_thread_rate_limit_per_user": 0}
    return payload


def thread_payload(thread_id: int, parent: Payload, owner_id: int, name: str, *, kind: int = PUBLIC_THREAD) -> Payload:
    """Build a thread channel object inside ``parent``."""
    return {
        "id": str(thread_id),
        "type": kind,
        "guild_id": parent["guild_id"],
        "parent_id": parent["id"],
        "owner_id": str(owner_id),
        "name": name,
        "last_message_id": None,
        "rate_limit_per_user": 0,
        "message_count": 0,
        "member_count": 1,
        "total_message_sent": 0,
        "flags": 0,
        "applied_tags": [],
        "thread_metadata": {
            "archived": False,
            "auto_archive_duration": 1440,
            "archive_timestamp": now_iso(),
            "locked": False,
            "create_timestamp": now_iso(),
        },
    }


def attachment_payload(
    attachment_id: int, filename: str, size: int, url: str, *, content_type: str = "text/plain"
) -> Payload:
    """Build an attachment object served from ``url``."""
    return {
        "id": str(attachment_id),
        "filename": filename,
        "size": size,
        "url": url,
        "proxy_url": url,
        "content_type": content_type,
        "description": None,
        "ephemeral": False,
        "flags": 0,
    }


def message_payload(
    message_id: int, channel: Payload, author: Payload, content: str, *, member: Payload | None = None
) -> Payload:
    """Build a message object with empty embeds, attachments and components."""
    payload: Payload = {
        "id": str(message_id),
        "channel_id": channel["id"],
        "author": author,
        "content": content,
        "timestamp": snowflake_time(message_id),
        "edited_timestamp": None,
        "tts": False,
        "mention_everyone": False,
        "mentions": [],
        "mention_roles": [],
        "attachments": [],
        "embeds": [],
        "components": [],
        "reactions": [],
        "pinned": False,
        "type": 0,
        "flags": 0,
    }
    if channel.get("guild_id"):
        payload["guild_id"] = channel["guild_id"]
    if member is not None:
        payload["member"] = {key: value for key, value in member.items() if key != "user"}
    return payload
