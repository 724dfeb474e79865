"""Guess error messages that carry no class and no structure, for fuzzy matching only.

Candidates are made only when nothing structured was found, from the places a person puts a bare
error message: a short code block with no code in it, the text after 'error:' in a sentence, an
inline code span holding a phrase, or a whole paste of a line or three that reads as a message (no
question, no first person). They never make ``is_error`` true; the matcher decides what they are.
"""

from __future__ import annotations

import re

from records.extraction.clean import clean_paste
from records.extraction.common import join_message
from records.extraction.lines import looks_like_code, split_exception_line
from records.extraction.model import KIND_CANDIDATE, ExtractedError

_ERROR_PHRASE_RE = re.compile(r"[Ee](?:rror|RROR|xception)(?: message)?:")
_SPAN_RE = re.compile(r"`[^`\n]{12,500}`")
_FENCE = "```"
_MAX_FENCES = 20
_MAX_BLOCK_LINES = 5
_MAX_HITS = 5  # phrase and span matches examined: candidates are a fallback, not a search
_MIN_WORDS = 3
_MAX_SHORT_CHARS = 400
_MAX_SHORT_LINES = 3
# Error messages speak about the program; a line with these words is a person speaking.
_FIRST_PERSON = frozenset({"i", "im", "ive", "me", "my", "we", "our", "us", "mine", "lol", "thanks", "pls"})


def find_candidates(raw: str, cleaned: str) -> list[ExtractedError]:
    """Return message-like candidates from code blocks, 'error:' phrases and inline code spans."""
    messages = [*_from_fences(raw), *_from_phrases(cleaned), *_from_spans(cleaned), *_from_short(cleaned)]
    seen: set[str] = set()
    found: list[ExtractedError] = []
    for message in messages:
        if message and message not in seen:
            seen.add(message)
            found.append(ExtractedError(None, message, (), KIND_CANDIDATE))
    return found


def _from_fences(raw: str) -> list[str]:
    """Return the text of short code blocks that hold prose or output rather than code."""
    parts = raw.split(_FENCE, 2 * _MAX_FENCES + 1)
    found: list[str] = []
    for k in range(1, len(parts) - 1, 2):  # closed blocks only
        tag, newline, body = parts[k].partition("\n")
        block = [line.strip() for line in clean_paste(body if newline else tag).split("\n")]
        block = [line for line in block if line]
        if 0 < len(block) <= _MAX_BLOCK_LINES and not any(map(_not_message, block)):
            found.append(join_message(block))
    return found


def _from_phrases(text: str) -> list[str]:
    """Return what follows 'error:' in a sentence, or the next line when the phrase ends one."""
    found: list[str] = []
    for match, _ in zip(_ERROR_PHRASE_RE.finditer(text), range(_MAX_HITS), strict=False):
        if text[match.start() - 1 : match.start()].isalnum():
            continue  # 'ValueError:' is a class, read elsewhere; only the word 'error' counts here
        line_end = text.find("\n", match.end())
        line_end = len(text) if line_end < 0 else line_end
        rest = text[match.end() : line_end].strip().strip("`").strip()
        if not rest:
            rest = text[line_end + 1 :].lstrip().partition("\n")[0].strip()
        if rest and not _not_message(rest):
            found.append(join_message([rest]))
    return found


def _from_spans(text: str) -> list[str]:
    """Return inline code spans that hold a phrase of a few words."""
    found: list[str] = []
    for match, _ in zip(_SPAN_RE.finditer(text), range(_MAX_HITS), strict=False):
        inner = match.group(0)[1:-1].strip()
        if len(inner.split()) >= _MIN_WORDS and not _not_message(inner):
            found.append(join_message([inner]))
    return found


def _from_short(text: str) -> list[str]:
    """Return a whole paste of one to three lines that reads as a message rather than a person."""
    if len(text) > _MAX_SHORT_CHARS:
        return []
    block = [line.strip() for line in text.split("\n") if line.strip()]
    if not 0 < len(block) <= _MAX_SHORT_LINES or any(map(_not_message, block)):
        return []
    words = " ".join(block).lower().replace("'", " ").split()
    if len(words) < _MIN_WORDS or block[-1].endswith("?") or _FIRST_PERSON.intersection(words):
        return []
    return [join_message(block)]


def _not_message(text: str) -> bool:
    """Tell whether a line is code, data, a URL or a structured error rather than a bare message."""
    return (
        looks_like_code(text)
        or text.startswith(("http://", "https://", "www.", "{", "[", "<"))
        or split_exception_line(text, strict=True) is not None
    )
