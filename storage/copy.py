"""Copy a whole tracebot database into an empty one of either backend (``tracebot db copy SRC DST``).

Every table is copied in one transaction on the target, parents before children, then checked before
the commit: the row count of each table, and the records as an export writes them (a digest of every
record's canonical JSON, in id order). A mismatch rolls the whole copy back. The source is only read.
"""

from __future__ import annotations

import hashlib
from contextlib import aclosing

from records.errors import StorageError
from storage.connection import Connection
from storage.database import Database

# Parents before children (the foreign keys), in the schema's own column order.
TABLES = (
    "records_all",
    "import_runs",
    "guild_settings",
    "channel_settings",
    "replies",
    "votes",
    "bot_status",
    "triage_groups",
    "triage_aliases",
    "triage_merged",
    "triage_split_rules",
    "triage_people",
    "triage_versions",
    "triage_places",
    "triage_samples",
    "triage_user_days",
    "triage_examples",
)
# Tables whose integer id the target numbers itself from: its counter must start past the copied ids.
IDENTITY_TABLES = ("import_runs", "triage_groups", "triage_samples")
_BATCH = 2000
# What must be empty in the target: a copy never merges into a database in use.
_IN_USE = ("records_all", "import_runs", "replies", "votes", "guild_settings", "triage_groups")


async def copy_database(source: Database, target: Database) -> dict[str, int]:
    """Copy every row of ``source`` into the empty ``target``; return the rows copied per table."""
    await _require_settled(source)
    await _require_empty(target)
    copied: dict[str, int] = {}
    async with target.transaction() as conn:
        for table in TABLES:
            copied[table] = await _copy_table(source, conn, table)
        for table in IDENTITY_TABLES:
            await _restart_identity(conn, table)
        state = await source.fetch_one("SELECT published FROM import_state")
        await conn.execute("UPDATE import_state SET published = ?", (int(state["published"]) if state else 0,))
        await _check(source, conn, copied)
    return copied


async def _require_settled(source: Database) -> None:
    """Refuse a source an interrupted SQLite import left half published (the next import finishes it)."""
    state = await source.fetch_one("SELECT merging FROM import_state")
    pending = await source.fetch_one(
        "SELECT (SELECT count(*) FROM records_next) AS next, (SELECT count(*) FROM records_all "
        "WHERE import_run > (SELECT published FROM import_state)) AS unpublished"
    )
    if (state is not None and state["merging"]) or (
        pending is not None and (pending["next"] or pending["unpublished"])
    ):
        raise StorageError(
            f"{source.name}: an interrupted import is not finished; run `tracebot records import` on it once "
            "(it finishes or removes what was left), then copy"
        )


async def _require_empty(target: Database) -> None:
    counts = {table: await _count(target, table) for table in _IN_USE}
    held = {table: n for table, n in counts.items() if n}
    if held:
        shown = ", ".join(f"{n} rows in {table}" for table, n in held.items())
        raise StorageError(f"{target.name}: the target is not empty ({shown}); copy into a new database")


async def _copy_table(source: Database, conn: Connection, table: str) -> int:
    where = " WHERE import_run <= (SELECT published FROM import_state)" if table == "records_all" else ""
    copied = 0
    batch: list[tuple[object, ...]] = []
    insert = ""
    async with aclosing(source.stream(f"SELECT * FROM {table}{where} ORDER BY 1")) as rows:
        async for row in rows:
            if not insert:
                columns = list(row.keys())
                insert = f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})"
            batch.append(tuple(row))
            if len(batch) >= _BATCH:
                copied += await _flush(conn, insert, batch)
    return copied + (await _flush(conn, insert, batch) if batch else 0)


async def _flush(conn: Connection, insert: str, batch: list[tuple[object, ...]]) -> int:
    await conn.executemany(insert, batch)
    done = len(batch)
    batch.clear()
    return done


async def _restart_identity(conn: Connection, table: str) -> None:
    if conn.dialect.name == "postgresql":  # SQLite's AUTOINCREMENT follows the largest id inserted
        await conn.execute(
            f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), coalesce((SELECT max(id) FROM {table}), 0) + 1, "
            "false)"
        )


async def _check(source: Database, conn: Connection, copied: dict[str, int]) -> None:
    """Compare counts and the records' export with the source before the copy commits."""
    for table, n in copied.items():
        row = await conn.fetch_one(f"SELECT count(*) AS n FROM {table}")
        if row is None or int(row["n"]) != n:
            raise StorageError(f"{table}: {row['n'] if row else 0} rows arrived of {n} copied; nothing was kept")
    export = "SELECT id, data, dataset_version FROM records ORDER BY id"
    if await _digest(source, export) != await _digest(conn, export):
        raise StorageError("the copied records differ from the source's export; nothing was kept")


async def _digest(reader: Database | Connection, sql: str) -> str:
    digest = hashlib.sha256()
    async with aclosing(reader.stream(sql)) as rows:
        async for row in rows:
            digest.update(f"{row['id']}\0{row['data']}\0{row['dataset_version']}\n".encode())
    return digest.hexdigest()


async def _count(db: Database, table: str) -> int:
    row = await db.fetch_one(f"SELECT count(*) AS n FROM {table}")
    return int(row["n"]) if row is not None else 0
