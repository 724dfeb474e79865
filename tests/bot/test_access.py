"""Who is a maintainer, and the autocomplete choices of ``/error``."""

from __future__ import annotations

import pytest

from bot.access import is_maintainer
from bot.exts.lookup._choices import id_choices
from storage.guilds import GuildConfig
from storage.models import RecordSummary

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


def summary(record_id: str, message: str = "m") -> RecordSummary:
    """Return a record summary for tests."""
    return RecordSummary(
        id=record_id, slug=None, repo=None, error_class="ValueError", error_message=message,
        file_path=None, line_number=None, origin="curated", library_version=None,
    )  # fmt: skip


def test_choices_put_the_exact_id_first_and_fit_discord() -> None:
    summaries = [summary(f"abc{i}", "x" * 500) for i in range(40)] + [summary("abc"), summary("y" * 101)]
    choices = id_choices(summaries, "abc")
    assert choices[0][1] == "abc" and len(choices) == 25
    assert all(len(name) <= 100 and len(value) <= 100 for name, value in choices)
    assert choices[1][0].startswith("abc0 · ValueError: xxx")
