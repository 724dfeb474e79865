"""Paging, one rule for every paged list (search results, triage reports): how many pages, which page.

Pages are numbered from 1. Plain functions without discord.py: the triage command line pages too.
"""

from __future__ import annotations


def page_count(total: int, page_size: int) -> int:
    """Return how many pages ``total`` items fill (at least one: an empty list is one empty page)."""
    return max(1, -(-total // page_size))


def clamp_page(number: int, pages: int) -> int:
    """Return the page ``number`` asks for, kept within 1 .. ``pages``."""
    return min(max(1, number), pages)
