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

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache

from records._re2 import Match, encodable, literal_finder
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


def _secret_span(match: Match, groups: int) -> tuple[int, int]:
    """Return the span of the first group that took part, or of the whole match without groups."""
    for group in range(1, groups + 1):
        span = match.span(group)
        if span[0] >= 0:
            return span
    return match.span()


def _scan(rule: _Rule, text: str) -> Iterator[tuple[int, int]]:
    """Yield the secret spans of one rule, trailing whitespace trimmed."""
    groups = rule.pattern.groups
    for match in rule.pattern.finditer(text):
        start, end = _secret_span(match, groups)
        value = text[start:end].rstrip()
        if rule.accept_match is not None and not rule.accept_match(text[match.start() : match.end()]):
            continue
        if value and (rule.accept is None or rule.accept(value)):
            yield start, start + len(value)


@cache
def _finder() -> Callable[[str], frozenset[str]]:
    """Return the finder of every hint and gitleaks keyword, built on first use."""
    return literal_finder({hint for rule in _RULES for hint in rule.hints} | _scanner.keywords())


def _find(text: str) -> list[Finding]:
    """Return the raw findings of every rule whose hint occurs, possibly overlapping."""
    safe = encodable(text)
    present = _finder()(safe.lower())
    found: list[Finding] = []
    for rule in _RULES:
        if not present.isdisjoint(rule.hints):
            found.extend(Finding(rule.kind, start, end) for start, end in _scan(rule, safe))
    found.extend(Finding(kind, start, end) for kind, start, end in _scanner.scan(safe, present))
    decoded = _scanner.percent_decoded(safe)
    if decoded is not None:
        # A token in a percent-encoded query ('%20hf_...') has no word boundary before it as written.
        plain, back = decoded
        present = _finder()(plain.lower())
        for rule in _RULES:
            if rule.kind not in PERSONAL_KINDS and not present.isdisjoint(rule.hints):
                found.extend(Finding(rule.kind, *back(start, end)) for start, end in _scan(rule, plain))
    return found


def _merge(findings: list[Finding]) -> tuple[Finding, ...]:
    """Merge overlapping findings into their union, keeping the kind of the higher-priority rule."""
    merged: list[Finding] = []
    for finding in sorted(findings, key=lambda f: (f.start, -f.end)):
        last = merged[-1] if merged else None
        if last is None or finding.start >= last.end:
            merged.append(finding)
            continue
        kind = min(last.kind, finding.kind, key=_rank)
        merged[-1] = Finding(kind, last.start, max(last.end, finding.end))
    return tuple(merged)


def _render(text: str, findings: tuple[Finding, ...]) -> str:
    """Return text with every finding replaced by its marker."""
    pieces = []
    position = 0
    for finding in findings:
        pieces.append(text[position : finding.start])
        pieces.append(marker(finding.kind))
        position = finding.end
    pieces.append(text[position:])
    return "".join(pieces)


def redact(text: str) -> Redaction:
    """Replace secrets and personal data in text with markers, and say what was found where."""
    findings = _merge(_find(text))
    return Redaction(_render(text, findings), findings)
