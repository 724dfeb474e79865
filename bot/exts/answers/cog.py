"""The paste listener: answers pastes, follows their edits and deletions.

Thin: decisions are pure helpers (``_policy``, ``_throttle``, ``_reading``, ``_deferred``), matching
is the engine's, posting is ``_lifecycle``.

Every admitted paste is matched, whatever the cooldowns say (an unmatched one reaches triage, which
has its own caps); a reply that a cooldown holds back waits in ``_deferred`` and goes out when the
cooldown lapses. Work is bounded: at most ``max_in_flight`` pastes are read and matched at once, at
most ``max_queued`` wait for their turn (a flood is answered in order, its memory capped), and what is
refused for room is counted and logged with its message id.

Only ids and statuses are logged; paste text never is (it may hold secrets).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import discord
from discord.ext import commands, tasks

from bot.client import Services
from bot.constants import NO_MENTIONS
from bot.engine import Answer
from bot.exts.answers._deferred import DeferredReplies, Waiting
from bot.exts.answers._lifecycle import KeyedLocks, ReplyKeeper
from bot.exts.answers._message import facts_of, paste_event, read_paste
from bot.exts.answers._policy import skip_reason
from bot.exts.answers._reading import SeenIds, missing_part
from bot.exts.answers._throttle import SharedBudget, Throttle
from bot.views import ReplyContent, answer_reply
from storage.budget import BudgetRepository
from storage.guilds import GuildConfig, ReplyStyle
from storage.replies import ReplyLink

log = logging.getLogger(__name__)
SHUTDOWN_GRACE = 5.0
# How often held answers are looked at: an answer goes out at most this long after its cooldown lapses.
DRAIN_TICK = 0.25
ASK_SECONDS = 120.0  # a public "paste the last line" reply deletes itself after this long
# How full an answer is, to keep the fullest of one person's held pastes.
_ANSWER_RANK = {"matched": 2, "ambiguous": 1}
Held = tuple[discord.Message, ReplyContent, ReplyStyle]


class Answers(commands.Cog):
    """Answers pasted errors with the record that explains them."""

    def __init__(self, bot: commands.Bot, services: Services, throttle: Throttle | None = None) -> None:
        self.bot = bot
        self.services = services
        settings = services.settings
        # A database several processes share keeps the global budget; the cooldowns stay here.
        shared = services.db.shared and settings.global_budget > 0
        self.shared_budget = (
            SharedBudget(BudgetRepository(services.db), budget=settings.global_budget, window=settings.global_window)
            if shared
            else None
        )
        self.throttle = throttle or Throttle(
            user_cooldown=settings.user_cooldown,
            channel_cooldown=settings.channel_cooldown,
            budget=0 if shared else settings.global_budget,
            window=settings.global_window,
        )
        self.locks = KeyedLocks()
        self.keeper = ReplyKeeper(bot, services.replies)
        self._inflight: set[asyncio.Task[Any]] = set()
        self.max_in_flight = settings.max_in_flight
        self.max_queued = settings.max_queued
        self._slots = asyncio.Semaphore(settings.max_in_flight)
        self.peak_in_flight = 0
        self.asked = SeenIds()  # pastes already asked for their missing line
        self.deferred: DeferredReplies[Held] = DeferredReplies(
            per_channel=settings.deferred_per_channel, total=settings.deferred_total
        )

    async def cog_unload(self) -> None:
        """Let answers in progress finish (for a bounded time), then cancel the rest, before the database closes."""
        self.drain.cancel()
        if self.deferred:
            log.info("%d held answers not posted at shutdown", len(self.deferred))
        pending = self._inflight - {asyncio.current_task()}
        if not pending:
            return
        log.info("waiting for %d answers in progress", len(pending))
        _, late = await asyncio.wait(pending, timeout=SHUTDOWN_GRACE)
        for task in late:
            task.cancel()
        if late:
            log.warning("%d answers cancelled at shutdown", len(late))
            await asyncio.wait(late, timeout=SHUTDOWN_GRACE)

    @asynccontextmanager
    async def _work(self, message_id: int) -> AsyncIterator[None]:
        """Handle one message at a time per message id, counted as work in progress."""
        task = asyncio.current_task()
        assert task is not None  # listeners always run in a task
        self._inflight.add(task)
        self._gauge_in_flight()
        try:
            async with self._slots, self.locks.hold(message_id):
                yield
        finally:
            self._inflight.discard(task)
            self._gauge_in_flight()

    def _gauge_in_flight(self) -> None:
        metrics = self.services.metrics
        if metrics is not None:
            metrics.in_flight.set(len(self._inflight))
            self.peak_in_flight = max(self.peak_in_flight, len(self._inflight))
            metrics.in_flight_peak.set(self.peak_in_flight)

    # -- listeners -------------------------------------------------------------------------------

    @commands.Cog.listener()
    async def on_message(self, message: discord.Message) -> None:
        """Answer a new paste when the policy and the cooldowns allow."""
        if self.services.metrics is not None:
            self.services.metrics.messages_seen.inc()
        admitted, config = await self._admitted(message)
        if not admitted or self._overflowing(message.id):
            return
        async with self._work(message.id):
            await self._answer_new(message, config)

    @commands.Cog.listener()
    async def on_raw_message_edit(self, payload: discord.RawMessageUpdateEvent) -> None:
        """Update (or remove) the reply to an edited paste; answer a message edited into a paste."""
        message = payload.message
        if message.edited_at is None:  # an embed unfurl, not an edit by a person
            return
        admitted, config = await self._admitted(message)
        if not admitted:
            return
        if self._overflowing(message.id):
            return
        async with self._work(message.id):
            self.deferred.drop(message.id)  # a held answer to the old text must not go out
            link = await self.services.replies.get(message.id)
            if link is None:
                await self._answer_new(message, config)
                return
            await self._follow_edit(message, link)

    @commands.Cog.listener()
    async def on_raw_message_delete(self, payload: discord.RawMessageDeleteEvent) -> None:
        """Delete the reply to a deleted paste; forget a reply someone deleted."""
        await self._deleted(payload.message_id)

    @commands.Cog.listener()
    async def on_raw_bulk_message_delete(self, payload: discord.RawBulkMessageDeleteEvent) -> None:
        """Handle a bulk deletion like one deletion per message."""
        for message_id in payload.message_ids:
            await self._deleted(message_id)

    # -- steps -----------------------------------------------------------------------------------

    async def _admitted(self, message: discord.Message) -> tuple[bool, GuildConfig | None]:
        """Return whether the bot may answer the message, and the server's config (None in DMs)."""
        config = await self.services.guilds.config(message.guild.id) if message.guild else None
        reason = skip_reason(facts_of(message, self.bot.user), config)
        if reason is not None:
            log.debug("message %s skipped: %s", message.id, reason)
        return reason is None, config

    def _overflowing(self, message_id: int) -> bool:
        """Refuse a paste when ``max_queued`` are already waiting or being handled (counted, logged)."""
        if len(self._inflight) < self.max_queued:
            return False
        log.info("message %s not read: %d pastes already in flight", message_id, len(self._inflight))
        self._count_overflow("in_flight")
        return True

    def _count_overflow(self, queue: str) -> None:
        if self.services.metrics is not None:
            self.services.metrics.pastes_overflowed.labels(queue).inc()

    async def _answer_new(self, message: discord.Message, config: GuildConfig | None) -> None:
        matched = await self._match(message)
        if matched is None:
            return
        answer, text = matched
        content = answer_reply(answer, author_id=message.author.id, link_hosts=self.services.settings.link_hosts)
        if content is None:
            await self._ask_for_missing(message, answer)
            return
        style = config.reply_style if config is not None else "reply"
        if not await self._admit(message.author.id, message.channel.id):
            cause = answer.result.best.id if answer.result.best is not None else ""
            fullness = (_ANSWER_RANK.get(answer.result.status, 0), len(text))
            self._defer(message, (message, content, style), cause, fullness)
            return
        await self._post(message, content, style)

    async def _admit(self, user_id: int, channel_id: int) -> bool:
        """Count one answer to this user in this channel if the cooldowns and the budget allow it now."""
        if self.shared_budget is None:
            return self.throttle.take(user_id, channel_id)
        if self.throttle.blocked(user_id, channel_id) is not None or not await self.shared_budget.take():
            return False
        # Another paste may have taken the cooldown while the budget was asked: then the token taken
        # is not used, which errs on the side of fewer answers, never more.
        return self.throttle.take(user_id, channel_id)

    async def _ask_for_missing(self, message: discord.Message, answer: Answer) -> None:
        """Ask, once per paste and privately when Discord lets us, for the line a cut-off traceback lacks."""
        hint = missing_part(answer.result.extraction)
        if hint is None or not self.asked.add(message.id):
            return
        try:
            await message.author.send(f"About your paste in {message.jump_url}: {hint}", allowed_mentions=NO_MENTIONS)
        except discord.HTTPException:  # direct messages closed: a short reply that goes away again
            with contextlib.suppress(discord.HTTPException):
                await message.reply(hint, mention_author=False, allowed_mentions=NO_MENTIONS, delete_after=ASK_SECONDS)
        log.info("message %s: asked for the missing last line", message.id)

    async def _post(self, message: discord.Message, content: ReplyContent, style: ReplyStyle) -> None:
        link = await self.keeper.post(message, content, style)
        if link is not None:
            if self.services.metrics is not None:
                self.services.metrics.replies_sent.inc()
            log.info("message %s answered by %s: %s %s", message.id, link.reply_id, link.status, link.record_ids[0])

    def _defer(self, message: discord.Message, held: Held, cause: str, fullness: tuple[int, int]) -> None:
        """Hold an answer until the cooldown that blocks it lapses."""
        waiting = Waiting(message.id, message.channel.id, cause, fullness, held)
        offer = self.deferred.offer(message.author.id, waiting)
        if offer == "overflow":
            log.info("message %s: answer not held, the deferred queue is full", message.id)
            self._count_overflow("deferred")
            return
        log.info("message %s: answer held for the cooldown (%s)", message.id, offer)
        if offer in ("queued", "replaced") and self.services.metrics is not None:
            self.services.metrics.replies_deferred.inc()
        if not self.drain.is_running():  # it runs only while answers are held
            self.drain.start()

    @tasks.loop(seconds=DRAIN_TICK)
    async def drain(self) -> None:
        """Post the held answers whose cooldown lapsed; stop when none is held (started by ``_defer``)."""
        await self._post_due()
        if not self.deferred:
            self.drain.stop()

    async def _post_due(self) -> int:
        """Post every held answer whose cooldown has lapsed; return how many went out."""
        posted = 0
        for key in self.deferred.waiting_keys():
            author, channel, _ = key
            if self.throttle.ready_in(author, channel) > 0 or not await self._admit(author, channel):
                continue
            waiting = self.deferred.take(key)
            if waiting is None:
                continue
            message, content, style = waiting.item
            async with self._work(message.id):
                await self._post(message, content, style)
            posted += 1
        return posted

    async def _follow_edit(self, message: discord.Message, link: ReplyLink) -> None:
        matched = await self._match(message)
        hosts = self.services.settings.link_hosts
        content = answer_reply(matched[0], author_id=message.author.id, link_hosts=hosts) if matched else None
        if content is None:
            log.info("message %s edited: no longer answered, reply %s removed", message.id, link.reply_id)
            await self.keeper.remove(link)
            return
        updated = await self.keeper.update(link, content)
        log.info("message %s edited: reply %s shows %s", message.id, link.reply_id, updated and updated.record_ids)

    async def _match(self, message: discord.Message) -> tuple[Answer, str] | None:
        """Match the paste; dispatch ``paste_unmatched`` or ``paste_answered``; None for no text."""
        text = await read_paste(message, self.bot, self.services)
        if not text.strip():
            return None
        started = time.perf_counter()
        answer = await self.services.engine.answer(text)
        status = answer.result.status
        log.debug("message %s: %s", message.id, status)
        if self.services.metrics is not None:
            self.services.metrics.match_latency.observe(time.perf_counter() - started)
            self.services.metrics.pastes.labels(status).inc()
        if status == "unmatched":
            self.bot.dispatch("paste_unmatched", paste_event(message, text, answer))
        elif status in ("matched", "ambiguous"):
            # Answered pastes are not triaged, but a credential in them still earns the author a warning.
            self.bot.dispatch("paste_answered", paste_event(message, text, answer))
        return answer, text

    async def _deleted(self, message_id: int) -> None:
        if self.deferred.drop(message_id) is not None:
            log.info("message %s deleted: its held answer is dropped", message_id)
        async with self._work(message_id):
            link = await self.services.replies.get(message_id)
            if link is not None:
                log.info("message %s deleted: removing reply %s", message_id, link.reply_id)
                await self.keeper.remove(link)
                return
            if await self.services.replies.by_reply(message_id) is not None:  # read first: most deletions are not ours
                await self.services.replies.forget_reply(message_id)
                log.info("reply %s was deleted", message_id)
