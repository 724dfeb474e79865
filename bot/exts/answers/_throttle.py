"""Flood control: per-user and per-channel cooldowns and a global budget of answers.

Pure and clock-injected, so tests drive time. ``blocked`` only looks (the listener asks before
matching, to spare the CPU); ``take`` looks and counts in one step (no await in between, so two
pastes matched at once cannot both slip through).
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable

from storage.budget import BudgetRepository

PRUNE_AT = 10_000  # entries per map before old ones are dropped


class Throttle:
    """Decides whether one more answer may go out now."""

    def __init__(
        self,
        *,
        user_cooldown: float,
        channel_cooldown: float,
        budget: int,
        window: float,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.user_cooldown, self.channel_cooldown = user_cooldown, channel_cooldown
        self.budget, self.window = budget, window
        self._clock = clock
        self._users: dict[int, float] = {}
        self._channels: dict[int, float] = {}
        self._recent: deque[float] = deque()

    def blocked(self, user_id: int, channel_id: int) -> str | None:
        """Return why an answer to this user in this channel must wait now, or None."""
        now = self._clock()
        if now - self._users.get(user_id, -float("inf")) < self.user_cooldown:
            return "user cooldown"
        if now - self._channels.get(channel_id, -float("inf")) < self.channel_cooldown:
            return "channel cooldown"
        while self._recent and now - self._recent[0] >= self.window:
            self._recent.popleft()
        if self.budget and len(self._recent) >= self.budget:
            return "global budget"
        return None

    def ready_in(self, user_id: int, channel_id: int) -> float:
        """Return the seconds until an answer to this user in this channel would be allowed (0 if now)."""
        now = self._clock()
        waits = [
            self._users.get(user_id, -float("inf")) + self.user_cooldown - now,
            self._channels.get(channel_id, -float("inf")) + self.channel_cooldown - now,
        ]
        if self.budget and len(self._recent) >= self.budget:
            waits.append(self._recent[-self.budget] + self.window - now)
        return max(0.0, *waits)

    def take(self, user_id: int, channel_id: int) -> bool:
        """Count one answer if allowed now; return whether it was."""
        if self.blocked(user_id, channel_id) is not None:
            return False
        now = self._clock()
        self._users[user_id] = self._channels[channel_id] = now
        if self.budget:
            self._recent.append(now)
        self._prune(now)
        return True

    def _prune(self, now: float) -> None:
        for stamps, cooldown in ((self._users, self.user_cooldown), (self._channels, self.channel_cooldown)):
            if len(stamps) > PRUNE_AT:
                for key in [k for k, t in stamps.items() if now - t >= cooldown]:
                    del stamps[key]


class SharedBudget:
    """The global answer budget kept in a database several bot processes share (``Database.shared``).

    Per-user and per-channel cooldowns stay in each process (a channel's messages reach one shard);
    the budget is counted in the database, so all processes together send at most ``budget`` answers
    in any ``window`` seconds.
    """

    def __init__(
        self, repo: BudgetRepository, *, budget: int, window: float, clock: Callable[[], float] = time.time
    ) -> None:
        self.repo, self.budget, self.window = repo, budget, window
        self._clock = clock

    async def take(self) -> bool:
        """Count one answer if the budget has room now; return whether it had."""
        return await self.repo.take(self.budget, self.window, self._clock())

    async def ready_in(self) -> float:
        """Return the seconds until the budget has room (0 if now)."""
        return await self.repo.ready_in(self.budget, self.window, self._clock())
