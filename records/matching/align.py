"""Align a template's literal text with a pasted message, in order, in linear time.

Pastes lose what people and chat windows drop: backticks and quotes, markdown emphasis, line breaks
where a terminal wrapped (sometimes inside a word), case. Both sides are therefore compared
*squashed*: lower-case letters and digits only. Each literal segment is then looked up with
``str.find`` from where the previous one ended, so placeholder values of any length (a list of 200
config classes, a tensor repr) between them cost one linear scan, never a quadratic comparison.

A message is often a piece of its template: cut off by the paste (a traceback cut before its end, a
chat window's limit) or quoted from its middle. What is missing then sits only at the ends, and the
segment at the cut is matched in part; text missing between found segments is a contradiction.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

_NOT_ALNUM = re.compile(r"[^a-z0-9]+")
# Segments shorter than this (squashed) are found almost anywhere ("of", "is"): they may not pull the
# alignment past the next long segment, and a cut inside a segment counts only from this length.
SHORT_SEGMENT = 8
MIN_PARTIAL = 4
MAX_LEADING_VALUE = 20  # squashed characters a quoted piece may open with before the template's text
MAX_PARTIAL = 400  # the part of a cut segment looked for: each length tried costs one comparison


@dataclass(frozen=True, slots=True)
class Alignment:
    """How a message lines up with a template's literal text."""

    covered: float  # share of the template's literal characters found in order (0-1)
    found_chars: int  # literal characters found (squashed)
    consistent: bool  # nothing missing between found segments: a whole message, or a piece of one
    outside: float = 0.0  # share of the message before the template's first or after its last literal text


def squash(text: str) -> str:
    """Return ``text`` lower-cased with everything but ASCII letters and digits removed."""
    return _NOT_ALNUM.sub("", text.lower())


@lru_cache(maxsize=65_536)
def squashed_segments(segments: tuple[str, ...]) -> tuple[str, ...]:
    """Return a template's non-empty squashed literal segments (cached: templates repeat)."""
    return tuple(needle for needle in map(squash, segments) if needle)


def align(segments: tuple[str, ...], message: str) -> Alignment:
    """Align a template's literal segments with ``message`` (see the module docstring)."""
    needles = squashed_segments(segments)
    total = sum(map(len, needles))
    if not total:
        return Alignment(0.0, 0, False)
    hay = squash(message)
    hits = _find_in_order(needles, hay)
    found = sum(len(needle) for needle, hit in zip(needles, hits, strict=True) if hit is not None)
    first = next((k for k, hit in enumerate(hits) if hit is not None), None)
    if first is None:
        return _inside_one_segment(needles, hay, total)
    last = max(k for k, hit in enumerate(hits) if hit is not None)
    consistent = all(hit is not None for hit in hits[first : last + 1])
    if consistent:
        head = _head_partial(needles, hits, hay, first)
        # A piece quoted from the middle starts inside the template: in the segment before the first
        # one found (its tail), or in a short value. A long unexplained opening is another template's.
        consistent = first == 0 or head > 0 or (hits[first] or 0) <= MAX_LEADING_VALUE
        found += head + _tail_partial(needles, hits, hay, last)
    return Alignment(found / total, found, consistent, _outside(segments, needles, hits, hay, first=first, last=last))


def _outside(
    segments: tuple[str, ...], needles: tuple[str, ...], hits: list[int | None], hay: str, *, first: int, last: int
) -> float:
    """Return the share of the message beyond a template that starts or ends with literal text.

    Text before such a template's opening words, or after its closing ones, is no placeholder value:
    the template does not explain it (a shorter template matching the start of a longer message).
    """
    first_hit, last_hit = hits[first], hits[last]
    if first_hit is None or last_hit is None or not hay:
        return 0.0
    before = first_hit if first == 0 and squash(segments[0]) else 0
    after = len(hay) - last_hit - len(needles[last]) if last == len(needles) - 1 and squash(segments[-1]) else 0
    return (before + after) / len(hay)


def _inside_one_segment(needles: tuple[str, ...], hay: str, total: int) -> Alignment:
    """Align a message that is a piece of one long segment (a message cut off, or quoted in part)."""
    if len(hay) >= MIN_PARTIAL and any(hay in needle for needle in needles):
        return Alignment(len(hay) / total, len(hay), True)
    return Alignment(0.0, 0, False)


def _find_in_order(needles: tuple[str, ...], hay: str) -> list[int | None]:
    """Find each needle after the previous hit; a short needle may not jump past the next long one."""
    hits: list[int | None] = []
    position = 0
    for k, needle in enumerate(needles):
        hit = hay.find(needle, position)
        if hit >= 0 and len(needle) < SHORT_SEGMENT:
            anchor = next((n for n in needles[k + 1 :] if len(n) >= SHORT_SEGMENT), None)
            anchor_hit = hay.find(anchor, position) if anchor is not None else -1
            if 0 <= anchor_hit < hit:
                hit = -1  # found only beyond the next long segment: it is missing here
        if hit >= 0:
            hits.append(hit)
            position = hit + len(needle)
        else:
            hits.append(None)
    return hits


def _tail_partial(needles: tuple[str, ...], hits: list[int | None], hay: str, last: int) -> int:
    """Count the head of the segment after the last one found that ends the message (a cut-off message)."""
    last_hit = hits[last]
    if last + 1 >= len(needles) or last_hit is None:
        return 0
    return _overlap(hay[last_hit + len(needles[last]) :], needles[last + 1], at_end=True)


def _head_partial(needles: tuple[str, ...], hits: list[int | None], hay: str, first: int) -> int:
    """Count the tail of the segment before the first one found that starts the message (a quoted piece)."""
    first_hit = hits[first]
    if first == 0 or first_hit is None:
        return 0
    return _overlap(hay[:first_hit], needles[first - 1], at_end=False)


def _overlap(text: str, needle: str, *, at_end: bool) -> int:
    """Return the longest head of ``needle`` ending ``text`` (``at_end``), or tail of it starting it."""
    for size in range(min(len(text), len(needle) - 1, MAX_PARTIAL), MIN_PARTIAL - 1, -1):
        if (text.endswith(needle[:size])) if at_end else text.startswith(needle[-size:]):
            return size
    return 0
