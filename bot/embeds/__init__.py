"""Pure embed builders: records and lists in, ``discord.Embed`` out, always within Discord's limits."""

from bot.embeds.answer import answer_embed, headline, record_from_match, source_excerpt
from bot.embeds.config import config_embed
from bot.embeds.lists import ambiguous_embed, match_line, search_embed

__all__ = [
    "ambiguous_embed",
    "answer_embed",
    "config_embed",
    "headline",
    "match_line",
    "record_from_match",
    "search_embed",
    "source_excerpt",
]
