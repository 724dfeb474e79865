"""Paginated search results: Previous / Next and a menu to open one of the page's records.

Ephemeral and short-lived (not persistent): only the person who searched sees and drives it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import discord

from bot.embeds import headline, search_embed
from bot.embeds.text import clip
from bot.paging import page_count
from bot.views.pager import Pager
from records.matching import Match

PAGE_SIZE = 5
OpenRecord = Callable[[discord.Interaction[Any], str], Awaitable[None]]


class SearchPages(Pager):
    """One page of search results at a time, for the person who searched."""

    def __init__(
        self, query: str, matches: Sequence[Match], *, owner_id: int, open_record: OpenRecord, timeout: float = 600
    ) -> None:
        super().__init__(1, page_count(len(matches), PAGE_SIZE), timeout=timeout, row=1)
        self.query, self.matches, self.owner_id = query, list(matches), owner_id
        self.open_record = open_record
        self.menu: discord.ui.Select[SearchPages] = discord.ui.Select(placeholder="Open a record", row=0)
        self.menu.callback = self._open  # type: ignore[method-assign]
        self._show_page()

    def current(self) -> list[Match]:
        """Return the matches on the current page."""
        start = (self.number - 1) * PAGE_SIZE
        return self.matches[start : start + PAGE_SIZE]

    def embed(self) -> discord.Embed:
        """Build the embed of the current page."""
        return search_embed(
            self.query,
            self.current(),
            start=(self.number - 1) * PAGE_SIZE + 1,
            page_number=self.number,
            pages=self.pages,
            total=len(self.matches),
        )

    def _show_page(self) -> None:
        self.clear_items()
        page = [m for m in self.current() if len(m.id) <= 100]
        if page:
            self.menu.options = [
                discord.SelectOption(label=headline(m.error_class, m.error_message, 100), value=m.id,
                                     description=clip(f"id {m.id}", 100))
                for m in page
            ]  # fmt: skip
            self.add_item(self.menu)
        self.add_page_buttons()

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        """Let only the person who searched turn the pages."""
        return interaction.user.id == self.owner_id

    async def turn_to(self, interaction: discord.Interaction[Any], number: int) -> None:
        """Show page ``number`` in place."""
        self.number = number
        self._show_page()
        await interaction.response.edit_message(embed=self.embed(), view=self)

    async def _open(self, interaction: discord.Interaction[Any]) -> None:
        if self.menu.values:
            await self.open_record(interaction, self.menu.values[0])
