"""Render records as plain text for the terminal (``records show``, ``ask``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from records.model import Record

if TYPE_CHECKING:
    from bot.engine import Answer


def location(record: Record) -> str | None:
    """Return ``path:line`` of the raise site, or None."""
    if not record.file_path:
        return None
    return f"{record.file_path}:{record.line_number}" if record.line_number else record.file_path


def record_text(record: Record) -> str:
    """Return a record as a person reads it: headline, meaning, fixes, source."""
    parts = [f"{record.error_class or 'Error'}: {record.error_message}", f"id {record.id}" + _origin(record)]
    _section(parts, "What it means", record.documentation)
    if record.solutions:
        _section(parts, "Solutions", "\n".join(f"  {i}. {s}" for i, s in enumerate(record.solutions, 1)))
    _section(parts, "Example fix", record.example_fix)
    _section(parts, "When it happens", _when(record))
    where = location(record)
    if where:
        link = f"\n  {record.github_url}" if record.github_url else ""
        _section(parts, "Raised at", f"  {where}{link}")
    return "\n".join(parts)


def _origin(record: Record) -> str:
    if record.origin == "mined":
        return f" (mined from {record.repo} {record.library_version or record.analyzed_sha or ''})".rstrip()
    return f" ({record.repo})" if record.repo else ""


def _when(record: Record) -> str | None:
    lines = []
    if record.trigger_scenarios:
        lines.append(f"Trigger: {record.trigger_scenarios}")
    if record.common_situations:
        lines.append(f"Common situations: {record.common_situations}")
    return "\n".join(lines) or None


def _section(parts: list[str], title: str, body: str | None) -> None:
    if body:
        parts.append("")
        parts.append(f"{title}:")
        parts.append(body if body.startswith("  ") else _indent(body))


def _indent(text: str) -> str:
    return "\n".join(f"  {line}" if line else "" for line in text.split("\n"))


def answer_text(answer: Answer) -> str:
    """Return the answer to a paste as a person reads it in a terminal."""
    result = answer.result
    if result.status == "not_an_error":
        return "That does not look like an error."
    if result.status == "unmatched":
        return "That looks like an error, but no record explains it yet."
    best = result.matches[0]
    if result.status == "ambiguous":
        lines = ["Several records could explain this error; the closest are:"]
        lines += [
            f"  {m.id}  {m.score:5.1f}  {m.error_class or 'Error'}: {m.error_message[:80]}" for m in result.matches
        ]
        return "\n".join(lines)
    record = answer.record(best.id)
    body = record_text(record) if record else f"{best.error_class}: {best.error_message}"
    where = f"{best.file_path}:{best.line_number}" if best.file_path else "unknown"
    versions = f" (raised in versions {', '.join(best.versions)})" if best.versions else ""
    return f"{body}\n\nMatched with score {best.score:.0f}/100 at {where}{versions}: {'; '.join(best.why)}."
