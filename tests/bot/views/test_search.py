"""The search pager."""

from __future__ import annotations

from bot.views.search import page_count


def test_page_count() -> None:
    assert [page_count(n) for n in (0, 1, 5, 6, 50)] == [1, 1, 1, 2, 10]
