"""The fake Discord's world: users, one guild with its channels, and every message."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from tests.fakediscord import payloads as p

Payload = dict[str, Any]
_USER_MENTION = re.compile(r"<@!?([0-9]{15,20})>")
_ROLE_MENTION = re.compile(r"<@&([0-9]{15,20})>")


@dataclass
class StoredFile:
    """Bytes served at an attachment or paste URL."""

    filename: str
    data: bytes
    content_type: str = "text/plain; charset=utf-8"


@dataclass
class World:
    """Everything the fake Discord knows; the REST routes and the gateway read it."""

    ids: p.Snowflakes = field(default_factory=p.Snowflakes)
    base_url: str = "http://127.0.0.1:0"
    users: dict[int, Payload] = field(default_factory=dict)
    guilds: dict[int, Payload] = field(default_factory=dict)
    roles: dict[int, list[Payload]] = field(default_factory=dict)
    members: dict[int, dict[int, Payload]] = field(default_factory=dict)
    channels: dict[int, Payload] = field(default_factory=dict)
    messages: dict[int, Payload] = field(default_factory=dict)
    files: dict[int, StoredFile] = field(default_factory=dict)
    pastes: dict[str, StoredFile] = field(default_factory=dict)
    commands: dict[int | None, list[Payload]] = field(default_factory=dict)

    def add_user(self, username: str, *, bot: bool = False) -> Payload:
        """Create a user and return its payload."""
        user = p.user_payload(self.ids.next(), username, bot=bot)
        self.users[int(user["id"])] = user
        return user

    def add_guild(self, name: str, owner: Payload, *, guild_id: int | None = None) -> int:
        """Create a guild with an @everyone role and return its id (``guild_id``: chosen, as a shard test does)."""
        guild_id = guild_id if guild_id is not None else self.ids.next()
        self.guilds[guild_id] = {"id": str(guild_id), "name": name, "owner_id": owner["id"]}
        self.roles[guild_id] = [p.role_payload(guild_id, "@everyone", permissions=p.EVERYONE_PERMISSIONS)]
        self.members[guild_id] = {}
        return guild_id

    def add_role(self, guild_id: int, name: str, *, permissions: str = "0") -> int:
        """Create a role in a guild and return its id."""
        role_id = self.ids.next()
        position = len(self.roles[guild_id])
        self.roles[guild_id].append(p.role_payload(role_id, name, permissions=permissions, position=position))
        return role_id

    def add_member(self, guild_id: int, user: Payload, roles: Iterable[int] = ()) -> Payload:
        """Add ``user`` to a guild and return the member payload."""
        member = p.member_payload(user, roles=roles)
        self.members[guild_id][int(user["id"])] = member
        return member

    def add_channel(self, guild_id: int, name: str, *, kind: int = p.GUILD_TEXT) -> Payload:
        """Create a guild channel and return its payload."""
        position = sum(1 for channel in self.channels.values() if channel.get("guild_id") == str(guild_id))
        channel = p.channel_payload(self.ids.next(), guild_id, name, kind=kind, position=position)
        self.channels[int(channel["id"])] = channel
        return channel

    def add_thread(self, parent_id: int, owner_id: int, name: str, *, thread_id: int | None = None) -> Payload:
        """Create a public thread under a text or forum channel and return it."""
        thread = p.thread_payload(thread_id or self.ids.next(), self.channel(parent_id), owner_id, name)
        self.channels[int(thread["id"])] = thread
        return thread

    def open_dm(self, user: Payload) -> Payload:
        """Return the DM channel with ``user``, creating it on first use."""
        for channel in self.channels.values():
            if channel["type"] == p.DM and channel["recipients"][0]["id"] == user["id"]:
                return channel
        channel = {
            "id": str(self.ids.next()),
            "type": p.DM,
            "recipients": [user],
            "last_message_id": None,
            "flags": 0,
        }
        self.channels[int(channel["id"])] = channel
        return channel

    def channel(self, channel_id: int) -> Payload:
        """Return a channel payload; raise ``KeyError`` for unknown ids."""
        return self.channels[channel_id]

    def guild_id_of(self, channel_id: int) -> int | None:
        """Return the guild a channel belongs to, or ``None`` for DMs."""
        guild_id = self.channels[channel_id].get("guild_id")
        return int(guild_id) if guild_id else None

    def member(self, guild_id: int | None, user_id: int) -> Payload | None:
        """Return a member payload or ``None``."""
        if guild_id is None:
            return None
        return self.members.get(guild_id, {}).get(user_id)

    def member_permissions(self, guild_id: int, user_id: int) -> int:
        """Return a member's guild permissions as Discord computes them: owner and admins get all."""
        everything = (1 << 51) - 1
        if self.guilds[guild_id]["owner_id"] == str(user_id):
            return everything
        member = self.members[guild_id].get(user_id) or {"roles": []}
        held = {str(guild_id), *member["roles"]}
        granted = 0
        for role in self.roles[guild_id]:
            if role["id"] in held:
                granted |= int(role["permissions"])
        return everything if granted & int(p.ADMINISTRATOR) else granted

    def user(self, user: Payload | int) -> Payload:
        """Resolve a user payload or id to the stored payload."""
        return self.users[int(user["id"])] if isinstance(user, dict) else self.users[user]

    def attachment_url(self, channel_id: int, attachment_id: int, filename: str) -> str:
        """Return the URL at which this server serves an attachment."""
        return f"{self.base_url}/attachments/{channel_id}/{attachment_id}/{filename}"

    def store_file(self, channel_id: int, filename: str, data: bytes, content_type: str) -> Payload:
        """Keep an uploaded file and return its attachment payload."""
        attachment_id = self.ids.next()
        self.files[attachment_id] = StoredFile(filename, data, content_type)
        url = self.attachment_url(channel_id, attachment_id, filename)
        return p.attachment_payload(attachment_id, filename, len(data), url, content_type=content_type)

    def new_message(self, channel_id: int, author: Payload, content: str) -> Payload:
        """Build (but do not store) a message with mentions parsed from its content."""
        guild_id = self.guild_id_of(channel_id)
        member = self.member(guild_id, int(author["id"]))
        message = p.message_payload(self.ids.next(), self.channel(channel_id), author, content, member=member)
        self.fill_mentions(message, guild_id)
        return message

    def fill_mentions(self, message: Payload, guild_id: int | None, extra: Iterable[int] = ()) -> None:
        """Set ``mentions`` and ``mention_roles`` from the content, like Discord does."""
        user_ids = [int(uid) for uid in _USER_MENTION.findall(message["content"])] + list(extra)
        mentions = []
        for user_id in dict.fromkeys(user_ids):
            if user_id in self.users:
                mention = dict(self.users[user_id])
                member = self.member(guild_id, user_id)
                if member is not None:
                    mention["member"] = {k: v for k, v in member.items() if k != "user"}
                mentions.append(mention)
        message["mentions"] = mentions
        message["mention_roles"] = _ROLE_MENTION.findall(message["content"])
        message["mention_everyone"] = "@everyone" in message["content"]

    def store_message(self, message: Payload) -> Payload:
        """Keep a message and bump its channel's ``last_message_id``."""
        self.messages[int(message["id"])] = message
        channel = self.channels[int(message["channel_id"])]
        channel["last_message_id"] = message["id"]
        if channel["type"] in p.THREAD_TYPES:
            channel["message_count"] += 1
            channel["total_message_sent"] += 1
        return message

    def message(self, channel_id: int, message_id: int) -> Payload | None:
        """Return a stored message of a channel, or ``None``."""
        message = self.messages.get(message_id)
        if message is None or int(message["channel_id"]) != channel_id:
            return None
        return message

    def guild_create(self, guild_id: int) -> Payload:
        """Build the full GUILD_CREATE payload for a guild."""
        guild = self.guilds[guild_id]
        channels = [c for c in self.channels.values() if c.get("guild_id") == str(guild_id)]
        members = list(self.members[guild_id].values())
        return {
            **guild,
            **_GUILD_DEFAULTS,
            "roles": self.roles[guild_id],
            "channels": [c for c in channels if c["type"] not in p.THREAD_TYPES],
            "threads": [c for c in channels if c["type"] in p.THREAD_TYPES],
            "members": members,
            "member_count": len(members),
            "joined_at": p.snowflake_time(guild_id),
        }


_GUILD_DEFAULTS: Payload = {
    "icon": None,
    "splash": None,
    "discovery_splash": None,
    "banner": None,
    "description": None,
    "features": [],
    "emojis": [],
    "stickers": [],
    "afk_channel_id": None,
    "afk_timeout": 300,
    "verification_level": 0,
    "default_message_notifications": 0,
    "explicit_content_filter": 0,
    "mfa_level": 0,
    "nsfw_level": 0,
    "premium_tier": 0,
    "premium_subscription_count": 0,
    "preferred_locale": "en-US",
    "system_channel_id": None,
    "system_channel_flags": 0,
    "rules_channel_id": None,
    "public_updates_channel_id": None,
    "application_id": None,
    "max_members": 500000,
    "max_video_channel_users": 25,
    "large": False,
    "unavailable": False,
    "voice_states": [],
    "presences": [],
    "stage_instances": [],
    "guild_scheduled_events": [],
    "soundboard_sounds": [],
}


@dataclass
class Cast:
    """The ids of the default world, so tests can name things."""

    bot: Payload
    owner: Payload
    member: Payload
    guild_id: int
    maintainer_role_id: int
    text_channel_id: int
    forum_channel_id: int
    thread_id: int


def seed_world(world: World, *, bot_name: str = "tracebot") -> Cast:
    """Fill ``world`` with a bot, two people, and a guild with text, forum and thread channels."""
    bot = world.add_user(bot_name, bot=True)
    owner = world.add_user("alice")
    member = world.add_user("bob")
    guild_id = world.add_guild("Tracebot Test", owner)
    maintainer = world.add_role(guild_id, "Maintainer", permissions=p.ADMINISTRATOR)
    bot_role = world.add_role(guild_id, bot_name, permissions=p.ADMINISTRATOR)
    world.add_member(guild_id, bot, [bot_role])
    world.add_member(guild_id, owner, [maintainer])
    world.add_member(guild_id, member)
    text = world.add_channel(guild_id, "help")
    forum = world.add_channel(guild_id, "python-help", kind=p.GUILD_FORUM)
    thread = world.add_thread(int(forum["id"]), int(member["id"]), "ImportError in my script")
    return Cast(
        bot=bot,
        owner=owner,
        member=member,
        guild_id=guild_id,
        maintainer_role_id=maintainer,
        text_channel_id=int(text["id"]),
        forum_channel_id=int(forum["id"]),
        thread_id=int(thread["id"]),
    )
