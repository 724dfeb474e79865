"""Triage use cases, shared by the Discord cog and the command line.

Log an unexplained paste (redacted before anything is stored or logged), list and show reports,
link a report to a record (its message becomes an example of the record, in the store and in a
running engine's index, so the next paste of the same error matches), dismiss, reopen, export,
draft a record skeleton, and purge old samples.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Literal

from bot.engine import Engine
from bot.events import PasteEvent
from bot.paging import clamp_page, page_count
from bot.settings import TriageSettings
from records.errors import TriageError, UnknownRecord, UnknownReport
from records.matching import IndexEntry
from records.redact import redact
from records.triage import (
    Observation,
    PasteOrigin,
    Skipped,
    draft_record,
    example_template,
    observe,
    split_rule,
    usable_example,
)
from storage.database import Database
from storage.records import RecordRepository
from storage.triage import TriageRepository
from storage.triage_models import Logged, Purged, Review, Status, TriageGroup, TriageReport, TriageSample
from storage.triage_regroup import MergedReport

log = logging.getLogger(__name__)

Notice = Literal["new", "count"]
MAX_REASON_CHARS = 300
# Samples matched again after an import, at most: samples are few (a handful per group), this bounds a burst.
MAX_REANSWER_SCAN = 500


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
class Split:
    """What a split did: the group left behind, the new group, and the rule that keeps them apart."""

    group: TriageGroup
    new: TriageGroup
    part: str
    values: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ReanswerTarget:
    """A paste still waiting for an answer, and the record that now explains it."""

    sample_id: int
    group_id: int
    guild_id: int | None
    channel_id: int
    message_id: int
    author_id: int
    record_id: str


@dataclass(frozen=True, slots=True)
class Reanswered:
    """What answering a group's recent pastes did (nothing is raised for a paste that is gone)."""

    answered: int = 0
    deleted: int = 0  # the paste was deleted
    unreachable: int = 0  # the bot can no longer see or post in its channel
    record_missing: bool = False  # the record was deleted before the answers went out

    def describe(self) -> str:
        """Say it in one sentence for the maintainer."""
        if self.record_missing:
            return "The record was deleted, so no recent paste was answered."
        parts = [f"Answered {self.answered} recent paste(s) of this error"]
        if self.deleted:
            parts.append(f"{self.deleted} deleted")
        if self.unreachable:
            parts.append(f"{self.unreachable} in a channel I can no longer see")
        return "; ".join(parts) + "."


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


def _parts(sample: TriageSample) -> dict[str, str]:
    """Return the parts a split compares; samples stored before they were kept are read again."""
    if sample.detail:
        return {"frame": sample.frame, "message": sample.detail}
    found = observe(sample.text)
    return found.parts if isinstance(found, Observation) else {"frame": "", "message": ""}


def _target(sample: TriageSample, record_id: str) -> ReanswerTarget:
    return ReanswerTarget(
        sample_id=sample.id,
        group_id=sample.group_id or 0,
        guild_id=sample.guild_id,
        channel_id=sample.channel_id or 0,
        message_id=sample.message_id or 0,
        author_id=sample.author_id or 0,
        record_id=record_id,
    )


def parse_sample_ids(text: str) -> list[int]:
    """Read sample ids typed as ``12 13`` or ``12, #13``."""
    words = text.replace(",", " ").split()
    if not words:
        raise TriageError("name the samples to move, such as 12 13 (their ids are in triage show)")
    ids = []
    for word in words:
        digits = word.removeprefix("#")
        if not digits.isascii() or not digits.isdigit() or len(digits) > 15:
            raise TriageError(f"sample ids are numbers such as 12, not {word[:40]!r}")
        ids.append(int(digits))
    return ids


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
        pages = page_count(total, size)
        number = clamp_page(number, pages)
        groups = await self.repo.groups(status=status, limit=size, offset=(number - 1) * size)
        return Page(groups, number, pages, total, status)

    async def reports(self, status: Status | None = None, limit: int | None = None) -> list[TriageGroup]:
        """Return reports by count, highest first."""
        return await self.repo.groups(status=status, limit=limit)

    async def show(self, report_id: int) -> TriageReport:
        """Return a report with its samples and places (a merged report says where it went)."""
        report = await self.repo.report(report_id)
        if report is None:
            into = await self.repo.merged_into(report_id)
            raise UnknownReport(report_id) if into is None else MergedReport(report_id, into)
        return report

    async def link(self, report_id: int, record: str, reviewer: int | None = None) -> Review:
        """Link a report to a record (id or slug); the next paste of the same error matches it."""
        group = (await self.show(report_id)).group
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

    async def merge(self, source_id: int, into_id: int, reviewer: int | None = None) -> Review:
        """Merge one report into another; pastes of either error now count in the survivor."""
        review = await self.repo.merge(source_id, into_id, stamp(self._clock()))
        await self._update_index(review)
        log.info("triage: report %d merged into %d by %s", source_id, into_id, reviewer)
        return review

    async def split(self, report_id: int, sample_ids: Sequence[int]) -> Split:
        """Move chosen samples to a new report, with a rule that sends their kind of paste there from now on."""
        report = await self.show(report_id)
        chosen = list(dict.fromkeys(sample_ids))
        if len(report.samples) < 2:
            raise TriageError(f"report #{report_id} has {len(report.samples)} sample(s): there is nothing to split")
        known = {sample.id: sample for sample in report.samples}
        if missing := [n for n in chosen if n not in known]:
            raise TriageError(f"sample {missing[0]} is not a sample of report #{report_id} (see triage show)")
        if not chosen or len(chosen) == len(known):
            raise TriageError(f"choose some of the samples of report #{report_id}, not all of them")
        parts = {sample.id: await asyncio.to_thread(_parts, sample) for sample in report.samples}
        rule = split_rule([parts[n] for n in chosen], [p for n, p in parts.items() if n not in chosen])
        if rule is None:
            raise TriageError(
                "the chosen samples show the same library frame and message as the others: nothing tells them apart"
            )
        part, values = rule
        new_id = await self.repo.split(report_id, sample_ids=chosen, part=part, values=values, now=stamp(self._clock()))
        log.info("triage: report %d split: %d samples to report %d by %s", report_id, len(chosen), new_id, part)
        return Split(await self._group(report_id), await self._group(new_id), part, values)

    async def reanswer_targets(self, report_id: int, record_id: str) -> list[ReanswerTarget]:
        """Return a group's recent pastes that no answer reached yet (none when re-answering is off)."""
        since = self._reanswer_since()
        if since is None:
            return []
        samples = await self.repo.unanswered(since, report_id)
        return [_target(sample, record_id) for sample in samples]

    async def targets_for_entries(self, entries: Sequence[IndexEntry]) -> list[ReanswerTarget]:
        """Return recent unanswered pastes that the records just imported (or linked elsewhere) now match."""
        since = self._reanswer_since()
        changed = {entry.alias_of or entry.id for entry in entries}
        if since is None or not changed or self.engine is None:
            return []
        found = []
        for sample in (await self.repo.unanswered(since))[:MAX_REANSWER_SCAN]:
            result = await asyncio.to_thread(self.engine.match_text, sample.text)
            if result.status == "matched" and result.matches and result.matches[0].id in changed:
                found.append(_target(sample, result.matches[0].id))
        return found

    async def answered(self, targets: Sequence[ReanswerTarget]) -> None:
        """Remember that these pastes were answered, or are gone: each paste is answered once."""
        await self.repo.mark_answered([target.sample_id for target in targets], stamp(self._clock()))

    def _reanswer_since(self) -> str | None:
        days = self.settings.reanswer_days
        return stamp(self._clock() - timedelta(days=days)) if days > 0 else None

    async def _group(self, report_id: int) -> TriageGroup:
        group = await self.repo.get(report_id)
        if group is None:
            raise UnknownReport(report_id)
        return group

    async def _update_index(self, review: Review) -> None:
        """Keep a running engine's index in step with the examples just added or removed."""
        if self.engine is not None:
            added = [example.index_entry() for example in review.added]
            await self.engine.update_index(removed=review.removed, added=added)


def library_line(group: TriageGroup) -> str:
    """Return every library seen, with every version seen of it (or the latest one known)."""
    names = list(group.libraries) + [name for name in group.versions if name not in group.libraries]
    shown = []
    for name in names:
        versions = group.versions.get(name) or [v for v in [group.libraries.get(name)] if v]
        shown.append(f"{name} {' / '.join(versions)}" if versions else name)
    return ", ".join(shown)
