"""The engine every adapter shares: the record store, the matching index, and reloading it.

The CLI, the console and the Discord cogs all ask the engine; none of them builds an index or reads
records on its own.
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass

from records.matching import Match, Matcher, MatchIndex, MatchResult
from records.merge import merge_site
from records.model import Record
from storage.database import Database
from storage.records import RecordRepository
from storage.triage import TriageRepository

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Answer:
    """A match result with the full records of its answers, ready to render."""

    result: MatchResult
    records: dict[str, Record]

    def record(self, record_id: str) -> Record | None:
        """Return the full record of an answer or of its location."""
        return self.records.get(record_id)


class Engine:
    """Matches pastes against the store's records, keeping the in-memory index current."""

    def __init__(self, db: Database, matcher: Matcher, watermark: str | None) -> None:
        self.db = db
        self.records = RecordRepository(db)
        self.matcher = matcher
        self._watermark = watermark
        self._reload_lock = asyncio.Lock()

    @classmethod
    async def load(cls, db: Database) -> Engine:
        """Build the index from every record in the store."""
        started = time.perf_counter()
        repo = RecordRepository(db)
        watermark = await repo.last_update()
        entries = [entry async for entry in repo.index_entries()]
        # Triage examples: pastes a maintainer linked to a record answer as that record.
        entries += [entry async for entry in TriageRepository(db).example_entries()]
        index = await asyncio.to_thread(MatchIndex.build, entries)
        log.info("index built: %d records in %.2fs", len(index), time.perf_counter() - started)
        return cls(db, Matcher(index), watermark)

    async def reload(self) -> int:
        """Add records imported or changed since the last load; return how many."""
        async with self._reload_lock:
            index = self.matcher.index
            fresh = [e async for e in self.records.index_entries(updated_since=self._watermark)]
            # Examples linked or dropped in triage (possibly by another process, such as the CLI).
            triage = TriageRepository(self.db)
            fresh += [e async for e in triage.example_entries()]
            dropped = [i for i in await triage.removed_example_ids() if index.get(i) is not None]
            for entry_id in dropped:
                index.remove(entry_id)
            changed = [e for e in fresh if index.get(e.id) != e]
            if changed:
                self.matcher.index.upsert(changed)
                self._watermark = await self.records.last_update()
                log.info("index updated: %d records added or changed", len(changed))
            return len(changed) + len(dropped)

    async def watch(self, interval: float = 1.0) -> None:
        """Reload the index whenever another connection commits (``PRAGMA data_version``), forever.

        ``records import`` run against the database a live bot uses is seen within ``interval``
        seconds, without a restart. Polling a pragma is one cheap read; nothing is reloaded when the
        value has not moved.
        """
        seen = await self.db.data_version()
        while True:
            await asyncio.sleep(interval)
            current = await self.db.data_version()
            if current != seen:
                seen = current
                try:
                    await self.reload()
                except Exception:  # a failed reload must not stop the watcher; the next change retries
                    log.exception("reloading records failed")

    def match_text(self, text: str) -> MatchResult:
        """Match a paste (CPU only; call from a worker thread in the bot)."""
        return self.matcher.match(text)

    async def answer(self, text: str) -> Answer:
        """Match a paste off the event loop and fetch the records its answers name."""
        result = await asyncio.to_thread(self.matcher.match, text)
        return await self.answer_for(result)

    async def search(self, query: str, limit: int = 25) -> list[Match]:
        """Return the records whose message best fits free text, best first (off the event loop)."""
        return await asyncio.to_thread(self.matcher.search, query, limit)

    async def answer_for(self, result: MatchResult) -> Answer:
        """Fetch the records a match result names."""
        ids = {m.id for m in result.matches} | {m.location_id for m in result.matches}
        records = await self.records.get_many(sorted(ids))
        for match in result.matches:
            shown, located = records.get(match.id), records.get(match.location_id)
            if shown is not None and located is not None:
                records[match.id] = merge_site(shown, located)
        return Answer(result, records)
