"""Answers held until a cooldown lapses: deferred, never silently dropped.

A paste that arrives while its author's or its channel's cooldown runs is matched at once; its reply
waits here and goes out when the cooldown lapses. One person's pastes of the same error in one
channel (the first line, then the whole traceback a few seconds later) wait as one entry: the fullest
of them (the best answer, then the longest text) is the one answered. Pastes of different errors wait
side by side. The store is
bounded per channel and in total; what does not fit is refused, and the caller counts and logs it.

Pure (no Discord calls, no clock): the cog decides when an entry is due and posts it.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Generic, Literal, TypeVar

T = TypeVar("T")
Offer = Literal["queued", "replaced", "kept", "overflow"]
Key = tuple[int, int, str]  # (author id, channel id, the error's cause: the answer's record id)


@dataclass(frozen=True, slots=True)
class Waiting(Generic[T]):
    """One held answer: the paste it answers and how full an answer it is."""

    message_id: int
    channel_id: int
    cause: str  # the record the answer is about: pastes of one cause by one person wait as one
    fullness: tuple[int, int]  # (answer rank, text length): the larger is answered
    item: T


class DeferredReplies(Generic[T]):
    """Held answers, one per (author, channel, cause), bounded per channel and in total."""

    def __init__(self, *, per_channel: int, total: int) -> None:
        self.per_channel, self.total = per_channel, total
        self._waiting: dict[Key, Waiting[T]] = {}
        self._by_message: dict[int, Key] = {}
        self._per_channel: Counter[int] = Counter()

    def offer(self, author_id: int, waiting: Waiting[T]) -> Offer:
        """Hold ``waiting`` by author, channel and cause; say if it was queued, replaced one, lost or overflowed."""
        key = (author_id, waiting.channel_id, waiting.cause)
        held = self._waiting.get(key)
        if held is not None:
            if held.fullness >= waiting.fullness:
                return "kept"
            self._forget(key)
            self._hold(key, waiting)
            return "replaced"
        if len(self._waiting) >= self.total or self._per_channel[waiting.channel_id] >= self.per_channel:
            return "overflow"
        self._hold(key, waiting)
        return "queued"

    def drop(self, message_id: int) -> Waiting[T] | None:
        """Forget the held answer to a paste that was deleted or edited; return it if there was one."""
        key = self._by_message.get(message_id)
        return self._forget(key) if key is not None else None

    def take(self, key: Key) -> Waiting[T] | None:
        """Remove and return the held answer of ``key`` (it is being posted)."""
        return self._forget(key) if key in self._waiting else None

    def waiting_keys(self) -> list[Key]:
        """Return the (author, channel, cause) keys that hold an answer, oldest first."""
        return list(self._waiting)

    def __len__(self) -> int:
        return len(self._waiting)

    def _hold(self, key: Key, waiting: Waiting[T]) -> None:
        self._waiting[key] = waiting
        self._by_message[waiting.message_id] = key
        self._per_channel[waiting.channel_id] += 1

    def _forget(self, key: Key) -> Waiting[T]:
        waiting = self._waiting.pop(key)
        del self._by_message[waiting.message_id]
        self._per_channel[waiting.channel_id] -= 1
        if not self._per_channel[waiting.channel_id]:
            del self._per_channel[waiting.channel_id]
        return waiting
