"""Previous / Next under a paged embed: shown for more than one page, disabled at the ends, kept in range."""

from __future__ import annotations

from typing import Any

import discord

from bot.views.pager import Pager


class _Recording(Pager):
    def __init__(self, number: int, pages: int) -> None:
        super().__init__(number, pages, timeout=60)
        self.turned: list[int] = []
        self.add_page_buttons()

    async def turn_to(self, interaction: discord.Interaction[Any], number: int) -> None:
        self.turned.append(number)


async def test_the_buttons_are_disabled_at_either_end() -> None:
    first, middle, last = _Recording(1, 3), _Recording(2, 3), _Recording(3, 3)
    assert [(v.previous.disabled, v.next.disabled) for v in (first, middle, last)] == [
        (True, False), (False, False), (False, True)
    ]  # fmt: skip


async def test_one_page_shows_no_buttons() -> None:
    assert _Recording(1, 1).children == []


async def test_a_turn_asks_for_the_page_before_or_after_kept_within_the_pages() -> None:
    view = _Recording(9, 3)  # a page past the end is the last one
    assert view.number == 3
    await view._next(None)  # type: ignore[arg-type]
    await view._previous(None)  # type: ignore[arg-type]
    assert view.turned == [3, 2]
