"""Text helpers for embeds: Discord's limits, clipping, code blocks, and fitting an embed into them."""

from __future__ import annotations

import re

import discord

TITLE, DESCRIPTION, FIELDS, FIELD_NAME, FIELD_VALUE, FOOTER, TOTAL = 256, 4096, 25, 256, 1024, 2048, 6000
ELLIPSIS = "…"
_FENCE = "```"
_BROKEN_FENCE = "`\u200b``"  # a zero-width space keeps text from closing our code block early
MIN_DESCRIPTION = 200
FIELD_FLOOR = 160  # a field is cut down to this before any field is dropped


def clip(text: str, limit: int) -> str:
    """Return ``text`` cut to at most ``limit`` characters, marking the cut with an ellipsis."""
    if len(text) <= limit:
        return text
    return text[: max(limit - 1, 0)].rstrip() + ELLIPSIS if limit > 0 else ""


def undouble(text: str) -> str:
    """Turn a template's doubled literal braces (``{{`` and ``}}``) back into single ones."""
    return text.replace("{{", "{").replace("}}", "}")


def first_line(text: str) -> str:
    """Return the first non-empty line of ``text`` (or an empty string)."""
    return next((line.strip() for line in text.splitlines() if line.strip()), "")


def code_block(text: str, limit: int, language: str = "py") -> str:
    """Return ``text`` in a fenced code block of at most ``limit`` characters, fences included."""
    opening, closing = f"{_FENCE}{language}\n", f"\n{_FENCE}"
    room = limit - len(opening) - len(closing)
    body = text.replace(_FENCE, _BROKEN_FENCE).strip("\n")
    if room <= 0:
        return ""
    if len(body) > room:
        body = body[: max(room - 2, 0)].rstrip("\n") + "\n" + ELLIPSIS
    return f"{opening}{body}{closing}"


def inline_code(text: str, limit: int) -> str:
    """Return ``text`` as inline code of at most ``limit`` characters (backticks inside are swapped)."""
    return f"`{clip(text.replace('`', 'ˋ').replace(chr(10), ' '), max(limit - 2, 0))}`"


def numbered(items: list[str], limit: int) -> str:
    """Return ``1. a`` / ``2. b`` lines of at most ``limit`` characters, dropping items that do not fit."""
    lines: list[str] = []
    for number, item in enumerate(items, start=1):
        room = limit - len("\n".join(lines)) - (1 if lines else 0)
        if (room < 20 and lines) or room <= 0:
            break
        lines.append(clip(f"{number}. {' '.join(item.split())}", room))
    return "\n".join(lines)


def add_field(embed: discord.Embed, name: str, value: str | None, *, inline: bool = False) -> None:
    """Add a field if it has a value and room is left, clipping name and value to Discord's limits."""
    if value and value.strip() and len(embed.fields) < FIELDS:
        embed.add_field(name=clip(name, FIELD_NAME), value=clip(value, FIELD_VALUE), inline=inline)


def shrink(value: str, limit: int) -> str:
    """Cut a field value to at most ``limit`` characters, keeping a fenced code block closed."""
    if len(value) <= limit:
        return value
    if value.startswith(_FENCE) and value.endswith(_FENCE) and "\n" in value:
        opening = value.index("\n")
        return code_block(value[opening + 1 : -len(_FENCE)], limit, value[len(_FENCE) : opening])
    return clip(value, limit)


def fit(embed: discord.Embed) -> discord.Embed:
    """Shrink an embed to Discord's 6,000-character total.

    The description goes first (down to a few lines), then the longest field (a code block stays a
    closed code block), down to ``FIELD_FLOOR``; only then are the last fields dropped.
    """
    overflow = len(embed) - TOTAL
    if overflow > 0 and embed.description:
        keep = max(len(embed.description) - overflow, MIN_DESCRIPTION)
        embed.description = clip(embed.description, keep)
    while len(embed) > TOTAL and embed.fields:
        index = max(range(len(embed.fields)), key=lambda i: len(embed.fields[i].value or ""))
        field = embed.fields[index]
        value = field.value or ""
        if len(value) <= FIELD_FLOOR:
            embed.remove_field(len(embed.fields) - 1)
            continue
        smaller = shrink(value, max(len(value) - (len(embed) - TOTAL), FIELD_FLOOR))
        if smaller.strip():
            embed.set_field_at(index, name=field.name, value=smaller, inline=bool(field.inline))
        else:
            embed.remove_field(index)
    if len(embed) > TOTAL and embed.description:
        embed.description = clip(embed.description, max(len(embed.description) - (len(embed) - TOTAL), 0))
    return embed


# Record files come from outside: their text is shown, never interpreted. Masked links ([label](url))
# could put a phishing link behind friendly words in a public reply; mentions and role pings would
# render (they never notify: replies send AllowedMentions.none()); headings and quotes would restyle
# the answer. Inline code and emphasis stay: curated records use them for names.
_MASKED_LINK = re.compile(r"\[([^\]\n]{0,256})\]\(\s*<?([a-z][a-z0-9+.-]*:[^)\s]*)>?\s*\)", re.IGNORECASE)
_MENTION = re.compile(r"<(@[!&]?|#)(\d+)>|@(everyone|here)\b")
_BLOCK_MARKUP = re.compile(r"^(\s*)(#{1,3} |-# |>>> |> )", re.MULTILINE)


_ZWSP = "\u200b"


def _unmask(match: re.Match[str]) -> str:
    # The zero-width space keeps Discord from turning the address back into a link.
    return f"{match.group(1)} (link: {match.group(2).replace('://', ':' + _ZWSP + '//')})"


def safe_markdown(text: str) -> str:
    """Return record text that Discord shows as written: no masked links, mentions or block markup."""
    text = _MASKED_LINK.sub(_unmask, text)
    text = _MENTION.sub(lambda m: m.group(0).replace("@", "@" + _ZWSP).replace("<#", "<#" + _ZWSP), text)
    return _BLOCK_MARKUP.sub(lambda m: m.group(1) + "\\" + m.group(2), text)
