"""Order library versions ("4.57.6" < "5.0.0rc1" < "5.24.0") without extra dependencies."""

from __future__ import annotations

import re
from functools import lru_cache

_PART = re.compile(r"(\d+)|([A-Za-z]+)")
# Pre-release tags sort before the release they lead to; anything unknown sorts with them.
_PRE_RANK = {"dev": -4, "a": -3, "alpha": -3, "b": -2, "beta": -2, "rc": -1, "c": -1}


@lru_cache(maxsize=4096)  # a handful of distinct versions, sorted again for every paste's answers
def version_key(version: str | None) -> tuple[tuple[int, int], ...]:
    """Return a sort key for a version string; None (no version) sorts before every version."""
    if not version:
        return ()
    key: list[tuple[int, int]] = []
    for number, word in _PART.findall(version.lstrip("vV")):
        if number:
            key.append((0, int(number)))
        else:
            key.append((_PRE_RANK.get(word.lower(), -5), 0))
    # A bare release ("5.0.0") must sort after its pre-releases ("5.0.0rc1"): pad with a release mark.
    key.append((0, -1))
    return tuple(key)
