"""Find secrets and personal data in pasted text and replace them before anything is stored or logged.

Every rule is a google-re2 pattern. RE2 matches in time linear in the input, so a hostile paste cannot
stall the bot the way a backtracking engine could; nothing here runs Python's ``re`` on user text.

The rules are tracebot's own (``_rules.py``), detect-secrets' detectors ported (``_ported.py``), gitleaks'
rule table and Microsoft's precisely classified keys (``_scanner.py``, data in ``_gitleaks_rules.py`` and
``_ms_rules.py``); their checks read labelled values (``_labelled.py``), how random a value is
(``_randomness.py``), gitleaks' allowlists (``_allowlists.py``) and what a credential's format says
(``_formats.py``). A text is also read percent-decoded (``_percent.py``). Each rule yields spans in the
original text. Spans that overlap are merged into one finding whose kind is the one of higher priority
(specific credentials, ours then the tables', then labelled or generic credentials, then personal data),
so a Hugging Face token inside a URL password is reported as a ``huggingface_token``. Secrets become
``[REDACTED:<kind>]``; the user name in a home directory becomes ``<user>`` so the path stays readable.
"""

from __future__ import annotations

import operator
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from itertools import compress, islice, repeat
from typing import TypeVar

from records._re2 import Spans, encodable, literal_finder
from records.redact import _scanner
from records.redact._allowlists import Screen
from records.redact._percent import percent_decoded
from records.redact._ported import DETECT_SECRETS
from records.redact._rules import RULES as _OWN_RULES
from records.redact._rules import Rule as _Rule

__all__ = ["PERSONAL_KINDS", "USER_PLACEHOLDER", "Finding", "Redaction", "marker", "redact"]

_T = TypeVar("_T")

# Ours first, then detect-secrets' ported detectors (gitleaks' and Microsoft's tables run after both).
_RULES = (*_OWN_RULES, *DETECT_SECRETS)

# Personal data is hidden, but finding it is no reason to warn the author about a leaked credential.
PERSONAL_KINDS = frozenset({"email", "home_user", "ip_address"})
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


def _accept(rule: _Rule, present: frozenset[str]) -> Callable[[str, Screen], bool] | None:
    """Return the rule's check on a value and the text's Screen, or None when it would accept every value.

    present: the literals of _finder that occur in the text (lower-cased).
    """
    if rule.rejected_only_with and present.isdisjoint(rule.rejected_only_with):
        return None
    if rule.accept_in is not None:
        return rule.accept_in
    accept = rule.accept
    return None if accept is None else lambda value, _: accept(value)


def _accept_matches(rule: _Rule) -> Callable[[list[str]], list[bool]] | None:
    """Return the rule's check on whole matches, as one call for all of a text's matches."""
    if rule.accept_matches is not None:
        return rule.accept_matches
    accept_match = rule.accept_match
    return None if accept_match is None else lambda wholes: list(map(accept_match, wholes))


def _scan(rule: _Rule, text: str, present: frozenset[str], found: _Found, screen: Screen) -> None:
    """Add the findings of one rule in text (whose Screen is given) to found, trailing whitespace trimmed.

    Each match's value is judged as it is found; then, when the rule judges matches too, the matches whose
    value passed are judged all at once.
    """
    accept, accept_matches, accept_at, locate = (
        _accept(rule, present),
        _accept_matches(rule),
        rule.accept_at,
        rule.locate,
    )
    # The checks are pure and a paste repeats its values: each distinct value is judged once per call.
    values: dict[str, bool] = {}
    starts: list[int] = []
    ends: list[int] = []
    wholes: list[tuple[int, int]] = []  # the spans of the matches, when the rule judges them
    for spans in rule.pattern.spans(text):
        if accept_at is not None and not accept_at(text, *spans[0]):
            continue
        if locate is not None:
            start, end = locate(text, *spans[0])
        else:
            # Most rules have no group or one: spare those the loop of _secret_span.
            start, end = spans[0] if len(spans) == 1 else spans[1] if spans[1][0] >= 0 else _secret_span(spans)
        value = text[start:end].rstrip()
        if not value:
            continue
        if accept is not None:
            verdict = values.get(value)
            if verdict is None:
                verdict = values[value] = accept(value, screen)
            if not verdict:
                continue
        starts.append(start)
        ends.append(start + len(value))
        if accept_matches is not None:
            wholes.append(spans[0])
    if accept_matches is not None and starts:
        starts, ends = _judged(text, accept_matches, starts, ends, wholes)
    found.starts.extend(starts)
    found.ends.extend(ends)
    found.kinds.extend([rule.kind] * len(starts))


def _judged(
    text: str, accept_matches: Callable[[list[str]], list[bool]], starts: list[int], ends: list[int], wholes: Spans
) -> tuple[list[int], list[int]]:
    """Return the findings (starts and ends) whose match (spans in wholes) passes the check, each asked once."""
    matches = [text[start:end] for start, end in wholes]
    distinct = list(dict.fromkeys(matches))
    verdicts = dict(zip(distinct, accept_matches(distinct), strict=True))
    kept = list(map(verdicts.__getitem__, matches))
    return list(compress(starts, kept)), list(compress(ends, kept))


@cache
def _finder() -> Callable[[str], frozenset[str]]:
    """Return the finder of every hint, literal a check needs and gitleaks keyword, built on first use."""
    ours = {literal for rule in _RULES for literal in (*rule.hints, *rule.rejected_only_with)}
    return literal_finder(ours | _scanner.keywords())


def _find(text: str) -> _Found:
    """Return the raw findings of every rule whose hint occurs, possibly overlapping."""
    safe = encodable(text)
    present = _finder()(safe.lower())
    found = _Found()
    screen = Screen(safe)
    _scan_rules(safe, present, found, screen, personal=True)
    percent = percent_decoded(safe)  # decoded once: a paste of escapes costs a step for each
    for kind, start, end in _scanner.scan(safe, present, screen=screen, dominated=_Dominated(found), decoded=percent):
        found.add(start, end, kind)
    # A token in a percent-encoded query ('%20hf_...') has no word boundary before it as written; a value
    # labelled inside an escaped JSON string ('{\\"api_key\\": \\"...\\"}') is between no quotes as written.
    for decoded in (percent, _scanner.json_unescaped(safe)):
        if decoded is not None:
            _scan_decoded(*decoded, found)
    return found


def _scan_decoded(plain: str, back: Callable[[int, int], tuple[int, int]], found: _Found) -> None:
    """Add the credentials our rules find in a decoded form of the text, at their spans in the original."""
    in_plain = _Found()
    _scan_rules(plain, _finder()(plain.lower()), in_plain, Screen(plain), personal=False)
    for start, end, kind in zip(in_plain.starts, in_plain.ends, in_plain.kinds, strict=True):
        found.add(*back(start, end), kind)


def _scan_rules(text: str, present: frozenset[str], found: _Found, screen: Screen, *, personal: bool) -> None:
    """Add the findings of our rules (and the ported ones) whose hint occurs in text; personal data too or not.

    A rule that reads the scanner's view (``Rule.on_view``) is matched on it, made once when first needed.
    """
    viewed: tuple[str, Screen] | None = None
    for rule in _RULES:
        if present.isdisjoint(rule.hints) or (not personal and rule.kind in PERSONAL_KINDS):
            continue
        if rule.on_view:
            viewed = viewed or _viewed(text, screen)
            _scan(rule, viewed[0], present, found, viewed[1])
        else:
            _scan(rule, text, present, found, screen)


def _viewed(text: str, screen: Screen) -> tuple[str, Screen]:
    """Return the scanner's view of text (same length, so offsets hold) and its Screen."""
    viewed = _scanner.view(text)
    return (text, screen) if viewed == text else (viewed, screen.view(viewed))


@cache
def _ranked(kind: str) -> int:
    return _rank(kind)


_DOMINATED_AFTER = 32
_MAPPED_PER_CHECK = 64


class _Dominated:
    """Tells a finding that the merge would drop for one found already that holds it, with the same end.

    A finding inside another one whose priority is higher or equal changes neither the union nor its kind
    (between equal priorities the merge keeps the one that starts first, the longer at equal starts, and
    the one found first at equal spans): so the gitleaks rules need not check it (ours and gitleaks'
    generic rule both find each line of an env dump). Asked of a kind, the lowest start a candidate can
    have and its end, it answers for every candidate between. Only the findings made before the scan are
    consulted, looked up by their end: the first one found with that end, from a map built in C; when it
    does not hold the candidate and others share its end, each of those, from a table built in Python.

    Mapping _MAPPED_PER_CHECK findings costs about what checking one candidate in full does (whose first
    check may also screen the text for the rule's allowlists): the map is built for a question about
    enough candidates at once to pay for it, else once _DOMINATED_AFTER candidates were asked of (until
    then each is checked).
    """

    __slots__ = ("_asked", "_by_end", "_count", "_first", "_found", "_sharing")

    def __init__(self, found: _Found) -> None:
        self._found = found
        self._count = len(found.starts)
        self._asked = 0
        self._first: dict[int, int] | None = None
        self._sharing: Counter[int] | None = None
        self._by_end: dict[int, list[tuple[int, int]]] | None = None

    def __call__(self, kind: str, start: int, end: int) -> bool:
        # Spelled out rather than calls to helpers: asked of every candidate of a gitleaks rule.
        first = self._first if self._first is not None else self._map(1)
        held = None if first is None else first.get(end)
        if held is None:
            return False
        rank = _ranked(kind)
        if self._found.starts[held] <= start and _ranked(self._found.kinds[held]) <= rank:
            return True
        return self._held_by_another(rank, start, end)

    def each(self, kind: str, spans: list[tuple[int, int] | None]) -> list[bool]:
        """Tell of each span (None: not known) what asking of it alone would: one question about many candidates.

        A gitleaks rule asks of every match of a text at once (hundreds in an env dump), the first finding
        with each end read inline.
        """
        first = self._map(len(spans)) if spans else None
        if first is None:
            return [False] * len(spans)
        starts, kinds, rank = self._found.starts, self._found.kinds, _ranked(kind)
        verdicts = []
        for span in spans:
            held = None if span is None else first.get(span[1])
            if held is None or span is None:
                verdicts.append(False)
            elif starts[held] <= span[0] and _ranked(kinds[held]) <= rank:
                verdicts.append(True)
            else:
                verdicts.append(self._held_by_another(rank, *span))
        return verdicts

    def _map(self, asked: int) -> dict[int, int] | None:
        """Count a question about this many candidates; return the map of ends once built (built when it pays)."""
        if self._first is None:
            self._asked += asked
            if self._asked <= _DOMINATED_AFTER and asked * _MAPPED_PER_CHECK < self._count:
                return None
            count = self._count
            # Built from the last finding back, so that of the findings with one end the first is kept.
            ends = reversed(self._found.ends[:count])
            self._first = dict(zip(ends, range(count - 1, -1, -1), strict=True)) if count else {}
        return self._first

    def _held_by_another(self, rank: int, start: int, end: int) -> bool:
        """Tell whether a finding other than the first with this end holds a candidate of this rank."""
        if self._sharing is None:
            self._sharing = Counter(islice(self._found.ends, self._count))  # counted in C
        if self._sharing[end] < 2:
            return False
        if self._by_end is None:
            self._by_end = self._ends()
        # A loop, not any() over a generator, whose making costs more than the one or two holders.
        for held_start, held_rank in self._by_end[end]:  # noqa: SIM110
            if held_start <= start and held_rank <= rank:
                return True
        return False

    def _ends(self) -> dict[int, list[tuple[int, int]]]:
        """Return the (start, rank) of the findings made before the scan, by their end."""
        found = self._found
        by_end: dict[int, list[tuple[int, int]]] = {}
        for start, end, kind in islice(zip(found.starts, found.ends, found.kinds, strict=True), self._count):
            by_end.setdefault(end, []).append((start, _ranked(kind)))
        return by_end


def _merge(found: _Found) -> _Found:
    """Merge overlapping findings into their union, keeping the kind of the higher-priority rule.

    The result is ordered by start and disjoint.
    """
    starts, ends, kinds = found.starts, found.ends, found.kinds
    # By start, longest first, and between equal spans in _find's order (so of two kinds of equal
    # priority the first found wins): two stable sorts of the indices, the second on the major key.
    order = sorted(range(len(starts)), key=ends.__getitem__, reverse=True)
    order.sort(key=starts.__getitem__)
    ordered = _Found(_gather(starts, order), _gather(ends, order), _gather(kinds, order))
    # Rules rarely overlap (none do on a paste of e-mail addresses): when no finding starts before the
    # one before it ends, the ordered findings are their own union, told by one loop in C.
    if any(map(operator.lt, islice(ordered.starts, 1, None), ordered.ends)):
        return _union(ordered)
    return ordered


def _gather(column: list[_T], order: list[int]) -> list[_T]:
    return list(map(column.__getitem__, order))


def _union(ordered: _Found) -> _Found:
    """Return the union of findings ordered by start (longest first), keeping the higher-priority kind."""
    merged = _Found()
    rows = zip(ordered.starts, ordered.ends, ordered.kinds, strict=True)
    start, end, kind = next(rows)
    for next_start, next_end, next_kind in rows:
        if next_start >= end:
            merged.add(start, end, kind)
            start, end, kind = next_start, next_end, next_kind
            continue
        if _ranked(next_kind) < _ranked(kind):
            kind = next_kind
        end = max(end, next_end)
    merged.add(start, end, kind)
    return merged


# Each field's slot, set directly: what a frozen dataclass's __init__ does through object.__setattr__.
_NEW = object.__new__
_SET_KIND: Callable[[Finding, str], None] = vars(Finding)["kind"].__set__
_SET_START: Callable[[Finding, int], None] = vars(Finding)["start"].__set__
_SET_END: Callable[[Finding, int], None] = vars(Finding)["end"].__set__


def _findings(merged: _Found) -> tuple[Finding, ...]:
    """Return the merged findings as Finding objects.

    They are built a field at a time, each field of every finding in one loop in C: Finding's __init__
    (three object.__setattr__ calls in Python) takes twice as long, on a paste with hundreds of findings.
    """
    findings = list(map(_NEW, repeat(Finding, len(merged.starts))))
    deque(map(_SET_KIND, findings, merged.kinds), maxlen=0)
    deque(map(_SET_START, findings, merged.starts), maxlen=0)
    deque(map(_SET_END, findings, merged.ends), maxlen=0)
    return tuple(findings)


@cache
def _marker(kind: str) -> str:
    return marker(kind)


def _render(text: str, merged: _Found) -> str:
    """Return text with every (merged) finding replaced by its marker."""
    pieces = []
    position = 0
    for start, end, kind in zip(merged.starts, merged.ends, merged.kinds, strict=True):
        pieces.append(text[position:start])
        pieces.append(_marker(kind))
        position = end
    pieces.append(text[position:])
    return "".join(pieces)


def redact(text: str) -> Redaction:
    """Replace secrets and personal data in text with markers, and say what was found where."""
    merged = _merge(_find(text))
    return Redaction(_render(text, merged), _findings(merged))
