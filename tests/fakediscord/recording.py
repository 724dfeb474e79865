"""What the fake Discord saw: requests, broken payloads, and a way to await them."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

T = TypeVar("T")


@dataclass
class RecordedRequest:
    """One HTTP request as the server answered it."""

    method: str
    path: str
    route: str
    json: Any
    query: dict[str, str]
    files: list[tuple[str, str, int]] = field(default_factory=list)
    status: int = 0
    response: Any = None
    timestamp: float = field(default_factory=time.time)

    def is_(self, method: str, route: str) -> bool:
        """Return whether this request hit ``route``, a template like ``/channels/{channel_id}/messages``."""
        return self.method == method.upper() and self.route == route


@dataclass(frozen=True)
class Violation:
    """A payload Discord would have refused with 400."""

    method: str
    route: str
    field: str
    code: str
    message: str


@dataclass
class InteractionResponse:
    """One accepted answer to an interaction (callback, followup, or original edit)."""

    interaction_id: int
    kind: str
    type: int | None
    data: dict[str, Any]
    message: dict[str, Any] | None = None


class Recorder:
    """Append-only logs plus a condition that wakes waiters on every new entry."""

    def __init__(self) -> None:
        self.requests: list[RecordedRequest] = []
        self.violations: list[Violation] = []
        self.interaction_responses: list[InteractionResponse] = []
        self.gateway_frames: list[dict[str, Any]] = []
        self._changed = asyncio.Condition()

    async def notify(self) -> None:
        """Wake every waiter so it re-checks its predicate."""
        async with self._changed:
            self._changed.notify_all()

    async def add_request(self, request: RecordedRequest) -> None:
        """Record a request and wake waiters."""
        self.requests.append(request)
        await self.notify()

    async def wait_until(self, probe: Callable[[], T | None], timeout: float, what: str) -> T:  # noqa: ASYNC109 - deadline spans many waits
        """Return the first non-empty ``probe()`` result, re-checked on every change, within ``timeout``."""
        deadline = time.monotonic() + timeout
        async with self._changed:
            while (found := probe()) is None or found is False:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise TimeoutError(f"timed out after {timeout}s waiting for {what}; {self._tail()}")
                try:
                    await asyncio.wait_for(self._changed.wait(), remaining)
                except TimeoutError:
                    continue
            return found

    def _tail(self) -> str:
        recent = [f"{r.method} {r.path} -> {r.status}" for r in self.requests[-8:]]
        return "recent requests: " + ("; ".join(recent) or "none")
