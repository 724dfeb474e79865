"""storage/budget.py: the answer budget bot processes share, on both backends."""

from __future__ import annotations

import asyncio

from storage.budget import BudgetRepository
from storage.database import Database
from tests import pg


async def test_the_budget_allows_its_count_per_window_then_frees_as_the_window_slides(db: Database) -> None:
    repo = BudgetRepository(db)
    assert [await repo.take(3, 60.0, 1000.0 + n) for n in range(4)] == [True, True, True, False]
    assert await repo.used(60.0, 1003.0) == 3
    assert await repo.ready_in(3, 60.0, 1003.0) == 57.0  # the first answer leaves the window at 1060
    assert await repo.ready_in(3, 60.0, 1060.0) == 0.0
    assert await repo.take(3, 60.0, 1060.0) is True  # 1000 fell out; 1001 and 1002 are still in
    assert await repo.take(3, 60.0, 1060.5) is False


async def test_processes_taking_at_once_never_exceed_the_budget() -> None:
    async with pg.fresh_database() as url:
        first, second = await Database.open(url), await Database.open(url)
        try:
            repos = [BudgetRepository(first), BudgetRepository(second)]
            taken = await asyncio.gather(*(repos[n % 2].take(5, 60.0, 2000.0) for n in range(20)))
            assert sum(taken) == 5
        finally:
            await first.close()
            await second.close()
