"""Render records and answers as plain text for the terminal (``records show``, ``ask``).

The sections and their order are the embed's (``bot.render.reply``): each heading on its own line,
its text indented under it, one empty line between sections and none inside them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from bot.render.reply import ReplyParts, location, not_raised_later_note, reply_parts
from records.matching import Match
from records.model import Record
from records.titles import title

if TYPE_CHECKING:
    from bot.engine import Answer

INDENT = "  "
LIST_MESSAGE_CHARS = 100
UNMATCHED = "That looks like an error, but no record explains it yet."
NOT_AN_ERROR = "That does not look like an error."


def record_text(
    record: Record, match: Match | None = None, *, pasted: str | None = None, shipped: Sequence[str] = ()
) -> str:
    """Return a record as a person reads it: title, meaning, fixes, when, then where it is raised."""
    return parts_text(reply_parts(record, match, pasted=pasted, shipped=shipped), repo=record.repo)


def parts_text(parts: ReplyParts, *, repo: str | None = None) -> str:
    """Return laid-out parts as text: one section per heading, evidence last, the record id at the end."""
    sections = [parts.title]
    _section(sections, "What it means", parts.meaning)
    _section(sections, "Solutions", "\n".join(f"{i}. {s}" for i, s in enumerate(parts.solutions, 1)))
    _section(sections, "Example fix", parts.example_fix)
    _section(sections, "When it happens", _when(parts))
    _section(sections, "Raised at", _raised_at(parts))
    _section(sections, "Source", parts.source)
    sections.append("\n".join(_evidence(parts, repo)))
    return "\n\n".join(s for s in sections if s)


def _section(sections: list[str], heading: str, body: str | None) -> None:
    if body and body.strip():
        lines = [line.rstrip() for line in body.strip("\n").split("\n")]
        sections.append(heading + "\n" + "\n".join(f"{INDENT}{line}" if line else "" for line in lines))


def _when(parts: ReplyParts) -> str | None:
    lines = []
    if parts.condition:
        lines.append(f"Raised when: {parts.condition}")
    if parts.comment:
        lines.append(f"Comment beside the raise: {' '.join(parts.comment.split())}")
    if parts.trigger:
        lines.append(f"Trigger: {parts.trigger}")
    if parts.situations:
        lines.append(f"Common situations: {parts.situations}")
    return "\n".join(lines) or None


def _raised_at(parts: ReplyParts) -> str | None:
    if not parts.location:
        return None
    lines = [parts.location + (f" in {parts.scope}" if parts.scope else "")]
    if parts.url:
        lines.append(parts.url)
    if parts.template:
        lines.append(f"Message: {parts.template}")
    return "\n".join(lines)


def _evidence(parts: ReplyParts, repo: str | None) -> list[str]:
    lines = []
    if parts.versions:
        lines.append(f"Versions that raise it: {parts.versions_text}")
        if parts.traceback_matches:
            lines.append(f"Your traceback matches {parts.traceback_matches} (its raising line).")
        if parts.not_raised_later:
            lines.append(not_raised_later_note(parts.not_raised_later, parts.library))
    elif parts.not_raised:
        written = f" (this record was written for {parts.written_for})" if parts.written_for else ""
        lines.append(f"Not raised by {parts.not_raised_text}{written}.")
    if parts.score is not None:
        why = f": {'; '.join(parts.why)}" if parts.why else ""
        lines.append(f"Matched with score {parts.score:.0f}/100{why}.")
    origin = ", ".join(p for p in (parts.origin, repo) if p)
    generated = parts.generated_note()
    lines.append(f"record {parts.record_id} ({origin})" + (f" · {generated}" if generated else ""))
    return lines


def candidates_text(matches: Sequence[Match], *, pasted: str | None = None) -> str:
    """Return the numbered candidates of an ambiguous answer: one line each, class, message and file."""
    lines = ["Several records could explain this error; the closest are:"]
    for number, match in enumerate(matches, start=1):
        message = title(match.error_class, match.error_message, None, pasted, LIST_MESSAGE_CHARS)
        where = location(match.file_path, match.line_number) or "unknown file"
        lines.append(f"{INDENT}{number}. {message}  {where}  ({match.score:.0f}%, id {match.id})")
    return "\n".join(lines)


def answer_text(answer: Answer) -> str:
    """Return the answer to a paste as a person reads it in a terminal."""
    result = answer.result
    if result.status == "not_an_error":
        return NOT_AN_ERROR
    if result.status == "unmatched":
        return UNMATCHED
    error = result.error or result.extraction.primary
    pasted = error.message if error is not None else None
    if result.status == "ambiguous":
        return candidates_text(result.matches, pasted=pasted)
    best = result.matches[0]
    record = answer.record(best.id) or Record(
        id=best.id, error_message=best.error_message, error_class=best.error_class,
        file_path=best.file_path, line_number=best.line_number,
    )  # fmt: skip
    shipped = answer.shipped.get(record.repo, ()) if record.repo else ()
    return record_text(record, best, pasted=pasted, shipped=shipped)
