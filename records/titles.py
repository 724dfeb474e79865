"""The message an answer is titled with: the record's template, filled with the values the paste shows.

A record's ``errorMessage`` is a template (``"such as {self.__class__.__name__}"``); the person who
pasted the error saw ``"such as MambaForCausalLM"``. ``filled_message`` returns what they saw when
their message fits the template (every literal part found, in order), with over-long values
shortened, and otherwise the template with each placeholder shown as ``…``. Linear in the length of
the paste: ``str.find`` only, no regular expression over user text.
"""

from __future__ import annotations

from itertools import pairwise

from records.matching.template import Template, parse_template, template_from_pattern

HOLE = "…"
VALUE_LIMIT = 80  # a placeholder's value (a tensor repr, a path) is shortened past this many characters
TITLE_LIMIT = 256  # Discord's embed title limit


def collapse(text: str) -> str:
    """Return ``text`` on one line: every run of whitespace becomes one space, ends stripped."""
    return " ".join(text.split())


def shorten(text: str, limit: int) -> str:
    """Return ``text`` cut to at most ``limit`` characters, the cut marked with ``…``."""
    if len(text) <= limit:
        return text
    return text[: max(limit - 1, 0)].rstrip() + HOLE if limit > 0 else ""


def message_template(error_message: str, message_pattern: str | None = None) -> Template:
    """Return the record's template: its ``errorMessage``, or its ``messagePattern`` when only that has holes."""
    template = parse_template(error_message)
    if template.holes == 0 and message_pattern:
        from_pattern = template_from_pattern(message_pattern)
        if from_pattern.holes:
            return from_pattern
    return template


def readable_template(error_message: str, message_pattern: str | None = None) -> str:
    """Return the template on one line with every placeholder shown as ``…`` (literal braces single)."""
    template = message_template(error_message, message_pattern)
    return collapse(HOLE.join(template.segments)) or collapse(error_message)


def filled_message(
    error_message: str, message_pattern: str | None, pasted: str | None, *, value_limit: int = VALUE_LIMIT
) -> str:
    """Return the message as the paste shows it when it fits the template, else the readable template."""
    if pasted is None or not pasted.strip():
        return readable_template(error_message, message_pattern)
    message = collapse(pasted)
    template = message_template(error_message, message_pattern)
    spans = _literal_spans(template, message)
    if spans is None:
        return readable_template(error_message, message_pattern)
    return _shorten_holes(message, spans, template, value_limit)


def title(
    error_class: str | None,
    error_message: str,
    message_pattern: str | None = None,
    pasted: str | None = None,
    limit: int = TITLE_LIMIT,
) -> str:
    """Return ``Class: message`` (filled from the paste when it fits), at most ``limit`` characters."""
    message = filled_message(error_message, message_pattern, pasted) or "(no message)"
    return shorten(f"{error_class or 'Error'}: {message}", limit)


def _literal_spans(template: Template, message: str) -> list[tuple[int, int]] | None:
    """Return where each literal part lies in ``message``, in order; None when one is missing.

    Middle parts take their first occurrence; the last part its last one, so that a final hole
    before it takes everything between (as ``(.*)`` would).
    """
    needles = [collapse(s) for s in template.segments]
    spans: list[tuple[int, int]] = []
    position = 0
    last = max((i for i, n in enumerate(needles) if n), default=-1)
    for index, needle in enumerate(needles):
        if not needle:
            continue
        hit = message.rfind(needle, position) if index == last and index > 0 else message.find(needle, position)
        if hit < 0:
            return None
        spans.append((hit, hit + len(needle)))
        position = hit + len(needle)
    return spans


def _shorten_holes(message: str, spans: list[tuple[int, int]], template: Template, limit: int) -> str:
    """Rebuild ``message`` with every placeholder's value (the text between literal parts) shortened."""
    if not spans:  # a template that is all placeholders: the paste's message is the value
        return message
    holes_before = bool(template.segments) and not collapse(template.segments[0])
    holes_after = bool(template.segments) and not collapse(template.segments[-1])
    pieces: list[str] = []
    start = spans[0][0]
    # Text around the template that no placeholder takes (a progress bar, a "!!! Exception !!!" banner
    # before it, a log suffix after it) is not the message: only a hole at an end widens the title.
    pieces.append(_value(message[:start], limit) if holes_before else "")
    for (_, end), (next_start, _) in pairwise(spans):
        pieces.append(message[start:end])
        pieces.append(_value(message[end:next_start], limit))
        start = next_start
    pieces.append(message[start : spans[-1][1]])
    tail = message[spans[-1][1] :]
    pieces.append(_value(tail, limit) if holes_after else "")
    return "".join(pieces)


def _value(text: str, limit: int) -> str:
    """Shorten one placeholder's value, keeping the spaces around it."""
    core = text.strip()
    if len(core) <= limit:
        return text
    lead = " " if text[:1].isspace() else ""
    trail = " " if text[-1:].isspace() else ""
    return f"{lead}{shorten(core, limit)}{trail}"
