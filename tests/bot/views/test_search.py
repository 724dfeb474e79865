"""The search results' pages: five matches a page, a menu of the page's records, Previous / Next."""

from __future__ import annotations

from typing import Any

import discord

from bot.views.search import PAGE_SIZE, SearchPages
from tests.bot.samples import match


async def _never_opened(interaction: discord.Interaction[Any], record_id: str) -> None:
    raise AssertionError(f"{record_id} opened")


class _Edits:
    """Stands for an interaction: turning a page edits the message in place."""

    def __init__(self) -> None:
        self.response = self
        self.edits: list[dict[str, Any]] = []

    async def edit_message(self, **fields: Any) -> None:
        self.edits.append(fields)


def _menu_ids(view: SearchPages) -> list[str]:
    return [option.value for option in view.menu.options]


async def test_twelve_matches_are_three_pages_of_at_most_five() -> None:
    matches = [match(f"r{n:02d}") for n in range(12)]
    view = SearchPages("q", matches, owner_id=1, open_record=_never_opened)
    assert (view.number, view.pages, PAGE_SIZE) == (1, 3, 5)
    assert _menu_ids(view) == [f"r{n:02d}" for n in range(5)]
    assert view.previous.disabled and not view.next.disabled
    edits = _Edits()
    await view.turn_to(edits, 3)  # type: ignore[arg-type]
    assert _menu_ids(view) == ["r10", "r11"] and view.next.disabled and not view.previous.disabled
    assert edits.edits[0]["view"] is view and "page 3 of 3" in (edits.edits[0]["embed"].footer.text or "")


async def test_one_page_has_no_page_buttons() -> None:
    view = SearchPages("q", [match("only")], owner_id=1, open_record=_never_opened)
    assert view.pages == 1 and view.children == [view.menu]
