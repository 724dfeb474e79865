"""Find secrets and personal data in pasted text and replace them before anything is stored or logged.

Every rule is a google-re2 pattern. RE2 matches in time linear in the input, so a hostile paste cannot
stall the bot the way a backtracking engine could; nothing here runs Python's ``re`` on user text.

The rules are tracebot's own (``_rules.py``), gitleaks' rule table and Microsoft's precisely classified
keys (``_scanner.py``, data in ``_gitleaks_rules.py`` and ``_ms_rules.py``). Each yields spans in the
original text. Spans that overlap are merged into one finding whose kind is the one of higher priority
(specific credentials, ours then the tables', then labelled or generic credentials, then personal data),
so a Hugging Face token inside a URL password is reported as a ``huggingface_token``. Secrets become
``[REDACTED:<kind>]``; the user name in a home directory becomes ``<user>`` so the path stays readable.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from itertools import islice

from records._re2 import Spans, encodable, literal_finder
from records.redact import _scanner
from records.redact._rules import RULES as _RULES
from records.redact._rules import Rule as _Rule

__all__ = ["PERSONAL_KINDS", "USER_PLACEHOLDER", "Finding", "Redaction", "marker", "redact"]

# Personal data is hidden, but finding it is no reason to warn the author about a leaked credential.
PERSONAL_KINDS = frozenset({"email", "home_user"})
USER_PLACEHOLDER = "<user>"


@dataclass(frozen=True, slots=True)
class Finding:
    """One redacted span: its kind and offsets in the original text, never the value itself."""

    kind: str
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class Redaction:
    """The redacted text and what was found in the original."""

    text: str
    findings: tuple[Finding, ...]

    @property
    def has_live_secret(self) -> bool:
        """Return True when a credential (not just personal data) was found."""
        return any(f.kind not in PERSONAL_KINDS for f in self.findings)


# Specific credentials first (ours, then gitleaks'), then labelled or generic ones, then personal data.
_GENERIC = ("aws_secret_key", "url_credentials", "bearer_token", "generic_secret")
_PRIORITY = {rule.kind: index for index, rule in reversed(list(enumerate(_RULES)))}
_PRIORITY.update({kind: 1000 + index for index, kind in enumerate(_GENERIC)})
_PRIORITY.update({kind: 2000 + index for index, kind in enumerate(sorted(PERSONAL_KINDS))})


def _rank(kind: str) -> int:
    """Return the merge priority of a kind: lower wins."""
    if kind in _PRIORITY:
        return _PRIORITY[kind]
    return 1500 if kind.startswith(("generic", "curl")) else 500


def marker(kind: str) -> str:
    """Return the text that replaces a finding of this kind."""
    return USER_PLACEHOLDER if kind == "home_user" else f"[REDACTED:{kind}]"


@dataclass(slots=True)
class _Found:
    """The raw findings of one text, possibly overlapping, in three parallel lists.

    A paste may hold hundreds; a tuple or object for each would be work for the garbage collector,
    whose full collections then land on the slowest calls. Ints and strings in a list are not.
    """

    starts: list[int] = field(default_factory=list)
    ends: list[int] = field(default_factory=list)
    kinds: list[str] = field(default_factory=list)

    def add(self, start: int, end: int, kind: str) -> None:
        """Record one finding."""
        self.starts.append(start)
        self.ends.append(end)
        self.kinds.append(kind)


def _secret_span(spans: Spans) -> tuple[int, int]:
    """Return the span of the first group that took part, or of the whole match without groups."""
    for index in range(1, len(spans)):
        span = spans[index]
        if span[0] >= 0:
            return span
    return spans[0]


def _scan(rule: _Rule, text: str, found: _Found) -> None:
    """Add the findings of one rule to found, trailing whitespace trimmed from each secret."""
    accept, accept_match, kind = rule.accept, rule.accept_match, rule.kind
    starts, ends, kinds = found.starts.append, found.ends.append, found.kinds.append
    # The checks are pure and a paste repeats its values: each distinct value is judged once per call.
    values: dict[str, bool] = {}
    matches: dict[str, bool] = {}
    for spans in rule.pattern.spans(text):
        # Most rules have no group or one: spare those the loop of _secret_span.
        start, end = spans[0] if len(spans) == 1 else spans[1] if spans[1][0] >= 0 else _secret_span(spans)
        value = text[start:end].rstrip()
        if accept_match is not None:
            whole = text[spans[0][0] : spans[0][1]]
            kept = matches.get(whole)
            if kept is None:
                kept = matches[whole] = accept_match(whole)
            if not kept:
                continue
        if not value:
            continue
        if accept is not None:
            kept = values.get(value)
            if kept is None:
                kept = values[value] = accept(value)
            if not kept:
                continue
        starts(start)
        ends(start + len(value))
        kinds(kind)


@cache
def _finder() -> Callable[[str], frozenset[str]]:
    """Return the finder of every hint and gitleaks keyword, built on first use."""
    return literal_finder({hint for rule in _RULES for hint in rule.hints} | _scanner.keywords())


def _find(text: str) -> _Found:
    """Return the raw findings of every rule whose hint occurs, possibly overlapping."""
    safe = encodable(text)
    present = _finder()(safe.lower())
    found = _Found()
    for rule in _RULES:
        if not present.isdisjoint(rule.hints):
            _scan(rule, safe, found)
    for kind, start, end in _scanner.scan(safe, present):
        found.add(start, end, kind)
    decoded = _scanner.percent_decoded(safe)
    if decoded is not None:
        # A token in a percent-encoded query ('%20hf_...') has no word boundary before it as written.
        plain, back = decoded
        present = _finder()(plain.lower())
        in_plain = _Found()
        for rule in _RULES:
            if rule.kind not in PERSONAL_KINDS and not present.isdisjoint(rule.hints):
                _scan(rule, plain, in_plain)
        for start, end, kind in zip(in_plain.starts, in_plain.ends, in_plain.kinds, strict=True):
            found.add(*back(start, end), kind)
    return found


@cache
def _ranked(kind: str) -> int:
    return _rank(kind)


def _merge(found: _Found) -> tuple[Finding, ...]:
    """Merge overlapping findings into their union, keeping the kind of the higher-priority rule."""
    starts, ends, kinds = found.starts, found.ends, found.kinds
    if not starts:
        return ()
    # By start, longest first, and between equal spans in _find's order (so of two kinds of equal
    # priority the first found wins): two stable sorts of the indices, the second on the major key.
    order = sorted(range(len(starts)), key=ends.__getitem__, reverse=True)
    order.sort(key=starts.__getitem__)
    merged: list[Finding] = []
    first = order[0]
    start, end, kind = starts[first], ends[first], kinds[first]
    for index in islice(order, 1, None):
        next_start, next_end, next_kind = starts[index], ends[index], kinds[index]
        if next_start >= end:
            merged.append(Finding(kind, start, end))
            start, end, kind = next_start, next_end, next_kind
            continue
        if _ranked(next_kind) < _ranked(kind):
            kind = next_kind
        end = max(end, next_end)
    merged.append(Finding(kind, start, end))
    return tuple(merged)


@cache
def _marker(kind: str) -> str:
    return marker(kind)


def _render(text: str, findings: tuple[Finding, ...]) -> str:
    """Return text with every finding replaced by its marker."""
    pieces = []
    position = 0
    for finding in findings:
        pieces.append(text[position : finding.start])
        pieces.append(_marker(finding.kind))
        position = finding.end
    pieces.append(text[position:])
    return "".join(pieces)


def redact(text: str) -> Redaction:
    """Replace secrets and personal data in text with markers, and say what was found where."""
    findings = _merge(_find(text))
    return Redaction(_render(text, findings), findings)
