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
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from records._re2 import Match, Pattern, compile_pattern, encodable
from records.extraction.model import Frame
from records.redact import redact

__all__ = [
    "KEY_VERSION",
    "PLACEHOLDERS",
    "Fingerprint",
    "coarse",
    "fingerprint",
    "library_frame",
    "mask_message",
    "normalize_text",
    "refingerprint",
]

# Part of every digest, so that a change to normalising or masking can be rolled out as a new
# version of keys instead of silently splitting existing groups.
KEY_VERSION = "fp3"
_KEY_CHARS = 20


@dataclass(frozen=True, slots=True)
class Fingerprint:
    """The grouping key of an error, with the parts it was computed from."""

    key: str
    error_class: str
    masked: str
    frame: str = ""  # the innermost library frame, '' when the paste shows none

    @property
    def loose_key(self) -> str:
        """The key without the frame: a paste with no traceback groups with one that has it."""
        return _digest(self.error_class, "", self.masked) if self.frame else self.key

    @property
    def title(self) -> str:
        """The group title, read as the error is: ``KeyError: '<key>' not found in token map``."""
        return f"{self.error_class}: {self.masked}" if self.error_class else self.masked


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
# A KeyError's message is the repr of the key: any quoted value in it is the key. Runs on masked text
# (placeholders only inside the quotes), so a stdlib pattern is linear here.
_KEY_VALUE = re.compile(r"(['\"`])<(?:name|value|n|q)>(['\"`])")
_QUOTED_SLOT = re.compile(r"(['\"`])<(?:name|value|n|q|repo|path|url|key|id)>\1")
# Where a file or model comes from is one slot, whichever form the paste gives it in.
_LOCATION = re.compile(r"<(?:repo|path|url)>")
# Python 3.10+ adds a suggestion to NameError and AttributeError messages; older releases do not.
_SUGGESTION = re.compile(r"\. Did you mean: '<(?:name|value)>'\?$")


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


PLACEHOLDERS = (
    "n", "size", "hex", "q", "path", "shape", "uuid", "url", "user", "repo", "name", "key", "value", "repr", "id",
    "list", "device", "gpu",
)  # fmt: skip
_SEGMENT = r"(?:[^\s\\/'\"`<>|*?,;:()\[\]{}=]|<user>)+"
_SHAPE_ITEM = r"(?:-?\d+|None|\?)"
_ITEM = r"(?:'[^'\n]*'|\"[^\"\n]*\")"
# One alternation, scanned once: at each position the earliest-starting mask wins, and masked text
# contains nothing that a second pass would mask again. Alternatives that start or end with a word
# character are bounded by \b so that replacing a neighbour never changes what they match.
_MASK = compile_pattern(
    "|".join(
        [
            rf"(?P<keep>\[REDACTED:[a-z_]+\]|<(?:{'|'.join(PLACEHOLDERS)})>|<path in [\w.-]+>)",
            # Reprs: <class 'x.Y'>, <function f at 0x...>, <x.Y object at 0x...>.
            r"(?P<repr><(?:class|function|module|bound method|built-in \w+|[\w.]+ object)\b[^<>\n]{0,200}>)",
            r"(?P<url>\b[A-Za-z][A-Za-z0-9+.-]*://[^\s'\"`<>]*)",
            # Lists of quoted names or numbers: their length varies as much as their items.
            rf"(?P<list>\[\s*{_ITEM}(?:\s*,\s*{_ITEM})*\s*,?\s*\])",
            r"(?P<gpu>\b(?:NVIDIA|Tesla|GeForce|Quadro|Radeon)(?:\s+(?:GeForce|RTX|GTX|Tesla))*\s+[A-Z]*\d[\w-]*)",
            r"(?P<device>\b(?:cuda|cpu|mps|xpu|npu|hpu)(?::\d+)?\b)",
            # A word with an apostrophe ("can't", "model's") is a word, not the start of a quote.
            r"(?P<word>\pL+(?:'\pL+)+)",
            r"(?P<q>'(?:\pL'\pL|[^'\n])*'|\"[^\"\n]*\"|`[^`\n]*`)",
            r"(?P<reqid>(?i:request[ _-]?id)[\s:=]+[^\s)\],]+)",
            r"(?P<uuid>\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\b)",
            # A file name or a model name without its organisation ('bert-base-uncased': two hyphens or
            # more) is where a file or model comes from, like a path or a repo id.
            r"(?P<file>\b[\w-]+\.(?:safetensors|bin|json|jsonl|gguf|pt|pth|ckpt|onnx|model|txt|csv|parquet)\b)",
            r"(?P<model>\b[a-z0-9]+(?:-[a-z0-9]+){2,}\b)",
            # A bare repo id names an organisation and a model: 'meta-llama/Llama-2-7b-hf' ('and/or' stays).
            r"(?P<repo>\b[A-Za-z0-9][\w.-]*/[\w.]*[-\d_][\w.-]*[A-Za-z0-9]\b)",
            # A path with a root (C:, ~, ./) may have one part; a bare one needs two, so 'and/or' stays.
            rf"(?P<path>(?:\b[A-Za-z]:|~|\.{{1,2}})(?:[\\/]+{_SEGMENT})+[\\/]*"
            rf"|(?:[\\/]+{_SEGMENT}){{2,}}[\\/]*)",
            rf"(?P<shape>[\[(]\s*{_SHAPE_ITEM}(?:\s*,\s*{_SHAPE_ITEM})*\s*,?\s*[\])])",
            r"(?P<size>\b\d+(?:\.\d+)?\s?(?:[KMGTP]i?B|bytes|B)\b)",
            r"(?P<n>\b\d+(?:\.\d+)*\b)",
            r"(?P<hex>\b0[xX][0-9a-fA-F]+\b|\b[0-9a-fA-F]{8,}\b)",
            # Long tokens mixing letters and digits are ids (run ids, commit-like names); words stay.
            r"(?P<id>\b[A-Za-z0-9_-]{20,}\b)",
        ]
    )
)
_FILE = (
    r"[\\/]|^~|\.(?:json|jsonl|bin|safetensors|txt|csv|py|pt|pth|ckpt|gguf|ya?ml|model|parquet|arrow|h5|onnx|"
    r"msgpack|tar|gz|zip|log|npy|npz|pkl|png|jpe?g|wav|mp3|mp4)$"
)
# What a quoted value is, tried in order on its content; the quotes are kept around the placeholder.
_QUOTED = (
    ("url", compile_pattern(r"^[A-Za-z][A-Za-z0-9+.-]*://")),
    ("repo", compile_pattern(r"^[A-Za-z0-9][\w.-]*/[\w.-]*[A-Za-z0-9_]$")),
    ("n", compile_pattern(r"^-?\d+(?:\.\d+)*$")),
    ("path", compile_pattern(_FILE)),
    ("name", compile_pattern(r"^[\pL_][\pL\pN_.:-]*$")),
)
_HAS_DIGIT = compile_pattern(r"\d")
_HAS_LETTER = compile_pattern(r"[A-Za-z]")
_ONLY_PLACEHOLDER = compile_pattern(rf"^(?:<(?:{'|'.join(PLACEHOLDERS)})>|<path in [\w.-]+>|\[REDACTED:[a-z_]+\])$")


def _quoted_kind(content: str) -> str:
    """Return the placeholder kind of a quoted value (``value`` when it is none of the known kinds)."""
    for kind, pattern in _QUOTED:
        if _found(pattern, content):
            return kind
    return "value"


def _found(pattern: Pattern, text: str) -> bool:
    return next(iter(pattern.finditer(text)), None) is not None


def _mask_one(match: Match) -> str:
    kind = match.lastgroup or ""
    value = match.group()
    if kind in ("keep", "word"):
        return value
    special = _SPECIAL.get(kind)
    return special(value) if special is not None else f"<{kind}>"


def _mask_repr(value: str) -> str:
    return "<class '<name>'>" if value.startswith("<class ") else "<repr>"


def _mask_quoted(value: str) -> str:
    content = value[1:-1]
    if not content or _found(_ONLY_PLACEHOLDER, content):
        return value
    if value[0] == "`" and " " in content:
        # A phrase in backticks (`huggingface-cli login`) reads as its words, as Discord markdown is
        # cleaned: a fenced paste keeps the backticks, an inline one loses them, and both are one error.
        return mask_message(content)
    return f"{value[0]}<{_quoted_kind(content)}>{value[-1]}"


def _mask_request_id(value: str) -> str:
    cut = 10 if value[7] in " _-" else 9  # 'request', a separator or none, 'id'
    return f"{value[:cut]}: <id>"


def _mask_id(value: str) -> str:
    return "<id>" if _found(_HAS_DIGIT, value) and _found(_HAS_LETTER, value) else value


def _mask_path(value: str) -> str:
    # A path into an installed library keeps the library's name: it tells import errors apart.
    found = next(iter(_INSTALLED.finditer(value)), None)
    return f"<path in {found.group(1)}>" if found is not None else "<path>"


_INSTALLED = compile_pattern(r"(?:site|dist)-packages[\\/]+([A-Za-z_][\w.-]*?)(?:\.py)?(?:[\\/]|$)")


def _as_path(value: str) -> str:
    return "<path>"


def _as_repo(value: str) -> str:
    return "<repo>"


_SPECIAL = {
    "repr": _mask_repr,
    "q": _mask_quoted,
    "reqid": _mask_request_id,
    "id": _mask_id,
    "path": _mask_path,
    "file": _as_path,
    "model": _as_repo,
}


def mask_message(message: str) -> str:
    """Replace the variable parts of an error message by placeholders of their kind; keep its words.

    Quoted values keep their quotes (``'<name>'``, ``'<path>'``, ``'<repo>'``), so the masked
    message still reads as the error does; an apostrophe inside a word is not a quote.
    """
    message = encodable(message)
    pieces = []
    position = 0
    for match in _MASK.finditer(message):
        pieces.append(message[position : match.start()])
        pieces.append(_mask_one(match))
        position = match.end()
    pieces.append(message[position:])
    return "".join(pieces)


# Typographic quotes (a paste through a word processor or a forum) read as the straight ones.
_CURLY = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"'})

# Python 3 raises these under another name: `raise EnvironmentError(...)` prints `OSError: ...`.
_ALIASES = {"EnvironmentError": "OSError", "IOError": "OSError", "WindowsError": "OSError"}


def _normalize_class(error_class: str | None) -> str:
    """Return the last dotted part of a normalised class name, or '' when the class is unknown."""
    if not error_class:
        return ""
    name = "".join(normalize_text(error_class).split()).strip(":").rsplit(".", 1)[-1]
    return _ALIASES.get(name, name)


def library_frame(frames: Sequence[Frame]) -> str:
    """Return ``package/path.py:function`` of the innermost frame in an installed library, or ''.

    The user's own frames (outside site-packages) and line numbers are left out: they differ from one
    paste of the same error to the next.
    """
    for frame in reversed(frames):
        if frame.library and frame.package_path:
            return f"{frame.package_path}:{frame.function or '?'}"
    return ""


def _key_frame(frame: str) -> str:
    """Return a frame as the key sees it: ``path:function`` with markdown's lost underscores ignored."""
    path, colon, function = frame.rpartition(":")
    return f"{_unmarked(path)}{colon}{_unmarked(function)}" if colon else frame


def _unmarked(name: str) -> str:
    """Return a dotted or slashed name with the underscores around each part dropped.

    Markdown (GitHub issues, Discord) renders ``__getitem__`` and ``__init__.py`` in bold and pastes
    copied from the page lose the underscores: ``getitem``, ``init.py`` are the same frame.
    """
    if "/" in name:
        return "/".join(_unmarked_file(part) for part in name.split("/"))
    return ".".join(part.strip("_") or part for part in name.split("."))


def _unmarked_file(part: str) -> str:
    stem, dot, suffix = part.rpartition(".") if part.endswith(".py") else (part, "", "")
    return (stem.strip("_") or stem) + dot + suffix


def fingerprint(error_class: str | None, message: str, frames: Sequence[Frame] = ()) -> Fingerprint:
    """Return the grouping key of an error from its class, its message and its innermost library frame."""
    cls = _normalize_class(error_class)
    masked = mask_message(redact(normalize_text(message).translate(_CURLY)).text)
    if cls == "KeyError":
        masked = _KEY_VALUE.sub("\\1<key>\\2", masked)
    frame = library_frame(frames)
    return Fingerprint(key=_digest(cls, _key_frame(frame), masked), error_class=cls, masked=masked, frame=frame)


def refingerprint(error_class: str, masked: str, frame: str = "") -> Fingerprint:
    """Return the key of a stored group's parts (class, masked message, frame) as this version computes it.

    For a group none of whose samples can be read again (purged): its masked message is masked once
    more, which keeps the placeholders it holds and applies what this version masks besides.
    """
    cls = _normalize_class(error_class)
    again = mask_message(masked)
    if cls == "KeyError":
        again = _KEY_VALUE.sub("\\1<key>\\2", again)
    return Fingerprint(key=_digest(cls, _key_frame(frame), again), error_class=cls, masked=again, frame=frame)


def coarse(masked: str) -> str:
    """Return a masked message as the key sees it: one kind of quoted value, one kind of location.

    Kinds are for reading: 'gpt2', './my-model' and 'org/model' fill the same slot of the same
    message; Python's "Did you mean" suggestion and a final full stop come and go between releases.
    """
    return _QUOTED_SLOT.sub("'<q>'", _LOCATION.sub("<path>", _SUGGESTION.sub("", masked))).rstrip(" .!")


def _digest(cls: str, frame: str, masked: str) -> str:
    payload = "\x00".join((KEY_VERSION, cls, frame, coarse(masked))).encode("utf-8", "surrogatepass")
    return hashlib.sha256(payload).hexdigest()[:_KEY_CHARS]
