"""Pure helpers that turn a message's parts into the text to match (no Discord objects here).

A paste arrives as message text (often in a code block), as a text attachment (Discord turns a long
paste into ``message.txt``), or as a link to a paste site. Code fences, quotes and the chat around a
traceback are read by ``records.extraction`` itself, so the text to match is the message as written plus
every readable attachment and paste.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Sequence

from records.extraction import Extraction

READABLE_SUFFIXES = (".txt", ".log", ".py")
MAX_ATTACHMENTS = 3


def readable_attachment(filename: str, size: int, cap: int) -> bool:
    """Return whether an attachment is a text paste worth downloading (by name and size, before download)."""
    return filename.lower().endswith(READABLE_SUFFIXES) and 0 < size <= cap


def pick_attachments(files: Sequence[tuple[str, int]], cap: int) -> list[int]:
    """Return the indexes of the attachments to read: readable ones, at most ``MAX_ATTACHMENTS``."""
    chosen = [i for i, (name, size) in enumerate(files) if readable_attachment(name, size, cap)]
    return chosen[:MAX_ATTACHMENTS]


def strip_mentions(content: str, user_id: int | None) -> str:
    """Remove mentions of ``user_id`` (the bot) from a message."""
    if user_id is None:
        return content
    return re.sub(rf"<@!?{user_id}>", "", content).strip()


def compose(content: str, extras: Sequence[str]) -> str:
    """Return the message text followed by every attachment and paste text, blank-line separated."""
    return "\n\n".join(part for part in (content, *extras) if part and part.strip())


def missing_part(extraction: Extraction) -> str | None:
    """Return what to ask for when a paste's traceback stops before its final line, else None.

    Python prints the exception (``ValueError: ...``) last; people often copy the stack and stop at
    the ``raise`` line. With no class and no message there is nothing to match, but the frames say
    it is an error: asking for the one missing line is the fastest way to an answer.
    """
    error = extraction.primary
    if error is None or not error.frames or error.error_class is not None or error.message.strip():
        return None
    return (
        "Your traceback stops before its last line, which is the one that says what went wrong. "
        "Paste that line too: it looks like `SomeError: message` and comes right after the last `File ...` lines."
    )


class SeenIds:
    """A bounded set of message ids: remembers the most recent ``limit``, forgets the oldest."""

    def __init__(self, limit: int = 10_000) -> None:
        self.limit = limit
        self._ids: OrderedDict[int, None] = OrderedDict()

    def add(self, message_id: int) -> bool:
        """Remember ``message_id``; return False when it was already there."""
        if message_id in self._ids:
            return False
        self._ids[message_id] = None
        if len(self._ids) > self.limit:
            self._ids.popitem(last=False)
        return True
