"""Whether the bot should look at a message at all: pure rules over plain facts about it.

Order matters: messages from itself, bots, webhooks and the system are never answered; then the
server's allow-list and the channel's mode (``auto``, ``mention``, ``off``) decide; in threads and
forum posts ``auto`` answers only the opener's pastes unless the server chose ``everyone`` (or the
bot is mentioned).
"""

from __future__ import annotations

from dataclasses import dataclass

from storage.guilds import GuildConfig, Mode


@dataclass(frozen=True, slots=True)
class Facts:
    """What the policy needs to know about a message."""

    guild_id: int | None
    channel_id: int
    author_id: int
    parent_id: int | None = None  # the channel a thread belongs to
    thread_owner_id: int | None = None  # the opener of the thread or forum post
    in_thread: bool = False
    from_self: bool = False
    from_bot: bool = False
    from_webhook: bool = False
    is_system: bool = False
    mentions_me: bool = False


def is_allowed(config: GuildConfig, channel_id: int, parent_id: int | None = None) -> bool:
    """Return whether the server's allow-list covers a channel (a thread counts as its parent)."""
    allowed = config.allowed_channels
    return not allowed or channel_id in allowed or (parent_id is not None and parent_id in allowed)


def channel_mode(config: GuildConfig, channel_id: int, parent_id: int | None = None) -> Mode:
    """Return a channel's mode: its own, else its parent's (threads), else ``auto``."""
    modes = config.channel_modes
    if channel_id in modes:
        return modes[channel_id]
    if parent_id is not None and parent_id in modes:
        return modes[parent_id]
    return "auto"


def skip_reason(facts: Facts, config: GuildConfig | None) -> str | None:
    """Return why the bot must not answer this message, or None when it may (``config`` None: a DM)."""
    return sender_reason(facts) or (channel_reason(facts, config) if config is not None else None)


def sender_reason(facts: Facts) -> str | None:
    """Return why the sender is never answered (itself, bots, webhooks, the system), or None."""
    if facts.from_self:
        return "own message"
    if facts.from_bot or facts.from_webhook:
        return "bot or webhook"
    return "system message" if facts.is_system else None


def channel_reason(facts: Facts, config: GuildConfig) -> str | None:
    """Return why the server's allow-list, the channel mode or the thread rule rule this message out."""
    if not is_allowed(config, facts.channel_id, facts.parent_id):
        return "channel not allowed"
    mode = channel_mode(config, facts.channel_id, facts.parent_id)
    if mode == "off":
        return "channel off"
    if facts.mentions_me:
        return None
    if mode == "mention":
        return "not mentioned"
    if facts.in_thread and config.thread_policy == "opener" and facts.author_id != facts.thread_owner_id:
        return "not the thread opener"
    return None
