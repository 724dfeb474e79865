"""gitleaks' rule set and Microsoft's precisely classified keys, run on RE2 the way gitleaks applies rules.

A rule runs only when one of its keywords occurs (lower-cased), as in gitleaks. A match yields its secret
(the rule's secret group, else the first group that took part, else the whole match) unless the secret is
too regular (Shannon entropy at or under the rule's threshold; a generic rule's secret also needs a digit)
or an allowlist accepts it (a regex on the secret, the match or the line; a stop word in the secret).
Allowlists that need a file path or a commit never apply to a paste and are left out of the table.
"""

from __future__ import annotations

import bisect
import json
import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from typing import Any

import re2

from records._re2 import SpanPattern, Spans, compile_spans, literal_finder
from records.redact import _gitleaks_rules, _ms_rules
from records.redact._split import GITLEAKS_GENERIC, SplitPattern, gitleaks_generic_spans


@dataclass(frozen=True, slots=True)
class _Allow:
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
    regexes: tuple[str, ...] = ()  # the regexes of pattern, which _Checks joins with other lists'

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


@dataclass(frozen=True, slots=True)
class ScannerRule:
    """One gitleaks rule compiled on RE2."""

    kind: str
    pattern: SpanPattern
    keywords: tuple[str, ...]
    entropy: float
    secret_group: int
    allow: tuple[_Allow, ...]
    on_view: bool  # gitleaks' rules match the view (see below); Microsoft's, which know '&', the text
    checks: _Checks | None = None  # allow with the global list (None: the global list is asked apart)


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
    if "\\Q" in regex:
        return None  # a quoted run would need its own reading
    out: list[str] = []
    index = 0
    while index < len(regex):
        char = regex[index]
        if char == "[":
            end = _class_end(regex, index)
            if end < 0:
                return None
            out.append(regex[index:end])
            index = end
        elif char == "\\":
            if regex[index + 1 : index + 2] not in _ASSERTIONS:
                out.append(regex[index : index + 2])
            index += 2
        else:
            if char not in "^$":
                out.append(char)
            index += 1
    return "".join(out)


def _class_end(regex: str, at: int) -> int:
    """Return the offset just past the bracket expression opened at this offset, -1 if it never closes."""
    index = at + 1
    index += regex.startswith("^", index)
    index += regex.startswith("]", index)  # a leading ']' is a member
    while index < len(regex):
        if regex[index] == "\\":
            index += 2
        elif regex.startswith("[:", index) and ":]" in regex[index + 2 :]:
            index = regex.index(":]", index + 2) + 2  # a POSIX class such as [:alnum:]
        elif regex[index] == "]":
            return index + 1
        else:
            index += 1
    return -1


_FINDER_FROM = 16  # stop words; below this, plain substring tests are quicker than an RE2 call


def _allow(entry: dict[str, Any]) -> _Allow:
    stopwords = tuple(word.lower() for word in entry.get("stopwords", []))
    regexes = entry.get("regexes", [])
    return _Allow(
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
    members: tuple[_Allow, ...]


def _joined(allows: list[_Allow]) -> _Joined | None:
    with_regex = tuple(a for a in allows if a.pattern is not None)
    if not with_regex:
        return None
    return _Joined(compile_spans("|".join(f"(?:{r})" for a in with_regex for r in a.regexes)), with_regex)


@dataclass(frozen=True, slots=True)
class _Checks:
    """A rule's allowlists and the global one, grouped so that a finding costs one RE2 call per target.

    A finding is let go when any list accepts it: a list of condition OR accepts by its regex or by a stop
    word, so their regexes on one target can be asked as one alternation, their stop words together. Lists
    of condition AND are asked one by one.
    """

    secret: _Joined | None
    match: _Joined | None
    line: _Joined | None
    worded: tuple[_Allow, ...]  # lists of condition OR with stop words
    both: tuple[_Allow, ...]  # lists of condition AND


def _checks(allows: list[_Allow]) -> _Checks:
    both = [a.both and a.pattern is not None and bool(a.stopwords) for a in allows]
    either = [a for a, strict in zip(allows, both, strict=True) if not strict]
    return _Checks(
        secret=_joined([a for a in either if a.target == "secret"]),
        match=_joined([a for a in either if a.target == "match"]),
        line=_joined([a for a in either if a.target == "line"]),
        worded=tuple(a for a in either if a.stopwords),
        both=tuple(a for a, strict in zip(allows, both, strict=True) if strict),
    )


@dataclass(frozen=True, slots=True)
class _Plan:
    """A rule's _Checks as they apply to one text: what can accept nothing in it is left out."""

    secret: SpanPattern | None
    match: SpanPattern | None
    line: SpanPattern | None
    words: tuple[str, ...] | None  # the stop words in the text; None: ask each worded list
    worded: tuple[_Allow, ...]
    both: tuple[_Allow, ...]

    def accepts(self, secret: str, match: str, line: str) -> bool:
        """Return True when some allowlist lets the finding go."""
        if self.secret is not None and self.secret.occurs(secret):
            return True
        if self.match is not None and self.match.occurs(match):
            return True
        if self.line is not None and self.line.occurs(line):
            return True
        if self.words is None:
            lowered = secret.lower()
            if any(a.has_stopword(lowered) for a in self.worded):
                return True
        elif self.words and _has_any(self.words, secret.lower()):
            return True
        return any(a.accepts(secret, match, line) for a in self.both)


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
    """

    __slots__ = ("_entropies", "_filler", "_lowered", "_plans", "_regex", "_text", "_words")

    def __init__(self, text: str, entropies: dict[str, float] | None = None) -> None:
        """Screen text; entropies: the values' entropies known already (a text and its view share them)."""
        self._text = text
        self._entropies = {} if entropies is None else entropies
        self._lowered = text.lower() if text.isascii() else None
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

    def plan(self, checks: _Checks) -> _Plan:
        """Return a rule's checks as they apply to this text."""
        plan = self._plans.get(id(checks))
        if plan is None:
            plan = self._plans[id(checks)] = _Plan(
                secret=self._joined(checks.secret),
                match=self._joined(checks.match),
                line=self._joined(checks.line),
                words=self._union(checks.worded),
                worded=checks.worded,
                both=checks.both,
            )
        return plan

    def _joined(self, joined: _Joined | None) -> SpanPattern | None:
        if joined is None or not any(self.regex_may_match(a) for a in joined.members):
            return None
        return joined.pattern

    def _union(self, worded: tuple[_Allow, ...]) -> tuple[str, ...] | None:
        """Return the stop words of these lists that occur in the text, None when it cannot tell."""
        present: set[str] = set()
        for allow in worded:
            words = self.stopwords(allow)
            if words is None:
                return None
            present.update(words)
        return tuple(sorted(present))

    def regex_may_match(self, allow: _Allow) -> bool:
        """Return False when the allowlist's regex can match no part of the text (or it has none)."""
        if allow.pattern is None:
            return False
        if allow.relaxed is None:
            return True
        found = self._regex.get(id(allow))
        if found is None:
            found = self._regex[id(allow)] = allow.relaxed.occurs(self._text)
        return found

    def stopwords(self, allow: _Allow) -> tuple[str, ...] | None:
        """Return the allowlist's stop words that occur in the lower-cased text, None when it cannot tell."""
        if self._lowered is None or not allow.stopwords:
            return None if allow.stopwords else ()
        if id(allow) not in self._words:
            lowered = self._lowered
            finder = allow.stop_finder
            present = finder(lowered) if finder is not None else (w for w in allow.stopwords if w in lowered)
            self._words[id(allow)] = tuple(sorted(present))
        return self._words[id(allow)]

    def filler_may_occur(self) -> bool:
        """Return False when no part of the text holds a placeholder word or a run of six (see placeholder)."""
        if self._lowered is None:
            return True
        if self._filler is None:
            self._filler = _FILLER.occurs(self._lowered)
        return self._filler


# gitleaks rules for credentials tracebot already names keep tracebot's name, so a marker says the same
# thing whichever rule found the secret.
_ALIASES = {
    "anthropic-api-key": "anthropic_key",
    "anthropic-admin-api-key": "anthropic_key",
    "aws-access-token": "aws_access_key",
    "gcp-api-key": "google_api_key",
    "jwt": "jwt",
    "npm-access-token": "npm_token",
    "openai-api-key": "openai_key",
    "private-key": "private_key",
    "pypi-upload-token": "pypi_token",
    "stripe-access-token": "stripe_key",
    "discord-api-token": "discord_token",
}
_FAMILIES = ("github", "gitlab", "slack", "huggingface")


def kind_of(rule_id: str) -> str:
    """Return the finding kind of a gitleaks rule id."""
    if rule_id in _ALIASES:
        return _ALIASES[rule_id]
    family = rule_id.split("-", 1)[0]
    if family in _FAMILIES and "webhook" not in rule_id:
        return f"{family}_token"
    return rule_id.replace("-", "_")


_PLACEHOLDER_WORDS = ("xxxx", "your_", "your-", "here", "redacted", "example", "placeholder", "changeme")
_TEMPLATES = (("${", "}"), ("{{", "}}"), ("<", ">"), ("%(", ")s"), ("$(", ")"))
_TEMPLATE_STARTS = tuple(start for start, _ in _TEMPLATES)


def _literal(text: str) -> str:
    return "".join(f"\\x{{{ord(c):x}}}" for c in text)


# A placeholder word or a run of six equal characters, in one RE2 pass over an ASCII value (most are): RE2
# has no back-references, so the run is spelled out for each of the 128 ASCII characters.
_FILLER = compile_spans(
    "|".join([*(_literal(word) for word in _PLACEHOLDER_WORDS), *(f"{_literal(chr(c))}{{6}}" for c in range(128))])
)


def _filler(lowered: str) -> bool:
    """Return True when the lower-cased value holds a placeholder word or six equal characters in a row."""
    if lowered.isascii():
        return _FILLER.occurs(lowered)
    return any(word in lowered for word in _PLACEHOLDER_WORDS) or any(c * 6 in lowered for c in set(lowered))


def placeholder(value: str, screen: Screen | None = None) -> bool:
    """Tell a placeholder or a repeated filler ('xxxx', 'YOUR_TOKEN_HERE', '1111...') from a random secret.

    screen: that of a text value is part of, which can tell that no filler occurs in it.
    """
    if (screen is None or screen.filler_may_occur()) and _filler(value.lower()):
        return True
    if value.startswith(_TEMPLATE_STARTS) and any(value.startswith(a) and value.endswith(b) for a, b in _TEMPLATES):
        return True
    return len(value) >= 16 and (shannon(value) if screen is None else screen.entropy(value)) < 3.0


def rules(microsoft: bool = True) -> tuple[tuple[ScannerRule, ...], _Allow]:
    """Return the compiled rules and gitleaks' global allowlist (compiled once, on first use).

    gitleaks' rules come first; Microsoft's precisely classified keys (Azure's identifiable keys and SAS
    signatures, which gitleaks lacks) follow.
    """
    return _compiled(microsoft)


# Cached on the flag itself: a cache on rules() would hold rules() and rules(True) apart and compile every
# rule twice (twice the start-up time, and twice the objects each full garbage collection walks).
@cache
def _compiled(microsoft: bool) -> tuple[tuple[ScannerRule, ...], _Allow]:
    table = json.loads(_gitleaks_rules.RULES_JSON)
    if microsoft:
        table["rules"] += json.loads(_ms_rules.RULES_JSON)["rules"]
    glob = _allow(table["allowlist"])
    compiled = []
    for rule in table["rules"]:
        allow = tuple(_allow(a) for a in rule.get("allowlists", []))
        compiled.append(
            ScannerRule(
                kind=kind_of(rule["id"]),
                pattern=_pattern(rule["regex"]),
                keywords=tuple(k.lower() for k in rule["keywords"]),
                entropy=float(rule.get("entropy", 0.0)),
                secret_group=int(rule.get("secretGroup", 0)),
                allow=allow,
                on_view="ms_id" not in rule,
                # The global list is asked with an empty line: joined only when it looks at no line.
                checks=_checks([glob, *allow]) if glob.target != "line" else None,
            )
        )
    return tuple(compiled), glob


def _pattern(regex: str) -> SpanPattern:
    """Compile a rule's regex; generic-api-key's, matched by hundreds of lines of an env dump, in two steps."""
    if regex == GITLEAKS_GENERIC:
        return SplitPattern(regex, gitleaks_generic_spans)
    return compile_spans(regex)


def shannon(value: str) -> float:
    """Return the Shannon entropy of value in bits per character."""
    size = len(value)
    # Each character's count, in the order of first occurrence (Counter's), so the terms are summed in the
    # same order as before: the same float, to the last bit, against the same thresholds.
    counts = map(value.count, dict.fromkeys(value))
    if size > _TERMS_UP_TO:
        return -sum(n / size * math.log2(n / size) for n in counts)
    return -sum(map(_terms(size).__getitem__, counts))


_TERMS_UP_TO = 512  # longer values (rare) compute their terms afresh


@cache
def _terms(size: int) -> tuple[float, ...]:
    """Return, for each count n up to size, the entropy term n/size * log2(n/size) of a character."""
    return (0.0, *(n / size * math.log2(n / size) for n in range(1, size + 1)))


def _secret_span(spans: Spans, rule: ScannerRule) -> tuple[int, int]:
    if rule.secret_group:
        return spans[rule.secret_group]
    for index in range(1, len(spans)):
        start, end = spans[index]
        if start >= 0 and end > start:
            return start, end
    return spans[0]


def _line(text: str, start: int, end: int) -> str:
    return text[text.rfind("\n", 0, start) + 1 : (text.find("\n", end) + 1 or len(text) + 1) - 1]


def _kept(rule: ScannerRule, glob: _Allow, secret: str, whole: str, line: str, *, screen: Screen | None = None) -> bool:
    """Return True when a candidate passes the rule's entropy and digit tests and no allowlist lets it go.

    screen: that of the text the candidate was found in, which spares tests that cannot pass there.
    """
    if rule.entropy and (shannon(secret) if screen is None else screen.entropy(secret)) <= rule.entropy:
        return False
    if rule.kind.startswith("generic") and rule.entropy and not any(map(str.isdigit, secret)):
        return False
    if screen is not None and rule.checks is not None:
        return not screen.plan(rule.checks).accepts(secret, whole, line)
    if glob.accepts(secret, whole, "", screen):
        return False
    return not any(a.accepts(secret, whole, line, screen) for a in rule.allow)


# gitleaks ends a secret at a quote, a space, ';' or a '\\n' escape. In a pasted URL query it ends at '&',
# in an escaped JSON string at '\\"'. Matching runs on a view of the text in which those become what gitleaks
# expects, character for character, so offsets still hold. Percent-encoded text is matched once more decoded.
_VIEW = (("&", " "), ('\\"', ' "'), ("\\'", " '"))
_PERCENT = compile_spans(r"%[0-9A-Fa-f]{2}")


def view(text: str) -> str:
    """Return text with URL and JSON separators around values replaced by same-length plain ones."""
    for old, new in _VIEW:
        if old in text:
            text = text.replace(old, new)
    return text


def _decoded(text: str) -> tuple[str, list[int], list[int]] | None:
    """Return text percent-decoded (one character per escape) and where each escape sat, or None without any."""
    pieces: list[str] = []
    at_decoded: list[int] = []
    at_original: list[int] = []
    position = 0
    length = 0
    for match in _PERCENT.finditer(text):
        start = match.start()
        pieces.append(text[position:start])
        length += start - position
        at_decoded.append(length)
        at_original.append(start)
        pieces.append(chr(int(text[start + 1 : start + 3], 16)))
        length += 1
        position = match.end()
    if not at_decoded:
        return None
    pieces.append(text[position:])
    return "".join(pieces), at_decoded, at_original


def _original(offset: int, at_decoded: list[int], at_original: list[int], end: bool) -> int:
    """Map an offset in decoded text back to the original (an escape counts three characters)."""
    index = bisect.bisect_right(at_decoded, offset - 1 if end else offset) - 1
    if index < 0:
        return offset
    shift = at_original[index] - at_decoded[index]
    inside = offset - at_decoded[index]
    if inside == 0 or (end and inside == 1):
        return at_original[index] + (3 if end else 0)
    return offset + shift + 2


def percent_decoded(text: str) -> tuple[str, Callable[[int, int], tuple[int, int]]] | None:
    """Return text percent-decoded and a map from a span in it back to the original, or None without escapes."""
    decoded = _decoded(text) if "%" in text else None
    if decoded is None:
        return None
    plain, at_decoded, at_original = decoded

    def back(start: int, end: int) -> tuple[int, int]:
        return _original(start, at_decoded, at_original, end=False), _original(end, at_decoded, at_original, end=True)

    return plain, back


def keywords() -> frozenset[str]:
    """Return every keyword of the rules (lower-case)."""
    return frozenset(k for rule in rules()[0] for k in rule.keywords)


@cache
def _finder() -> Callable[[str], frozenset[str]]:
    return literal_finder(keywords())


# Given a kind and a span, whether a finding of them would change nothing: see scan.
Dominated = Callable[[str, int, int], bool]


def scan(
    text: str,
    present: frozenset[str] | None = None,
    microsoft: bool = True,
    screen: Screen | None = None,
    dominated: Dominated | None = None,
) -> Iterator[tuple[str, int, int]]:
    """Yield (kind, start, end) of every secret the rules find in text.

    present: the keywords that occur in text lower-cased, when the caller has looked them up already;
    microsoft=False runs gitleaks' rules alone (to judge gitleaks' own fixtures by gitleaks); screen: the
    text's Screen, when the caller has one (what it knows serves both); dominated: tells the candidates
    whose finding the caller would drop whatever the checks said, which are then left unchecked (and
    may be yielded or not).
    """
    if present is None:
        present = _finder()(text.lower())
    screen = screen if screen is not None else Screen(text)
    yield from _scan_view(text, present, microsoft, screen, dominated)
    decoded = percent_decoded(text)
    if decoded is not None:
        plain, back = decoded
        for kind, start, end in _scan_view(plain, _finder()(plain.lower()), microsoft, Screen(plain)):
            yield (kind, *back(start, end))


def _scan_view(
    raw: str, present: frozenset[str], microsoft: bool, raw_screen: Screen, dominated: Dominated | None = None
) -> Iterator[tuple[str, int, int]]:
    if not present:
        return
    compiled, glob = rules(microsoft)
    viewed = view(raw)
    screens = {False: raw_screen, True: raw_screen.view(viewed)}
    for rule in compiled:
        if present.isdisjoint(rule.keywords):
            continue
        text = viewed if rule.on_view else raw
        yield from _rule_findings(rule, glob, text, screens[rule.on_view], dominated)


def _rule_findings(
    rule: ScannerRule, glob: _Allow, text: str, screen: Screen, dominated: Dominated | None = None
) -> Iterator[tuple[str, int, int]]:
    """Yield (kind, start, end) of one rule's kept secrets in text, whose Screen is given (see scan)."""
    # The line is cut out only when a line allowlist could match some line of the text.
    on_line = any(a.target == "line" and screen.regex_may_match(a) for a in rule.allow)
    # _kept depends on the secret, the match and the line alone, and a paste repeats its values.
    verdicts: dict[tuple[str, str, str], bool] = {}
    for spans in rule.pattern.spans(text):
        start, end = _secret_span(spans, rule)
        if end <= start or (dominated is not None and dominated(rule.kind, start, end)):
            continue
        whole_start, whole_end = spans[0]
        key = (text[start:end], text[whole_start:whole_end], _line(text, whole_start, whole_end) if on_line else "")
        kept = verdicts.get(key)
        if kept is None:
            kept = verdicts[key] = _kept(rule, glob, *key, screen=screen)
        if kept:
            yield rule.kind, start, end


@cache
def _generic() -> tuple[ScannerRule, _Allow, _Checks] | None:
    compiled, glob = rules()
    rule = next((rule for rule in compiled if rule.kind == "generic_api_key"), None)
    if rule is None:
        return None
    # The regexes alone, a line's asked of the match: what generic_allowed asks, as one plan.
    on_secret = [a for a in (glob, *rule.allow) if a.target == "secret"]
    on_match = [a for a in (glob, *rule.allow) if a.target != "secret"]
    return rule, glob, _Checks(_joined(on_secret), _joined(on_match), None, (), ())


def generic_allowed(secret: str, match: str, screen: Screen | None = None) -> bool:
    """Return True when gitleaks' allowlists for generic API keys let this labelled value go.

    screen: that of the text the match is part of, which spares the regexes that cannot match there.
    """
    found = _generic()
    if found is None:
        return False
    # Stop words are left out: one of their 1,446 words turns up in 1-5% of random 16-40 character
    # secrets, and a labelled value is a secret whatever words it contains.
    rule, glob, checks = found
    if screen is not None:
        return screen.plan(checks).accepts(secret, match, match)
    return any(a.accepts_regex(secret, match, match) for a in (glob, *rule.allow))
