"""The answers policy: which messages are skipped and why, and each channel's mode."""

from __future__ import annotations

import pytest

from bot.exts.answers._policy import Facts, channel_mode, is_allowed, skip_reason
from storage.guilds import GuildConfig

DEFAULT = GuildConfig(guild_id=1)


def facts(**overrides: object) -> Facts:
    """Return facts about an ordinary member's message in channel 10."""
    values: dict[str, object] = {"guild_id": 1, "channel_id": 10, "author_id": 5}
    return Facts(**(values | overrides))  # type: ignore[arg-type]  # each test passes Facts fields


@pytest.mark.parametrize(
    ("changes", "config", "reason"),
    [
        ({}, DEFAULT, None),
        ({"from_self": True}, DEFAULT, "own message"),
        ({"from_bot": True}, DEFAULT, "bot or webhook"),
        ({"from_webhook": True}, DEFAULT, "bot or webhook"),
        ({"is_system": True}, DEFAULT, "system message"),
        ({"guild_id": None}, None, None),
        ({}, GuildConfig(guild_id=1, allowed_channels=frozenset({11})), "channel not allowed"),
        (
            {"parent_id": 11, "in_thread": True, "thread_owner_id": 5},
            GuildConfig(guild_id=1, allowed_channels=frozenset({11})),
            None,
        ),
        ({}, GuildConfig(guild_id=1, channel_modes={10: "off"}), "channel off"),
        ({"mentions_me": True}, GuildConfig(guild_id=1, channel_modes={10: "off"}), "channel off"),
        ({}, GuildConfig(guild_id=1, channel_modes={10: "mention"}), "not mentioned"),
        ({"mentions_me": True}, GuildConfig(guild_id=1, channel_modes={10: "mention"}), None),
        ({"in_thread": True, "parent_id": 3, "thread_owner_id": 6}, DEFAULT, "not the thread opener"),
        ({"in_thread": True, "parent_id": 3, "thread_owner_id": 5}, DEFAULT, None),
        ({"in_thread": True, "parent_id": 3, "thread_owner_id": 6, "mentions_me": True}, DEFAULT, None),
        (
            {"in_thread": True, "parent_id": 3, "thread_owner_id": 6},
            GuildConfig(guild_id=1, thread_policy="everyone"),
            None,
        ),
        (
            {"in_thread": True, "parent_id": 3, "thread_owner_id": 5},
            GuildConfig(guild_id=1, channel_modes={3: "off"}),
            "channel off",
        ),
    ],
)
def test_skip_reason(changes: dict[str, object], config: GuildConfig | None, reason: str | None) -> None:
    assert skip_reason(facts(**changes), config) == reason


def test_thread_inherits_its_parents_mode_unless_it_has_its_own() -> None:
    config = GuildConfig(guild_id=1, channel_modes={3: "mention", 30: "auto"})
    assert channel_mode(config, 30, 3) == "auto" and channel_mode(config, 31, 3) == "mention"
    assert channel_mode(config, 99) == "auto" and is_allowed(DEFAULT, 99)
