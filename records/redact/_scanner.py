"""gitleaks' rule set and Microsoft's precisely classified keys, run on RE2 the way gitleaks applies rules.

A rule runs only when one of its keywords occurs (lower-cased), as in gitleaks. A match yields its secret
(the rule's secret group, else the first group that took part, else the whole match) unless the secret is
too regular (Shannon entropy at or under the rule's threshold; a generic rule's secret also needs a digit)
or an allowlist accepts it (a regex on the secret, the match or the line; a stop word in the secret).
Allowlists that need a file path or a commit never apply to a paste and are left out of the table.
"""

from __future__ import annotations

import bisect
import functools
import json
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from types import EllipsisType
from typing import Protocol

from records._re2 import SpanPattern, Spans, compile_spans, literal_finder
from records.redact import _gitleaks_rules, _ms_rules
from records.redact._allowlists import Allow, Checks, Screen, allowlist, checks_of, joined
from records.redact._formats import jwt_objects_closed, pypi_not_cut
from records.redact._percent import PercentDecoded, percent_decoded
from records.redact._randomness import shannon
from records.redact._split import (
    GITLEAKS_GENERIC,
    GITLEAKS_LABEL_CHARACTERS,
    GITLEAKS_LABEL_ENDS,
    SplitPattern,
    gitleaks_generic_bounds,
    gitleaks_generic_bounds_each,
    gitleaks_generic_spans,
)


@dataclass(frozen=True, slots=True)
class ScannerRule:
    """One gitleaks rule compiled on RE2."""

    kind: str
    pattern: SpanPattern
    keywords: tuple[str, ...]
    entropy: float
    secret_group: int
    allow: tuple[Allow, ...]
    on_view: bool  # gitleaks' rules match the view (see below); Microsoft's, which know '&', the text
    checks: Checks | None = None  # allow with the global list (None: the global list is asked apart)
    # The secret must not run on into more token characters (see _WHOLE_TOKEN_FAMILIES).
    whole_token: bool = False
    accept: Callable[[str], bool] | None = None  # what the credential's format says (see _FORMAT_CHECKS)


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
# GitLab documents its tokens' lengths, and gitleaks matches them with no end: 'glimt-' and 25 characters
# is found inside 'glimt-my-tokens_are-correctAB38_280', a longer run that is no incoming-mail token
# (detect-secrets' fixtures list such runs as look-alikes). tracebot's own GitLab rule takes the
# lengths GitLab has used, each ending where the token does; gitleaks' rules of the family must end
# there too.
_WHOLE_TOKEN_FAMILIES = ("gitlab-",)
_TOKEN_CHARS = frozenset("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_-")
# tracebot's own rules read these formats (records.redact._formats); gitleaks' rules for them read them too, so
# a token cut short is left by both.
_FORMAT_CHECKS: dict[str, Callable[[str], bool]] = {"jwt": jwt_objects_closed, "pypi-upload-token": pypi_not_cut}


def kind_of(rule_id: str) -> str:
    """Return the finding kind of a gitleaks rule id."""
    if rule_id in _ALIASES:
        return _ALIASES[rule_id]
    family = rule_id.split("-", 1)[0]
    if family in _FAMILIES and "webhook" not in rule_id:
        return f"{family}_token"
    return rule_id.replace("-", "_")


def rules(microsoft: bool = True) -> tuple[tuple[ScannerRule, ...], Allow]:
    """Return the compiled rules and gitleaks' global allowlist (compiled once, on first use).

    gitleaks' rules come first; Microsoft's precisely classified keys (Azure's identifiable keys and SAS
    signatures, which gitleaks lacks) follow.
    """
    return _compiled(microsoft)


# Cached on the flag itself: a cache on rules() would hold rules() and rules(True) apart and compile every
# rule twice (twice the start-up time, and twice the objects each full garbage collection walks).
@functools.cache
def _compiled(microsoft: bool) -> tuple[tuple[ScannerRule, ...], Allow]:
    table = json.loads(_gitleaks_rules.RULES_JSON)
    if microsoft:
        table["rules"] += json.loads(_ms_rules.RULES_JSON)["rules"]
    glob = allowlist(table["allowlist"])
    compiled = []
    for rule in table["rules"]:
        allow = tuple(allowlist(a) for a in rule.get("allowlists", []))
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
                checks=checks_of([glob, *allow]) if glob.target != "line" else None,
                whole_token=rule["id"].startswith(_WHOLE_TOKEN_FAMILIES) and not rule["regex"].endswith("\\b"),
                accept=_FORMAT_CHECKS.get(rule["id"]),
            )
        )
    return tuple(compiled), glob


def _pattern(regex: str) -> SpanPattern:
    """Compile a rule's regex; generic-api-key's, matched by hundreds of lines of an env dump, in two steps."""
    if regex == GITLEAKS_GENERIC:
        return SplitPattern(
            regex,
            gitleaks_generic_spans,
            gitleaks_generic_bounds,
            label=GITLEAKS_LABEL_CHARACTERS,
            ends=GITLEAKS_LABEL_ENDS,
            bound_each=gitleaks_generic_bounds_each,
        )
    return compile_spans(regex)


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


def _kept(rule: ScannerRule, glob: Allow, secret: str, whole: str, line: str, *, screen: Screen | None = None) -> bool:
    """Return True when a candidate passes the rule's entropy and digit tests and no allowlist lets it go.

    screen: that of the text the candidate was found in, which spares tests that cannot pass there.
    """
    if rule.entropy and (shannon(secret) if screen is None else screen.entropy(secret)) <= rule.entropy:
        return False
    if rule.accept is not None and not rule.accept(secret):
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


def view(text: str) -> str:
    """Return text with URL and JSON separators around values replaced by same-length plain ones."""
    for old, new in _VIEW:
        if old in text:
            text = text.replace(old, new)
    return text


def json_unescaped(text: str) -> tuple[str, Callable[[int, int], tuple[int, int]]] | None:
    r"""Return text with its escaped quotes unescaped ('\"' -> '"') and a map from a span in it back, or None.

    A JSON string holding JSON ('"config": "{\"api_key\": \"...\"}"') labels its values between
    escaped quotes, which a labelled value's pattern does not read as quotes. A secret never holds the
    quote, so each span maps back by the escapes before it.
    """
    if '\\"' not in text:
        return None
    pieces = text.split('\\"')
    at_plain: list[int] = []  # where each unescaped quote sits in the plain text
    length = 0
    for piece in pieces[:-1]:
        length += len(piece)
        at_plain.append(length)
        length += 1

    def back(start: int, end: int) -> tuple[int, int]:
        return start + bisect.bisect_left(at_plain, start), end + bisect.bisect_left(at_plain, end)

    return '"'.join(pieces), back


def keywords() -> frozenset[str]:
    """Return every keyword of the rules (lower-case)."""
    return frozenset(k for rule in rules()[0] for k in rule.keywords)


@functools.cache
def _finder() -> Callable[[str], frozenset[str]]:
    return literal_finder(keywords())


class Dominated(Protocol):
    """Tells whether a finding of a kind, ending at a span's end and starting there or later, would change nothing.

    See scan: asked of one span, or of many (None where a span is not known: never dominated).
    """

    def __call__(self, kind: str, start: int, end: int) -> bool: ...
    def each(self, kind: str, spans: list[tuple[int, int] | None]) -> list[bool]: ...


def scan(
    text: str,
    present: frozenset[str] | None = None,
    microsoft: bool = True,
    screen: Screen | None = None,
    dominated: Dominated | None = None,
    *,
    decoded: PercentDecoded | EllipsisType | None = ...,
) -> Iterator[tuple[str, int, int]]:
    """Yield (kind, start, end) of every secret the rules find in text.

    present: the keywords that occur in text lower-cased, when the caller has looked them up already;
    microsoft=False runs gitleaks' rules alone (to judge gitleaks' own fixtures by gitleaks); screen: the
    text's Screen, when the caller has one (what it knows serves both); dominated: tells the candidates
    whose finding the caller would drop whatever the checks said, which are then left unchecked (and
    may be yielded or not); decoded: what percent_decoded gives for text, when the caller has it.
    """
    if present is None:
        present = _finder()(text.lower())
    screen = screen if screen is not None else Screen(text)
    yield from _scan_view(text, present, microsoft, screen, dominated)
    if decoded is ...:
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
    rule: ScannerRule, glob: Allow, text: str, screen: Screen, dominated: Dominated | None = None
) -> Iterator[tuple[str, int, int]]:
    """Yield (kind, start, end) of one rule's kept secrets in text, whose Screen is given (see scan)."""
    # The line is cut out only when a line allowlist could match some line of the text.
    on_line = any(a.target == "line" and screen.regex_may_match(a) for a in rule.allow)
    # _kept depends on the secret, the match and the line alone, and a paste repeats its values.
    verdicts: dict[tuple[str, str, str], bool] = {}
    for spans in _candidates(rule, text, dominated):
        start, end = _secret_span(spans, rule)
        if end <= start or (dominated is not None and dominated(rule.kind, start, end)):
            continue
        if rule.whole_token and end < len(text) and text[end] in _TOKEN_CHARS:
            continue  # cut from a longer run of token characters
        whole_start, whole_end = spans[0]
        key = (text[start:end], text[whole_start:whole_end], _line(text, whole_start, whole_end) if on_line else "")
        kept = verdicts.get(key)
        if kept is None:
            kept = verdicts[key] = _kept(rule, glob, *key, screen=screen)
        if kept:
            yield rule.kind, start, end


def _candidates(rule: ScannerRule, text: str, dominated: Dominated | None) -> Iterator[Spans]:
    """Yield the spans of the rule's matches in text; a split pattern leaves out dominated ones unlocated."""
    if dominated is None or not isinstance(rule.pattern, SplitPattern):
        return rule.pattern.spans(text)
    return rule.pattern.spans(text, functools.partial(dominated.each, rule.kind))


@functools.cache
def _generic() -> tuple[ScannerRule, Allow, Checks] | None:
    compiled, glob = rules()
    rule = next((rule for rule in compiled if rule.kind == "generic_api_key"), None)
    if rule is None:
        return None
    # The regexes alone, a line's asked of the match: what generic_allowed asks, as one plan.
    on_secret = [a for a in (glob, *rule.allow) if a.target == "secret"]
    on_match = [a for a in (glob, *rule.allow) if a.target != "secret"]
    return rule, glob, Checks(joined(on_secret), joined(on_match), None, (), ())


def generic_allowed_each(secrets: Sequence[str], matches: Sequence[str]) -> list[bool]:
    """Return, for each labelled value and its match, what generic_allowed says, asking RE2 once for most."""
    found = _generic()
    if found is None:
        return [False] * len(secrets)
    return found[2].accepts_each(secrets, matches, matches)


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
