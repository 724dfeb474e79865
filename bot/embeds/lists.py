"""Embeds that list several records: the closest answers to an ambiguous paste, and search results."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.embeds.answer import headline, location
from bot.embeds.text import DESCRIPTION, FOOTER, TITLE, clip, fit, inline_code
from records.matching import Match

AMBIGUOUS_COLOUR = 0xE67E22
SEARCH_COLOUR = 0x3498DB
LINE_LIMIT = 320


def match_line(number: int, match: Match, *, score: bool = True, pasted: str | None = None) -> str:
    """Return one list line: number, headline (filled from ``pasted``), where it is raised, the score."""
    parts = [f"**{number}.** {headline(match.error_class, match.error_message, 200, pasted)}"]
    where = location(match.file_path, match.line_number)
    if where:
        parts.append(inline_code(where, 90))
    if score:
        parts.append(f"{match.score:.0f}%")
    parts.append(f"id {inline_code(match.id, 40)}")
    return clip(" · ".join(parts), LINE_LIMIT)


def _listing(matches: Sequence[Match], start: int, *, score: bool, pasted: str | None = None) -> str:
    lines: list[str] = []
    for offset, match in enumerate(matches):
        line = match_line(start + offset, match, score=score, pasted=pasted)
        if len("\n".join([*lines, line])) > DESCRIPTION:
            break
        lines.append(line)
    return "\n".join(lines)


def ambiguous_embed(matches: Sequence[Match], *, pasted: str | None = None) -> discord.Embed:
    """Build the short list shown when several records could explain a paste (``pasted``: its message)."""
    embed = discord.Embed(
        title="Several records could explain this error",
        description=_listing(matches[:25], 1, score=True, pasted=pasted) or None,
        colour=AMBIGUOUS_COLOUR,
    )
    embed.set_footer(text="Pick the one that fits from the menu below to see its explanation.")
    return fit(embed)


def search_embed(
    query: str, page: Sequence[Match], *, start: int, page_number: int, pages: int, total: int
) -> discord.Embed:
    """Build one page of search results (``start`` numbers its first result; pages count from 1)."""
    if not page:
        return discord.Embed(
            title=clip(f"Search: {query}", TITLE), description="No record matches that.", colour=SEARCH_COLOUR
        )
    embed = discord.Embed(
        title=clip(f"Search: {query}", TITLE),
        description=_listing(page, start, score=False),
        colour=SEARCH_COLOUR,
    )
    embed.set_footer(text=clip(f"page {page_number} of {pages} · {total} results · /error ID shows one", FOOTER))
    return fit(embed)
