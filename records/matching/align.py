"""Align a template's literal text with a pasted message, in order, in linear time.

Pastes lose what people and chat windows drop: backticks and quotes, markdown emphasis, line breaks
where a terminal wrapped (sometimes inside a word), case. Both sides are therefore compared
*squashed*: lower-case letters and digits only. Each literal segment is then looked up with
``str.find`` from where the previous one ended, so placeholder values of any length (a list of 200
config classes, a tensor repr) between them cost one linear scan, never a quadratic comparison.

A long segment is looked up in pieces of ``CHUNK`` characters, each after the previous one: a
typo typed into a message retyped by hand, or a markdown link title a chat window put inside a URL,
then loses the one piece it falls in, not the whole sentence.

A message is often a piece of its template: cut off by the paste (a traceback cut before its end, a
chat window's limit) or quoted from its middle. What is missing then sits only at the ends, and the
segment at the cut is matched in part; text missing between found segments is a contradiction.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from records.matching.template import first_clause

_NOT_ALNUM = re.compile(r"[^a-z0-9]+")
# Segments shorter than this (squashed) are found almost anywhere ("of", "is"): they may not pull the
# alignment past the next long segment, and a cut inside a segment counts only from this length.
SHORT_SEGMENT = 8
MIN_PARTIAL = 4
MAX_LEADING_VALUE = 20  # squashed characters a quoted piece may open with before the template's text
MAX_PARTIAL = 400  # the part of a cut segment looked for: each length tried costs one comparison
# Squashed segments longer than 2 * CHUNK are looked up in pieces of CHUNK to 2 * CHUNK - 1
# characters: 24 letters in a row are not found by chance, and a typo costs only its piece.
CHUNK = 24
TYPO_SLACK = 3  # squashed characters a retyped piece may be shorter or longer by (or an eighth of it)
MAX_TRAILING = 2  # squashed characters after a piece cut off inside a sentence (a stray "s", a digit)


@dataclass(frozen=True, slots=True)
class Alignment:
    """How a message lines up with a template's literal text."""

    covered: float  # share of the template's literal characters found in order (0-1)
    found_chars: int  # literal characters found (squashed)
    consistent: bool  # nothing missing between found segments: a whole message, or a piece of one
    outside: float = 0.0  # share of the message before the template's first or after its last literal text
    # Text is missing inside, but the message holds other text of about its length in each gap: a
    # typo or an inserted link title, not a template whose words the message lacks.
    replaced: bool = False


def squash(text: str) -> str:
    """Return ``text`` lower-cased with everything but ASCII letters and digits removed."""
    return _NOT_ALNUM.sub("", text.lower())


@lru_cache(maxsize=16)
def squashed_message(message: str) -> str:
    """Return ``squash(message)``, cached: one paste's message is aligned with every candidate template."""
    return squash(message)


@lru_cache(maxsize=65_536)
def squashed_parts(segments: tuple[str, ...]) -> tuple[str, ...]:
    """Return each of a template's literal segments squashed, empty ones too (cached: templates repeat)."""
    return tuple(map(squash, segments))


@lru_cache(maxsize=65_536)
def squashed_segments(segments: tuple[str, ...]) -> tuple[str, ...]:
    """Return a template's non-empty squashed literal segments, long ones in pieces (cached: templates repeat)."""
    return tuple(piece for needle in squashed_parts(segments) if needle for piece in _pieces(needle))


@lru_cache(maxsize=65_536)
def continued(segments: tuple[str, ...]) -> tuple[bool, ...]:
    """Tell, for each needle of ``squashed_segments``, whether it continues the previous one with no hole."""
    return tuple(k > 0 for needle in squashed_parts(segments) if needle for k in range(len(_pieces(needle))))


def _pieces(needle: str) -> list[str]:
    """Cut a long squashed segment into pieces of CHUNK characters, the last one taking the rest."""
    if len(needle) < 2 * CHUNK:
        return [needle]
    cuts = list(range(0, len(needle) - CHUNK, CHUNK))
    return [needle[a:b] for a, b in zip(cuts, [*cuts[1:], len(needle)], strict=True)]


def align(segments: tuple[str, ...], message: str) -> Alignment:
    """Align a template's literal segments with ``message`` (see the module docstring)."""
    needles = squashed_segments(segments)
    total = sum(map(len, needles))
    if not total:
        return Alignment(0.0, 0, False)
    hay = squashed_message(message)
    hits = _find_in_order(needles, hay)
    found = sum(len(needle) for needle, hit in zip(needles, hits, strict=True) if hit is not None)
    first = next((k for k, hit in enumerate(hits) if hit is not None), None)
    if first is None:
        return _inside_one_segment(segments, hay, total)
    last = max(k for k, hit in enumerate(hits) if hit is not None)
    consistent = all(hit is not None for hit in hits[first : last + 1])
    tail = 0
    if consistent:
        head = _head_partial(needles, hits, hay, first)
        # A piece quoted from the middle starts inside the template: in the segment before the first
        # one found (its tail), or in a short value. A long unexplained opening is another template's.
        consistent = first == 0 or head > 0 or (hits[first] or 0) <= MAX_LEADING_VALUE
        tail = _tail_partial(needles, hits, hay, last)
        found += head + tail
    outside = _outside(segments, needles, hits, hay, first=first, last=last)
    if consistent and last + 1 < len(needles) and continued(segments)[last + 1]:
        # A piece cut off ends the message; text going on where the template goes on without a hole
        # (inside one sentence) is not the template's: "... version of Qwen2." explains less of itself
        # as "... version of PhiMoE" cut off than as "... version of Qwen2"; it may also be the
        # person's own words after a message they cut, so it weighs as text outside, not as a contradiction.
        trailing = _rest(hits, needles, hay, last) - tail
        if trailing > MAX_TRAILING:
            outside = min(1.0, outside + trailing / len(hay))
    replaced = not consistent and _gaps_filled(segments, needles, hits, last)
    return Alignment(found / total, found, consistent, outside, replaced)


def is_first_clause(segments: tuple[str, ...], message: str, min_chars: int) -> bool:
    """Tell whether ``message`` is the template's whole first sentence, and nothing more of its text.

    The sentence (``first_clause``) must be one run of at least ``min_chars`` squashed literal
    characters, found whole, the message opening with it (or with a value, when the template opens
    with a placeholder) and ending where the sentence does (or in a value, when it ends in one). One
    run only: holes inside a short sentence take any text ("Error no file named {a} or {b} found in
    directory {c}." fits a message naming four files), so its few words in order tell little.
    """
    clause = first_clause(segments)
    if clause is None:
        return False
    needles = squashed_segments(clause)
    if len(needles) != 1 or len(needles[0]) < min_chars:
        return False
    alignment = align(clause, message)
    whole = alignment.consistent and alignment.covered >= 1.0 and alignment.outside == 0.0
    return whole and not _goes_on_past_its_end(clause, message)


def _goes_on_past_its_end(clause: tuple[str, ...], message: str) -> bool:
    r"""Tell whether a first sentence ending in a value and a mark (':' of 'state_dict for {name}:\n') goes on.

    The value takes any text, so the alignment cannot tell; the mark can: text after its first occurrence
    past the opening that ends a sentence (white space or the end after it, as in the template; the '.' of
    'config.json' ends none) is more than the sentence ('... for Net:\nMissing key(s) ...' is another
    template's). A mark the paste lost says nothing.
    """
    mark = clause[-1].strip()
    if len(clause) < 2 or not mark or squash(mark):
        return False
    opening = clause[0].strip()
    at = message.find(opening) if opening else 0
    if at < 0:
        return False
    end = message.find(mark, at + len(opening))
    while end >= 0 and message[end + len(mark) : end + len(mark) + 1].strip():
        end = message.find(mark, end + len(mark))  # inside the value: a file name's '.', a path's ':'
    return end >= 0 and bool(message[end + len(mark) :].strip())


def _gaps_filled(segments: tuple[str, ...], needles: tuple[str, ...], hits: list[int | None], last: int) -> bool:
    """Tell whether the message holds text in place of each needle missing between found ones.

    About the missing length (``TYPO_SLACK``): a typo keeps the length, a dropped or added word does
    not. A gap that spans a placeholder also holds its value, so only its lower bound is checked.
    """
    joined = continued(segments)
    previous_end = 0  # the message's start: needles missing before the first found one are a gap too
    missing, holed = 0, False
    for k in range(last + 1):
        hit = hits[k]
        holed = holed or (k > 0 and not joined[k])
        if hit is None:
            missing += len(needles[k])
            continue
        if missing:
            gap = hit - previous_end
            slack = max(TYPO_SLACK, missing // 8)
            if gap < missing - slack or (not holed and gap > missing + slack):
                return False
        previous_end, missing, holed = hit + len(needles[k]), 0, False
    return True


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
    parts = squashed_parts(segments)
    before = first_hit if first == 0 and parts[0] else 0
    after = len(hay) - last_hit - len(needles[last]) if last == len(needles) - 1 and parts[-1] else 0
    return (before + after) / len(hay)


def _inside_one_segment(segments: tuple[str, ...], hay: str, total: int) -> Alignment:
    """Align a message that is a piece of one long segment (a message cut off, or quoted in part)."""
    if len(hay) >= MIN_PARTIAL and any(hay in segment for segment in squashed_parts(segments)):
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


def _rest(hits: list[int | None], needles: tuple[str, ...], hay: str, last: int) -> int:
    """Count the squashed characters of the message after the last needle found."""
    last_hit = hits[last]
    return 0 if last_hit is None else len(hay) - last_hit - len(needles[last])


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
