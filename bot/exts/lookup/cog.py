"""Slash commands to look errors up: ``/error``, ``/explain``, ``/search``, "Explain this error".

``/explain`` opens a form for long pastes; "Explain this error" is a message command.

Answers concern the caller, so they are ephemeral unless ``share`` is chosen; every command that
reads the database defers first.
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import Services
from bot.constants import NO_MENTIONS
from bot.embeds.text import inline_code
from bot.exts.answers import read_paste
from bot.exts.lookup._choices import id_choices
from bot.exts.lookup._modal import ExplainModal
from bot.views import answer_reply, record_reply
from bot.views.answer import NO_ANSWER
from bot.views.search import SearchPages

log = logging.getLogger(__name__)
SEARCH_LIMIT = 50
QUERY_LENGTH = 200
TEXT_LENGTH = 6000


class Lookup(commands.Cog):
    """Look errors up by id, by pasted text, or by words from the message."""

    def __init__(self, bot: commands.Bot, services: Services) -> None:
        self.bot = bot
        self.services = services
        self.menu = app_commands.ContextMenu(name="Explain this error", callback=self.explain_message)

    async def cog_load(self) -> None:
        """Register the message command (context menus cannot live inside a cog class)."""
        self.bot.tree.add_command(self.menu)

    async def cog_unload(self) -> None:
        """Remove the message command."""
        self.bot.tree.remove_command(self.menu.name, type=self.menu.type)

    @app_commands.command(name="error", description="Show the record that explains an error, by id or slug")
    @app_commands.rename(record="id")
    @app_commands.describe(
        record="Record id or slug (start typing to search ids, slugs and messages)",
        share="Post the answer in the channel for everyone (default: only you see it)",
    )
    async def error(self, interaction: discord.Interaction[Any], record: str, share: bool = False) -> None:
        """Show one record."""
        await interaction.response.defer(ephemeral=not share, thinking=True)
        stored = await self.services.engine.records.get(record.strip())
        if stored is None:
            log.info("/error by %s: no such record", interaction.user.id)
            text = (
                f"No record has the id or slug {inline_code(record, 120)}. Try `/search` with words from the message."
            )
            await interaction.edit_original_response(content=text, allowed_mentions=NO_MENTIONS)
            return
        content = record_reply(
            stored.record,
            None,
            author_id=interaction.user.id,
            deletable=share,
            link_hosts=self.services.settings.link_hosts,
        )
        await interaction.edit_original_response(embed=content.embed, view=content.view, allowed_mentions=NO_MENTIONS)

    @error.autocomplete("record")
    async def error_autocomplete(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        """Offer record ids, slugs and messages matching what was typed."""
        summaries = await self.services.engine.records.autocomplete(current[:100])
        return [app_commands.Choice(name=name, value=value) for name, value in id_choices(summaries, current)]

    @app_commands.command(name="explain", description="Explain a pasted Python error or traceback")
    @app_commands.describe(
        text="The error or traceback; leave it out to paste a long one in a form",
        share="Post the answer in the channel for everyone (default: only you see it)",
    )
    async def explain(
        self,
        interaction: discord.Interaction[Any],
        text: app_commands.Range[str, 1, TEXT_LENGTH] | None = None,
        share: bool = False,
    ) -> None:
        """Match pasted text, or open a form for a long paste."""
        if not text:
            await interaction.response.send_modal(ExplainModal(self.explain_text, share=share))
            return
        await interaction.response.defer(ephemeral=not share, thinking=True)
        await self.explain_text(interaction, text, share)

    @app_commands.command(name="search", description="Search the records by words from an error message")
    @app_commands.describe(query="Words from the error message, e.g. 'stateful models assisted generation'")
    async def search(
        self, interaction: discord.Interaction[Any], query: app_commands.Range[str, 1, QUERY_LENGTH]
    ) -> None:
        """Show matching records, a page at a time."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        matches = await self.services.engine.search(query, SEARCH_LIMIT)
        pages = SearchPages(query, matches, owner_id=interaction.user.id, open_record=self.open_record)
        view = pages if matches else discord.utils.MISSING
        await interaction.edit_original_response(embed=pages.embed(), view=view, allowed_mentions=NO_MENTIONS)

    async def explain_message(self, interaction: discord.Interaction[Any], message: discord.Message) -> None:
        """Explain the error in a message (works without the message-content intent)."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        text = await read_paste(message, self.bot, self.services)
        await self.explain_text(interaction, text, False)

    async def explain_text(self, interaction: discord.Interaction[Any], text: str, share: bool) -> None:
        """Answer an already deferred interaction with what the records say about ``text``."""
        answer = await self.services.engine.answer(text)
        log.info("explain by %s: %s", interaction.user.id, answer.result.status)
        content = answer_reply(
            answer, author_id=interaction.user.id, deletable=share, link_hosts=self.services.settings.link_hosts
        )
        if content is None:
            await interaction.edit_original_response(
                content=NO_ANSWER[answer.result.status], allowed_mentions=NO_MENTIONS
            )
            return
        await interaction.edit_original_response(embed=content.embed, view=content.view, allowed_mentions=NO_MENTIONS)

    async def open_record(self, interaction: discord.Interaction[Any], record_id: str) -> None:
        """Show one record privately (from the search results' menu)."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        stored = await self.services.engine.records.get(record_id)
        if stored is None:
            await interaction.followup.send("That record is no longer available.", ephemeral=True)
            return
        content = record_reply(
            stored.record,
            None,
            author_id=interaction.user.id,
            deletable=False,
            link_hosts=self.services.settings.link_hosts,
        )
        await interaction.followup.send(
            embed=content.embed, view=content.view, ephemeral=True, allowed_mentions=NO_MENTIONS
        )
