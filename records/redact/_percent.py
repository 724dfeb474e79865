"""Percent-decoding of a paste, and a map from a span of the decoded text back to the original.

A run of escapes that spells one character in UTF-8 ('%C2%A8') becomes that character; any other escape
becomes the character of its byte's value, so '%C2' alone reads as 'Â'. The text is split at each '%' (one
call in C) rather than searched escape by escape: a paste of thousands of escapes costs a dictionary lookup
each, not a call into the regex engine each.

The decoded text is made in one lean pass. Where each escape sat is needed only to map a finding in the
decoded text back, which few pastes have: it is found by a second pass, made the first time a span is mapped.
"""

from __future__ import annotations

import bisect
import functools
import itertools
import string
from collections.abc import Callable
from dataclasses import dataclass

_HEX_PAIRS = {f"{high}{low}": int(f"{high}{low}", 16) for high in string.hexdigits for low in string.hexdigits}
_BYTE_CHARACTERS = tuple(map(chr, range(256)))  # what an escape standing alone reads as

# What Python's 'surrogateescape' makes of a byte that is no part of a UTF-8 character, back to the character
# of the byte's value.
_LONE_BYTES = {0xDC80 + offset: 0x80 + offset for offset in range(0x80)}

# A text percent-decoded, and the map from a span in it back to the text.
PercentDecoded = tuple[str, Callable[[int, int], tuple[int, int]]]


def percent_decoded(text: str) -> PercentDecoded | None:
    """Return text percent-decoded and a map from a span in it back to the original, or None without escapes."""
    plain = _plain(text) if "%" in text else None
    if plain is None:
        return None
    escapes: list[_Escapes] = []  # made on the first span mapped back

    def back(start: int, end: int) -> tuple[int, int]:
        if not escapes:
            escapes.append(_escapes(text))
        return _original(start, escapes[0], end=False), _original(end, escapes[0], end=True)

    return plain, back


def _plain(text: str) -> str | None:
    """Return text percent-decoded, or None when it holds no escape."""
    pieces = text.split("%")
    out = [pieces[0]]
    add, hex_pairs = out.append, _HEX_PAIRS.get
    run = bytearray()  # the bytes of adjacent escapes not yet decoded
    for piece in itertools.islice(pieces, 1, None):
        byte = hex_pairs(piece[:2])
        if byte is None:
            if run:
                add(_run_text(bytes(run)))
                run.clear()
            add("%")
            add(piece)
        elif len(piece) == 2:
            run.append(byte)  # the next piece may go on with the run
        elif run:
            run.append(byte)
            add(_run_text(bytes(run)))
            run.clear()
            add(piece[2:])
        else:  # most escapes stand alone: the byte is the character
            add(_BYTE_CHARACTERS[byte])
            add(piece[2:])
    if run:
        add(_run_text(bytes(run)))
    plain = "".join(out)
    # Each escape is three characters and reads as one at most: the text is shorter decoded iff it held one.
    return plain if len(plain) < len(text) else None


@functools.lru_cache(maxsize=256)
def _run_text(run: bytes) -> str:
    """Return what a run of adjacent escapes reads as (a paste repeats its runs, as '%C2%A8' in each line)."""
    return run.decode("utf-8", "surrogateescape").translate(_LONE_BYTES)


@dataclass(frozen=True, slots=True)
class _Escapes:
    """Where each decoded escape sits in the decoded text and in the original, and how long it was there."""

    at_decoded: list[int]
    at_original: list[int]
    widths: list[int]


def _escapes(text: str) -> _Escapes:
    """Return where each escape of text sits, as _plain decodes it."""
    pieces = text.split("%")
    escapes = _Escapes([], [], [])
    run: list[int] = []  # the bytes of adjacent escapes not yet placed, the first one's '%' at run_at
    run_at = 0
    original = length = len(pieces[0])  # where the next piece's '%' sits, in the text and decoded
    for piece in itertools.islice(pieces, 1, None):
        byte = _HEX_PAIRS.get(piece[:2])
        if byte is not None:
            if not run:
                run_at = original
            run.append(byte)
        if byte is None or len(piece) > 2:
            if run:
                length = _place(run, run_at, length, escapes)
                run.clear()
            length += len(piece) - 2 if byte is not None else len(piece) + 1
        original += len(piece) + 1
    if run:
        _place(run, run_at, length, escapes)
    return escapes


def _place(run: list[int], at: int, length: int, escapes: _Escapes) -> int:
    """Record where the characters of a run of escapes sit (its first '%' at ``at``); return the length after it."""
    decoded = bytes(run).decode("utf-8", "surrogateescape")
    widths = [3 * len(character.encode("utf-8", "surrogateescape")) for character in decoded]
    escapes.at_decoded.extend(range(length, length + len(decoded)))
    escapes.at_original.extend(itertools.accumulate(widths[:-1], initial=at))
    escapes.widths.extend(widths)
    return length + len(decoded)


def _original(offset: int, escapes: _Escapes, end: bool) -> int:
    """Map an offset in decoded text back to the original (an escaped character counts its escapes' width)."""
    index = bisect.bisect_right(escapes.at_decoded, offset - 1 if end else offset) - 1
    if index < 0:
        return offset
    at_decoded, at_original, width = escapes.at_decoded[index], escapes.at_original[index], escapes.widths[index]
    inside = offset - at_decoded
    if inside == 0 or (end and inside == 1):
        return at_original + (width if end else 0)
    return offset + at_original - at_decoded + width - 1
