"""Find secrets and personal data in pasted text and replace them before anything is stored or logged.

Every rule is a google-re2 pattern. RE2 matches in time linear in the input, so a hostile paste cannot
stall the bot the way a backtracking engine could; nothing here runs Python's ``re`` on user text.

Each rule yields spans in the original text. Spans that overlap are merged into one finding whose kind
is the one of the rule listed first in ``_RULES`` (specific credentials, then labelled or generic
credentials, then personal data), so a Hugging Face token inside a URL password is reported as a
``huggingface_token``. Secrets become ``[REDACTED:<kind>]``; the user name in a home directory becomes
``<user>`` so the path stays readable.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from records._re2 import Match, Pattern, compile_pattern, encodable

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


@dataclass(frozen=True, slots=True)
class _Rule:
    kind: str
    pattern: Pattern
    # Lower-case literals of which at least one must occur; a cheap `in` test skips most rules on
    # ordinary tracebacks. Each must be a necessary condition for the pattern to match.
    hints: tuple[str, ...]
    # A check on the secret span that would be awkward in the pattern. A rejected match still consumes
    # its text, so a check must never reject a span in which a real secret of the same rule can start.
    accept: Callable[[str], bool] | None = None


def _has_digit_and_letter(value: str) -> bool:
    """Tell a random token from an identifier or a word: tokens almost always mix both."""
    return any(c.isdigit() for c in value) and any(c.isalpha() for c in value)


def _has_key_body(value: str) -> bool:
    """Accept a PEM block that is complete or has key material, not a bare header quoted in prose."""
    if "-----END" in value:
        return True
    body = value.split("-----", 2)[-1].replace("\\n", " ")
    return any(len(word) >= 16 for word in body.split())


_EMAIL_NOT_PERSONAL = frozenset({"git"})  # git@github.com:org/repo.git is a remote, not a person
_IMAGE_SUFFIXES = frozenset({"png", "jpg", "jpeg", "gif", "svg", "webp", "ico"})  # icon@2x.png


def _is_email(value: str) -> bool:
    """Reject SSH remotes, retina asset names and attribute access that only look like addresses."""
    local, _, domain = value.rpartition("@")
    suffix = domain.rsplit(".", 1)[-1].lower()
    code_like = domain.startswith(("self.", "cls."))
    return local.lower() not in _EMAIL_NOT_PERSONAL and suffix not in _IMAGE_SUFFIXES and not code_like


_B64URL = r"[A-Za-z0-9_-]"
_B64_DIGITS = "(?:[MNO][DTjz][AEIMQUYcgk][w-z0-5])"  # base64 of three ASCII digits
_B64_DIGITS_TAIL = "[MNO][DTjz][AEIMQUYcgk]"  # base64 of two more ASCII digits ([MNO][AQgw]: one)
# A value after 'password=' and the like; it must mix letters and digits (so 'None', 'os.environ'
# and '2048' are left alone), spelled in the pattern rather than checked afterwards, because a
# rejected match would hide a real one that starts inside it.
_VALUE = r"[A-Za-z0-9_\-.+/=~!@#%^*]"
_SEP = r"(?:\\\\|\\|/)"  # one path separator as printed: '/', '\' or a repr's doubled '\\'

_RULES: tuple[_Rule, ...] = (
    _Rule(
        "private_key",
        # The body stops at '-----' (a hyphen must be followed by a letter or digit, as in
        # Proc-Type), so a block without END is still caught up to where its base64 ends.
        compile_pattern(
            r"-----BEGIN[A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----"
            r"(?:[A-Za-z0-9+/=\s\\:,]|-[A-Za-z0-9])*"
            r"(?:-----END[A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----)?"
        ),
        ("private key",),
        _has_key_body,
    ),
    _Rule("jwt", compile_pattern(rf"\beyJ{_B64URL}{{8,}}\.eyJ{_B64URL}{{8,}}\.{_B64URL}*"), ("eyj",)),
    _Rule(
        "discord_token",
        # The first part is the unpadded base64 of a 17-20 digit user id, spelled out group by group
        # (three ASCII digits give four characters from these sets), so no decoding check is needed.
        compile_pattern(
            rf"\b(?:{_B64_DIGITS}{{5}}{_B64_DIGITS_TAIL}"
            rf"|{_B64_DIGITS}{{6}}(?:{_B64_DIGITS_TAIL}|[MNO][AQgw])?)"
            rf"\.{_B64URL}{{5,7}}\.{_B64URL}{{25,}}"
        ),
        (".",),
    ),
    _Rule(
        "discord_webhook",
        compile_pattern(
            r"(?i:https?://(?:(?:ptb|canary)\.)?discord(?:app)?\.com/api(?:/v\d+)?/webhooks/)"
            rf"(\d{{17,20}}/{_B64URL}{{30,}})"
        ),
        ("webhooks",),
    ),
    _Rule(
        "slack_webhook",
        compile_pattern(r"https://hooks\.slack\.com/(?:services|workflows|triggers)/([A-Za-z0-9/_-]{20,})"),
        ("hooks.slack",),
    ),
    _Rule(
        "github_token",
        compile_pattern(r"\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,})\b"),
        ("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"),
    ),
    _Rule(
        "huggingface_token",
        compile_pattern(r"\b(?:hf_|api_org_)[A-Za-z0-9]{30,}\b"),
        ("hf_", "api_org_"),
    ),
    _Rule("anthropic_key", compile_pattern(r"\bsk-ant-[A-Za-z0-9_-]{20,}"), ("sk-ant-",)),
    _Rule(
        "openai_key",
        compile_pattern(r"\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}"),
        ("sk-",),
        _has_digit_and_letter,
    ),
    _Rule("stripe_key", compile_pattern(r"\b[sr]k_(?:live|test)_[A-Za-z0-9]{20,}\b"), ("k_live_", "k_test_")),
    _Rule("aws_access_key", compile_pattern(r"\b(?:AKIA|ASIA)[A-Z0-9]{16}\b"), ("akia", "asia")),
    _Rule("google_api_key", compile_pattern(r"\bAIza[0-9A-Za-z_-]{35,}"), ("aiza",)),
    _Rule(
        "slack_token",
        compile_pattern(r"\b(?:xox[abposr]-[A-Za-z0-9-]{10,}|xapp-\d-[A-Za-z0-9-]{10,})"),
        ("xox", "xapp-"),
        _has_digit_and_letter,
    ),
    _Rule("gitlab_token", compile_pattern(r"\bglpat-[A-Za-z0-9_-]{20,}"), ("glpat-",)),
    _Rule("npm_token", compile_pattern(r"\bnpm_[A-Za-z0-9]{36}\b"), ("npm_",)),
    _Rule("pypi_token", compile_pattern(r"\bpypi-AgE[A-Za-z0-9_-]{50,}"), ("pypi-",)),
    _Rule("replicate_token", compile_pattern(r"\br8_[A-Za-z0-9]{37}\b"), ("r8_",)),
    _Rule("groq_key", compile_pattern(r"\bgsk_[A-Za-z0-9]{48,}\b"), ("gsk_",)),
    _Rule(
        "aws_secret_key",
        compile_pattern(
            r"(?i:\b(?:aws_?)?secret_?access_?key\b|\baws_?secret_?key\b)"
            r"[\"']?\s*[:=]\s*[\"']?([A-Za-z0-9/+=]{30,})"
        ),
        ("secret",),
    ),
    _Rule(
        "url_credentials",
        # Brackets are excluded so that an already redacted URL is not matched again.
        compile_pattern(r"\b[A-Za-z][A-Za-z0-9+.-]{1,30}://([^\s/?#@:\"'<>\[\]]*:[^\s/?#\"'<>\[\]]+)@"),
        ("://",),
    ),
    _Rule(
        "bearer_token",
        compile_pattern(r"(?i:\b(?:bearer|basic))\s+([A-Za-z0-9._~+/-]{16,}=*)"),
        ("bearer", "basic"),
        _has_digit_and_letter,
    ),
    _Rule(
        "generic_secret",
        # The name must not follow '/', '-', '_' or a letter, so the user name in
        # https://x-access-token:secret@host is left to url_credentials and the host survives; nor
        # ']', the end of a marker, or redacting a neighbour would make it match on a second pass.
        compile_pattern(
            r"(?:\A|[^/A-Za-z0-9_\-\]])(?i:(?:[a-z0-9]+[_-])*"
            r"(?:api[_-]?key|apikey|access[_-]?token|auth[_-]?token|token"
            r"|secret|secret[_-]?key|client[_-]?secret|password|passwd|pwd)\b)"
            rf"[\"']?\s*[:=]\s*[\"']?({_VALUE}*(?:[0-9]{_VALUE}*[A-Za-z]|[A-Za-z]{_VALUE}*[0-9]){_VALUE}*)"
        ),
        ("key", "token", "secret", "pass", "pwd"),
    ),
    _Rule(
        "email",
        # The address must not follow ':' (or a character of an address), so the password in
        # https://user:pass@host is left to url_credentials and the host survives; mailto: is allowed.
        # Not after ']' either, for the same reason as generic_secret.
        compile_pattern(
            r"(?:\A|[^A-Za-z0-9._%+\-:\]]|(?i:mailto:))"
            r"([A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,})"
        ),
        ("@",),
        _is_email,
    ),
    _Rule(
        "home_user",
        # A Windows profile folder may contain spaces, so take the shortest name that a separator
        # ends; otherwise take a name without spaces. '<' keeps '<user>' from being matched again.
        # Its own rule: a match ends past the separator, which may begin a /home/ path.
        compile_pattern(
            rf"\b[A-Za-z]:{_SEP}(?i:users){_SEP}"
            r"(?:([^\\/\r\n\t\"'<>:|*?\[\]]{1,64}?)(?:\\|/)|([^\\/\s\"'<>:|*?;,()\[\]{}=]+))"
        ),
        ("users",),
    ),
    _Rule("home_user", compile_pattern(r"(?:/home|/Users)/([^\\/\s\"'<>:|*?;,()\[\]{}=]+)"), ("home/", "users/")),
)

_PRIORITY = {rule.kind: index for index, rule in reversed(list(enumerate(_RULES)))}


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
        if value and (rule.accept is None or rule.accept(value)):
            yield start, start + len(value)


def _find(text: str) -> list[Finding]:
    """Return the raw findings of every rule whose hint occurs, possibly overlapping."""
    safe = encodable(text)
    lowered = safe.lower()
    found: list[Finding] = []
    for rule in _RULES:
        if any(hint in lowered for hint in rule.hints):
            found.extend(Finding(rule.kind, start, end) for start, end in _scan(rule, safe))
    return found


def _merge(findings: list[Finding]) -> tuple[Finding, ...]:
    """Merge overlapping findings into their union, keeping the kind of the higher-priority rule."""
    merged: list[Finding] = []
    for finding in sorted(findings, key=lambda f: (f.start, -f.end)):
        last = merged[-1] if merged else None
        if last is None or finding.start >= last.end:
            merged.append(finding)
            continue
        kind = min(last.kind, finding.kind, key=_PRIORITY.__getitem__)
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
