"""A reply's lifecycle: one message handled at a time."""

from __future__ import annotations

import asyncio

from bot.exts.answers._lifecycle import KeyedLocks


async def test_keyed_locks_serialise_one_message_and_clean_up() -> None:
    locks, order = KeyedLocks(), []

    async def work(key: int, name: str) -> None:
        async with locks.hold(key):
            order.append(f"{name} in")
            await asyncio.sleep(0.01)
            order.append(f"{name} out")

    await asyncio.gather(work(1, "a"), work(1, "b"), work(2, "c"))
    assert order.index("a out") < order.index("b in") and len(locks) == 0
