"""Fingerprints: one stable key for the same error pasted by a thousand users.

The key is a digest of the error class and the message with its variable parts masked (numbers,
sizes, hex, quoted names, paths, shapes, UUIDs, URLs), after the message has been normalised (invisible and
look-alike characters) and redacted (tokens, user names). All patterns run on google-re2, which
matches in linear time.

The error class is reduced to its last dotted part (``requests.exceptions.ConnectionError`` becomes
``ConnectionError``): libraries move exceptions between modules across releases
(``huggingface_hub.utils._errors`` to ``huggingface_hub.errors``), and users paste both qualified
and bare names, while the masked message still tells unrelated classes of the same name apart.
"""

from __future__ import annotations

import hashlib
import unicodedata
from dataclasses import dataclass

from records._re2 import Match, compile_pattern, encodable
from records.redact import redact

__all__ = ["KEY_VERSION", "Fingerprint", "fingerprint", "mask_message", "normalize_text"]

# Part of every digest, so that a change to normalising or masking can be rolled out as a new
# version of keys instead of silently splitting existing groups.
KEY_VERSION = "fp1"
_KEY_CHARS = 20


@dataclass(frozen=True, slots=True)
class Fingerprint:
    """The grouping key of an error, with the parts it was computed from."""

    key: str
    error_class: str
    masked: str


# Zero-width characters and bidirectional controls: invisible, so they only ever split a group.
_INVISIBLE = dict.fromkeys(
    [0x00AD, *range(0x200B, 0x2010), 0x2060, 0xFEFF, *range(0x202A, 0x202F), *range(0x2066, 0x206A)]
)

# Cyrillic and Greek letters drawn like Latin ones (a subset of Unicode's confusables that NFKC
# leaves alone): 'VаlueError' with a Cyrillic 'а' must group with 'ValueError'.
_HOMOGLYPHS = str.maketrans(
    "АВЕКМНОРСТУХЅІЈԚԜҮаеорсухѕіјԁһӏԛԝ" + "ΑΒΕΖΗΙΚΜΝΟΡΤΥΧοιν",
    "ABEKMHOPCTYXSIJQWYaeopcyxsijdhlqw" + "ABEZHIKMNOPTYXoiv",
)
_HOMOGLYPH_CHARS = frozenset(chr(c) for c in _HOMOGLYPHS)
_WORD = compile_pattern(r"[\pL\pN\pM_]+")


def _fold_word(word: str) -> str:
    """Fold look-alikes in a word that is Latin in part, or made only of look-alikes."""
    if not any(c in _HOMOGLYPH_CHARS for c in word):
        return word
    has_latin = any(c.isascii() and c.isalpha() for c in word)
    only_lookalikes = all(c in _HOMOGLYPH_CHARS or c.isascii() for c in word)
    # A Russian word written in Cyrillic is left alone; only mixed or disguised words are folded.
    return word.translate(_HOMOGLYPHS) if has_latin or only_lookalikes else word


def _fold_homoglyphs(text: str) -> str:
    """Fold look-alike letters word by word."""
    pieces = []
    position = 0
    for match in _WORD.finditer(text):
        pieces.append(text[position : match.start()])
        pieces.append(_fold_word(match.group()))
        position = match.end()
    pieces.append(text[position:])
    return "".join(pieces)


def normalize_text(text: str) -> str:
    """Return text in NFKC without invisible characters or look-alike letters, whitespace collapsed."""
    text = unicodedata.normalize("NFKC", encodable(text).translate(_INVISIBLE))
    if not text.isascii():
        folded = _fold_homoglyphs(text)
        # Folding can leave a Latin letter before a combining mark that NFKC would now compose.
        text = unicodedata.normalize("NFKC", folded) if folded != text else text
    return " ".join(text.split())


_PLACEHOLDERS = ("n", "size", "hex", "q", "path", "shape", "uuid", "url", "user")
_SEGMENT = r"(?:[^\s\\/'\"`<>|*?,;:()\[\]{}=]|<user>)+"
_SHAPE_ITEM = r"(?:-?\d+|None|\?)"

# One alternation, scanned once: at each position the earliest-starting mask wins, and masked text
# contains nothing that a second pass would mask again. Alternatives that start or end with a word
# character are bounded by \b so that replacing a neighbour never changes what they match.
_MASK = compile_pattern(
    "|".join(
        [
            rf"(?P<keep>\[REDACTED:[a-z_]+\]|<(?:{'|'.join(_PLACEHOLDERS)})>)",
            r"(?P<url>\b[A-Za-z][A-Za-z0-9+.-]*://[^\s'\"`<>]*)",
            r"(?P<q>'[^'\n]*'|\"[^\"\n]*\"|`[^`\n]*`)",
            r"(?P<uuid>\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\b)",
            # A path with a root (C:, ~, ./) may have one part; a bare one needs two, so 'and/or' stays.
            rf"(?P<path>(?:\b[A-Za-z]:|~|\.{{1,2}})(?:[\\/]+{_SEGMENT})+[\\/]*"
            rf"|(?:[\\/]+{_SEGMENT}){{2,}}[\\/]*)",
            rf"(?P<shape>[\[(]\s*{_SHAPE_ITEM}(?:\s*,\s*{_SHAPE_ITEM})*\s*,?\s*[\])])",
            r"(?P<size>\b\d+(?:\.\d+)?\s?(?:[KMGTP]i?B|bytes|B)\b)",
            r"(?P<n>\b\d+(?:\.\d+)*\b)",
            r"(?P<hex>\b0[xX][0-9a-fA-F]+\b|\b[0-9a-fA-F]{8,}\b)",
        ]
    )
)


def _mask_one(match: Match) -> str:
    kind = match.lastgroup
    value = match.group()
    return value if kind == "keep" else f"<{kind}>"


def mask_message(message: str) -> str:
    """Replace the variable parts of an error message (numbers, names, paths...) by placeholders."""
    message = encodable(message)
    pieces = []
    position = 0
    for match in _MASK.finditer(message):
        pieces.append(message[position : match.start()])
        pieces.append(_mask_one(match))
        position = match.end()
    pieces.append(message[position:])
    return "".join(pieces)


def _normalize_class(error_class: str | None) -> str:
    """Return the last dotted part of a normalised class name, or '' when the class is unknown."""
    if not error_class:
        return ""
    name = "".join(normalize_text(error_class).split()).strip(":")
    return name.rsplit(".", 1)[-1]


def fingerprint(error_class: str | None, message: str) -> Fingerprint:
    """Return the grouping key of an error from its class and message."""
    cls = _normalize_class(error_class)
    masked = mask_message(redact(normalize_text(message)).text)
    payload = "\x00".join((KEY_VERSION, cls, masked)).encode("utf-8", "surrogatepass")
    key = hashlib.sha256(payload).hexdigest()[:_KEY_CHARS]
    return Fingerprint(key=key, error_class=cls, masked=masked)
