"""The record repository: every SQL statement about records and import runs."""

from __future__ import annotations

import json
from collections.abc import AsyncGenerator, AsyncIterator, Sequence
from contextlib import aclosing
from datetime import UTC, datetime
from typing import Any

from records.matching.index import IndexEntry, intern_entry
from records.model import MINED, Record
from records.versions import version_key
from storage.connection import Connection, Row
from storage.database import Database
from storage.dialect import Dialect
from storage.models import ImportRun, RecordStats, RecordSummary, StoredRecord

_SUMMARY_COLUMNS = "id, slug, repo, error_class, error_message, file_path, line_number, origin, library_version"
RECORD_COLUMNS = (
    "id, slug, repo, error_class, error_message, message_pattern, file_path, line_number, origin, "
    "library_version, dataset_version, content_hash, data, created_at, updated_at"
)
# What an upsert does when the id exists: every column but created_at, and only when the content changed.
UPSERT_CONFLICT = """
ON CONFLICT (id) DO UPDATE SET
    slug = excluded.slug, repo = excluded.repo, error_class = excluded.error_class,
    error_message = excluded.error_message, message_pattern = excluded.message_pattern,
    file_path = excluded.file_path, line_number = excluded.line_number, origin = excluded.origin,
    library_version = excluded.library_version, dataset_version = excluded.dataset_version,
    content_hash = excluded.content_hash, data = excluded.data, updated_at = excluded.updated_at
WHERE records.content_hash != excluded.content_hash
"""
_UPSERT = "INSERT INTO {table} AS records ({columns}) VALUES ({marks}){conflict}"
# SQLite's default limit on bound parameters is 32766; stay far below it.
_LOOKUP_CHUNK = 900
# The tables naming a record by its id (replies keep the ids they showed: a record of the past).
_NAMING_RECORDS = ("votes", "triage_groups", "triage_samples", "triage_examples")
# The rest of each unique key of those tables that holds record_id (none: any number of rows may name a record).
_REFERENCE_KEYS: dict[str, tuple[tuple[str, ...], ...]] = {
    "votes": (("user_id",),),
    "triage_groups": (),
    "triage_samples": (),
    "triage_examples": (("n",), ("template",)),
}


def utc_now() -> str:
    """Return the current UTC time as an ISO 8601 string (millisecond precision)."""
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


class RecordRepository:
    """Reads and writes records and import runs."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def get(self, id_or_slug: str) -> StoredRecord | None:
        """Return the record with this id, else the best record with this slug, else None."""
        rows = await self._db.fetch(
            "SELECT data, dataset_version, created_at, updated_at, origin, library_version "
            "FROM records WHERE id = ? UNION ALL "
            "SELECT data, dataset_version, created_at, updated_at, origin, library_version "
            "FROM records WHERE slug = ? AND id != ?",
            (id_or_slug, id_or_slug, id_or_slug),
        )
        if not rows:
            return None
        # An exact id wins (first row); among slug matches, curated first, then the newest version.
        best = rows[0] if _row_is_id(rows[0], id_or_slug) else max(rows, key=_preference)
        return _stored(best)

    async def get_many(self, ids: Sequence[str]) -> dict[str, Record]:
        """Return the records with these ids (missing ids are left out)."""
        found: dict[str, Record] = {}
        for start in range(0, len(ids), _LOOKUP_CHUNK):
            chunk = list(ids[start : start + _LOOKUP_CHUNK])
            marks = ",".join("?" * len(chunk))
            for row in await self._db.fetch(f"SELECT data FROM records WHERE id IN ({marks})", chunk):
                record = Record.model_validate_json(row["data"])
                found[record.id] = record
        return found

    async def autocomplete(self, typed: str, limit: int = 25) -> list[RecordSummary]:
        """Return records for typed text: exact id, exact slug, id and slug prefixes, then message text."""
        text = typed.strip()
        key, end = text.lower(), text.lower() + "\U0010ffff"
        pattern = "%" + text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
        queries: list[tuple[str, tuple[Any, ...]]] = [
            ("origin != ? ORDER BY id", (MINED,)),
            ("true ORDER BY id", ()),
        ]
        if text:
            queries = [
                ("id = ?", (text,)),
                ("slug = ?", (text,)),
                ("id >= ? AND id < ?", (key, end)),
                ("slug >= ? AND slug < ?", (key, end)),
                (f"error_message {self._db.dialect.like} ? ESCAPE '\\'", (pattern,)),
            ]
        found: dict[str, RecordSummary] = {}
        for where, params in queries:
            sql = f"SELECT {_SUMMARY_COLUMNS} FROM records WHERE {where} LIMIT ?"
            for row in await self._db.fetch(sql, (*params, limit)):
                found.setdefault(row["id"], _summary(row))
            if len(found) >= limit:
                break
        return list(found.values())[:limit]

    async def summaries(self, *, repo: str | None = None, limit: int | None = None) -> list[RecordSummary]:
        """Return record summaries ordered by id, optionally for one repo."""
        sql = f"SELECT {_SUMMARY_COLUMNS} FROM records"
        params: list[Any] = []
        if repo is not None:
            sql += " WHERE repo = ?"
            params.append(repo)
        sql += " ORDER BY id"
        if limit is not None:
            sql += " LIMIT ?"
            params.append(limit)
        return [_summary(row) for row in await self._db.fetch(sql, params)]

    async def iter_wire(self) -> AsyncGenerator[tuple[str, str | None], None]:
        """Yield (canonical record JSON, dataset version) for every record, ordered by id."""
        # aclosing: a reader that stops early must close the cursor before the database closes.
        async with aclosing(self._db.stream("SELECT data, dataset_version FROM records ORDER BY id")) as rows:
            async for row in rows:
                yield str(row["data"]), row["dataset_version"]

    async def iter_records(self) -> AsyncIterator[Record]:
        """Yield every record, ordered by id."""
        async with aclosing(self.iter_wire()) as rows:
            async for data, _ in rows:
                yield Record.model_validate_json(data)

    async def index_entries(self, *, updated_since: str | None = None) -> AsyncIterator[IndexEntry]:
        """Yield what the matching index needs of each record (optionally only those changed since)."""
        sql = (
            "SELECT id, error_message, error_class, message_pattern, file_path, line_number, repo, origin, "
            f"library_version, {self._db.dialect.json_member('data', 'versions')} AS versions FROM records"
        )
        params: tuple[str, ...] = ()
        if updated_since is not None:
            # >= and not >: a record written in the same millisecond as the watermark must not be missed;
            # the caller skips entries it already has.
            sql += " WHERE updated_at >= ?"
            params = (updated_since,)
        async with aclosing(self._db.stream(sql, params)) as rows:
            async for row in rows:
                yield _index_entry(row)

    async def retire_superseded(self) -> int:
        """Replace the per-release mined records of each site that now has one record of several releases.

        Record sets shipped before ``records.mining.ranges`` held a record per site and release; their
        sites now come as one record listing every release. Once such a record is in, the older ones of
        its site (same repository, file, class and message; no ``versions``) are deleted, and the votes,
        triage links, samples and examples that named them name the new record. One transaction;
        returns how many records were retired (0 when the database holds none, at the cost of one read).
        """
        releases = _releases(self._db.dialect)
        probe = await self._db.fetch_one(
            f"SELECT (SELECT 1 FROM records WHERE origin = 'mined' AND library_version IS NOT NULL "
            f"AND {releases} = 0 LIMIT 1) AS old, (SELECT 1 FROM records WHERE {releases} > 0 LIMIT 1) AS ranged"
        )
        if probe is None or not (probe["old"] and probe["ranged"]):
            return 0
        rows = await self._db.fetch(
            f"SELECT id, repo, file_path, error_class, error_message, {releases} AS ranged "
            "FROM records WHERE origin = 'mined'"
        )
        site_of: dict[tuple[Any, ...], str] = {}
        for row in rows:
            if row["ranged"]:
                site_of.setdefault(_site_key(row), row["id"])
        retired = [(site_of[_site_key(r)], r["id"]) for r in rows if not r["ranged"] and _site_key(r) in site_of]
        if retired:
            async with self._db.transaction() as conn:
                for table in _NAMING_RECORDS:
                    await _rename_references(conn, table, retired)
                await conn.executemany("DELETE FROM records WHERE id = ?", [(old,) for _, old in retired])
        return len(retired)

    async def index_revision(self) -> tuple[str | None, str]:
        """Return the newest ``updated_at`` and the revision of what the index is built from, in one read.

        The revision changes with every write to the records or the triage examples (a token the
        triggers of migration 0007 replace) and with the schema, so an index saved at a revision holds
        exactly that revision's record set. One statement: the watermark and the revision come from
        the same snapshot.
        """
        row = await self._db.fetch_one(
            "SELECT (SELECT max(updated_at) FROM records) AS newest, (SELECT token FROM index_revision) AS token, "
            f"{self._db.dialect.schema_stamp} AS schema"
        )
        assert row is not None  # a SELECT without FROM gives one row
        newest = str(row["newest"]) if row["newest"] is not None else None
        return newest, f"{row['schema']}.{row['token']}"

    async def last_update(self) -> str | None:
        """Return the newest ``updated_at`` of any record (a watermark for reloading the index)."""
        row = await self._db.fetch_one("SELECT max(updated_at) AS newest FROM records")
        return str(row["newest"]) if row is not None and row["newest"] is not None else None

    async def count(self) -> int:
        """Return the number of records."""
        row = await self._db.fetch_one("SELECT count(*) AS n FROM records")
        return int(row["n"]) if row is not None else 0

    async def stats(self) -> RecordStats:
        """Return counts by repo, origin, library version and class, and the last import run."""
        runs = await self._db.fetch_one("SELECT count(*) AS n FROM import_runs")
        last = await self.import_runs(limit=1)
        return RecordStats(
            total=await self.count(),
            by_repo=await self._group_count("coalesce(repo, '(none)')"),
            by_origin=await self._group_count("origin"),
            by_version=await self._group_count("coalesce(library_version, '(curated)')"),
            top_classes=await self._group_count("coalesce(error_class, '(none)')", limit=10),
            import_runs=int(runs["n"]) if runs is not None else 0,
            last_import=last[0] if last else None,
        )

    async def import_runs(self, *, limit: int = 20) -> list[ImportRun]:
        """Return the most recent import runs, newest first."""
        rows = await self._db.fetch(
            "SELECT id, started_at, finished_at, source, dataset_version, added, updated, unchanged, "
            "rejected FROM import_runs ORDER BY id DESC LIMIT ?",
            (limit,),
        )
        return [ImportRun.model_validate(dict(row)) for row in rows]

    async def existing_hashes(self, ids: Sequence[str]) -> dict[str, str]:
        """Return id -> content hash for those of ``ids`` already stored (read outside any transaction)."""
        found: dict[str, str] = {}
        for start in range(0, len(ids), _LOOKUP_CHUNK):
            chunk = list(ids[start : start + _LOOKUP_CHUNK])
            marks = ",".join("?" * len(chunk))
            for row in await self._db.fetch(f"SELECT id, content_hash FROM records WHERE id IN ({marks})", chunk):
                found[str(row["id"])] = str(row["content_hash"])
        return found

    async def upsert(
        self,
        conn: Connection,
        records: Sequence[tuple[Record, str | None]],
        now: str,
        *,
        table: str = "records",
    ) -> None:
        """Insert or update records (with their dataset versions) inside a transaction.

        ``table`` names another table shaped like ``records`` (an import's staging tables).
        """
        if not table.isidentifier():
            raise ValueError(f"not a table name: {table!r}")
        sql = _UPSERT.format(table=table, columns=RECORD_COLUMNS, marks=", ".join("?" * 15), conflict=UPSERT_CONFLICT)
        await conn.executemany(sql, [_row(record, version, now) for record, version in records])

    async def add_import_run(self, conn: Connection, run: dict[str, Any]) -> int:
        """Record one import run inside the import's own transaction; return its id."""
        row = await conn.fetch_one(
            "INSERT INTO import_runs (started_at, finished_at, source, dataset_version, added, updated, "
            "unchanged, rejected) VALUES (:started_at, :finished_at, :source, :dataset_version, :added, "
            ":updated, :unchanged, :rejected) RETURNING id",
            run,
        )
        assert row is not None  # RETURNING gives the row inserted
        return int(row["id"])

    async def _group_count(self, expression: str, limit: int | None = None) -> dict[str, int]:
        # `expression` is one of our own column expressions, never user input.
        sql = f"SELECT {expression} AS k, count(*) AS n FROM records GROUP BY k ORDER BY n DESC, k"
        if limit is not None:
            sql += f" LIMIT {int(limit)}"
        return {str(row["k"]): int(row["n"]) for row in await self._db.fetch(sql)}


def _releases(dialect: Dialect) -> str:
    """How many releases a stored record lists (0 for a record of one release, or of before releases were listed)."""
    return f"coalesce({dialect.json_array_length('data', 'versions')}, 0)"


async def _rename_references(conn: Connection, table: str, renames: list[tuple[str, str]]) -> None:
    """Make ``table``'s rows that name an old record id (``renames``: new, old) name its new one.

    A row the new id has already (the same person's vote, an example of the same number or template:
    a second old record of the site named it first) stays behind and is deleted with the old id.
    """
    clashes = [" AND ".join(f"other.{column} = {table}.{column}" for column in key) for key in _REFERENCE_KEYS[table]]
    moved = f"UPDATE {table} SET record_id = ? WHERE record_id = ?"
    if clashes:
        moved += (
            f" AND NOT EXISTS (SELECT 1 FROM {table} AS other WHERE other.record_id = ? AND ({' OR '.join(clashes)}))"
        )
        await conn.executemany(moved, [(new, old, new) for new, old in renames])
        await conn.executemany(f"DELETE FROM {table} WHERE record_id = ?", [(old,) for _, old in renames])
    else:
        await conn.executemany(moved, renames)


def _row(record: Record, dataset_version: str | None, now: str) -> tuple[Any, ...]:
    return (
        record.id,
        record.slug,
        record.repo,
        record.error_class,
        record.error_message,
        record.message_pattern,
        record.file_path,
        record.line_number,
        record.origin or "curated",
        record.library_version,
        dataset_version,
        record.content_hash(),
        record.canonical_json(),
        now,
        now,
    )


def _row_is_id(row: Row, ident: str) -> bool:
    return bool(json.loads(row["data"]).get("id") == ident)


def _preference(row: Row) -> tuple[bool, tuple[Any, ...]]:
    return (row["origin"] != MINED, version_key(row["library_version"]))


def _stored(row: Row) -> StoredRecord:
    return StoredRecord(
        record=Record.model_validate_json(row["data"]),
        dataset_version=row["dataset_version"],
        created_at=row["created_at"],
        updated_at=row["updated_at"],
    )


def _summary(row: Row) -> RecordSummary:
    return RecordSummary.model_validate(dict(row))


def _index_entry(row: Row) -> IndexEntry:
    return intern_entry(
        IndexEntry(
            id=row["id"],
            error_message=row["error_message"],
            error_class=row["error_class"],
            message_pattern=row["message_pattern"],
            file_path=row["file_path"],
            line_number=row["line_number"],
            repo=row["repo"],
            curated=row["origin"] != MINED,
            library_version=row["library_version"],
            version_lines=_version_lines(row["versions"]),
        )
    )


def _version_lines(versions: str | None) -> tuple[tuple[str, int], ...]:
    """Return (release, line) of each release but the newest from a record's ``versions`` (JSON text)."""
    if not versions:
        return ()
    return tuple(
        (str(item["version"]), int(item["lineNumber"]))
        for item in json.loads(versions)[1:]
        if item.get("lineNumber") is not None
    )


def _site_key(row: Row) -> tuple[Any, ...]:
    return row["repo"], row["file_path"], row["error_class"], row["error_message"]
