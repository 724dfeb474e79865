"""The embed of a guild's configuration."""

from __future__ import annotations

from bot.embeds import config_embed
from storage.guilds import GuildConfig


def test_config_embed_lists_channels_modes_and_role() -> None:
    config = GuildConfig(guild_id=1, maintainer_role_id=5, allowed_channels=frozenset({7}), channel_modes={8: "off"})
    fields = {f["name"]: f["value"] for f in config_embed(config, changed=["x"]).to_dict()["fields"]}
    assert fields["Channels"] == "<#7>" and fields["Channel modes"] == "<#8>: off (never answers)"
    assert fields["Maintainer role"] == "<@&5>"
