"""Paging: how many pages a list fills, and which page a request lands on."""

from __future__ import annotations

from bot.paging import clamp_page, page_count


def test_page_count() -> None:
    assert [page_count(n, 5) for n in (0, 1, 5, 6, 50)] == [1, 1, 1, 2, 10]
    assert page_count(7, 2) == 4


def test_clamp_page() -> None:
    assert [clamp_page(n, 3) for n in (-1, 0, 1, 2, 3, 4)] == [1, 1, 1, 2, 3, 3]
