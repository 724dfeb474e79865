"""Message templates: literal text with ``{expression}`` placeholders, and the regex matching them.

A template is written like the body of an f-string: ``{expr}`` is a placeholder for a value only known
at run time, and a literal brace is doubled (``{{`` and ``}}``). An expression that itself starts or
ends with a brace is padded with a space (``{ {'a': 1} }``), as Python asks for in f-strings, so the
text can always be split back into its parts (:func:`split_template`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

# Regex metacharacters; everything else is matched as itself (google-re2 accepts a backslash before
# any punctuation, but escaping only these keeps the stored patterns readable).
_REGEX_SPECIAL = frozenset("\\.^$*+?{}[]|()")
_CONTROL_ESCAPES = {"\n": "\\n", "\t": "\\t", "\r": "\\r", "\f": "\\f", "\v": "\\v"}
_VALUE_GROUP = "(.+?)"
_BRACKETS = {"(": ")", "[": "]", "{": "}"}


@dataclass(frozen=True)
class Placeholder:
    """A value of the message only known at run time, shown as its source expression."""

    expr: str


Part = str | Placeholder


def normalise(parts: Iterable[Part]) -> list[Part]:
    """Merge neighbouring literal parts and drop empty ones."""
    merged: list[Part] = []
    for part in parts:
        if isinstance(part, str) and merged and isinstance(merged[-1], str):
            merged[-1] += part
        elif part != "":
            merged.append(part)
    return merged


def has_literal_text(parts: Iterable[Part]) -> bool:
    """Tell whether any literal part holds more than white space."""
    return any(isinstance(part, str) and part.strip() for part in parts)


def is_pure_literal(parts: list[Part]) -> bool:
    """Tell whether the parts are all literal text (no placeholder)."""
    return all(isinstance(part, str) for part in parts)


def literal_words(parts: Iterable[Part]) -> str:
    """Return the literal text of the parts, placeholders replaced by a space."""
    return "".join(part if isinstance(part, str) else " " for part in parts)


def template_text(parts: Iterable[Part]) -> str:
    """Write the parts as a template: ``{expr}`` placeholders, literal braces doubled."""
    out: list[str] = []
    for part in parts:
        if isinstance(part, str):
            out.append(part.replace("{", "{{").replace("}", "}}"))
        else:
            expr = part.expr
            padded = f" {expr} " if expr.startswith("{") or expr.endswith("}") else expr
            out.append("{" + padded + "}")
    return "".join(out)


def escape_literal(text: str) -> str:
    """Escape literal text for a google-re2 pattern, keeping it readable."""
    out: list[str] = []
    for char in text:
        if char in _REGEX_SPECIAL:
            out.append("\\" + char)
        elif char in _CONTROL_ESCAPES:
            out.append(_CONTROL_ESCAPES[char])
        elif ord(char) < 0x20 or ord(char) == 0x7F:
            out.append(f"\\x{{{ord(char):02x}}}")
        else:
            out.append(char)
    return "".join(out)


def template_pattern(parts: Iterable[Part]) -> str:
    """Build the regex for the parts: escaped literals, a lazy group per placeholder.

    ``(?s)`` lets a value span lines (a tensor repr, a traceback inside a message).
    """
    body = "".join(escape_literal(p) if isinstance(p, str) else _VALUE_GROUP for p in parts)
    return "(?s)" + body if _VALUE_GROUP in body else body


def split_template(template: str) -> list[Part]:
    """Split a template back into literal parts and placeholders (the inverse of template_text)."""
    parts: list[Part] = []
    literal: list[str] = []
    index = 0
    while index < len(template):
        pair = template[index : index + 2]
        if pair in ("{{", "}}"):
            literal.append(pair[0])
            index += 2
        elif template[index] == "{":
            end = _placeholder_end(template, index + 1)
            parts.extend(["".join(literal), Placeholder(template[index + 1 : end].strip())])
            literal = []
            index = end + 1
        else:
            literal.append(template[index])
            index += 1
    parts.append("".join(literal))
    return normalise(parts)


def walk_code(text: str, start: int = 0) -> Iterator[tuple[int, str, str, str]]:
    """Yield ``(index, char, quote, was)`` for each character of Python expression text.

    ``quote`` and ``was`` are the string quote in effect after and before the character ("" outside
    strings); in a string, a backslash hides the next character.
    """
    quote, index = "", start
    while index < len(text):
        char, was = text[index], quote
        if quote and char == "\\":
            index += 1  # the escaped character is part of the string, never its end
        elif quote and char == quote:
            quote = ""
        elif not quote and char in "'\"":
            quote = char
        yield index, char, quote, was
        index += 1


def _placeholder_end(template: str, start: int) -> int:
    """Return the index of the brace closing the placeholder opened just before ``start``."""
    closers: list[str] = []
    for index, char, quote, was in walk_code(template, start):
        if quote or was:
            continue  # inside a string literal, or the quote ending one
        if char in _BRACKETS:
            closers.append(_BRACKETS[char])
        elif char == "}" and not closers:
            return index
        elif closers and char == closers[-1]:
            closers.pop()
    raise ValueError(f"unclosed placeholder at offset {start - 1} in template")


def render_template(template: str, value: Callable[[str], str]) -> str:
    """Render a template, asking ``value`` for the text of each placeholder expression."""
    return "".join(p if isinstance(p, str) else value(p.expr) for p in split_template(template))
