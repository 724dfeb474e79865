"""The answer embed: what a record says about an error, within Discord's limits whatever it holds.

Curated records show what the error means, numbered fixes, an example fix and when it happens. A
mined record has no curated text, so its embed shows the condition that raises the error, the
comment beside the raise, and the source lines around it.
"""

from __future__ import annotations

import discord

from bot.embeds._text import (
    DESCRIPTION,
    FIELD_VALUE,
    FOOTER,
    TITLE,
    add_field,
    clip,
    code_block,
    first_line,
    fit,
    inline_code,
    numbered,
    undouble,
)
from records.matching import Match
from records.model import Record

CURATED_COLOUR = 0x2ECC71
MINED_COLOUR = 0x5865F2
DESCRIPTION_BUDGET = 1800  # keep room in the 6,000 total for the fields
SOURCE_CONTEXT = (6, 4)  # lines shown before and after the raising line


def headline(error_class: str | None, message: str, limit: int = TITLE) -> str:
    """Return ``Class: first line of the message`` (braces un-doubled), at most ``limit`` characters."""
    return clip(f"{error_class or 'Error'}: {undouble(first_line(message)) or '(no message)'}", limit)


def is_mined(record: Record) -> bool:
    """Return whether a record was mined from source (it has no curated explanation)."""
    return record.origin == "mined"


def location(file_path: str | None, line_number: int | None) -> str | None:
    """Return ``path:line`` (or just the path), or None without a path."""
    if not file_path:
        return None
    return f"{file_path}:{line_number}" if line_number else file_path


def record_from_match(match: Match) -> Record:
    """Return a minimal record from a match, for when the full record cannot be read."""
    return Record(
        id=match.id,
        error_message=match.error_message,
        error_class=match.error_class,
        file_path=match.file_path,
        line_number=match.line_number,
    )


def answer_embed(record: Record, match: Match | None = None, *, note: str | None = None) -> discord.Embed:
    """Build the embed that explains ``record`` (with the match's confidence when it answers a paste)."""
    mined = is_mined(record)
    embed = discord.Embed(
        title=headline(record.error_class, record.error_message),
        description=clip(_mined_description(record) if mined else _meaning(record), DESCRIPTION) or None,
        colour=MINED_COLOUR if mined else CURATED_COLOUR,
    )
    if embed.description:
        embed.description = clip(embed.description, DESCRIPTION_BUDGET)
    if mined:
        _mined_fields(embed, record)
    else:
        _curated_fields(embed, record)
    _common_fields(embed, record, match)
    embed.set_footer(text=clip(footer(record, match, note), FOOTER))
    return fit(embed)


def footer(record: Record, match: Match | None, note: str | None = None) -> str:
    """Return the footer: record id, match confidence, and where the text came from."""
    parts = [f"record {record.id}"]
    if match is not None:
        parts.append(f"match confidence {match.score:.0f}%")
    parts.append("mined from source" if is_mined(record) else "curated")
    if note:
        parts.append(note)
    return " · ".join(parts)


def _meaning(record: Record) -> str:
    return f"**What it means**\n{record.documentation.strip()}" if record.documentation else ""


def _curated_fields(embed: discord.Embed, record: Record) -> None:
    add_field(embed, "How to fix", numbered(record.solutions, FIELD_VALUE))
    if record.example_fix:
        add_field(embed, "Example fix", code_block(record.example_fix, FIELD_VALUE))
    add_field(embed, "When it happens", _when(record))


def _mined_description(record: Record) -> str:
    parts = []
    if record.trigger_scenarios:
        parts.append("**Raised when**\n" + code_block(record.trigger_scenarios, 700))
    if record.documentation:
        parts.append("**Comment beside the raise**\n" + _quote(clip(record.documentation, 900)))
    return "\n".join(parts)


def _mined_fields(embed: discord.Embed, record: Record) -> None:
    excerpt = source_excerpt(record)
    if excerpt:
        add_field(embed, "Source", code_block(excerpt, FIELD_VALUE))
    add_field(embed, "When it happens", record.common_situations)


def _common_fields(embed: discord.Embed, record: Record, match: Match | None) -> None:
    where = location(record.file_path, record.line_number)
    if where:
        scope = ".".join(p for p in (record.enclosing_class, record.enclosing_function) if p)
        add_field(embed, "Raised at", inline_code(where, 900) + (f" in {inline_code(scope, 120)}" if scope else ""))
    versions = list(match.versions) if match is not None and match.versions else []
    if not versions and record.library_version:
        versions = [record.library_version]
    if versions:
        add_field(embed, "Versions that raise it", clip(", ".join(versions), FIELD_VALUE))


def _when(record: Record) -> str | None:
    parts = []
    if record.trigger_scenarios:
        parts.append(f"**Trigger:** {record.trigger_scenarios.strip()}")
    if record.common_situations:
        parts.append(f"**Common situations:** {record.common_situations.strip()}")
    return clip("\n".join(parts), FIELD_VALUE) if parts else None


def _quote(text: str) -> str:
    return "\n".join(f"> {line}" for line in text.splitlines() if line.strip())


def source_excerpt(record: Record) -> str | None:
    """Return the source lines around the raising line, numbered, with the raising line marked."""
    if not record.source_code:
        return None
    lines = record.source_code.rstrip("\n").split("\n")
    start = record.source_code_start or 1
    target = record.line_number if record.line_number is not None else start
    before, after = SOURCE_CONTEXT
    first = max(target - before, start)
    last = min(target + after, start + len(lines) - 1)
    if first > last:  # the line number lies outside the stored source: show its beginning
        first, last = start, min(start + before + after, start + len(lines) - 1)
    width = len(str(last))
    shown = [
        f"{'>' if number == target else ' '}{number:>{width}}  {lines[number - start][:200]}"
        for number in range(first, last + 1)
    ]
    return "\n".join(shown)
