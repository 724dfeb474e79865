"""The answer embed: what a record says about an error, within Discord's limits whatever it holds.

The sections come from ``bot.render.reply`` in the reader's order: what it means (the description),
then fields for the fixes, an example fix, when it happens, where it is raised (with the message
template when the title shows the paste's values), the source lines around the raise and the
versions that raise it. The footer names the record, the match confidence and where the text came
from (curated, mined, generated from the source).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import discord

from bot.embeds.text import (
    FIELD_VALUE,
    FOOTER,
    TITLE,
    add_field,
    clip,
    code_block,
    fit,
    inline_code,
    numbered,
    safe_markdown,
)
from bot.render.reply import ReplyParts, location, not_raised_later_note, reply_parts, source_excerpt
from records.matching import Match
from records.model import Record
from records.titles import title

CURATED_COLOUR = 0x2ECC71
MINED_COLOUR = 0x5865F2
DESCRIPTION_BUDGET = 1800  # keep room in the 6,000 total for the fields
CONDITION_CHARS = 600
COMMENT_CHARS = 600

__all__ = [
    "answer_embed",
    "footer",
    "headline",
    "location",
    "record_from_match",
    "source_excerpt",
]


def headline(error_class: str | None, message: str, limit: int = TITLE, pasted: str | None = None) -> str:
    """Return ``Class: message`` on one line (placeholders as ``…``, or filled from ``pasted``), clipped."""
    return title(error_class, message, None, pasted, limit)


def record_from_match(match: Match) -> Record:
    """Return a minimal record from a match, for when the full record cannot be read."""
    return Record(
        id=match.id,
        error_message=match.error_message,
        error_class=match.error_class,
        file_path=match.file_path,
        line_number=match.line_number,
    )


def answer_embed(
    record: Record,
    match: Match | None = None,
    *,
    note: str | None = None,
    pasted: str | None = None,
    shipped: Sequence[str] = (),
) -> discord.Embed:
    """Build the embed that explains ``record`` (with the match's confidence when it answers a paste).

    ``pasted`` is the paste's message (the title shows its values); ``shipped`` the versions of the
    record's library that tracebot holds, to say when none of them raises a curated record's message.
    """
    parts = shown_safely(reply_parts(record, match, pasted=pasted, shipped=shipped))
    embed = discord.Embed(
        title=clip(parts.title, TITLE),
        description=_meaning(parts) or None,
        colour=MINED_COLOUR if parts.mined else CURATED_COLOUR,
    )
    add_field(embed, "How to fix", numbered(list(parts.solutions), FIELD_VALUE))
    if parts.example_fix:
        add_field(embed, "Example fix", code_block(parts.example_fix, FIELD_VALUE))
    add_field(embed, "When it happens", _when(parts))
    add_field(embed, "Raised at", _raised_at(parts))
    if parts.source:
        add_field(embed, "Source", code_block(parts.source, FIELD_VALUE))
    _versions_field(embed, parts)
    embed.set_footer(text=clip(footer_text(parts, note), FOOTER))
    return fit(embed)


def shown_safely(parts: ReplyParts) -> ReplyParts:
    """Return the parts with the record's prose made inert for Discord (shown, not interpreted)."""
    return replace(
        parts,
        meaning=_inert(parts.meaning),
        trigger=_inert(parts.trigger),
        situations=_inert(parts.situations),
        comment=_inert(parts.comment),
        solutions=tuple(safe_markdown(solution) for solution in parts.solutions),
    )


def _inert(text: str | None) -> str | None:
    return safe_markdown(text) if text else text


def footer(record: Record, match: Match | None, note: str | None = None) -> str:
    """Return the footer: record id, match confidence, and where the text came from."""
    return footer_text(reply_parts(record, match), note)


def footer_text(parts: ReplyParts, note: str | None = None) -> str:
    """Return the footer of laid-out parts: id, confidence, origin, the generated note, ``note``."""
    pieces = [f"record {parts.record_id}"]
    if parts.score is not None:
        pieces.append(f"match confidence {parts.score:.0f}%")
    pieces.append(parts.origin)
    generated = parts.generated_note()
    if generated:
        pieces.append(generated)
    if note:
        pieces.append(note)
    return " · ".join(pieces)


def _meaning(parts: ReplyParts) -> str:
    return clip(f"**What it means**\n{parts.meaning}", DESCRIPTION_BUDGET) if parts.meaning else ""


def _when(parts: ReplyParts) -> str | None:
    lines = []
    if parts.condition:
        lines.append(f"Raised when {inline_code(parts.condition, CONDITION_CHARS)}")
    if parts.comment:
        lines.append(_quote(clip(parts.comment, COMMENT_CHARS)))
    if parts.trigger:
        lines.append(f"**Trigger:** {parts.trigger}")
    if parts.situations:
        lines.append(f"**Common situations:** {parts.situations}")
    return clip("\n".join(lines), FIELD_VALUE) if lines else None


def _raised_at(parts: ReplyParts) -> str | None:
    if not parts.location:
        return None
    text = inline_code(parts.location, 700) + (f" in {inline_code(parts.scope, 120)}" if parts.scope else "")
    if parts.template:
        text += "\nMessage: " + inline_code(parts.template, FIELD_VALUE - len(text) - 10)
    return text


def _versions_field(embed: discord.Embed, parts: ReplyParts) -> None:
    if parts.versions:
        notes = [parts.versions_text]
        if parts.traceback_matches:
            notes.append(f"Your traceback matches {parts.traceback_matches} (its raising line).")
        if parts.not_raised_later:
            notes.append(not_raised_later_note(parts.not_raised_later, parts.library))
        add_field(embed, "Versions that raise it", clip("\n".join(notes), FIELD_VALUE))
    elif parts.not_raised:
        written = f"; this record was written for {inline_code(parts.written_for, 60)}" if parts.written_for else ""
        add_field(embed, "Versions", clip(f"Not raised by {parts.not_raised_text}{written}.", FIELD_VALUE))


def _quote(text: str) -> str:
    return "\n".join(f"> {line}" for line in text.splitlines() if line.strip())
