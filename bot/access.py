"""Who may change tracebot's settings and remove its answers, decided at run time on every use.

Maintainers: members with Manage Server in the channel, members with the server's configured
maintainer role, and the bot owners named in settings. Moderators (who may delete any answer) are
maintainers and members with Manage Messages.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

import discord

from storage.guilds import GuildConfig, GuildRepository


def is_maintainer(
    *, user_id: int, role_ids: Collection[int], manage_guild: bool, config: GuildConfig, owner_ids: Collection[int]
) -> bool:
    """Return whether a member may configure tracebot in a server."""
    if manage_guild or user_id in owner_ids:
        return True
    return config.maintainer_role_id is not None and config.maintainer_role_id in role_ids


def role_ids_of(user: discord.abc.User) -> list[int]:
    """Return the ids of a member's roles (none for a user outside a server)."""
    return [role.id for role in user.roles] if isinstance(user, discord.Member) else []


async def interaction_is_maintainer(
    interaction: discord.Interaction[Any], guilds: GuildRepository, owner_ids: Collection[int]
) -> bool:
    """Return whether the person behind an interaction is a maintainer of its server."""
    if interaction.guild_id is None:
        return interaction.user.id in owner_ids
    return is_maintainer(
        user_id=interaction.user.id,
        role_ids=role_ids_of(interaction.user),
        manage_guild=interaction.permissions.manage_guild,
        config=await guilds.config(interaction.guild_id),
        owner_ids=owner_ids,
    )


async def interaction_is_moderator(
    interaction: discord.Interaction[Any], guilds: GuildRepository, owner_ids: Collection[int]
) -> bool:
    """Return whether the person behind an interaction may remove any answer in this channel."""
    if interaction.permissions.manage_messages:
        return True
    return await interaction_is_maintainer(interaction, guilds, owner_ids)
