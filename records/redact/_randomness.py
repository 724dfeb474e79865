"""Whether a value looks random: placeholder words and runs, templates, and its Shannon entropy.

A value is a placeholder when it holds a filler word or a run of six equal characters, looks like a template,
or is too regular (16 characters or more under 3 bits of entropy). The entropy is told by bounds from the
value's distinct characters for most values, and summed only when they cannot tell.
"""

from __future__ import annotations

import collections
import math
from collections.abc import Callable, Iterable
from functools import cache
from typing import TYPE_CHECKING

from records._re2 import compile_spans

if TYPE_CHECKING:
    from records.redact._allowlists import Screen


_PLACEHOLDER_WORDS = ("xxxx", "your_", "your-", "here", "redacted", "example", "placeholder", "changeme")
_TEMPLATES = (("${", "}"), ("{{", "}}"), ("<", ">"), ("%(", ")s"), ("$(", ")"))
_TEMPLATE_STARTS = tuple(start for start, _ in _TEMPLATES)


def _literal(text: str) -> str:
    return "".join(f"\\x{{{ord(c):x}}}" for c in text)


# A placeholder word or a run of six equal characters, in one RE2 pass over an ASCII value (most are): RE2
# has no back-references, so the run is spelled out for each of the 128 ASCII characters.
FILLER = "|".join([*(_literal(word) for word in _PLACEHOLDER_WORDS), *(f"{_literal(chr(c))}{{6}}" for c in range(128))])
_FILLER = compile_spans(FILLER)


def _filler(lowered: str) -> bool:
    """Return True when the lower-cased value holds a placeholder word or six equal characters in a row."""
    if lowered.isascii():
        return _FILLER.occurs(lowered)
    return any(word in lowered for word in _PLACEHOLDER_WORDS) or any(c * 6 in lowered for c in set(lowered))


def placeholder(value: str, screen: Screen | None = None) -> bool:
    """Tell a placeholder or a repeated filler ('xxxx', 'YOUR_TOKEN_HERE', '1111...') from a random secret.

    screen: that of a text value is part of, which can tell that no filler occurs in it.
    """
    if (screen is None or screen.filler_may_occur()) and _filler(value.lower()):
        return True
    if value.startswith(_TEMPLATE_STARTS) and any(value.startswith(a) and value.endswith(b) for a, b in _TEMPLATES):
        return True
    return too_regular(value)


def too_regular(value: str) -> bool:
    """Tell a value of 16 characters or more whose entropy is under 3 bits: a pattern, not a random secret."""
    size = len(value)
    if size < 16:
        return False
    # entropy_under(value, 3.0), its first two bounds spelled out: asked of each of hundreds of labelled
    # values of a paste, and most random values are told by the second.
    distinct = len(set(value))
    if distinct < 8:
        return True
    fewest = _FEWEST_OVER_THREE_BITS.get(size)
    if fewest is None:
        fewest = _FEWEST_OVER_THREE_BITS[size] = _fewest_distinct_over(size, 3.0)
    return distinct < fewest and entropy_under(value, 3.0)


_FEWEST_OVER_THREE_BITS: dict[int, int] = {}  # _fewest_distinct_over(size, 3.0) by size, as values ask


def entropy_under(value: str, limit: float) -> bool:
    """Return True when shannon(value) < limit: told by bounds for most values, else by the sum.

    The entropy is at most log2 of the number of distinct characters, and at least that of the most
    uneven value of the same length and distinct characters (see _fewest_distinct_over); both come from
    the set of its characters, built in C. Then it is at least the min-entropy, -log2 of the largest
    share one character has, from the counts (in C too); the sum takes a Python-level step per
    distinct character.
    """
    distinct = len(set(value))
    if distinct < 2**limit:
        return True
    if distinct >= _fewest_distinct_over(len(value), limit):
        return False
    counted = _counts(value)
    if max(counted.values()) * 2**limit <= len(value):
        return False
    return _entropy(value, counted) < limit


# How far over the limit a bound must be for the sum, computed in floats, to be over it too (its rounding
# error is some 1e-15 bits).
_ENTROPY_MARGIN = 1e-9


@cache
def _fewest_distinct_over(size: int, limit: float) -> int:
    """Return the fewest distinct characters that put every value of this length over limit bits.

    Of the values of one length and number of distinct characters, the one whose entropy is least has one
    character repeated and every other once (entropy is Schur-concave: the most uneven counts give the
    least), and it grows with the number of distinct characters.
    """
    for distinct in range(1, size + 1):
        counts = (size - distinct + 1, *([1] * (distinct - 1)))
        if -sum(n / size * math.log2(n / size) for n in counts) > limit + _ENTROPY_MARGIN:
            return distinct
    return size + 1


def shannon(value: str) -> float:
    """Return the Shannon entropy of value in bits per character."""
    return _entropy(value, _counts(value))


# Counter's own counting loop, in C: Counter() around it costs a third of the entropy of a short value (its
# __init__ and update are Python), and a count per distinct character (str.count) a scan of the value each.
_count_into: Callable[[dict[str, int], Iterable[str]], None] = vars(collections)["_count_elements"]


def _counts(value: str) -> dict[str, int]:
    """Return each character's count, in the order of first occurrence (Counter's)."""
    counted: dict[str, int] = {}
    _count_into(counted, value)
    return counted


def _entropy(value: str, counted: dict[str, int]) -> float:
    size = len(value)
    # The terms are summed in the order of first occurrence, as Counter gives them: the same float, to
    # the last bit, against the same thresholds.
    if size > _TERMS_UP_TO:
        return -sum(n / size * math.log2(n / size) for n in counted.values())
    return -sum(map(_terms(size).__getitem__, counted.values()))


_TERMS_UP_TO = 512  # longer values (rare) compute their terms afresh


@cache
def _terms(size: int) -> tuple[float, ...]:
    """Return, for each count n up to size, the entropy term n/size * log2(n/size) of a character."""
    return (0.0, *(n / size * math.log2(n / size) for n in range(1, size + 1)))
