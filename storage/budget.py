"""The answer budget several bot processes share: at most ``budget`` answers in any ``window`` seconds.

Each answer is a row with its time. Counting and adding happen in one write transaction, which the
processes take in turn (both backends serialize writers), so two processes cannot both take the
last answer of a window. Times come from the caller's clock (seconds since the epoch), as the
processes of one deployment share one.
"""

from __future__ import annotations

from storage.database import Database


class BudgetRepository:
    """Takes answers from the shared budget and says when the next one is free."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def take(self, budget: int, window: float, now: float) -> bool:
        """Count one answer at ``now`` if fewer than ``budget`` were counted in the window before it."""
        async with self._db.transaction() as conn:
            await conn.execute("DELETE FROM answer_budget WHERE at <= ?", (now - window,))
            row = await conn.fetch_one("SELECT count(*) AS n FROM answer_budget")
            if row is not None and int(row["n"]) >= budget:
                return False
            await conn.execute("INSERT INTO answer_budget (at) VALUES (?)", (now,))
            return True

    async def ready_in(self, budget: int, window: float, now: float) -> float:
        """Return the seconds until the budget has room again (0 when it has room now)."""
        rows = await self._db.fetch(
            "SELECT at FROM answer_budget WHERE at > ? ORDER BY at DESC LIMIT ?", (now - window, budget)
        )
        if len(rows) < budget:
            return 0.0
        return max(0.0, float(rows[-1]["at"]) + window - now)

    async def used(self, window: float, now: float) -> int:
        """Return how many answers were counted in the window before ``now``."""
        row = await self._db.fetch_one("SELECT count(*) AS n FROM answer_budget WHERE at > ?", (now - window,))
        return int(row["n"]) if row is not None else 0
