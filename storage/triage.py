"""The triage repository: every SQL statement about triage groups, samples, caps and examples.

A group is one fingerprint: its count, when it was first and last seen, where (servers and
channels), a few redacted samples, and its review status (new, linked to a record, or dismissed).
Writes take one transaction each; per-user daily counters are checked in the same transaction that
would add a group, so two pastes at once cannot slip past a cap.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Sequence
from contextlib import aclosing
from datetime import UTC, datetime
from typing import Any

from records.errors import UnknownRecord, UnknownReport
from records.matching.index import IndexEntry
from records.model import MINED
from records.triage import MAX_LIBRARIES, Observation, PasteOrigin, TriageLimits
from storage import triage_regroup as regroup
from storage.connection import Connection, Row
from storage.database import Database
from storage.dialect import Dialect
from storage.triage_models import (
    Example,
    Logged,
    Outcome,
    Purged,
    Review,
    Status,
    TriageGroup,
    TriagePlace,
    TriageReport,
    TriageSample,
    example_id,
)


def _group_columns(dialect: Dialect) -> str:
    """Return the columns of a group row: its own, and counts and versions from the tables beside it."""
    versions = dialect.json_pairs("v.library", "v.version")
    return (
        "g.id, g.fingerprint, g.error_class, g.masked, g.count, g.not_helpful, g.first_seen, g.last_seen, "
        "g.status, g.record_id, g.reason, g.reviewed_by, g.reviewed_at, g.libraries, g.last_jump_url, g.frame, "
        "(SELECT count(DISTINCT p.guild_id) FROM triage_places p WHERE p.group_id = g.id AND p.guild_id != 0) "
        "AS guilds, "
        "(SELECT count(*) FROM triage_places p WHERE p.group_id = g.id) AS channels, "
        "(SELECT count(*) FROM triage_people u WHERE u.group_id = g.id) AS people, "
        f"(SELECT {versions} FROM "
        "(SELECT library, version FROM triage_versions WHERE group_id = g.id ORDER BY library, version) v) AS versions"
    )


_SAMPLE_COLUMNS = (
    "id, group_id, created_at, source, guild_id, channel_id, author_id, message_id, jump_url, record_id, text, "
    "frame, detail, answered_at"
)
_UPDATE_GROUP = (
    "UPDATE triage_groups SET count = count + 1, not_helpful = not_helpful + ?, last_seen = ?, "
    "libraries = ?, last_jump_url = coalesce(?, last_jump_url) WHERE id = ?"
)
_UPSERT_PLACE = (
    "INSERT INTO triage_places (group_id, guild_id, channel_id, count, last_seen) VALUES (?, ?, ?, 1, ?) "
    "ON CONFLICT (group_id, guild_id, channel_id) "
    "DO UPDATE SET count = triage_places.count + 1, last_seen = excluded.last_seen"
)
_INSERT_SAMPLE = (
    "INSERT INTO triage_samples (group_id, created_at, source, guild_id, channel_id, author_id, "
    "jump_url, message_id, record_id, text, frame, detail) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
_TRIM_SAMPLES = (
    "DELETE FROM triage_samples WHERE group_id = ? AND id NOT IN "
    "(SELECT id FROM triage_samples WHERE group_id = ? ORDER BY id DESC LIMIT ?)"
)
_EXAMPLE_COLUMNS = (
    "e.record_id, e.n, e.template, e.error_class, r.repo, r.file_path, r.line_number, r.origin, r.library_version"
)


class TriageRepository:
    """Reads and writes triage groups, samples, places, per-user counters and examples."""

    def __init__(self, db: Database) -> None:
        self._db = db
        self._keys_current = False

    async def rekey(self, now: str) -> int | None:
        """Key stored groups as this fingerprint version does (once); return groups merged, None if current.

        Run before the first paste is logged or a list is read, so that a new version's keys find the
        groups an older version stored.
        """
        if self._keys_current:
            return None
        async with self._db.transaction() as conn:
            merged = await regroup.rekey(conn, now)
        self._keys_current = True
        return merged

    async def log(self, obs: Observation, origin: PasteOrigin, limits: TriageLimits, now: str) -> Logged:
        """Count a paste in its group (creating it), keep a sample, and enforce the per-user caps.

        The caps bound what one user's pastes *store* (groups, samples, aliases, versions), not whether
        they are counted: past ``user_daily_pastes`` a paste of an existing group still adds one to its
        count (``counted``), so a flood shows as large as it is; it only cannot start a group.
        """
        await self.rekey(now)
        async with self._db.transaction() as conn:
            pastes, made = await _user_day(conn, origin.author_id, now[:10])
            capped = pastes >= limits.user_daily_pastes
            group_id = await regroup.route(conn, obs, remember=not capped)
            new = group_id is None
            if group_id is None:
                if capped or made >= limits.user_daily_groups:
                    await _bump_user(conn, origin.author_id, now[:10], new_group=False)
                    return Logged(outcome="user_limit" if capped else "group_limit")
                group_id = await _insert_group(conn, obs, now)
            await _count_paste(conn, group_id, obs, origin, now, details=not capped)
            stored = not capped and await _add_sample(
                conn, group_id, obs=obs, origin=origin, now=now, cap=limits.samples_per_group
            )
            await _bump_user(conn, origin.author_id, now[:10], new_group=new)
        outcome: Outcome = "counted" if capped else "logged"
        return Logged(outcome=outcome, group=await self.get(group_id), new_group=new, sample_stored=stored)

    async def get(self, report_id: int) -> TriageGroup | None:
        """Return one group, or None."""
        row = await self._db.fetch_one(
            f"SELECT {_group_columns(self._db.dialect)} FROM triage_groups g WHERE g.id = ?", (report_id,)
        )
        return _group(row) if row is not None else None

    async def report(self, report_id: int) -> TriageReport | None:
        """Return a group with its samples and places, or None."""
        group = await self.get(report_id)
        if group is None:
            return None
        samples = await self._db.fetch(
            f"SELECT {_SAMPLE_COLUMNS} FROM triage_samples WHERE group_id = ? ORDER BY id DESC", (report_id,)
        )
        places = await self._db.fetch(
            "SELECT nullif(guild_id, 0) AS guild_id, channel_id, count, last_seen FROM triage_places "
            "WHERE group_id = ? ORDER BY count DESC, channel_id",
            (report_id,),
        )
        return TriageReport(
            group=group,
            samples=[TriageSample.model_validate(dict(row)) for row in samples],
            places=[TriagePlace.model_validate(dict(row)) for row in places],
        )

    async def groups(
        self, *, status: Status | None = None, limit: int | None = None, offset: int = 0
    ) -> list[TriageGroup]:
        """Return groups by count (highest first), optionally of one status, a page at a time."""
        await self.rekey(_stamp_now())
        sql = f"SELECT {_group_columns(self._db.dialect)} FROM triage_groups g"
        params: list[Any] = []
        if status is not None:
            sql += " WHERE g.status = ?"
            params.append(status)
        sql += f" ORDER BY g.count DESC, g.id LIMIT {self._db.dialect.unlimited if limit is None else '?'} OFFSET ?"
        params += [offset] if limit is None else [limit, offset]
        return [_group(row) for row in await self._db.fetch(sql, params)]

    async def count(self, status: Status | None = None) -> int:
        """Return how many groups there are (of one status)."""
        if status is None:
            row = await self._db.fetch_one("SELECT count(*) AS n FROM triage_groups")
        else:
            row = await self._db.fetch_one("SELECT count(*) AS n FROM triage_groups WHERE status = ?", (status,))
        return int(row["n"]) if row is not None else 0

    async def link(
        self, report_id: int, record_id: str, templates: Sequence[str], reviewer: int | None, now: str
    ) -> Review:
        """Link a group to a record and make its templates examples of that record."""
        async with self._db.transaction() as conn:
            group = await _require_group(conn, report_id)
            if not await _record_exists(conn, record_id):
                raise UnknownRecord(record_id)
            removed = await _remove_examples(conn, report_id, now)
            kept = [
                await _add_example(
                    conn, report_id, record_id=record_id, template=t, error_class=group["error_class"], now=now
                )
                for t in templates
            ]
            await _set_status(
                conn, report_id, status="linked", record_id=record_id, reason=None, reviewer=reviewer, now=now
            )
        examples = await self._examples(kept)
        added = {e.entry_id for e in examples}
        return Review(group=await self._get(report_id), added=examples, removed=sorted(set(removed) - added))

    async def dismiss(self, report_id: int, reason: str | None, reviewer: int | None, now: str) -> Review:
        """Dismiss a group (with a reason); drop its examples if it was linked."""
        return await self._review(report_id, "dismissed", reason, reviewer, now)

    async def reopen(self, report_id: int, reviewer: int | None, now: str) -> Review:
        """Put a group back to new; drop its examples if it was linked."""
        return await self._review(report_id, "new", None, reviewer, now)

    async def purge(self, samples_before: str, days_before: str) -> Purged:
        """Delete samples older than a time and per-user counters older than a day; counts stay."""
        async with self._db.transaction() as conn:
            samples = await conn.execute("DELETE FROM triage_samples WHERE created_at < ?", (samples_before,))
            days = await conn.execute("DELETE FROM triage_user_days WHERE day < ?", (days_before,))
            return Purged(samples=samples, user_days=days)

    async def merge(self, source_id: int, into_id: int, now: str) -> Review:
        """Merge one group into another: counts, samples, places, people and fingerprints move."""
        async with self._db.transaction() as conn:
            removed = await regroup.merge(conn, source_id, into_id, now)
        return Review(group=await self._get(into_id), removed=removed)

    async def split(
        self, report_id: int, *, sample_ids: Sequence[int], part: str, values: Sequence[str], now: str
    ) -> int:
        """Move samples to a new group with rules routing pastes whose ``part`` is in ``values``; return its id."""
        async with self._db.transaction() as conn:
            return await regroup.split(conn, report_id, sample_ids=sample_ids, part=part, values=values, now=now)

    async def merged_into(self, report_id: int) -> int | None:
        """Return the report a merged report went into, or None."""
        async with self._db.transaction() as conn:
            return await regroup.merged_into(conn, report_id)

    async def unanswered(self, since: str, group_id: int | None = None) -> list[TriageSample]:
        """Return samples pasted since a time, with a message to reply to, not answered yet (of a group)."""
        sql = (
            f"SELECT {_SAMPLE_COLUMNS} FROM triage_samples WHERE created_at >= ? AND answered_at IS NULL "
            "AND message_id IS NOT NULL AND channel_id IS NOT NULL"
        )
        params: list[Any] = [since]
        if group_id is not None:
            sql += " AND group_id = ?"
            params.append(group_id)
        rows = await self._db.fetch(sql + " ORDER BY id", params)
        return [TriageSample.model_validate(dict(row)) for row in rows]

    async def mark_answered(self, sample_ids: Sequence[int], now: str) -> None:
        """Remember that these samples' pastes were answered (or are gone): once per paste."""
        async with self._db.transaction() as conn:
            await conn.executemany(
                "UPDATE triage_samples SET answered_at = ? WHERE id = ? AND answered_at IS NULL",
                [(now, sample_id) for sample_id in sample_ids],
            )

    async def example_entries(self) -> AsyncIterator[IndexEntry]:
        """Yield the index entries of every active example (linked groups' templates)."""
        sql = (
            f"SELECT {_EXAMPLE_COLUMNS} FROM triage_examples e JOIN records r ON r.id = e.record_id "
            "WHERE e.removed_at IS NULL"
        )
        async with aclosing(self._db.stream(sql)) as rows:
            async for row in rows:
                yield _example(row).index_entry()

    async def removed_example_ids(self) -> list[str]:
        """Return the index entry ids of examples dropped by a dismiss or a reopen."""
        rows = await self._db.fetch("SELECT record_id, n FROM triage_examples WHERE removed_at IS NOT NULL")
        return [example_id(str(row["record_id"]), int(row["n"])) for row in rows]

    async def _review(
        self, report_id: int, status: Status, reason: str | None, reviewer: int | None, now: str
    ) -> Review:
        async with self._db.transaction() as conn:
            await _require_group(conn, report_id)
            removed = await _remove_examples(conn, report_id, now)
            await _set_status(conn, report_id, status=status, record_id=None, reason=reason, reviewer=reviewer, now=now)
        return Review(group=await self._get(report_id), removed=removed)

    async def _get(self, report_id: int) -> TriageGroup:
        group = await self.get(report_id)
        if group is None:
            into = await self.merged_into(report_id)
            raise UnknownReport(report_id) if into is None else regroup.MergedReport(report_id, into)
        return group

    async def _examples(self, keys: Sequence[tuple[str, int]]) -> list[Example]:
        found: list[Example] = []
        for record_id, n in keys:
            rows = await self._db.fetch(
                f"SELECT {_EXAMPLE_COLUMNS} FROM triage_examples e JOIN records r ON r.id = e.record_id "
                "WHERE e.record_id = ? AND e.n = ?",
                (record_id, n),
            )
            found.extend(_example(row) for row in rows)
        return found


def _stamp_now() -> str:
    """Return the time now as the stored stamps read (a list read has no caller's clock to use)."""
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


async def _user_day(conn: Connection, author_id: int, day: str) -> tuple[int, int]:
    sql = "SELECT pastes, new_groups FROM triage_user_days WHERE author_id = ? AND day = ?"
    row = await conn.fetch_one(sql, (author_id, day))
    return (int(row["pastes"]), int(row["new_groups"])) if row is not None else (0, 0)


async def _bump_user(conn: Connection, author_id: int, day: str, *, new_group: bool) -> None:
    await conn.execute(
        "INSERT INTO triage_user_days (author_id, day, pastes, new_groups) VALUES (?, ?, 1, ?) "
        "ON CONFLICT (author_id, day) DO UPDATE SET pastes = triage_user_days.pastes + 1, "
        "new_groups = triage_user_days.new_groups + ?",
        (author_id, day, int(new_group), int(new_group)),
    )


async def _insert_group(conn: Connection, obs: Observation, now: str) -> int:
    row = await conn.fetch_one(
        "INSERT INTO triage_groups (fingerprint, error_class, masked, first_seen, last_seen, frame, loose_key) "
        "VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id",
        (obs.key, obs.error_class, obs.masked, now, now, obs.frame, obs.loose_key or obs.key),
    )
    assert row is not None  # RETURNING gives the row inserted
    group_id = int(row["id"])
    await conn.execute("INSERT INTO triage_aliases (fingerprint, group_id) VALUES (?, ?)", (obs.key, group_id))
    return group_id


async def _count_paste(
    conn: Connection, group_id: int, obs: Observation, origin: PasteOrigin, now: str, *, details: bool
) -> None:
    """Add one paste to a group's counts; ``details``: also the library versions it shows.

    A capped user's paste (``details`` false) adds no row that grows with what the paste says: its
    place and person rows exist already or are one per channel and author, and versions are skipped
    (a flood of made-up version strings would otherwise grow the table without bound).
    """
    row = await conn.fetch_one("SELECT libraries FROM triage_groups WHERE id = ?", (group_id,))
    old = json.loads(row["libraries"]) if row is not None else {}
    libraries = _merge_libraries(old, obs.libraries) if details else old
    not_helpful = int(origin.source == "not_helpful")
    hints = json.dumps(libraries, sort_keys=True)
    await conn.execute(_UPDATE_GROUP, (not_helpful, now, hints, origin.jump_url, group_id))
    await conn.execute(_UPSERT_PLACE, (group_id, origin.guild_id or 0, origin.channel_id, now))
    await conn.execute(
        "INSERT INTO triage_people (group_id, author_id) VALUES (?, ?) ON CONFLICT DO NOTHING",
        (group_id, origin.author_id),
    )
    if not details:
        return
    await conn.executemany(
        "INSERT INTO triage_versions (group_id, library, version) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
        [(group_id, name, version) for name, version in obs.libraries.items() if version],
    )


def _merge_libraries(old: dict[str, str | None], new: dict[str, str | None]) -> dict[str, str | None]:
    merged = dict(old)
    for name, version in new.items():
        if version is not None or name not in merged:
            merged[name] = version
    return dict(sorted(merged.items())[:MAX_LIBRARIES])


async def _add_sample(
    conn: Connection, group_id: int, *, obs: Observation, origin: PasteOrigin, now: str, cap: int
) -> bool:
    """Keep one sample per author per group, the newest ``cap`` of them."""
    seen = "SELECT 1 FROM triage_samples WHERE group_id = ? AND author_id = ?"
    if cap <= 0 or await conn.fetch_one(seen, (group_id, origin.author_id)):
        return False
    where = (origin.source, origin.guild_id, origin.channel_id, origin.author_id, origin.jump_url, origin.message_id)
    await conn.execute(_INSERT_SAMPLE, (group_id, now, *where, origin.record_id, obs.sample, obs.frame, obs.detail))
    await conn.execute(_TRIM_SAMPLES, (group_id, group_id, cap))
    return True


async def _require_group(conn: Connection, report_id: int) -> Row:
    return await regroup.require(conn, report_id)


async def _record_exists(conn: Connection, record_id: str) -> bool:
    return await conn.fetch_one("SELECT 1 FROM records WHERE id = ?", (record_id,)) is not None


async def _remove_examples(conn: Connection, group_id: int, now: str) -> list[str]:
    rows = await conn.fetch(
        "SELECT record_id, n FROM triage_examples WHERE group_id = ? AND removed_at IS NULL", (group_id,)
    )
    await conn.execute(
        "UPDATE triage_examples SET removed_at = ? WHERE group_id = ? AND removed_at IS NULL", (now, group_id)
    )
    return [example_id(str(row["record_id"]), int(row["n"])) for row in rows]


async def _add_example(
    conn: Connection, group_id: int, *, record_id: str, template: str, error_class: str, now: str
) -> tuple[str, int]:
    """Add (or revive) the example of a record with this template; return its (record id, n)."""
    sql = "SELECT n FROM triage_examples WHERE record_id = ? AND template = ?"
    row = await conn.fetch_one(sql, (record_id, template))
    if row is not None:
        await conn.execute(
            "UPDATE triage_examples SET removed_at = NULL, group_id = ?, error_class = ? WHERE record_id = ? AND n = ?",
            (group_id, error_class or None, record_id, row["n"]),
        )
        return record_id, int(row["n"])
    top = await conn.fetch_one("SELECT max(n) AS n FROM triage_examples WHERE record_id = ?", (record_id,))
    n = int(top["n"]) + 1 if top is not None and top["n"] is not None else 1
    await conn.execute(
        "INSERT INTO triage_examples (record_id, n, group_id, template, error_class, created_at) "
        "VALUES (?, ?, ?, ?, ?, ?)",
        (record_id, n, group_id, template, error_class or None, now),
    )
    return record_id, n


async def _set_status(
    conn: Connection,
    group_id: int,
    *,
    status: Status,
    record_id: str | None,
    reason: str | None,
    reviewer: int | None,
    now: str,
) -> None:
    await conn.execute(
        "UPDATE triage_groups SET status = ?, record_id = ?, reason = ?, reviewed_by = ?, reviewed_at = ? WHERE id = ?",
        (status, record_id, reason, reviewer, now, group_id),
    )


def _group(row: Row) -> TriageGroup:
    values = dict(row)
    values["libraries"] = json.loads(values["libraries"])
    versions: dict[str, list[str]] = {}
    for library, version in json.loads(values.pop("versions") or "[]"):
        versions.setdefault(library, []).append(version)
    values["versions"] = versions
    return TriageGroup.model_validate(values)


def _example(row: Row) -> Example:
    values = dict(row)
    values["curated"] = values.pop("origin") != MINED
    return Example.model_validate(values)
