"""Triage use cases, shared by the Discord cog and the command line.

Log an unexplained paste (redacted before anything is stored or logged), list and show reports,
link a report to a record (its message becomes an example of the record, in the store and in a
running engine's index, so the next paste of the same error matches), dismiss, reopen, export,
draft a record skeleton, and purge old samples.
"""

from __future__ import annotations

import asyncio
import logging
import math
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Literal

from bot.engine import Engine
from bot.events import PasteEvent
from bot.settings import TriageSettings
from records.errors import TriageError, UnknownRecord, UnknownReport
from records.redact import redact
from records.triage import (
    Observation,
    PasteOrigin,
    Skipped,
    draft_record,
    example_template,
    observe,
    usable_example,
)
from storage.database import Database
from storage.records import RecordRepository
from storage.triage import TriageRepository
from storage.triage_models import Logged, Purged, Review, Status, TriageGroup, TriageReport

log = logging.getLogger(__name__)

Notice = Literal["new", "count"]
MAX_REASON_CHARS = 300


@dataclass(frozen=True, slots=True)
class LogResult:
    """What logging a paste did: the repository's outcome, or why the paste was skipped."""

    logged: Logged | None
    skipped: str | None
    secret_kinds: tuple[str, ...]
    notice: Notice | None = None

    @property
    def group(self) -> TriageGroup | None:
        """The group the paste was counted in."""
        return self.logged.group if self.logged else None


@dataclass(frozen=True, slots=True)
class Page:
    """One page of reports, highest count first."""

    groups: list[TriageGroup]
    number: int
    pages: int
    total: int
    status: Status | None


def utc_now() -> datetime:
    """Return the current time in UTC."""
    return datetime.now(UTC)


def stamp(moment: datetime) -> str:
    """Return a time as the store writes it (ISO 8601, milliseconds, Z)."""
    return moment.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def parse_report_id(text: str) -> int:
    """Read a report id typed as ``12`` or ``#12``."""
    digits = text.strip().removeprefix("#")
    if not digits.isascii() or not digits.isdigit() or len(digits) > 15:
        raise TriageError(f"report ids are numbers such as 12 or #12, not {text[:40]!r}")
    return int(digits)


class TriageService:
    """The triage use cases over a database and, in the bot, the running engine."""

    def __init__(
        self,
        db: Database,
        settings: TriageSettings,
        *,
        engine: Engine | None = None,
        clock: Callable[[], datetime] = utc_now,
    ) -> None:
        self.settings = settings
        self.repo = TriageRepository(db)
        self.records = RecordRepository(db)
        self.engine = engine
        self._clock = clock

    async def log_event(self, event: PasteEvent, source: str) -> LogResult:
        """Log a paste event from the answers cog (``unmatched`` or ``not_helpful``)."""
        origin = PasteOrigin(
            channel_id=event.channel_id,
            author_id=event.author_id,
            guild_id=event.guild_id,
            message_id=event.message_id,
            jump_url=event.jump_url,
            source=source,
            record_id=event.record_id,
        )
        return await self.log_paste(event.text, origin)

    async def log_paste(self, text: str, origin: PasteOrigin) -> LogResult:
        """Redact, group and count a paste; never log or store its raw text."""
        found = await asyncio.to_thread(
            observe, text, paste_chars=self.settings.paste_chars, sample_chars=self.settings.sample_chars
        )
        if found.secret_kinds:
            log.info("triage: paste in channel %d carried a credential (%s)", origin.channel_id, found.secret_kinds)
        if isinstance(found, Skipped):
            log.debug("triage: %s paste skipped (%s)", origin.source, found.reason)
            return LogResult(None, found.reason, found.secret_kinds)
        return await self._store(found, origin)

    async def _store(self, found: Observation, origin: PasteOrigin) -> LogResult:
        logged = await self.repo.log(found, origin, self.settings.limits(), stamp(self._clock()))
        group = logged.group
        if group is None:
            log.info("triage: paste by user %d not logged (%s)", origin.author_id, logged.outcome)
            return LogResult(logged, logged.outcome, found.secret_kinds)
        log.info("triage: %s paste counted in report %d (count %d)", origin.source, group.id, group.count)
        return LogResult(logged, None, found.secret_kinds, self._notice(logged, group))

    def _notice(self, logged: Logged, group: TriageGroup) -> Notice | None:
        if logged.new_group:
            return "new"
        threshold = self.settings.notify_count
        return "count" if threshold and group.count == threshold and group.status == "new" else None

    async def page(self, status: Status | None = None, number: int = 1) -> Page:
        """Return one page of reports (by count), optionally of one status."""
        size = self.settings.page_size
        total = await self.repo.count(status)
        pages = max(1, math.ceil(total / size))
        number = min(max(1, number), pages)
        groups = await self.repo.groups(status=status, limit=size, offset=(number - 1) * size)
        return Page(groups, number, pages, total, status)

    async def reports(self, status: Status | None = None, limit: int | None = None) -> list[TriageGroup]:
        """Return reports by count, highest first."""
        return await self.repo.groups(status=status, limit=limit)

    async def show(self, report_id: int) -> TriageReport:
        """Return a report with its samples and places."""
        report = await self.repo.report(report_id)
        if report is None:
            raise UnknownReport(report_id)
        return report

    async def link(self, report_id: int, record: str, reviewer: int | None = None) -> Review:
        """Link a report to a record (id or slug); the next paste of the same error matches it."""
        group = await self.repo.get(report_id)
        if group is None:
            raise UnknownReport(report_id)
        stored = await self.records.get(record.strip())
        if stored is None:
            raise UnknownRecord(record)
        template = example_template(group.masked)
        templates = [template] if usable_example(template) else []
        review = await self.repo.link(report_id, stored.record.id, templates, reviewer, stamp(self._clock()))
        await self._update_index(review)
        log.info("triage: report %d linked to %s (%d examples)", report_id, stored.record.id, len(review.added))
        return review

    async def dismiss(self, report_id: int, reason: str | None = None, reviewer: int | None = None) -> Review:
        """Dismiss a report, with an optional reason."""
        # A reason is typed by a maintainer, but may quote a paste: redact it like one.
        text = " ".join(redact(reason).text.split())[:MAX_REASON_CHARS] if reason else None
        review = await self.repo.dismiss(report_id, text or None, reviewer, stamp(self._clock()))
        await self._update_index(review)
        log.info("triage: report %d dismissed", report_id)
        return review

    async def reopen(self, report_id: int, reviewer: int | None = None) -> Review:
        """Put a linked or dismissed report back to new."""
        review = await self.repo.reopen(report_id, reviewer, stamp(self._clock()))
        await self._update_index(review)
        log.info("triage: report %d reopened", report_id)
        return review

    async def export(self) -> list[TriageReport]:
        """Return every report with its samples and places, by count."""
        reports = [await self.repo.report(group.id) for group in await self.repo.groups()]
        return [report for report in reports if report is not None]

    async def draft(self, report_id: int) -> dict[str, Any]:
        """Return a record skeleton (published envelope form) prefilled from a report."""
        group = await self.repo.get(report_id)
        if group is None:
            raise UnknownReport(report_id)
        return draft_record(group)

    async def purge(self) -> Purged:
        """Delete samples older than the retention period; counts and groups stay."""
        now = self._clock()
        cutoff = stamp(now - timedelta(days=self.settings.retention_days))
        purged = await self.repo.purge(cutoff, (now - timedelta(days=1)).date().isoformat())
        log.info("triage: purged %d samples older than %s", purged.samples, cutoff)
        return purged

    async def _update_index(self, review: Review) -> None:
        """Keep a running engine's index in step with the examples just added or removed."""
        if self.engine is not None:
            added = [example.index_entry() for example in review.added]
            await self.engine.update_index(removed=review.removed, added=added)
