"""Events one cog raises and others listen to (``bot.dispatch("name", event)`` → ``on_name``).

They keep features apart: the answers cog does not know triage exists; triage listens for
``on_paste_unmatched`` and ``on_answer_not_helpful`` (to log) and ``on_paste_answered`` (only to warn
about a credential in the paste). Fields are plain data (Discord ids as ints).
The paste text is raw: a listener must redact it before storing or logging anything.
"""

from __future__ import annotations

from dataclasses import dataclass

from records.matching import MatchResult


@dataclass(frozen=True, slots=True)
class PasteEvent:
    """A paste the matcher judged (``paste_unmatched``), or an answer voted down (``answer_not_helpful``)."""

    guild_id: int | None
    channel_id: int
    message_id: int
    author_id: int
    jump_url: str
    text: str
    result: MatchResult
    record_id: str | None = None  # the record the answer showed (for a not-helpful vote)
