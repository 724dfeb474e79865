"""The embed that shows a server's tracebot configuration (``/tracebot config``)."""

from __future__ import annotations

import discord

from bot.embeds.text import FIELD_VALUE, add_field, clip, fit
from storage.guilds import GuildConfig

CONFIG_COLOUR = 0x95A5A6
MODE_TEXT = {
    "auto": "answers every paste",
    "mention": "answers only when mentioned",
    "off": "never answers",
}


def _channels(ids: list[int]) -> str:
    return clip(", ".join(f"<#{cid}>" for cid in ids), FIELD_VALUE)


def config_embed(config: GuildConfig, *, changed: list[str] | None = None) -> discord.Embed:
    """Build the configuration summary (``changed`` lists what this command just changed)."""
    embed = discord.Embed(title="tracebot in this server", colour=CONFIG_COLOUR)
    if changed:
        embed.description = clip("Changed: " + "; ".join(changed) + ".", 1000)
    allowed = sorted(config.allowed_channels)
    add_field(embed, "Channels", _channels(allowed) if allowed else "every channel tracebot can read")
    modes = [f"<#{cid}>: {mode} ({MODE_TEXT[mode]})" for cid, mode in sorted(config.channel_modes.items())]
    add_field(embed, "Channel modes", clip("\n".join(modes), FIELD_VALUE) if modes else "auto everywhere")
    role = f"<@&{config.maintainer_role_id}>" if config.maintainer_role_id else "none (Manage Server only)"
    add_field(embed, "Maintainer role", role, inline=True)
    add_field(embed, "Reply style", config.reply_style, inline=True)
    threads = "the opener's pastes" if config.thread_policy == "opener" else "everyone's pastes"
    add_field(embed, "In threads and forum posts (auto)", threads, inline=True)
    return fit(embed)
