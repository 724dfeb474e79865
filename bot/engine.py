"""The engine every adapter shares: the record store, the matching index, and reloading it.

The CLI, the console and the Discord cogs all ask the engine; none of them builds an index or reads
records on its own.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import os
import threading
import time
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from records.errors import DatabaseMoved
from records.limits import MAX_INPUT_CHARS
from records.matching import IndexEntry, Match, Matcher, MatchIndex, MatchResult, persist
from records.merge import merge_site
from records.model import Record
from records.text import clean_text
from records.versions import version_key
from storage.database import Database
from storage.records import RecordRepository

if TYPE_CHECKING:
    from storage.triage import TriageRepository

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Answer:
    """A match result with the full records of its answers, ready to render."""

    result: MatchResult
    records: dict[str, Record]
    shipped: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # repo -> mined versions, newest first

    def record(self, record_id: str) -> Record | None:
        """Return the full record of an answer or of its location."""
        return self.records.get(record_id)


def shipped_versions(
    entries: Iterable[IndexEntry], known: Mapping[str, tuple[str, ...]] | None = None
) -> dict[str, tuple[str, ...]]:
    """Return, per repository, the library versions its mined records come from, newest first."""
    found: dict[str, set[str]] = {repo: set(versions) for repo, versions in (known or {}).items()}
    for entry in entries:
        if not entry.curated and entry.repo and entry.library_version:
            found.setdefault(entry.repo, set()).update(release for release, _ in entry.version_lines)
            found[entry.repo].add(entry.library_version)
    return {repo: tuple(sorted(versions, key=version_key, reverse=True)) for repo, versions in found.items()}


def saved_index_path(db_path: Path) -> Path:
    """Return where the index of the database at ``db_path`` is saved (beside it)."""
    return db_path.with_name(db_path.name + ".index")


def index_path_of(db: Database) -> Path:
    """Return where the index of ``db`` is saved: beside an SQLite file, in the user's cache for a server.

    A server's index is named by a hash of its URL (without the password); the revision token inside
    says whether it is still that database's current index, as beside a file.
    """
    if db.path is not None:
        return saved_index_path(db.path)
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "tracebot"
    digest = hashlib.sha256(db.name.encode()).hexdigest()[:16]
    return cache / f"postgresql-{digest}.index"


def _triage(db: Database) -> TriageRepository:
    """Return the triage repository, imported on first use.

    It brings in redaction and fingerprinting (a tenth of a second), which a ``tracebot ask`` that
    loads a saved index never needs.
    """
    from storage.triage import TriageRepository  # noqa: PLC0415

    return TriageRepository(db)


class Engine:
    """Matches pastes against the store's records, keeping the in-memory index current."""

    def __init__(
        self,
        db: Database,
        matcher: Matcher,
        watermark: str | None,
        shipped: Mapping[str, tuple[str, ...]] | None = None,
    ) -> None:
        self.db = db
        self.shipped = dict(shipped or {})  # the versions a curated record's raise site can be looked for in
        self.records = RecordRepository(db)
        self.matcher = matcher
        self._watermark = watermark
        self._reload_lock = asyncio.Lock()
        # Matching runs in worker threads while reloads and triage links change the index on the event
        # loop: both sides take this lock, so a match never sees an index halfway through a change.
        self._index_lock = threading.Lock()
        # Called after a reload with the entries it added or changed (triage answers waiting pastes).
        self.reload_listeners: list[Callable[[list[IndexEntry]], Awaitable[None]]] = []

    @classmethod
    async def load(cls, db: Database) -> Engine:
        """Load the index saved beside the store for its current revision, else build and save it."""
        started = time.perf_counter()
        repo = RecordRepository(db)
        # Read before the index: a write landing meanwhile is then re-read by the next reload, never lost.
        watermark, revision = await repo.index_revision()
        path = index_path_of(db)
        index = await asyncio.to_thread(persist.load, path, revision)
        if index is not None:
            entries = persist.entries(index)
            log.info("index loaded: %d records in %.2fs", len(index), time.perf_counter() - started)
        else:
            entries = [entry async for entry in repo.index_entries()]
            # Triage examples: pastes a maintainer linked to a record answer as that record.
            entries += [entry async for entry in _triage(db).example_entries()]
            index = await asyncio.to_thread(MatchIndex.build, entries)
            log.info("index built: %d records in %.2fs", len(index), time.perf_counter() - started)
            await asyncio.to_thread(persist.save, index, path, revision)
        return cls(db, Matcher(index), watermark, shipped_versions(entries))

    async def reload(self) -> int:
        """Add records imported or changed since the last load; return how many."""
        async with self._reload_lock:
            index = self.matcher.index
            fresh = [e async for e in self.records.index_entries(updated_since=self._watermark)]
            # Examples linked or dropped in triage (possibly by another process, such as the CLI).
            triage = _triage(self.db)
            fresh += [e async for e in triage.example_entries()]
            dropped = [i for i in await triage.removed_example_ids() if index.get(i) is not None]
            changed = [e for e in fresh if index.get(e.id) != e]
            # A site's record of several releases replaces that site's per-release ones in the store.
            dropped += [old for e in changed for old in index.superseded_by(e)]
            await self.update_index(removed=dropped, added=changed)
            if changed:
                self.shipped = shipped_versions(changed, self.shipped)
                self._watermark = await self.records.last_update()
                log.info("index updated: %d records added or changed", len(changed))
                for listener in self.reload_listeners:
                    await listener(changed)
            return len(changed) + len(dropped)

    async def watch(self, interval: float = 1.0) -> None:
        """Reload the index whenever another connection commits, forever.

        ``records import`` run against the database a live bot uses is seen within ``interval``
        seconds, without a restart: SQLite's ``PRAGMA data_version`` (or PostgreSQL's index token) is
        polled, one cheap read, and nothing is reloaded when it has not moved. On PostgreSQL a
        notification from the committing process wakes the watcher at once; the poll stays as the
        fallback. A reload reads only what changed since the watermark.
        """
        seen = await self.db.data_version()
        async with self.db.listen() as notified:
            while True:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(notified.wait(), interval)
                notified.clear()
                seen = await self._reload_if_changed(seen)

    async def _reload_if_changed(self, seen: int | str) -> int | str:
        """Reload when the database's change counter moved from ``seen``; return the counter now."""
        if not self.db.still_in_place():
            # Writes would go on into the unlinked file and vanish with it: stop instead.
            raise DatabaseMoved(f"{self.db.name}: the database file was deleted or replaced under the bot")
        current = await self.db.data_version()
        if current != seen:
            try:
                await self.reload()
            except Exception:  # a failed reload must not stop the watcher; the next change retries
                log.exception("reloading records failed")
        return current

    async def update_index(self, *, removed: Iterable[str] = (), added: Iterable[IndexEntry] = ()) -> None:
        """Remove and add index entries, off the event loop, while no match reads the index."""
        removed, added = list(removed), list(added)
        if removed or added:
            await asyncio.to_thread(self._change_index, removed, added)

    def _change_index(self, removed: list[str], added: list[IndexEntry]) -> None:
        with self._index_lock:
            for entry_id in removed:
                self.matcher.index.remove(entry_id)
            if added:
                self.matcher.index.upsert(added)

    def match_text(self, text: str) -> MatchResult:
        """Match a paste (CPU only; call from a worker thread in the bot); its text is cleaned first."""
        text = clean_text(text, MAX_INPUT_CHARS)
        with self._index_lock:
            return self.matcher.match(text)

    async def answer(self, text: str) -> Answer:
        """Match a paste off the event loop and fetch the records its answers name."""
        result = await asyncio.to_thread(self.match_text, text)
        return await self.answer_for(result)

    async def search(self, query: str, limit: int = 25) -> list[Match]:
        """Return the records whose message best fits free text, best first (off the event loop)."""
        return await asyncio.to_thread(self._search, query, limit)

    def _search(self, query: str, limit: int) -> list[Match]:
        query = clean_text(query, MAX_INPUT_CHARS)
        with self._index_lock:
            return self.matcher.search(query, limit)

    @property
    def record_count(self) -> int:
        """How many entries (records and linked examples) the index holds."""
        return len(self.matcher.index)

    async def answer_for(self, result: MatchResult) -> Answer:
        """Fetch the records a match result names."""
        ids = {m.id for m in result.matches} | {m.location_id for m in result.matches}
        records = await self.records.get_many(sorted(ids))
        for match in result.matches:
            shown, located = records.get(match.id), records.get(match.location_id)
            if located is not None:  # a site of several releases: where the release the answer names raises it
                located = located.at_version(match.located_version)
            if shown is not None and located is not None:
                records[match.id] = located if shown.id == located.id else merge_site(shown, located)
        return Answer(result, records, self.shipped)
