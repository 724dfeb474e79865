"""A typed face for google-re2, the linear-time engine every rule on user text runs on.

``re2`` ships without type hints; these protocols say what tracebot uses of it, so callers stay
strictly typed without each carrying its own copy.
"""

from __future__ import annotations

import bisect
import itertools
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Protocol, cast

import re2

_UNANCHORED = re2._re2.RE2.Anchor.UNANCHORED
# google-re2's own converters between UTF-8 byte counts and character counts, as its str path uses them.
_CHARACTERS = re2._re2.BytesToCharLen
_BYTES = re2._re2.CharLenToBytes


class Match(Protocol):
    """What tracebot reads of an RE2 match."""

    @property
    def lastgroup(self) -> str | None: ...
    def group(self, group: int = 0) -> str: ...
    def start(self, group: int = 0) -> int: ...
    def end(self, group: int = 0) -> int: ...
    def span(self, group: int = 0) -> tuple[int, int]: ...


class Pattern(Protocol):
    """What tracebot uses of a compiled RE2 pattern."""

    @property
    def groups(self) -> int: ...
    def finditer(self, text: str) -> Iterator[Match]: ...


# The spans of one match: the whole match first, then each group ((-1, -1) for a group that took no part).
Spans = list[tuple[int, int]]


class SpanPattern(Pattern, Protocol):
    """A pattern read only through offsets, which can also hand every match's spans back at once."""

    def spans(self, text: str) -> Iterator[Spans]: ...
    def occurs(self, text: str) -> bool: ...


def compile_pattern(pattern: str) -> Pattern:
    """Compile a project-written pattern on RE2 (linear time in the input)."""
    return cast(Pattern, re2.compile(pattern))


_SURROGATES = dict.fromkeys(range(0xD800, 0xE000), "\ufffd")


def encodable(text: str) -> str:
    """Return text RE2 can take (UTF-8), same length so offsets still hold: lone surrogates become U+FFFD."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.translate(_SURROGATES)
    return text


def literal_finder(literals: Iterable[str]) -> Callable[[str], frozenset[str]]:
    """Return a function that tells which of the literals occur in a text, in one linear pass (RE2 Set)."""
    ordered = sorted(set(literals))
    searcher = re2.Set.SearchSet()
    for literal in ordered:
        searcher.Add(re2.escape(literal))
    searcher.Compile()

    def find(text: str) -> frozenset[str]:
        hits = searcher.Match(text)
        return frozenset(ordered[i] for i in hits) if hits else frozenset()

    return find


class _Dual:
    """A pattern compiled twice, so ASCII text (most pastes) is matched as bytes.

    The wrapper's str path maps every match's byte offsets back to characters; on ASCII text they are
    the same, and the bytes path skips that work, several times faster on texts with many matches.
    """

    __slots__ = ("_bytes", "_search", "_str", "groups")

    def __init__(self, pattern: str) -> None:
        self._str = re2.compile(pattern)
        self._bytes = re2.compile(pattern.encode("utf-8"))
        self.groups: int = self._str.groups
        # The compiled program's own search, which returns a match's spans without building a match
        # object: the wrapper's Python work per match costs several times RE2's own on a paste with
        # hundreds of matches. google-re2 keeps it in a private attribute; test_re2 checks that spans()
        # agrees with finditer(), so a release that moves it fails there.
        self._search: Callable[[object, bytes, int, int], Spans] = self._bytes._regexp.Match

    def finditer(self, text: str) -> Iterator[Match]:
        if text.isascii():
            return cast(Iterator[Match], self._bytes.finditer(text.encode("ascii")))
        return cast(Iterator[Match], self._str.finditer(text))

    def occurs(self, text: str) -> bool:
        """Return True when the pattern matches somewhere in text."""
        if not text.isascii():
            return self._str.search(text) is not None
        data = text.encode("ascii")
        return self._search(_UNANCHORED, data, 0, len(data))[0][0] >= 0

    def spans(self, text: str) -> Iterator[Spans]:
        """Yield the spans of every match, in the order finditer() yields its matches."""
        if not text.isascii():
            yield from self._utf8_spans(text)
            return
        data = text.encode("ascii")
        search = self._search
        position, end = 0, len(data)
        # The same walk as the wrapper's finditer: resume at the match's end, one past an empty match.
        while True:
            spans = search(_UNANCHORED, data, position, end)
            if spans[0][0] < 0:
                return
            yield spans
            if position == end:
                return
            position = spans[0][1] if spans[0][1] != position else position + 1

    def _utf8_spans(self, text: str) -> Iterator[Spans]:
        """Yield the spans of every match in non-ASCII text, in characters (RE2 runs on its UTF-8 bytes).

        The wrapper's str path does the same with a match object and a dict of offsets per match; here each
        offset is counted from the match's start, and the match's start from the previous one's.
        """
        data = text.encode("utf-8")
        search = self._search
        position, end = 0, len(data)
        byte_at = char_at = 0  # a byte offset and its character offset, at or before the next match
        while True:
            spans = search(_UNANCHORED, data, position, end)
            start = spans[0][0]
            if start < 0:
                return
            char_at += _CHARACTERS(data, byte_at, start)
            byte_at = start
            yield [_characters(data, start, char_at, span) for span in spans]
            if position == end:
                return
            position = spans[0][1] if spans[0][1] != position else position + _BYTES(data, position, 1)


def _characters(data: bytes, start: int, char_start: int, span: tuple[int, int]) -> tuple[int, int]:
    """Return a span of a match in UTF-8 bytes as characters, given the match's start in both."""
    a, b = span
    if a < 0:
        return span
    a_char = char_start if a == start else char_start + _CHARACTERS(data, start, a)
    return a_char, a_char if b == a else a_char + _CHARACTERS(data, a, b)


def compile_spans(pattern: str) -> SpanPattern:
    """Compile a pattern whose matches are read only through their offsets (``span``, ``start``, ``end``).

    On ASCII text ``group()`` returns bytes: slice the text with the offsets instead.
    """
    return _Dual(pattern)


class LinePattern:
    r"""A pattern read over values one a line, for flag_lines: at most one match starts in each line.

    The pattern is compiled as '(?m)^[^\n]*?(?:pattern)': a match starts at a line's start and reaches the
    pattern's first match in it, so a line holding many matches costs one call into RE2, not one each.
    """

    __slots__ = ("_pattern",)

    def __init__(self, pattern: str) -> None:
        self._pattern = compile_spans(f"(?m)^[^\\n]*?(?:{pattern})")

    def spans(self, text: str) -> Iterator[Spans]:
        """Yield the spans of every match in text (at most one starts in each line)."""
        return self._pattern.spans(text)


def asked_where_flagged(ask: Callable[[str], bool], values: Sequence[str], flagged: bytearray) -> list[bool]:
    """Return ask(value) for each flagged value and False for the others, which are never asked.

    A loop in C passes over the values flag_lines left unflagged (most of them, as a pass goes).
    """
    answers = [False] * len(values)
    for index in itertools.compress(range(len(values)), flagged):
        answers[index] = ask(values[index])
    return answers


def flag_lines(pattern: LinePattern, values: Sequence[str], most: int | None = None) -> bytearray | None:
    """Return, for each value, 1 when the pattern matches in the value's line of the values joined one a line.

    One pass for all the values, a call into RE2 for each line the pattern matches in at most. Wherever the
    pattern matches inside a line, the line pattern matches from the line's start, and the pass reports a
    match that covers or starts at that place (RE2 reports the leftmost match from where it stands, so a
    match it reports either ends before that place or reaches it): each reported match flags the values
    whose lines it touches. So a value is flagged when a match of the pattern lies inside its line, and
    maybe when one runs across lines into it. most: give up (None) once more lines than that are flagged,
    when asking each value alone costs the caller less than the rest of the pass.
    """
    flagged = bytearray(len(values))
    if not values:
        return flagged
    starts: list[int] = []  # where each line starts, made when a match is first reported (most passes report none)
    for reported, spans in enumerate(pattern.spans("\n".join(values)), 1):
        if most is not None and reported > most:
            return None
        starts = starts or list(itertools.accumulate(map((1).__add__, map(len, values)), initial=0))
        start, end = spans[0]
        first = bisect.bisect_right(starts, start) - 1
        last = bisect.bisect_right(starts, max(start, end - 1)) - 1
        flagged[first : last + 1] = b"\x01" * (last + 1 - first)
    return flagged
