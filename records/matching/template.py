"""Message templates: the literal parts of a record's ``errorMessage`` and the holes between them.

A template such as ``"expected {n} calls to {type(model).__name__}.forward()"`` has literal segments
``["expected ", " calls to ", ".forward()"]`` and two placeholders. Regex-style holes ``(.+?)`` in a
``messagePattern`` are treated the same way, so either field yields segments.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

# Project-written, linear patterns over record text (no nested quantifiers).
_WORD = re.compile(r"[a-z][a-z0-9]{2,}")
# A path, not a URL: two separators at least ('/data/x.py', './bert/m', 'C:\\Users\\me'), so that words a
# template writes with one ('input/output', '16/32-bit') stay (bounded runs).
_PATH_TOKEN = re.compile(r"(?<![\w:/.~-])(?![a-z][a-z0-9+.-]{0,30}://)[\w.~:-]{0,200}(?:[/\\][\w.~-]{0,200}){2,50}")
_SPACE = re.compile(r"\s+")
_CLAUSE_END = re.compile(r"[.!?;](?=\s)|\n")
STOPWORDS = frozenset(
    [
        "the",
        "and",
        "for",
        "not",
        "but",
        "was",
        "are",
        "with",
        "this",
        "that",
        "from",
        "have",
        "has",
        "had",
        "been",
        "can",
        "cannot",
        "should",
        "would",
        "could",
        "which",
        "when",
        "while",
        "into",
        "onto",
        "than",
        "then",
        "there",
        "their",
        "its",
        "you",
        "your",
        "use",
        "using",
        "used",
        "got",
        "get",
        "make",
        "sure",
        "please",
        "only",
        "must",
        "may",
        "might",
        "also",
        "any",
        "all",
        "one",
        "two",
        "per",
        "via",
        "our",
        "out",
        "off",
        "set",
        "see",
    ]
)


@dataclass(frozen=True, slots=True)
class Template:
    """A message template split into literal segments.

    ``literal`` and ``literal_chars`` are worked out once, when it is made: every candidate's bound and
    text evidence of every paste reads them.
    """

    segments: tuple[str, ...]
    holes: int
    literal: str = field(init=False, compare=False, repr=False)  # the literal text, each hole one space
    literal_chars: int = field(init=False, compare=False, repr=False)  # literal characters: its specificity

    def __post_init__(self) -> None:
        stripped = [segment.strip() for segment in self.segments]
        object.__setattr__(self, "literal", " ".join(s for s in stripped if s))
        object.__setattr__(self, "literal_chars", sum(map(len, stripped)))


@lru_cache(maxsize=100_000)
def parse_template(text: str) -> Template:
    """Split a ``{placeholder}`` template into literal segments (``{{``/``}}`` are literal braces).

    Cached: the same few thousand templates are scored again and again, and the index keeps only
    their text, not a parsed copy of each.
    """
    if "{" not in text and "}" not in text:
        return Template((text,), 0)
    segments: list[str] = []
    current: list[str] = []
    holes = 0
    i, n = 0, len(text)
    while i < n:
        brace = _next_brace(text, i)
        if brace < 0:
            current.append(text[i:])
            break
        current.append(text[i:brace])
        char = text[brace]
        if brace + 1 < n and text[brace + 1] == char:  # {{ or }}: a literal brace
            current.append(char)
            i = brace + 2
        elif char == "{":
            segments.append("".join(current))
            current = []
            holes += 1
            i = _skip_placeholder(text, brace)
        else:  # a lone "}" is literal text
            current.append(char)
            i = brace + 1
    segments.append("".join(current))
    return Template(tuple(segments), holes)


def _skip_placeholder(text: str, start: int) -> int:
    """Return the index after the placeholder opening at ``start`` (nested braces balanced)."""
    depth = 0
    for i in range(start, len(text)):
        if text[i] == "{":
            depth += 1
        elif text[i] == "}":
            depth -= 1
            if depth == 0:
                return i + 1
    return len(text)  # unclosed: the rest is the placeholder


def _next_brace(text: str, start: int) -> int:
    opening, closing = text.find("{", start), text.find("}", start)
    if opening < 0 or closing < 0:
        return max(opening, closing)
    return min(opening, closing)


def template_from_pattern(pattern: str) -> Template:
    """Split a simple ``messagePattern`` on its groups; escaped characters become literal."""
    segments: list[str] = []
    current: list[str] = []
    holes = 0
    i, n = 0, len(pattern)
    while i < n:
        char = pattern[i]
        if char == "\\" and i + 1 < n:
            current.append(pattern[i + 1])
            i += 2
        elif char == "(":
            end = pattern.find(")", i)
            segments.append("".join(current))
            current = []
            holes += 1
            i = n if end < 0 else end + 1
            if i < n and pattern[i] in "?*+":
                i += 1
        elif char in "^$":
            i += 1
        else:
            current.append(char)
            i += 1
    segments.append("".join(current))
    return Template(tuple(segments), holes)


def literal_words(template: Template) -> set[str]:
    """Return the distinctive lowercase words of the template's literal parts."""
    # One findall over the joined literals; the NUL keeps words from fusing across a hole.
    text = "\x00".join(template.segments).lower()
    return {w for w in _WORD.findall(text) if w not in STOPWORDS}


@lru_cache(maxsize=65_536)
def first_clause(segments: tuple[str, ...]) -> tuple[str, ...] | None:
    """Return a template's segments up to the end of its first sentence, or None if it has one only.

    A sentence ends at ".", "!", "?" or ";" before white space, or at a line break, inside a literal
    segment: "Can't load tokenizer for '{name}'. If you were ..." gives ("Can't load tokenizer for '", "'.").
    """
    for k, segment in enumerate(segments):
        end = _CLAUSE_END.search(segment)
        if end is None:
            continue
        if not (segment[end.end() :] + "".join(segments[k + 1 :])).strip():
            return None  # the end of the last sentence: the whole template
        return (*segments[:k], segment[: end.end()])
    return None


def leading_words(template: Template, count: int, skip: frozenset[str] = frozenset()) -> list[str]:
    """Return the first ``count`` distinct words of the template's literal text, in order, not in ``skip``.

    The literal text starts at the first non-empty segment: a template opening with a placeholder
    ("{path} is not a local folder ...") opens, for a paste, with the words after it.
    """
    words: list[str] = []
    for segment in template.segments:
        for word in _WORD.findall(segment.lower()):
            if word not in STOPWORDS and word not in skip and word not in words:
                words.append(word)
                if len(words) == count:
                    return words
    return words


def message_words(text: str) -> set[str]:
    """Return the lowercase words of a pasted message, as ``literal_words`` sees templates.

    The words of a path ('/data/llm/models/vicuna-7b-delta') are left out: such a token is a placeholder's
    value, and its rare words would bring in templates that happen
    to hold them ('delta must be a float') ahead of the one whose text the message quotes. URLs stay:
    templates quote them ('https://huggingface.co/models').
    """
    return {w for w in _WORD.findall(_PATH_TOKEN.sub(" ", text.lower())) if w not in STOPWORDS}


def literal_key(template: Template) -> str:
    """Return the template's literal parts, whitespace-normalised, as one comparable string."""
    return _SPACE.sub(" ", "\x00".join(s.strip() for s in template.segments)).strip()


@lru_cache(maxsize=65_536)
def cause_text(message: str) -> str:
    """Return a template's literal text, white space normalised (cached: the same templates recur)."""
    return literal_key(parse_template(message))


def group_key(repo: str | None, file_path: str | None, message: str) -> str:
    """Return the key that says two records describe the same raise site (any version, any origin)."""
    return f"{repo or ''}|{file_path or ''}|{literal_key(parse_template(message))}"


def segments_in_order(segments: tuple[str, ...], text: str) -> float:
    """Return the share of literal characters found in order in ``text`` (linear: ``str.find`` only).

    Whitespace is normalised first because pasted messages are often re-wrapped.
    """
    haystack = _SPACE.sub(" ", text).lower()
    total = found = 0
    position = 0
    for segment in segments:
        needle = _SPACE.sub(" ", segment).strip().lower()
        if not needle:
            continue
        total += len(needle)
        hit = haystack.find(needle, position)
        if hit >= 0:
            found += len(needle)
            position = hit + len(needle)
    return found / total if total else 0.0
