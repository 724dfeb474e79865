"""Read library versions a paste prints: 'x version: 1.2', 'x==1.2', pip show, transformers-cli env."""

from __future__ import annotations

import re

_VERSION_WORD_RE = re.compile(r"[Vv]ersion\b")  # no leading \b: a literal start lets re skip ahead
_VERSION_TAIL_RE = re.compile(r"(?: \([^)\n]{0,40}\))?[ \t]{0,8}(?::|=|is)[ \t]{0,8}v?(\d[\w.+!-]{0,40})")
_PINNED_RE = re.compile(r"==[ \t]{0,2}(\d[\w.+!-]{0,40})")
_PIP_SHOW_RE = re.compile(r"^Name: ([A-Za-z0-9][A-Za-z0-9._-]{0,100})\nVersion: (\d[\w.+!-]{0,40})", re.M)
_NAME_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,100}")
_MAX_HITS = 200  # 'version' mentions examined: an env dump has ~15, a crafted paste far more
_NOT_NAMES = frozenset(
    {"a", "an", "the", "my", "your", "our", "this", "that", "which", "what", "new", "old", "same", "latest"}
)
_ALIASES = {"pytorch": "torch", "huggingface-hub": "huggingface_hub", "scikit-learn": "sklearn"}


def find_versions(text: str) -> dict[str, str]:
    """Return library versions printed in ``text`` (lower-case names; a later print wins)."""
    found: list[tuple[int, str, str]] = []
    found.extend(_named_versions(text))
    found.extend(_pinned_versions(text))
    found.extend((m.start(), m.group(1), m.group(2)) for m in _PIP_SHOW_RE.finditer(text))
    versions: dict[str, str] = {}
    for _, name, version in sorted(found):
        key = name.lower()
        versions[_ALIASES.get(key, key)] = version.rstrip(".-")
    return versions


def _named_versions(text: str) -> list[tuple[int, str, str]]:
    """Read 'transformers version: 4.57.6' and '- `transformers` version: 4.57.6'."""
    found: list[tuple[int, str, str]] = []
    for match, _ in zip(_VERSION_WORD_RE.finditer(text), range(_MAX_HITS), strict=False):
        tail = _VERSION_TAIL_RE.match(text, match.end())
        if tail is None or text[match.start() - 1 : match.start()].isalnum():
            continue
        name = _name_before(text, match.start())
        if name is not None:
            found.append((match.start(), name, tail.group(1)))
    return found


def _pinned_versions(text: str) -> list[tuple[int, str, str]]:
    """Read 'transformers==4.57.6' as pip freeze and requirements files print it."""
    found: list[tuple[int, str, str]] = []
    for match, _ in zip(_PINNED_RE.finditer(text), range(_MAX_HITS), strict=False):
        name = _name_before(text, match.start())
        if name is not None and "." in match.group(1):
            found.append((match.start(), name, match.group(1)))
    return found


def _name_before(text: str, end: int) -> str | None:
    """Return the package name written just before ``end`` on the same line, if any."""
    line_start = text.rfind("\n", max(0, end - 120), end) + 1
    before = text[max(line_start, end - 120) : end].rstrip().rstrip("`").rstrip()
    words = before.split()
    if not words:
        return None
    word = words[-1].strip("`'\"*-[]()")
    match = _NAME_RE.fullmatch(word)
    if match is None or word.lower() in _NOT_NAMES or len(word) < 2:
        return None
    return word
