"""gitleaks' allowlists, and what one text's Screen spares of them and of the placeholder test.

An allowlist lets a finding go when its regex matches the secret, the match or the line, or (as gitleaks
has it) when a stop word occurs in the secret; a list of condition AND needs both. The placeholder test
and the entropy are in _randomness.py.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import re2

from records._re2 import LinePattern, SpanPattern, asked_where_flagged, compile_spans, flag_lines, literal_finder
from records.redact._randomness import _FILLER, shannon
from records.redact._split import class_end


@dataclass(frozen=True, slots=True)
class Allow:
    """One allowlist of gitleaks' table, compiled on RE2."""

    target: str  # "secret", "match" or "line"
    pattern: SpanPattern | None
    stopwords: tuple[str, ...]
    both: bool  # condition AND: the regex and a stop word must both accept
    # gitleaks' global list holds ~1,500 stop words: one RE2 Set pass per finding instead of 1,500
    # substring tests (most of a 16 KB paste's redaction time when it holds many candidates).
    stop_finder: Callable[[str], frozenset[str]] | None = None
    # The regex with its anchors and word boundaries dropped (see Screen), None when it has no regex or
    # could not be relaxed.
    relaxed: SpanPattern | None = None
    regexes: tuple[str, ...] = ()  # the regexes of pattern, which Checks joins with other lists'

    def has_stopword(self, lowered: str) -> bool:
        """Return True when a stop word occurs in the (lower-cased) secret."""
        if self.stop_finder is not None:
            return bool(self.stop_finder(lowered))
        return any(word in lowered for word in self.stopwords)

    def _target(self, secret: str, match: str, line: str) -> str:
        return secret if self.target == "secret" else match if self.target == "match" else line

    def accepts_regex(self, secret: str, match: str, line: str) -> bool:
        """Return True when this allowlist's regex lets the finding go (stop words aside)."""
        return self.pattern is not None and _search(self.pattern, self._target(secret, match, line))

    def accepts(self, secret: str, match: str, line: str, screen: Screen | None = None) -> bool:
        """Return True when this allowlist lets the finding go.

        screen: what occurs in the text the finding is part of; it spares the tests that cannot pass there.
        """
        if screen is None:
            by_regex = self.pattern is not None and _search(self.pattern, self._target(secret, match, line))
            by_word = bool(self.stopwords) and self.has_stopword(secret.lower())
        else:
            by_regex = (
                self.pattern is not None
                and screen.regex_may_match(self)
                and _search(self.pattern, self._target(secret, match, line))
            )
            words = screen.stopwords(self)
            if words is None:
                by_word = bool(self.stopwords) and self.has_stopword(secret.lower())
            else:
                by_word = bool(words) and _has_any(words, secret.lower())
        if self.both and self.pattern is not None and self.stopwords:
            return by_regex and by_word
        return by_regex or by_word


def _has_any(words: tuple[str, ...], lowered: str) -> bool:
    return any(map(lowered.__contains__, words))


def _search(pattern: SpanPattern, text: str) -> bool:
    return pattern.occurs(text)


def _alternation(regexes: list[str]) -> SpanPattern | None:
    return compile_spans("|".join(f"(?:{r})" for r in regexes)) if regexes else None


_ASSERTIONS = frozenset("AbBz")


def relax(regex: str) -> str | None:
    """Return regex with its anchors and word boundaries dropped, or None when it cannot be read here.

    The relaxed regex matches wherever the regex does, whatever surrounds the match: where the regex finds
    something in a part of a text (a secret, its match, its line), the relaxed one finds it in the text.
    """
    parts = _regex_parts(regex)
    if parts is None:
        return None
    return "".join(part for _, part in parts if part not in ("^", "$") and not _is_assertion(part))


def lined(regex: str) -> str | None:
    r"""Return regex read in multi-line mode, \A and \z as line anchors, or None when it cannot be read here.

    Wherever the regex matches a value, the lined regex matches the same characters of a text that holds the
    value on a line of its own: its anchors match at the value's ends there too, and a word boundary at an
    end sees a line break as it sees the value's end (no word character either way). It may match more (at
    the lines of a value with line breaks, or across lines), never less: see accepted_each.
    """
    parts = _regex_parts(regex)
    if parts is None or any(regex.startswith("(?", at) and _unsets_multiline(regex, at + 2) for at, _ in parts):
        return None
    return "(?m)" + "".join(_LINE_ANCHORS.get(part, part) for _, part in parts)


_LINE_ANCHORS = {"\\A": "^", "\\z": "$"}


def _regex_parts(regex: str) -> list[tuple[int, str]] | None:
    r"""Split regex into character classes, escapes and single characters, each with its offset.

    None when it cannot be read here: a quoted run (``\Q``) or a class that never ends.
    """
    if "\\Q" in regex:
        return None  # a quoted run would need its own reading
    parts: list[tuple[int, str]] = []
    index = 0
    while index < len(regex):
        if regex[index] == "[":
            end = class_end(regex, index)
            if end < 0:
                return None
        else:
            end = index + (2 if regex[index] == "\\" else 1)
        parts.append((index, regex[index:end]))
        index = end
    return parts


def _is_assertion(part: str) -> bool:
    r"""Tell whether a part of a regex is an anchor or word-boundary escape (``\A``, ``\b``, ``\B``, ``\z``)."""
    return part[:1] == "\\" and part[1:2] in _ASSERTIONS


def _unsets_multiline(regex: str, at: int) -> bool:
    """Tell whether the flags of a group opened just before at turn multi-line mode off ('(?-m)', '(?i-m:')."""
    flags = regex[at:]
    flags = flags[: min((flags.find(c) for c in ":)" if c in flags), default=0)]
    return "-" in flags and "m" in flags.split("-", 1)[1]


_FINDER_FROM = 16  # stop words; below this, plain substring tests are quicker than an RE2 call


def allowlist(entry: dict[str, Any]) -> Allow:
    """Compile one allowlist entry of gitleaks' table."""
    stopwords = tuple(word.lower() for word in entry.get("stopwords", []))
    regexes = entry.get("regexes", [])
    return Allow(
        target=entry.get("regexTarget", "secret"),
        pattern=_alternation(regexes),
        stopwords=stopwords,
        both=entry.get("condition") == "AND",
        stop_finder=literal_finder(stopwords) if len(stopwords) >= _FINDER_FROM else None,
        relaxed=_relaxed(regexes),
        regexes=tuple(regexes),
    )


@dataclass(frozen=True, slots=True)
class _Joined:
    """The regexes of several allowlists on one target in one pattern: one RE2 call asks them all."""

    pattern: SpanPattern
    members: tuple[Allow, ...]
    lined: LinePattern | None = None  # the pattern read over many values, one a line (see lined)


def joined(allows: list[Allow]) -> _Joined | None:
    """Return the regexes of these lists (all on one target) as one pattern, None when none has a regex."""
    with_regex = tuple(a for a in allows if a.pattern is not None)
    if not with_regex:
        return None
    regexes = [r for a in with_regex for r in a.regexes]
    each = [lined(r) for r in regexes]
    return _Joined(
        compile_spans("|".join(f"(?:{r})" for r in regexes)),
        with_regex,
        None if None in each else _lined_alternation([r for r in each if r is not None]),
    )


def _lined_alternation(regexes: list[str]) -> LinePattern | None:
    try:
        return LinePattern("|".join(f"(?:{r})" for r in regexes))
    except re2.error:
        return None  # an anchor made a line anchor under a quantifier ('\\A*'): no batch for these lists


# Values asked of at once, below which each is asked alone: the join and the pass over them cost about what
# a few calls do.
LINED_FROM = 8


def accepted_each(found: _Joined, values: Sequence[str]) -> list[bool]:
    """Return, for each value, whether the joined regexes match it: one RE2 pass over all, then the few it flags.

    Where the pattern matches a value, the lined one matches inside the value's line of the values joined
    one a line (see lined), so flag_lines flags a superset of the values the pattern matches.
    """
    flagged = None if found.lined is None or len(values) < LINED_FROM else flag_lines(found.lined, values, most(values))
    if flagged is None:
        return [found.pattern.occurs(value) for value in values]
    return asked_where_flagged(found.pattern.occurs, values, flagged)


def most(values: Sequence[str]) -> int:
    """Return how many lines flag_lines may flag before asking each value alone costs less than going on.

    A flagged value costs the pass a call into RE2 and then its own test, about twice what the test alone
    costs: past a quarter of the values flagged, the pass has spent what it could spare.
    """
    return len(values) // 4


@dataclass(frozen=True, slots=True)
class Checks:
    """A rule's allowlists and the global one, grouped so that a finding costs one RE2 call per target.

    A finding is let go when any list accepts it: a list of condition OR accepts by its regex or by a stop
    word, so their regexes on one target can be asked as one alternation, their stop words together. Lists
    of condition AND are asked one by one.
    """

    secret: _Joined | None
    match: _Joined | None
    line: _Joined | None
    worded: tuple[Allow, ...]  # lists of condition OR with stop words
    both: tuple[Allow, ...]  # lists of condition AND

    def whole(self) -> _Plan:
        """Return the checks as a plan for a text not screened: every regex and stop word is asked."""
        return _Plan(
            secret=None if self.secret is None else self.secret.pattern,
            match=None if self.match is None else self.match.pattern,
            line=None if self.line is None else self.line.pattern,
            words=None,
            worded=self.worded,
            both=self.both,
        )

    def accepts_each(self, secrets: Sequence[str], matches: Sequence[str], lines: Sequence[str]) -> list[bool]:
        """Return, for each finding (its secret, match and line), whether some allowlist lets it go.

        The regexes of each target are asked of every finding at once (see accepted_each); stop words and
        lists of condition AND, finding by finding.
        """
        accepted = [False] * len(secrets)
        for found, parts in ((self.secret, secrets), (self.match, matches), (self.line, lines)):
            if found is not None:
                accepted = list(map(operator.or_, accepted, accepted_each(found, parts)))
        if self.worded or self.both:
            plan = self.whole()
            accepted = [
                a or plan.accepts_unjoined(secret, match, line)
                for a, secret, match, line in zip(accepted, secrets, matches, lines, strict=True)
            ]
        return accepted


def checks_of(allows: list[Allow]) -> Checks:
    """Return these allowlists grouped as Checks."""
    both = [a.both and a.pattern is not None and bool(a.stopwords) for a in allows]
    either = [a for a, strict in zip(allows, both, strict=True) if not strict]
    return Checks(
        secret=joined([a for a in either if a.target == "secret"]),
        match=joined([a for a in either if a.target == "match"]),
        line=joined([a for a in either if a.target == "line"]),
        worded=tuple(a for a in either if a.stopwords),
        both=tuple(a for a, strict in zip(allows, both, strict=True) if strict),
    )


@dataclass(frozen=True, slots=True)
class _Plan:
    """A rule's Checks as they apply to one text: what can accept nothing in it is left out."""

    secret: SpanPattern | None
    match: SpanPattern | None
    line: SpanPattern | None
    words: tuple[str, ...] | None  # the stop words in the text; None: ask each worded list
    worded: tuple[Allow, ...]
    both: tuple[Allow, ...]

    def accepts(self, secret: str, match: str, line: str) -> bool:
        """Return True when some allowlist lets the finding go."""
        if self.secret is not None and self.secret.occurs(secret):
            return True
        if self.match is not None and self.match.occurs(match):
            return True
        if self.line is not None and self.line.occurs(line):
            return True
        return self.accepts_unjoined(secret, match, line)

    def accepts_unjoined(self, secret: str, match: str, line: str) -> bool:
        """Return True when a stop word or a list of condition AND lets the finding go (the joined regexes aside)."""
        if self.words is None:
            lowered = secret.lower()
            if any(a.has_stopword(lowered) for a in self.worded):
                return True
        elif self.words and _has_any(self.words, secret.lower()):
            return True
        return bool(self.both) and any(a.accepts(secret, match, line) for a in self.both)


def _relaxed(regexes: list[str]) -> SpanPattern | None:
    relaxed = [relax(regex) for regex in regexes]
    if not relaxed or None in relaxed:
        return None
    try:
        return _alternation([r for r in relaxed if r is not None])
    except re2.error:
        return None  # a quantified anchor ('^*') leaves a bare quantifier: no screen for this list


class Screen:
    """What an allowlist or the filler test can find in one text, asked once for the whole text.

    A finding's secret, match and line are parts of the text, so an allowlist regex whose relaxed form
    (see relax) finds nothing in the text accepts no finding of it, and a stop word or filler absent from
    the lower-cased text is in no lower-cased secret (for ASCII text: str.lower of a part of an ASCII
    text is then that part of its lower-cased form). On a paste of hundreds of labelled values this
    spares most of their RE2 calls; every answer stays the one the value's own tests give.

    Each pass over the whole text costs about what the checks of a few dozen values do, so the first
    _SCREEN_AFTER values asked of are checked whole (the answers "may match", "ask every stop word") and
    the text is screened only for the values after them.
    """

    __slots__ = ("_asked", "_entropies", "_filler", "_lowered", "_plans", "_regex", "_text", "_words")

    def __init__(self, text: str, entropies: dict[str, float] | None = None) -> None:
        """Screen text; entropies: the values' entropies known already (a text and its view share them)."""
        self._text = text
        self._entropies = {} if entropies is None else entropies
        self._asked = 0
        self._lowered: str | None = None
        self._regex: dict[int, bool] = {}
        self._words: dict[int, tuple[str, ...] | None] = {}
        self._filler: bool | None = None
        self._plans: dict[int, _Plan] = {}

    def entropy(self, value: str) -> float:
        """Return shannon(value), computed once for all the rules that ask of a value of this text."""
        found = self._entropies.get(value)
        if found is None:
            found = self._entropies[value] = shannon(value)
        return found

    def view(self, viewed: str) -> Screen:
        """Return the Screen of the text's view (see view), sharing what does not depend on the text."""
        return self if viewed == self._text else Screen(viewed, self._entropies)

    def _settled(self) -> bool:
        """Count one more value asked of; return True once enough were for screening the text to pay."""
        self._asked += 1
        return self._asked > _SCREEN_AFTER

    def _lower(self) -> str | None:
        """Return the lower-cased text, None when it is not ASCII (see the class)."""
        if self._lowered is None and self._text.isascii():
            self._lowered = self._text.lower()
        return self._lowered

    def plan(self, checks: Checks) -> _Plan:
        """Return a rule's checks as they apply to this text."""
        plan = self._plans.get(id(checks))
        if plan is not None:
            return plan
        if not self._settled():
            return checks.whole()
        plan = self._plans[id(checks)] = _Plan(
            secret=self._pattern_of(checks.secret),
            match=self._pattern_of(checks.match),
            line=self._pattern_of(checks.line),
            words=self._union(checks.worded),
            worded=checks.worded,
            both=checks.both,
        )
        return plan

    def _pattern_of(self, found: _Joined | None) -> SpanPattern | None:
        if found is None or not any(self._may_match(a) for a in found.members):
            return None
        return found.pattern

    def _union(self, worded: tuple[Allow, ...]) -> tuple[str, ...] | None:
        """Return the stop words of these lists that occur in the text, None when it cannot tell."""
        present: set[str] = set()
        for allow in worded:
            words = self._present(allow)
            if words is None:
                return None
            present.update(words)
        return tuple(sorted(present))

    def regex_may_match(self, allow: Allow) -> bool:
        """Return False when the allowlist's regex can match no part of the text (or it has none)."""
        if allow.pattern is None:
            return False
        if id(allow) not in self._regex and not self._settled():
            return True
        return self._may_match(allow)

    def _may_match(self, allow: Allow) -> bool:
        if allow.pattern is None:
            return False
        if allow.relaxed is None:
            return True
        found = self._regex.get(id(allow))
        if found is None:
            found = self._regex[id(allow)] = allow.relaxed.occurs(self._text)
        return found

    def stopwords(self, allow: Allow) -> tuple[str, ...] | None:
        """Return the allowlist's stop words that occur in the lower-cased text, None when it cannot tell."""
        if allow.stopwords and id(allow) not in self._words and not self._settled():
            return None
        return self._present(allow)

    def _present(self, allow: Allow) -> tuple[str, ...] | None:
        lowered = self._lower() if allow.stopwords else None
        if lowered is None:
            return None if allow.stopwords else ()
        if id(allow) not in self._words:
            finder = allow.stop_finder
            present = finder(lowered) if finder is not None else (w for w in allow.stopwords if w in lowered)
            self._words[id(allow)] = tuple(sorted(present))
        return self._words[id(allow)]

    def filler_may_occur(self) -> bool:
        """Return False when no part of the text holds a placeholder word or a run of six (see placeholder)."""
        if self._filler is None:
            if not self._settled():
                return True
            lowered = self._lower()
            self._filler = True if lowered is None else _FILLER.occurs(lowered)
        return self._filler


# Values asked of a text before it is screened (see Screen).
_SCREEN_AFTER = 32
