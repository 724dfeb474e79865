"""storage/connection.py: one interface over both drivers (row counts, rows by name, streaming)."""

from __future__ import annotations

from contextlib import aclosing

from storage.database import Database


async def test_execute_counts_the_rows_a_statement_changed(db: Database) -> None:
    async with db.transaction() as conn:
        rows = [(f"k{n}", "v", "now") for n in range(5)]
        await conn.executemany("INSERT INTO bot_status (key, value, updated_at) VALUES (?, ?, ?)", rows)
        assert await conn.execute("UPDATE bot_status SET value = ? WHERE key >= ?", ("w", "k3")) == 2
        assert await conn.execute("DELETE FROM bot_status WHERE key = ?", ("absent",)) == 0
        named = await conn.fetch_one("SELECT count(*) AS n FROM bot_status WHERE value = :value", {"value": "w"})
    assert named is not None and named["n"] == 2


async def test_rows_read_by_name_by_position_and_as_a_dict(db: Database) -> None:
    async with db.transaction() as conn:
        await conn.execute("INSERT INTO bot_status (key, value, updated_at) VALUES (?, ?, ?)", ("a", "1", "t"))
    row = await db.fetch_one("SELECT key, value FROM bot_status")
    assert row is not None and row["key"] == "a" and row[1] == "1" and dict(row) == {"key": "a", "value": "1"}
    assert await db.fetch_one("SELECT key FROM bot_status WHERE key = ?", ("zz",)) is None


async def test_stream_yields_every_row_in_order_across_chunks_and_can_stop_early(db: Database) -> None:
    async with db.transaction() as conn:
        rows = [(f"k{n:03}", str(n), "t") for n in range(25)]
        await conn.executemany("INSERT INTO bot_status (key, value, updated_at) VALUES (?, ?, ?)", rows)
    seen = [row["key"] async for row in db.stream("SELECT key FROM bot_status ORDER BY key", chunk=4)]
    assert seen == [f"k{n:03}" for n in range(25)]
    async with aclosing(db.stream("SELECT key FROM bot_status ORDER BY key", chunk=4)) as stream:
        async for row in stream:
            assert row["key"] == "k000"
            break
    # Stopping early left nothing open that a write would wait behind.
    async with db.transaction() as conn:
        assert await conn.execute("DELETE FROM bot_status") == 25
