"""Previous / Next under a paged embed: the buttons every paged view shares.

A view shows page ``number`` of ``pages`` (from 1); turning asks the subclass's ``turn_to`` for the page
before or after, kept within the pages. The buttons appear only when there is more than one page.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.paging import clamp_page


class Pager(discord.ui.View):
    """A view with Previous / Next buttons; subclasses show a page in ``turn_to``."""

    def __init__(self, number: int, pages: int, *, timeout: float, row: int | None = None) -> None:
        super().__init__(timeout=timeout)
        self.number, self.pages = clamp_page(number, pages), pages
        self.previous: discord.ui.Button[Pager] = discord.ui.Button(label="Previous", row=row)
        self.next: discord.ui.Button[Pager] = discord.ui.Button(label="Next", row=row)
        self.previous.callback = self._previous  # type: ignore[method-assign]
        self.next.callback = self._next  # type: ignore[method-assign]

    def add_page_buttons(self) -> None:
        """Add Previous and Next (disabled at either end) when there is more than one page."""
        if self.pages > 1:
            self.previous.disabled = self.number <= 1
            self.next.disabled = self.number >= self.pages
            self.add_item(self.previous)
            self.add_item(self.next)

    async def turn_to(self, interaction: discord.Interaction[Any], number: int) -> None:
        """Show page ``number`` (already kept within the pages) in answer to ``interaction``."""
        raise NotImplementedError

    async def _previous(self, interaction: discord.Interaction[Any]) -> None:
        await self.turn_to(interaction, clamp_page(self.number - 1, self.pages))

    async def _next(self, interaction: discord.Interaction[Any]) -> None:
        await self.turn_to(interaction, clamp_page(self.number + 1, self.pages))
