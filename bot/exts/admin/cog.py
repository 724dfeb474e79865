"""``/tracebot config``: show or change how tracebot answers in a server (maintainers only).

The maintainer check runs on every use, after deferring: Discord's command permissions can be
changed by any server admin, so they are a convenience, never the guard.
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.access import interaction_is_maintainer
from bot.client import Services
from bot.constants import NO_MENTIONS
from bot.embeds import config_embed
from storage.guilds import GuildConfig, Mode, ReplyStyle, ThreadPolicy

log = logging.getLogger(__name__)
REFUSED = "Only maintainers (Manage Server, or the server's tracebot maintainer role) can use `/tracebot config`."
ConfigChannel = discord.TextChannel | discord.ForumChannel | discord.Thread


class Admin(commands.GroupCog, group_name="tracebot", group_description="Configure tracebot in this server"):
    """Server configuration for maintainers."""

    def __init__(self, services: Services) -> None:
        self.services = services
        super().__init__()

    @app_commands.command(name="config", description="Show or change where and how tracebot answers here")
    @app_commands.guild_only()
    @app_commands.describe(
        channel="The channel to configure (default: this one)",
        mode="auto: answer every paste; mention: only when mentioned; off: never",
        allowed="Add the channel to (true) or remove it from (false) the list tracebot answers in",
        maintainer_role="Members with this role may configure tracebot",
        reply_style="reply: answer under the paste; thread: answer in a new thread",
        threads="In threads and forum posts (auto mode): answer the opener only, or everyone",
    )
    async def config(
        self,
        interaction: discord.Interaction[Any],
        *,
        channel: ConfigChannel | None = None,
        mode: Mode | None = None,
        allowed: bool | None = None,
        maintainer_role: discord.Role | None = None,
        reply_style: ReplyStyle | None = None,
        threads: ThreadPolicy | None = None,
    ) -> None:
        """Show the configuration, applying any change given."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        guild_id = interaction.guild_id
        settings = self.services.settings
        if guild_id is None or not await interaction_is_maintainer(
            interaction, self.services.guilds, settings.owner_ids
        ):
            log.info("config refused for %s in guild %s", interaction.user.id, guild_id)
            await interaction.followup.send(REFUSED, ephemeral=True, allowed_mentions=NO_MENTIONS)
            return
        target = channel.id if channel is not None else interaction.channel_id or 0
        changed: list[str] = []
        config = await self._change_guild(guild_id, maintainer_role, reply_style, threads, changed)
        if mode is not None or allowed is not None:
            config = await self.services.guilds.update_channel(guild_id, target, allowed=allowed, mode=mode)
            changed += _channel_changes(target, mode, allowed)
        if changed:
            log.info("config of guild %s changed by %s: %d settings", guild_id, interaction.user.id, len(changed))
        embed = config_embed(config, changed=changed)
        await interaction.followup.send(embed=embed, ephemeral=True, allowed_mentions=NO_MENTIONS)

    async def _change_guild(
        self,
        guild_id: int,
        role: discord.Role | None,
        reply_style: ReplyStyle | None,
        threads: ThreadPolicy | None,
        changed: list[str],
    ) -> GuildConfig:
        guilds = self.services.guilds
        if role is None and reply_style is None and threads is None:
            return await guilds.config(guild_id)
        if role is not None:
            changed.append(f"maintainer role: <@&{role.id}>")
        if reply_style is not None:
            changed.append(f"reply style: {reply_style}")
        if threads is not None:
            changed.append(f"in threads: {threads}")
        if role is not None:
            return await guilds.update_guild(
                guild_id, maintainer_role_id=role.id, reply_style=reply_style, thread_policy=threads
            )
        return await guilds.update_guild(guild_id, reply_style=reply_style, thread_policy=threads)


def _channel_changes(channel_id: int, mode: str | None, allowed: bool | None) -> list[str]:
    changes = []
    if mode is not None:
        changes.append(f"<#{channel_id}> mode: {mode}")
    if allowed is not None:
        changes.append(f"<#{channel_id}> {'added to' if allowed else 'removed from'} the answered channels")
    return changes
