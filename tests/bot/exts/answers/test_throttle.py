"""The throttle: per-user and per-channel cooldowns and the global budget."""

from __future__ import annotations

from bot.exts.answers._throttle import Throttle


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
