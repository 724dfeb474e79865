"""A typed face for google-re2, the linear-time engine every rule on user text runs on.

``re2`` ships without type hints; these protocols say what tracebot uses of it, so callers stay
strictly typed without each carrying its own copy.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Protocol, cast

import re2


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

    __slots__ = ("_bytes", "_str", "groups")

    def __init__(self, pattern: str) -> None:
        self._str = re2.compile(pattern)
        self._bytes = re2.compile(pattern.encode("utf-8"))
        self.groups: int = self._str.groups

    def finditer(self, text: str) -> Iterator[Match]:
        if text.isascii():
            return cast(Iterator[Match], self._bytes.finditer(text.encode("ascii")))
        return cast(Iterator[Match], self._str.finditer(text))


def compile_spans(pattern: str) -> Pattern:
    """Compile a pattern whose matches are read only through their offsets (``span``, ``start``, ``end``).

    On ASCII text ``group()`` returns bytes: slice the text with the offsets instead.
    """
    return cast(Pattern, _Dual(pattern))
