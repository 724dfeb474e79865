"""Checks a generated explanation must pass: grounded steps, no unfilled placeholder, no repeated section.

Used by the test over every shipped record and by ``make explain-report``. Plain records in, a list
of problems out; an empty list means the record passes.
"""

from __future__ import annotations

import re

from records.mining._explain._message import identifiers
from records.mining._template import Placeholder, split_template
from records.model import Record

MIN_REPEAT_CHARS = 24
# Words every install or value step uses: naming them names nothing about this error.
_COMMON = frozenset({"pip", "install", "none", "true", "false", "self", "the", "and", "or"})
_FORMAT_FIELD = re.compile(r"\{[A-Za-z_][\w.]*(?:\(\))?\}")
_SECTIONS = {
    "documentation": "documentation",
    "triggerScenarios": "trigger_scenarios",
    "commonSituations": "common_situations",
    "exampleFix": "example_fix",
    "validationCode": "validation_code",
}


def grounding_words(record: Record) -> set[str]:
    """Return the words of the guard, message and signature: the source window, message and names."""
    texts = [
        record.error_message,
        record.source_code or "",
        record.enclosing_function or "",
        record.enclosing_class or "",
    ]
    return {w.lower() for text in texts for w in re.findall(r"[A-Za-z0-9]+", text) if len(w) > 1}


def generated_texts(record: Record) -> list[tuple[str, str]]:
    """Return (field, text) for every generated text of a record, one entry per solution."""
    found: list[tuple[str, str]] = []
    for wire, name in _SECTIONS.items():
        value = getattr(record, name)
        if wire in record.generated and value:
            found.append((wire, value))
    if "solutions" in record.generated:
        found.extend(("solutions", step) for step in record.solutions)
    return found


def problems(record: Record) -> list[str]:
    """Return what is wrong with a record's generated text (empty when nothing is)."""
    found: list[str] = []
    words = grounding_words(record)
    if "solutions" in record.generated:
        for step in record.solutions:
            if not _names_a_grounded_identifier(step, words):
                found.append(f"solution names no identifier of the guard, message or signature: {step!r}")
    holes = {f"{{{part.expr}}}" for part in split_template(record.error_message) if isinstance(part, Placeholder)}
    for wire, text in generated_texts(record):
        if "\ue000" in text or _FORMAT_FIELD.search(text) or any(hole in text for hole in holes):
            found.append(f"{wire} has an unfilled placeholder: {text[:80]!r}")
    found.extend(_repeats(generated_texts(record)))
    return found


def _names_a_grounded_identifier(step: str, words: set[str]) -> bool:
    for name in identifiers(step):
        parts = {p.lower() for p in re.findall(r"[A-Za-z0-9]+", name)} - _COMMON
        if parts & words:
            return True
    return False


def _repeats(texts: list[tuple[str, str]]) -> list[str]:
    normal = [(wire, re.sub(r"\W+", " ", text.lower()).strip()) for wire, text in texts]
    found = []
    for i, (first, a) in enumerate(normal):
        for second, b in normal[i + 1 :]:
            shorter, longer = sorted((a, b), key=len)
            if a == b or (len(shorter) >= MIN_REPEAT_CHARS and shorter in longer):
                found.append(f"{first} and {second} repeat each other: {shorter[:60]!r}")
    return found
