"""Autocomplete choices for ``/error id:`` (pure): at most 25, the exact id first, within Discord's limits."""

from __future__ import annotations

from collections.abc import Sequence

from bot.embeds import headline
from bot.embeds.text import clip
from storage.models import RecordSummary

MAX_CHOICES = 25
CHOICE_TEXT = 100


def choice_name(summary: RecordSummary) -> str:
    """Return ``id · Class: message`` cut to Discord's 100 characters."""
    return clip(f"{summary.id} · {headline(summary.error_class, summary.error_message, CHOICE_TEXT)}", CHOICE_TEXT)


def id_choices(summaries: Sequence[RecordSummary], typed: str) -> list[tuple[str, str]]:
    """Return ``(name, value)`` pairs: an exact id first, then the rest in order, ids over 100 left out."""
    wanted = typed.strip()
    ordered = sorted(summaries, key=lambda s: s.id != wanted)  # stable: keeps the repository's order
    choices = [(choice_name(s), s.id) for s in ordered if len(s.id) <= CHOICE_TEXT]
    return choices[:MAX_CHOICES]
