"""A typed face for google-re2, the linear-time engine every rule on user text runs on.

``re2`` ships without type hints; these protocols say what tracebot uses of it, so callers stay
strictly typed without each carrying its own copy.
"""

from __future__ import annotations

from collections.abc import Iterator
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
