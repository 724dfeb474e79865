"""Which group a paste goes to, and maintainers correcting it: merge two groups, split one.

A paste goes to the group of its fingerprint (or of a group merged into it); failing that, to the
group of the same message without a frame (a bare final line and a traceback of one error), or to
the group whose message it begins or that begins it (a paste cut short); then split rules apply.

A merge moves everything of one group into another and routes every fingerprint of the merged group
to the survivor (``triage_aliases``); the merged id is remembered (``triage_merged``) so it can say
where it went. A split moves chosen samples to a new group and adds rules (``triage_split_rules``):
pastes of the old group whose frame or message equals a rule's value go to the new one.

When the fingerprint's version changes, ``rekey`` gives every stored group the key this version
computes (from its redacted samples, read again), so new pastes still find their groups; groups the
new version sees as one error are merged, unless a maintainer's review or split keeps them apart.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from collections.abc import Sequence

from records.errors import TriageError, UnknownReport
from records.fingerprint import KEY_VERSION, coarse, refingerprint
from records.triage import Observation, observe
from storage.connection import Connection, Row
from storage.triage_models import example_id

MAX_SPLIT_DEPTH = 8
KEY_VERSION_STATUS = "triage_key_version"  # the bot_status row naming the version the stored keys are of
# A message this long or longer finds the group of a paste that cut it short (or that it cuts short).
MIN_PREFIX_CHARS = 30
MAX_PREFIX_CANDIDATES = 200  # the most seen groups that start alike are compared, the long tail is not
PREFIX_HEAD_CHARS = 10
# A parameter in a SELECT list is cast: PostgreSQL would read it as text, not as the column's integer.
_MOVE_PLACES = (
    "INSERT INTO triage_places (group_id, guild_id, channel_id, count, last_seen) "
    "SELECT CAST(? AS BIGINT), guild_id, channel_id, count, last_seen FROM triage_places WHERE group_id = ? AND true "
    "ON CONFLICT (group_id, guild_id, channel_id) DO UPDATE SET count = triage_places.count + excluded.count, "
    "last_seen = {latest}"
)


async def route(conn: Connection, obs: Observation, *, remember: bool = True) -> int | None:
    """Return the group a paste belongs to (through aliases, the loose key and split rules), or None.

    ``remember``: alias the paste's key to the group it was routed to, and let a group that had no
    frame take the paste's. A capped user's paste is only counted: it writes nothing that grows.
    """
    group_id = await _alias(conn, obs.key)
    if group_id is None and obs.masked:
        group_id = await _by_loose_key(conn, obs, remember=remember)
    if group_id is None:
        group_id = await _by_prefix(conn, obs)
    if group_id is None:
        return None
    if remember:
        await conn.execute(
            "INSERT INTO triage_aliases (fingerprint, group_id) VALUES (?, ?) ON CONFLICT DO NOTHING",
            (obs.key, group_id),
        )
    return await _follow_rules(conn, group_id, obs.parts)


async def _by_loose_key(conn: Connection, obs: Observation, *, remember: bool) -> int | None:
    """Return the group of the same message with no frame, or (for a bare line) with any frame.

    A bare final line joins a traceback's group, and a traceback joins a bare line's group. The first
    traceback to join a group of bare lines gives it its frame: a traceback raised in another file
    (one check copied into several models) then starts its own group, as its key says, instead of
    every copy piling into the group the bare lines began.
    """
    sql = "SELECT id, frame FROM triage_groups WHERE loose_key = ? AND (frame = '' OR ? = '') ORDER BY count DESC, id"
    row = await conn.fetch_one(sql + " LIMIT 1", (obs.loose_key or obs.key, obs.frame))
    if row is None:
        return None
    group_id = int(row["id"])
    if remember and obs.frame and not row["frame"]:
        await conn.execute("UPDATE triage_groups SET frame = ? WHERE id = ? AND frame = ''", (obs.frame, group_id))
    return group_id


async def _by_prefix(conn: Connection, obs: Observation) -> int | None:
    """Return the group whose message this one begins, or that begins this one (a paste cut short).

    Only for messages long enough to say something (``MIN_PREFIX_CHARS``), of the same class (or one
    unknown: a traceback cut before its last line), with compatible frames; compared as keys see them.
    """
    mine = coarse(obs.masked)
    if len(mine) < MIN_PREFIX_CHARS:
        return None
    # A message cut short starts as the whole one does: SQLite compares the first characters, and only
    # the groups that start alike are compared as keys see them.
    sql = (
        "SELECT id, masked FROM triage_groups WHERE substr(masked, 1, ?) = substr(?, 1, ?) "
        "AND (error_class = ? OR error_class = '' OR ? = '') AND (frame = '' OR ? = '' OR frame = ?) "
        "ORDER BY count DESC, id LIMIT ?"
    )
    cls, frame, head = obs.error_class, obs.frame, PREFIX_HEAD_CHARS
    params = (head, obs.masked, head, cls, cls, frame, frame, MAX_PREFIX_CANDIDATES)
    for row in await conn.fetch(sql, params):
        theirs = coarse(str(row["masked"]))
        if len(theirs) >= MIN_PREFIX_CHARS and (theirs.startswith(mine) or mine.startswith(theirs)):
            return int(row["id"])
    return None


async def _alias(conn: Connection, key: str) -> int | None:
    row = await conn.fetch_one("SELECT group_id FROM triage_aliases WHERE fingerprint = ?", (key,))
    return int(row["group_id"]) if row is not None else None


async def _follow_rules(conn: Connection, group_id: int, parts: dict[str, str]) -> int:
    """Follow the split rules of a group (and of the groups they lead to) that the paste's parts meet."""
    seen = {group_id}
    for _ in range(MAX_SPLIT_DEPTH):
        sql = "SELECT target_id FROM triage_split_rules WHERE group_id = ? AND part = ? AND value = ?"
        targets = [await conn.fetch_one(sql, (group_id, part, value)) for part, value in parts.items() if value]
        found = next((int(row["target_id"]) for row in targets if row is not None), None)
        if found is None or found in seen:
            return group_id
        seen.add(found)
        group_id = found
    return group_id


class MergedReport(TriageError):
    """The report was merged into another one."""

    def __init__(self, report_id: int, into_id: int) -> None:
        super().__init__(f"report #{report_id} was merged into report #{into_id}")
        self.report_id = report_id
        self.into_id = into_id


async def merged_into(conn: Connection, report_id: int) -> int | None:
    """Return the report a merged report went into, or None."""
    row = await conn.fetch_one("SELECT into_id FROM triage_merged WHERE group_id = ?", (report_id,))
    return int(row["into_id"]) if row is not None else None


async def require(conn: Connection, report_id: int) -> Row:
    """Return a group's row; say where a merged one went, or that there is none."""
    row = await conn.fetch_one("SELECT * FROM triage_groups WHERE id = ?", (report_id,))
    if row is not None:
        return row
    into = await merged_into(conn, report_id)
    if into is not None:
        raise MergedReport(report_id, into)
    raise UnknownReport(report_id)


async def merge(conn: Connection, source_id: int, into_id: int, now: str) -> list[str]:
    """Merge one group into another; return the index entry ids of examples dropped."""
    if source_id == into_id:
        raise TriageError(f"cannot merge report #{source_id} into itself")
    source, into = await require(conn, source_id), await require(conn, into_id)
    removed = await _move_examples(conn, source, into, now)
    await _move_counts(conn, source, into)
    for table in ("triage_aliases", "triage_samples"):
        await conn.execute(f"UPDATE {table} SET group_id = ? WHERE group_id = ?", (into_id, source_id))
    for table in ("triage_people", "triage_versions"):
        await conn.execute(
            f"INSERT INTO {table} SELECT CAST(? AS BIGINT), {_columns(table)} FROM {table} WHERE group_id = ? "
            "ON CONFLICT DO NOTHING",
            (into_id, source_id),
        )
    latest = conn.dialect.greatest("triage_places.last_seen", "excluded.last_seen")
    await conn.execute(_MOVE_PLACES.format(latest=latest), (into_id, source_id))
    await _move_rules(conn, source_id, into_id)
    await conn.execute("UPDATE triage_merged SET into_id = ? WHERE into_id = ?", (into_id, source_id))
    await conn.execute(
        "INSERT INTO triage_merged (group_id, into_id, merged_at) VALUES (?, ?, ?)", (source_id, into_id, now)
    )
    await conn.execute("DELETE FROM triage_groups WHERE id = ?", (source_id,))
    return removed


def _columns(table: str) -> str:
    return "author_id" if table == "triage_people" else "library, version"


async def _move_counts(conn: Connection, source: Row, into: Row) -> None:
    libraries = dict(json.loads(source["libraries"]))
    libraries.update({k: v for k, v in json.loads(into["libraries"]).items() if v is not None or k not in libraries})
    first, last = conn.dialect.least("first_seen", "?"), conn.dialect.greatest("last_seen", "?")
    await conn.execute(
        f"UPDATE triage_groups SET count = count + ?, not_helpful = not_helpful + ?, first_seen = {first}, "
        f"last_seen = {last}, libraries = ?, last_jump_url = coalesce(last_jump_url, ?) WHERE id = ?",
        (
            source["count"], source["not_helpful"], source["first_seen"], source["last_seen"],
            json.dumps(dict(sorted(libraries.items())), sort_keys=True), source["last_jump_url"], into["id"],
        ),
    )  # fmt: skip


async def _move_examples(conn: Connection, source: Row, into: Row, now: str) -> list[str]:
    """Carry a linked group's link over to the new group it is merged into; otherwise drop its examples."""
    if source["status"] == "linked" and into["status"] == "new":
        await conn.execute(
            "UPDATE triage_groups SET status = 'linked', record_id = ?, reviewed_by = ?, reviewed_at = ? WHERE id = ?",
            (source["record_id"], source["reviewed_by"], source["reviewed_at"], into["id"]),
        )
        await conn.execute("UPDATE triage_examples SET group_id = ? WHERE group_id = ?", (into["id"], source["id"]))
        return []
    rows = await conn.fetch(
        "SELECT record_id, n FROM triage_examples WHERE group_id = ? AND removed_at IS NULL", (source["id"],)
    )
    await conn.execute(
        "UPDATE triage_examples SET removed_at = coalesce(removed_at, ?), group_id = ? WHERE group_id = ?",
        (now, into["id"], source["id"]),
    )
    return [example_id(str(row["record_id"]), int(row["n"])) for row in rows]


async def _move_rules(conn: Connection, source_id: int, into_id: int) -> None:
    await conn.execute(
        "INSERT INTO triage_split_rules (group_id, part, value, target_id, created_at) "
        "SELECT CAST(? AS BIGINT), part, value, target_id, created_at FROM triage_split_rules "
        "WHERE group_id = ? AND target_id != ? ON CONFLICT DO NOTHING",
        (into_id, source_id, into_id),
    )
    await conn.execute("DELETE FROM triage_split_rules WHERE group_id = ?", (source_id,))
    await conn.execute("UPDATE triage_split_rules SET target_id = ? WHERE target_id = ?", (into_id, source_id))
    await conn.execute("DELETE FROM triage_split_rules WHERE group_id = target_id")


async def split(
    conn: Connection, report_id: int, *, sample_ids: Sequence[int], part: str, values: Sequence[str], now: str
) -> int:
    """Move samples to a new group with rules sending pastes whose ``part`` is one of ``values`` there."""
    group = await require(conn, report_id)
    key = _split_key(group["fingerprint"], part, values)
    moved = await conn.fetch(
        f"SELECT * FROM triage_samples WHERE group_id = ? AND id IN ({','.join('?' * len(sample_ids))})",
        (report_id, *sample_ids),
    )
    first, last = min(r["created_at"] for r in moved), max(r["created_at"] for r in moved)
    not_helpful = sum(r["source"] == "not_helpful" for r in moved)
    inserted = await conn.fetch_one(
        "INSERT INTO triage_groups (fingerprint, error_class, masked, count, not_helpful, first_seen, last_seen, "
        "libraries, last_jump_url, frame) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
        (key, group["error_class"], group["masked"], len(moved), not_helpful, first, last, group["libraries"],
         moved[-1]["jump_url"], values[0] if part == "frame" and len(values) == 1 else group["frame"]),
    )  # fmt: skip
    assert inserted is not None  # RETURNING gives the row inserted
    new_id = int(inserted["id"])
    count, not_helpful_left = conn.dialect.greatest("count - ?", "0"), conn.dialect.greatest("not_helpful - ?", "0")
    await conn.execute(
        f"UPDATE triage_groups SET count = {count}, not_helpful = {not_helpful_left} WHERE id = ?",
        (len(moved), not_helpful, report_id),
    )
    await conn.executemany(
        "UPDATE triage_samples SET group_id = ? WHERE id = ?", [(new_id, int(r["id"])) for r in moved]
    )
    await _split_people_places(conn, report_id, new_id, moved)
    await conn.executemany(
        "INSERT INTO triage_split_rules (group_id, part, value, target_id, created_at) VALUES (?, ?, ?, ?, ?) "
        "ON CONFLICT (group_id, part, value) DO UPDATE SET target_id = excluded.target_id, "
        "created_at = excluded.created_at",
        [(report_id, part, value, new_id, now) for value in values],
    )
    return new_id


async def _split_people_places(conn: Connection, old_id: int, new_id: int, moved: Sequence[Row]) -> None:
    for row in moved:
        if row["author_id"] is not None:
            await conn.execute(
                "INSERT INTO triage_people (group_id, author_id) VALUES (?, ?) ON CONFLICT DO NOTHING",
                (new_id, row["author_id"]),
            )
            await conn.execute(
                "DELETE FROM triage_people WHERE group_id = ? AND author_id = ?", (old_id, row["author_id"])
            )
        if row["channel_id"] is not None:
            await conn.execute(
                "INSERT INTO triage_places (group_id, guild_id, channel_id, count, last_seen) VALUES (?, ?, ?, 1, ?) "
                "ON CONFLICT (group_id, guild_id, channel_id) DO UPDATE SET count = triage_places.count + 1",
                (new_id, row["guild_id"] or 0, row["channel_id"], row["created_at"]),
            )


def _split_key(fingerprint: str, part: str, values: Sequence[str]) -> str:
    payload = "\x00".join((fingerprint, part, *sorted(values))).encode("utf-8", "surrogatepass")
    return "s" + hashlib.sha256(payload).hexdigest()[:19]


async def rekey(conn: Connection, now: str) -> int | None:
    """Key stored groups as this fingerprint version does; return how many were merged (None: up to date).

    Groups are taken by count, largest first: a group whose new key another group already holds is
    merged into that one when no review is lost (a new group into any, a linked one into a new one
    that takes its link, a dismissed one into a dismissed one). A split's new group keeps its own
    key and gets no alias: pastes reach it through its rules, from the group it was split from.
    Old keys stay as aliases (no paste computes them any more); the version is recorded last.
    """
    row = await conn.fetch_one("SELECT value FROM bot_status WHERE key = ?", (KEY_VERSION_STATUS,))
    if row is not None and row["value"] == KEY_VERSION:
        return None
    split_off = {int(r["target_id"]) for r in await conn.fetch("SELECT DISTINCT target_id FROM triage_split_rules")}
    groups = await conn.fetch("SELECT * FROM triage_groups ORDER BY count DESC, id")
    merged = 0
    for group in groups:
        if int(group["id"]) not in split_off:
            merged += await _rekey_group(conn, group, now)
    await conn.execute(
        "INSERT INTO bot_status (key, value, updated_at) VALUES (?, ?, ?) "
        "ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at",
        (KEY_VERSION_STATUS, KEY_VERSION, now),
    )
    return merged


async def _rekey_group(conn: Connection, group: Row, now: str) -> int:
    """Give one group its new key (and its samples' keys as aliases), or merge it; return 1 if merged.

    The group another one joins is found as a paste finds it: by the key, else by the message without
    the frame (a group of bare lines and one of tracebacks of the same error).
    """
    group_id = int(group["id"])
    keys, new = await _new_keys(conn, group)
    owner = await _alias(conn, new.key)
    if owner is None and new.masked:
        owner = await _by_loose_key(conn, new, remember=False)
    if owner is not None and owner != group_id:
        into = await conn.fetch_one("SELECT * FROM triage_groups WHERE id = ?", (owner,))
        if into is not None and _may_merge(group, into):
            await merge(conn, group_id, owner, now)
            return 1
        return 0  # kept apart by a review: its pastes now go to the other group
    await conn.execute(
        "INSERT INTO triage_aliases (fingerprint, group_id) VALUES (?, ?) ON CONFLICT DO NOTHING", (new.key, group_id)
    )
    await conn.execute(
        "UPDATE triage_groups SET fingerprint = ?, masked = ?, loose_key = ?, "
        "frame = CASE WHEN frame = '' THEN ? ELSE frame END WHERE id = ?",
        (new.key, new.masked, new.loose_key or new.key, new.frame, group_id),
    )
    await conn.executemany(
        "INSERT INTO triage_aliases (fingerprint, group_id) VALUES (?, ?) ON CONFLICT DO NOTHING",
        [(key, group_id) for key in keys if key != new.key],
    )
    return 0


async def _new_keys(conn: Connection, group: Row) -> tuple[list[str], Observation]:
    """Return the keys of a group's samples read again, and its new reading (the most common key's)."""
    rows = await conn.fetch("SELECT text FROM triage_samples WHERE group_id = ? ORDER BY id", (group["id"],))
    # Reading a sample again is CPU work: in a thread, so a large rekey does not stall the event loop.
    found = await asyncio.to_thread(_observe_all, [str(r["text"]) for r in rows])
    if not found:
        again = refingerprint(str(group["error_class"]), str(group["masked"]), str(group["frame"]))
        reading = Observation(
            key=again.key, error_class=again.error_class, masked=again.masked, sample="", frame=again.frame,
            loose_key=again.loose_key,
        )  # fmt: skip
        return [], reading
    keys = [o.key for o in found]
    best = max(found, key=lambda o: (keys.count(o.key), -keys.index(o.key)))
    return sorted(set(keys)), best


def _observe_all(texts: Sequence[str]) -> list[Observation]:
    """Return the observations of the texts that still read as an error."""
    return [o for o in map(observe, texts) if isinstance(o, Observation)]


def _may_merge(source: Row, into: Row) -> bool:
    """Tell whether merging loses no review: a maintainer's link or dismissal stays where it was."""
    if source["status"] == "new":
        return True
    if source["status"] == "linked":
        return bool(into["status"] == "new")
    return bool(into["status"] == "dismissed")
