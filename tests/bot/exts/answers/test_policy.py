"""The answers feature's pure rules: reading a message, the policy, the throttle, per-message locks."""

from __future__ import annotations

import asyncio

import pytest

from bot.exts.answers._lifecycle import KeyedLocks
from bot.exts.answers._policy import Facts, channel_mode, is_allowed, skip_reason
from bot.exts.answers._reading import compose, pick_attachments, readable_attachment, strip_mentions
from bot.exts.answers._throttle import Throttle
from storage.guilds import GuildConfig

CAP = 1000
DEFAULT = GuildConfig(guild_id=1)


def facts(**overrides: object) -> Facts:
    """Return facts about an ordinary member's message in channel 10."""
    values: dict[str, object] = {"guild_id": 1, "channel_id": 10, "author_id": 5}
    return Facts(**(values | overrides))  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("name", "size", "readable"),
    [
        ("message.txt", 10, True),
        ("train.LOG", 10, True),
        ("script.py", CAP, True),
        ("message.txt", CAP + 1, False),
        ("message.txt", 0, False),
        ("screenshot.png", 10, False),
        ("notes.txt.exe", 10, False),
    ],
)
def test_readable_attachment(name: str, size: int, readable: bool) -> None:
    assert readable_attachment(name, size, CAP) is readable


def test_pick_attachments_takes_at_most_three_readable_files() -> None:
    files = [("a.png", 5), ("a.txt", 5), ("b.log", 5), ("big.txt", CAP * 2), ("c.py", 5), ("d.txt", 5)]
    assert pick_attachments(files, CAP) == [1, 2, 4]


def test_mentions_and_compose() -> None:
    assert strip_mentions("<@99> <@!99> KeyError <@12>", 99) == "KeyError <@12>"
    assert compose("msg", ["", "file text", "  "]) == "msg\n\nfile text"


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


class Clock:
    """A clock tests move by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_throttle_cooldowns_and_global_budget() -> None:
    clock = Clock()
    throttle = Throttle(user_cooldown=10, channel_cooldown=2, budget=3, window=60, clock=clock)
    assert throttle.take(1, 100)
    assert throttle.blocked(1, 200) == "user cooldown" and not throttle.take(1, 200)
    assert throttle.blocked(2, 100) == "channel cooldown"
    clock.now += 2
    assert throttle.take(2, 100) and throttle.take(3, 300)
    assert throttle.blocked(4, 400) == "global budget"
    clock.now += 60
    assert throttle.blocked(4, 400) is None and throttle.take(1, 100)


def test_a_zero_throttle_never_blocks() -> None:
    throttle = Throttle(user_cooldown=0, channel_cooldown=0, budget=0, window=60)
    assert all(throttle.take(1, 1) for _ in range(1000))


def test_throttle_forgets_old_entries() -> None:
    clock = Clock()
    throttle = Throttle(user_cooldown=1, channel_cooldown=1, budget=0, window=60, clock=clock)
    for user in range(10_001):
        clock.now += 0.01
        throttle.take(user, user)
    assert len(throttle._users) < 200  # pruned once it passed 10,000: only the last second is kept


async def test_keyed_locks_serialise_one_message_and_clean_up() -> None:
    locks, order = KeyedLocks(), []

    async def work(key: int, name: str) -> None:
        async with locks.hold(key):
            order.append(f"{name} in")
            await asyncio.sleep(0.01)
            order.append(f"{name} out")

    await asyncio.gather(work(1, "a"), work(1, "b"), work(2, "c"))
    assert order.index("a out") < order.index("b in") and len(locks) == 0
