"""The triage cog: listens for unexplained pastes and gives maintainers ``/triage`` review commands.

Every command defers (privately), then checks at run time that the caller is a maintainer (Manage
Server, the server's configured maintainer role, or a bot owner); anyone else gets an ephemeral
refusal and nothing is read or changed. Review output is ephemeral: it concerns only the maintainer
who asked.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands, tasks

from bot.constants import NO_MENTIONS
from bot.events import PasteEvent
from bot.exts.triage._embeds import (
    list_embed,
    merge_message,
    notice_embed,
    report_embed,
    review_message,
    secret_warning,
    split_message,
)
from bot.exts.triage._reanswer import Reanswerer
from bot.triage_service import Notice, Reanswered, TriageService, parse_sample_ids
from bot.views.pager import Pager
from records.errors import TracebotError
from records.matching import IndexEntry
from records.triage import credential_kinds
from storage.replies import ReplyRepository
from storage.triage_models import Review, Status, TriageGroup

log = logging.getLogger(__name__)

REFUSAL = "Only maintainers (Manage Server, or the server's tracebot maintainer role) can review triage reports."
Access = Callable[[discord.Interaction[Any]], Awaitable[bool]]
WARNED_MEMORY = 1_000  # message ids remembered, so a message is warned about once
ReportId = app_commands.Range[int, 1, 2**53]
GROUP_DESCRIPTION = "Review errors no record explains yet (maintainers only)"


class PageView(Pager):
    """Previous / Next buttons under an ephemeral ``/triage list`` page."""

    def __init__(self, service: TriageService, status: Status | None, number: int, pages: int) -> None:
        super().__init__(number, pages, timeout=300)
        self.service, self.status = service, status
        self.add_page_buttons()

    async def turn_to(self, interaction: discord.Interaction[Any], number: int) -> None:
        """Show page ``number`` of the reports (as they are now: the count may have changed)."""
        page = await self.service.page(self.status, number)
        view = PageView(self.service, self.status, page.number, page.pages)
        await interaction.response.edit_message(embed=list_embed(page), view=view)


@app_commands.guild_only()
class TriageCog(commands.GroupCog, group_name="triage", group_description="Review errors no record explains yet"):
    """Logs unexplained pastes and serves the maintainers' review commands."""

    def __init__(
        self,
        bot: commands.Bot,
        service: TriageService,
        is_maintainer: Access,
        replies: ReplyRepository | None = None,
    ) -> None:
        self.bot = bot
        self.service = service
        self.is_maintainer = is_maintainer
        self.settings = service.settings
        self.reanswerer = Reanswerer(bot, service, replies)
        self._warned: OrderedDict[int, None] = OrderedDict()
        self._tasks: set[asyncio.Task[Reanswered | None]] = set()
        super().__init__()

    async def cog_load(self) -> None:
        """Start the daily retention purge; answer waiting pastes when an import brings their record."""
        self.purge_samples.start()
        if self.service.engine is not None:
            self.service.engine.reload_listeners.append(self._on_reload)

    async def cog_unload(self) -> None:
        """Stop the daily retention purge, the import listener and the re-answers still running."""
        self.purge_samples.cancel()
        if self.service.engine is not None and self._on_reload in self.service.engine.reload_listeners:
            self.service.engine.reload_listeners.remove(self._on_reload)
        # A reload just before a shutdown left its re-answer running after the database had closed
        # ("Cannot operate on a closed database", a task exception never retrieved): stop and wait.
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    async def _on_reload(self, entries: list[IndexEntry]) -> None:
        """Answer, in the background, the recent pastes that records just imported (or linked) explain."""
        task = asyncio.create_task(self.reanswer_entries(entries))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def reanswer_entries(self, entries: list[IndexEntry]) -> Reanswered | None:
        """Answer the recent unanswered pastes the given index entries now match."""
        try:
            targets = await self.service.targets_for_entries(entries)
            if not targets:
                return None
            done = await self.reanswerer.run(targets)
        except (TracebotError, discord.HTTPException) as exc:
            log.warning("triage: answering pastes after a reload failed: %s", exc)
            return None
        log.info("triage: after a reload, %s", done.describe())
        return done

    @tasks.loop(hours=24)
    async def purge_samples(self) -> None:
        """Delete samples older than the retention period (counts stay)."""
        await self.service.purge()

    @purge_samples.before_loop
    async def _before_purge(self) -> None:
        # Only a connected bot purges: not ``tracebot sync-commands``, which logs in and leaves.
        await self.bot.wait_until_ready()

    @commands.Cog.listener()
    async def on_paste_unmatched(self, event: PasteEvent) -> None:
        """Log a paste no record explains."""
        await self._log(event, "unmatched")

    @commands.Cog.listener()
    async def on_paste_answered(self, event: PasteEvent) -> None:
        """Warn the author of an answered paste that carried a credential (nothing is stored)."""
        kinds = await asyncio.to_thread(credential_kinds, event.text)
        if kinds:
            await self._warn(event, kinds)

    @commands.Cog.listener()
    async def on_answer_not_helpful(self, event: PasteEvent) -> None:
        """Log a paste whose answer was voted not helpful."""
        await self._log(event, "not_helpful")

    async def _log(self, event: PasteEvent, source: str) -> None:
        try:
            result = await self.service.log_event(event, source)
        except TracebotError as exc:
            log.warning("triage: could not log a paste in channel %d: %s", event.channel_id, exc)
            return
        if result.secret_kinds:
            await self._warn(event, result.secret_kinds)
        if result.notice is not None and result.group is not None:
            await self._notify(result.group, result.notice)

    async def _warn(self, event: PasteEvent, kinds: tuple[str, ...]) -> None:
        """Reply to the author's message with a short warning that never repeats the credential."""
        if event.message_id in self._warned:
            return
        self._warned[event.message_id] = None
        while len(self._warned) > WARNED_MEMORY:
            self._warned.popitem(last=False)
        channel = self.bot.get_partial_messageable(event.channel_id, guild_id=event.guild_id)
        try:
            await channel.get_partial_message(event.message_id).reply(
                secret_warning(kinds), mention_author=False, allowed_mentions=NO_MENTIONS
            )
        except discord.HTTPException as exc:
            log.warning("triage: could not warn about a credential in channel %d: %s", event.channel_id, exc)

    async def _notify(self, group: TriageGroup, notice: Notice) -> None:
        channel_id = self.settings.notify_channel_id
        if channel_id is None:
            return
        channel = self.bot.get_partial_messageable(channel_id)
        try:
            await channel.send(embed=notice_embed(group, notice), allowed_mentions=NO_MENTIONS)
        except discord.HTTPException as exc:
            log.warning("triage: could not post a notice in channel %d: %s", channel_id, exc)

    async def _guard(self, interaction: discord.Interaction) -> bool:
        """Defer privately, then let maintainers through and refuse anyone else before anything happens."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        if await self.is_maintainer(interaction):
            return True
        log.info("triage command refused for %s in guild %s", interaction.user.id, interaction.guild_id)
        await self._reply(interaction, REFUSAL)
        return False

    async def _reply(
        self, interaction: discord.Interaction, content: str | None = None, embed: discord.Embed | None = None
    ) -> None:
        await interaction.followup.send(
            content=content or discord.utils.MISSING,
            embed=embed or discord.utils.MISSING,
            ephemeral=True,
            allowed_mentions=NO_MENTIONS,
        )

    async def _error(self, interaction: discord.Interaction, exc: TracebotError) -> None:
        await self._reply(interaction, f"⚠️ {discord.utils.escape_markdown(str(exc))}")

    @app_commands.command(name="list", description="List triage reports, highest count first")
    @app_commands.describe(status="only reports with this status", page="page number")
    async def list_reports(
        self,
        interaction: discord.Interaction,
        status: Status | None = None,
        page: app_commands.Range[int, 1, 100_000] = 1,
    ) -> None:
        """Show one page of reports with Previous / Next buttons."""
        if not await self._guard(interaction):
            return
        shown = await self.service.page(status, page)
        view = PageView(self.service, status, shown.number, shown.pages)
        await interaction.followup.send(
            embed=list_embed(shown), view=view, ephemeral=True, allowed_mentions=NO_MENTIONS
        )

    @app_commands.command(name="show", description="Show one triage report with its samples")
    @app_commands.describe(report="report id (the number after #)")
    async def show(self, interaction: discord.Interaction, report: ReportId) -> None:
        """Show a report."""
        if not await self._guard(interaction):
            return
        try:
            found = await self.service.show(report)
        except TracebotError as exc:
            await self._error(interaction, exc)
            return
        await self._reply(interaction, embed=report_embed(found))

    @app_commands.command(name="link", description="Link a report to a record, so the same error matches it")
    @app_commands.describe(report="report id (the number after #)", record="record id or slug")
    async def link(self, interaction: discord.Interaction, report: ReportId, record: str) -> None:
        """Link a report to a record; its message becomes an example of the record."""
        if not await self._guard(interaction):
            return
        try:
            review = await self.service.link(report, record, reviewer=interaction.user.id)
        except TracebotError as exc:
            await self._error(interaction, exc)
            return
        await self._reply(interaction, review_message(review) + await self._reanswer(review))

    async def _reanswer(self, review: Review) -> str:
        """Answer a just-linked group's recent pastes; return what to tell the maintainer ('' for none)."""
        record_id = review.group.record_id
        if review.group.status != "linked" or record_id is None:
            return ""
        targets = await self.service.reanswer_targets(review.group.id, record_id)
        if not targets:
            return ""
        return " " + (await self.reanswerer.run(targets)).describe()

    @app_commands.command(name="merge", description="Merge a report into another: the same error, one report")
    @app_commands.describe(report="the report to merge away", into="the report that stays")
    async def merge(self, interaction: discord.Interaction, report: ReportId, into: ReportId) -> None:
        """Merge one report into another; both errors count in the survivor from now on."""
        if not await self._guard(interaction):
            return
        try:
            review = await self.service.merge(report, into, reviewer=interaction.user.id)
        except TracebotError as exc:
            await self._error(interaction, exc)
            return
        await self._reply(interaction, merge_message(report, review))

    @app_commands.command(name="split", description="Move some samples of a report to a new report")
    @app_commands.describe(
        report="the report to split", samples="the sample ids to move, separated by spaces (see /triage show)"
    )
    async def split(
        self, interaction: discord.Interaction, report: ReportId, samples: app_commands.Range[str, 1, 200]
    ) -> None:
        """Split a report; pastes like the moved samples go to the new report from now on."""
        if not await self._guard(interaction):
            return
        try:
            done = await self.service.split(report, parse_sample_ids(samples))
        except TracebotError as exc:
            await self._error(interaction, exc)
            return
        await self._reply(interaction, split_message(done))

    @app_commands.command(name="dismiss", description="Dismiss a report that needs no record")
    @app_commands.describe(report="report id (the number after #)", reason="why, for the other maintainers")
    async def dismiss(
        self, interaction: discord.Interaction, report: ReportId, reason: app_commands.Range[str, 1, 300]
    ) -> None:
        """Dismiss a report with a reason."""
        if not await self._guard(interaction):
            return
        try:
            review = await self.service.dismiss(report, reason, reviewer=interaction.user.id)
        except TracebotError as exc:
            await self._error(interaction, exc)
            return
        await self._reply(interaction, review_message(review))

    @app_commands.command(name="reopen", description="Put a linked or dismissed report back to new")
    @app_commands.describe(report="report id (the number after #)")
    async def reopen(self, interaction: discord.Interaction, report: ReportId) -> None:
        """Reopen a report."""
        if not await self._guard(interaction):
            return
        try:
            review = await self.service.reopen(report, reviewer=interaction.user.id)
        except TracebotError as exc:
            await self._error(interaction, exc)
            return
        await self._reply(interaction, review_message(review))
