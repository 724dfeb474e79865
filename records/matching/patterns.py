"""Stored ``messagePattern`` regexes, run only on a linear-time engine (RE2).

Patterns are data from record files. Python's ``re`` backtracks and can take minutes on a crafted
``(.+?) (.+?) (.+?) failed`` against 1 KB of text; RE2 guarantees time linear in the input. A pattern
RE2 cannot compile (back-references, look-around) is reported at import, and the record still
matches by its template text through the literal-segment matcher.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import re2

# RE2 programs are bounded in memory; a pattern needing more is refused rather than slowing us down.
_MAX_PROGRAM_BYTES = 1 << 20
MAX_PATTERN_CHARS = 4000


def _options() -> Any:
    options = re2.Options()
    options.max_mem = _MAX_PROGRAM_BYTES
    options.log_errors = False  # our caller reports the problem; RE2 must not print to stderr
    options.dot_nl = True  # placeholder values often span lines (shapes, reprs)
    return options


@dataclass(frozen=True, slots=True)
class PatternCheck:
    """Whether a pattern can run on RE2, and why not."""

    usable: bool
    problem: str | None = None


def check_pattern(pattern: str) -> PatternCheck:
    """Return whether ``pattern`` compiles on the linear-time engine."""
    if len(pattern) > MAX_PATTERN_CHARS:
        return PatternCheck(False, f"longer than {MAX_PATTERN_CHARS} characters")
    if is_literal_with_holes(pattern):
        return PatternCheck(True)  # the shape miners and exporters write: RE2 always takes it
    try:
        re2.compile(pattern, _options())
    except re2.error as exc:
        return PatternCheck(False, f"not supported by the linear-time engine ({_reason(exc)})")
    return PatternCheck(True)


_HOLES = ("(.+?)", "(.*?)", "(.+)", "(.*)")
_FLAGS = "(?s)"
_META = frozenset("()[]{}*+?|^$.\\")
_SPACES = (r"\s+", r"\s*")


def is_literal_with_holes(pattern: str) -> bool:
    """Whether a pattern is escaped literal text with ``(.+?)``-style holes (one linear scan).

    Importing 100,000 records would spend seconds compiling patterns of this shape only to learn
    what the shape already says; anything else is compiled to find out.
    """
    i, n = (len(_FLAGS), len(pattern)) if pattern.startswith(_FLAGS) else (0, len(pattern))
    while i < n:
        char = pattern[i]
        if char == "\\":
            if i + 1 >= n or pattern[i + 1].isalnum():  # \1 (a back-reference), \d, \b...: not plain
                return False
            i += 2
        elif char == "(":
            hole = next((h for h in _HOLES if pattern.startswith(h, i)), None)
            if hole is None:
                return False
            i += len(hole)
        elif char in _META:
            return False
        else:
            i += 1
    return True


@lru_cache(maxsize=65_536)
def compiled(pattern: str) -> Any | None:
    """Return the compiled RE2 program for ``pattern``, or None when RE2 refuses it (cached)."""
    if len(pattern) > MAX_PATTERN_CHARS:
        return None
    try:
        return re2.compile(pattern, _options())
    except re2.error:
        return None


def pattern_evidence(pattern: str | None, message: str) -> float:
    """Return 1.0 when the pattern matches the whole message, 0.8 when it matches inside it, else 0."""
    if not pattern:
        return 0.0
    # Pastes are often re-wrapped (a terminal, a chat window): try the message with its white space
    # collapsed too, since a template's single space may arrive as a line break.
    candidates = (message.strip(), " ".join(message.split()))
    runs = required_runs(pattern)
    if runs is not None and not any(all(run in text for run in runs) for text in candidates):
        # Text every match must hold is missing: no match, and no RE2 program to build. A paste's few
        # dozen candidate templates are new to the cache at 100k records, and compiling was its cost.
        return 0.0
    program = compiled(pattern)
    if program is None:
        return 0.0
    if any(program.fullmatch(text) is not None for text in candidates):
        return 1.0
    return 0.8 if any(program.search(text) is not None for text in candidates) else 0.0


def required_runs(pattern: str) -> tuple[str, ...] | None:
    r"""Return the literal runs every match of ``pattern`` contains, or None when its shape is not simple.

    Simple is what miners, exporters and ``derived_pattern`` write: escaped literal text, ``(.+?)``-style
    holes, ``\s+``/``\s*`` between words, an optional ``(?s)``, ``^`` and ``$``. A run is
    literal text between two of those, so a text lacking one cannot match (one linear scan; cached).
    """
    return _required_runs(pattern) if len(pattern) <= MAX_PATTERN_CHARS else None


# After escaped backslashes are set aside: an escape of a letter or digit (\d, \1, \x00), a trailing
# backslash, or an unescaped operator means the pattern is not plain text with holes.
_NOT_SIMPLE = re.compile(r"\\(?:[A-Za-z0-9]|\Z)|(?<!\\)[()\[\]{}*+?|^$.]")
_BACKSLASH, _BREAK = "\x01", "\x00"


@lru_cache(maxsize=65_536)
def _required_runs(pattern: str) -> tuple[str, ...] | None:
    # Plain str operations and one C-level regex search: at 100k records every paste's candidates are
    # new to the cache, so this runs a few dozen times a paste and must cost less than compiling.
    if _BACKSLASH in pattern or _BREAK in pattern:
        return None
    body = pattern.removeprefix(_FLAGS).removeprefix("^").replace("\\\\", _BACKSLASH)
    if body.endswith("$") and not body.endswith("\\$"):
        body = body[:-1]
    if "\\(." in body:
        return None  # an escaped parenthesis before what reads as a hole: read it the long way (RE2)
    for token in (*_HOLES, *_SPACES):
        body = body.replace(token, _BREAK)
    if _NOT_SIMPLE.search(body):
        return None
    # Every backslash left escapes the character after it (pairs are set aside): dropping it unescapes.
    body = body.replace("\\", "").replace(_BACKSLASH, "\\")
    return tuple(run for run in body.split(_BREAK) if run)


def _reason(exc: Exception) -> str:
    text = exc.args[0] if exc.args else exc
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    return str(text).split(":", 1)[0]


def fits_whole(segments: tuple[str, ...], message: str) -> bool:
    r"""Tell whether ``derived_pattern(segments)`` matches the whole message with its white space collapsed.

    The answer RE2 gives on ``" ".join(message.split())`` (one of the two texts ``pattern_evidence``
    tries), found with ``str.find`` and no program compiled: in that text every run of white space is
    one space, so the pattern's ``\s+`` is a space and its ``\s*`` a space or nothing, and each hole
    takes any one character or more. The first literal then opens the text and the last one closes
    it; every literal between is placed at its earliest place after the one before and a character
    for the hole, which leaves the most text to the rest. A paste's best candidate usually fits whole,
    and compiling its pattern (about 60 us a template new to the cache) was most of its text evidence.
    """
    text = " ".join(message.split())
    literals = _collapsed(segments)
    if len(literals) <= 1:
        return text == "".join(literals)
    first, *middle, last = literals
    if not text.startswith(first):
        return False
    at = len(first)  # where the literal text placed so far ends
    for literal in middle:
        found = text.find(literal, at + 1) if literal else at + 1
        if found < 0:
            return False
        at = found + len(literal)
    return text.endswith(last) and len(text) - len(last) > at


@lru_cache(maxsize=65_536)
def _collapsed(segments: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(" ".join(segment.split()) for segment in segments)


@lru_cache(maxsize=65_536)
def derived_pattern(segments: tuple[str, ...]) -> str:
    """Build a pattern from a template's literal segments: escaped literals, lazy groups for holes.

    White space inside the literals matches any white space: pastes lose tabs and re-wrap lines.
    """
    return "(.+?)".join(_tolerant_literal(segment) for segment in segments)


def _tolerant_literal(segment: str) -> str:
    words = segment.split()
    if not words:
        return r"\s*"
    body = r"\s+".join(re2.escape(word) for word in words)
    lead = r"\s*" if segment[:1].isspace() else ""
    tail = r"\s*" if segment[-1:].isspace() else ""
    return lead + body + tail
