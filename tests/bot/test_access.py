"""Who is a maintainer."""

from __future__ import annotations

import pytest

from bot.access import is_maintainer
from storage.guilds import GuildConfig

CONFIG = GuildConfig(guild_id=1, maintainer_role_id=50)


@pytest.mark.parametrize(
    ("user", "roles", "manage", "expected"),
    [(1, [], True, True), (1, [50], False, True), (1, [51], False, False), (7, [], False, True), (1, [], False, False)],
)
def test_is_maintainer(user: int, roles: list[int], manage: bool, expected: bool) -> None:
    assert is_maintainer(user_id=user, role_ids=roles, manage_guild=manage, config=CONFIG, owner_ids=[7]) is expected


def test_no_role_configured_means_manage_server_only() -> None:
    config = GuildConfig(guild_id=1)
    assert not is_maintainer(user_id=1, role_ids=[50], manage_guild=False, config=config, owner_ids=())
