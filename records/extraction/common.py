"""Limits and message helpers shared by the block parsers and the line scanner."""

from __future__ import annotations

from collections.abc import Sequence

from records.extraction.lines import (
    HEADER,
    is_box_line,
    is_chain_separator,
    is_e_line,
    is_log_line,
    is_rule,
    looks_like_code,
    parse_frame_line,
    split_exception_line,
    starts_prompt,
)
from records.extraction.model import ExtractedError

# Why these caps: downstream fuzzy matching costs grow with message length and error count, and real
# errors stay far below them (a CUDA out-of-memory message is ~600 characters, a long transformers
# message ~1,500; Python itself collapses deep recursion to a few frames).
MAX_MESSAGE_CHARS = 4_000
MAX_MESSAGE_LINES = 60
MAX_FRAMES = 200  # innermost kept: the raising frame matters most
MAX_LOOKAHEAD = 20  # blank lines skipped when looking for what follows a block

Located = tuple[int, ExtractedError]  # an error and the index of the line where it ended

# First words of a line that show the person is talking again after pasting the error.
_CHAT_OPENERS = frozenset({
    "any", "anyone", "anybody", "can", "could", "does", "did", "help", "how", "i", "i'm", "i've", "im",
    "plz", "pls", "thanks", "thank", "what", "why", "ideas", "idk", "lol", "my", "we",
})  # fmt: skip
# Words error messages never use: they speak about the program, a person speaks about themselves.
# ('we' is left out: libraries say it too, "we now require users to upgrade torch".)
_FIRST_PERSON = frozenset({"i", "i'm", "i've", "im", "ive", "me", "my", "mine", "thanks", "pls", "lol"})
# Lines that start output a program prints after its error, rather than more of the message.
_OTHER_OUTPUT = ("#", "http://", "https://", "[", "{", "Process finished", "Press any key", "wandb:")


def join_message(parts: Sequence[str]) -> str:
    """Join message lines with newlines, each stripped, capped at MAX_MESSAGE_CHARS."""
    return "\n".join(part.strip() for part in parts).strip()[:MAX_MESSAGE_CHARS]


def ends_message(text: str) -> bool:
    """Tell whether a stripped line starts something other than a message continuation."""
    return (
        HEADER in text
        or is_chain_separator(text)
        or is_rule(text)
        or is_box_line(text)
        or text.startswith("+-")  # an ExceptionGroup's sub-exception separator
        or is_e_line(text)
        or starts_prompt(text)
        or is_log_line(text)
        or parse_frame_line(text) is not None
    )


def collect_message(lines: Sequence[str], start: int, first: str) -> tuple[int, str]:
    """Collect an exception message as Python prints it: every line up to the next traceback element.

    Python prints a message whole, blank lines and sentence ends included (some transformers messages
    hold paragraphs). A paragraph after a blank line is taken unless it starts other output or reads
    as the person talking again, which is what usually follows a pasted traceback.
    """
    parts = [first] if first else []
    end = min(len(lines), start + MAX_MESSAGE_LINES)
    i = start
    while i < end:
        text = lines[i].strip()
        if not text:
            nxt = next_nonblank(lines, i)
            if nxt is None or nxt >= end or not continues_after_blank(lines[nxt].strip()):
                break
            parts.extend([""] * min(1, nxt - i))  # one blank line, as messages hold them
            i = nxt
            continue
        if ends_message(text):
            break
        parts.append(text)
        i += 1
    return i, join_message(parts)


def continues_after_blank(text: str) -> bool:
    """Tell whether a paragraph after a blank line still belongs to an exception message."""
    return not (
        ends_message(text)
        or split_exception_line(text, strict=True) is not None
        or reads_as_chat(text)
        or looks_like_code(text)
        or text.startswith(_OTHER_OUTPUT)
    )


def collect_loose_message(lines: Sequence[str], start: int, first: str) -> tuple[int, str]:
    """Collect continuation lines of a lone exception line, where chat may follow on the next line.

    Every line up to a blank one continues the message (Python prints messages over several lines,
    often after a sentence's end), unless it starts something else or reads as chat, so that a
    question typed after the error is left out. Indented lines always continue it.
    """
    parts = [first] if first else []
    end = min(len(lines), start + MAX_MESSAGE_LINES)
    i = start
    while i < end:
        line = lines[i]
        text = line.strip()
        if not text or ends_message(text) or split_exception_line(text, strict=True) is not None:
            break
        code = looks_like_code(text) and not _mid_sentence(parts[-1] if parts else "")
        if line[:1] not in " \t" and (reads_as_chat(text) or code):
            break
        parts.append(text)
        i += 1
    return i, join_message(parts)


def _mid_sentence(text: str) -> bool:
    """Tell whether a line stops mid-sentence, as a terminal's wrapping leaves it."""
    last = text[-1:]
    return last in {":", ","} or last.isalnum()


def reads_as_chat(text: str) -> bool:
    """Tell whether a line after an error reads as the person talking rather than more message."""
    words = text.lower().replace("’", "'").split()
    if not words:
        return False
    first_word = words[0].strip(",.!:")
    stripped = {word.strip(",.!?:;()'\"") for word in words}
    return text.endswith(("?", "!")) or first_word in _CHAT_OPENERS or not _FIRST_PERSON.isdisjoint(stripped)


def next_nonblank(lines: Sequence[str], start: int) -> int | None:
    """Return the index of the first non-blank line at or after ``start``, looking a few lines ahead."""
    end = min(len(lines), start + MAX_LOOKAHEAD)
    for i in range(start, end):
        if lines[i].strip():
            return i
    return None
