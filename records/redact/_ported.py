"""detect-secrets' detectors, ported to RE2: the kinds and spellings gitleaks' table and ours miss.

detect-secrets (Yelp, Apache-2.0, ``detect_secrets/plugins/*.py``) writes its detectors as Python ``re``
patterns, 13 of them with look-around and back-references, and it tells a secret by its plugin's test
fixtures. Each rule below is one of its patterns rewritten for a linear-time engine: a look-behind became
a consumed character before a group, a look-ahead a character class after it, a back-reference one
alternative per quote, and its Python checks (a JWT's header and payload decode to JSON; a public address
is none of the private ranges) a check on the secret. Only the secret's group is redacted.

Unlike gitleaks' table and our own rules, these keep fixed-format values that look regular
(``AKIAZZZZZZZZZZZZZZZZ``, ``abcd1234`` eight times): their format alone says what they are.
"""

from __future__ import annotations

import base64
import binascii
import ipaddress
import json
from collections.abc import Callable

from records._re2 import SpanPattern
from records._re2 import compile_spans as compile_pattern
from records.redact._labelled import labelled_name, labelled_value
from records.redact._rules import Rule as _Rule

# detect-secrets' build_assignment_regex: an optional '[' and quote around the label, one of '=', ':',
# ':=', '=>', '::' or spaces, and an optional quote before the value. Its look-behind (a non-word
# character or the start before the label) is a consumed character here.
_BEFORE = r"(?:\A|\W)"
_ASSIGNMENT = r"""(?:\[|)(?:"|'|)(?:{label})(?:"|'|)(?:\]|) *(?:=|:|:=|=>| +|::) *(?:"|'|)"""


def _assigned(label: str, secret: str, end: str) -> str:
    """Return a case-insensitive pattern of a labelled secret; end is what may not follow the secret."""
    return rf"(?i){_BEFORE}{_ASSIGNMENT.format(label=label)}({secret})(?:[^{end}]|\z)"


_IBM_COS_PREFIX = r"(?:(?:ibm)?[-_]?cos[-_]?(?:hmac)?|)"
_IBM_COS_LABEL = rf"{_IBM_COS_PREFIX}(?:_|-|)secret[-_]?(?:access)?[-_]?key"
_CLOUDANT_LABEL = r"(?:cloudant|cl|clou)(?:_|-|)(?:api|)(?:key|pwd|pw|password|pass|token)"
_SOFTLAYER_LABEL = r"(?:softlayer|sl)(?:_|-|)(?:api|)(?:_|-|)(?:key|pwd|password|pass|token)"
_OCTET = r"(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]|[0-9])"


def _formally_valid_jwt(token: str) -> bool:
    """Return True when a JWT's header and payload are base64url JSON (detect-secrets' is_formally_valid)."""
    parts = token.rstrip(".").split(".")
    for index, part in enumerate(parts[:2]):
        if len(part) % 4 == 1:
            return False
        try:
            decoded = base64.urlsafe_b64decode(part + "=" * (-len(part) % 4))
            if index < 2:
                json.loads(decoded.decode("utf-8"))
        except (binascii.Error, ValueError):
            return False
    return True


# The ranges detect-secrets leaves alone (private, loopback, link-local), and 0.0.0.0 that servers bind to.
_NOT_PUBLIC = tuple(
    ipaddress.IPv4Network(n) for n in ("10.0.0.0/8", "127.0.0.0/8", "169.254.0.0/16", "172.16.0.0/12", "192.168.0.0/16")
)


def _public_address(value: str) -> bool:
    """Return True for a public IPv4 address (with an optional port), not a private, loopback or local one."""
    address = ipaddress.IPv4Address(value.split(":", 1)[0])
    return not (address.is_unspecified or any(address in network for network in _NOT_PUBLIC))


# keyword.py: a value next to a name from its deny list, in the spellings of the languages it reads
# (assignments, comparisons either way round, C's `name[] = @"..."`, C++'s `name("...")` and
# `name.assign("...")`, `name "...";`). Its value starts with a word character; a quote must close it.
_DENYLIST = (
    r"(?:api_?key|auth_?key|service_?key|account_?key|db_?key|database_?key|priv_?key|private_?key"
    r"|client_?key|db_?pass|database_?pass|key_?pass|password|passwd|pwd|secret|contraseña|contrasena)\w*"
)
# A quoted value ends before the spaces the scanner's view puts where an escaped JSON quote was.
_QUOTED = r"""(?:"(\w[^"\n]*?) *"|'(\w[^'\n]*?) *'|`(\w[^`\n]*?) *`)"""
_OPERATOR = r"(?::=|:|=>|={1,3}|!==?)"
# C's `name[25] = "..."` and Objective-C's `@"..."` take double quotes only: in C, '...' is a character.
_ASSIGNED = rf"""{_DENYLIST}[\]'"]{{0,2}}[ \t]*{_OPERATOR}[ \t]*"""
_C_ASSIGNED = rf"""{_DENYLIST}(?:\[[0-9]*\])?[ \t]*[!=]{{1,2}}[ \t]*@? ?"(\w[^"\n]*?) *["]"""
_SYMBOLS = frozenset("!#$%&()*+/<>?@[]^{|}~")  # what no identifier or dotted name holds
# An unquoted value that our generic_secret does not take already (it takes letters and digits mixed with
# the characters of _rules._VALUE): one with a bracket, ',', ';', ':', '&', '\\' or a non-ASCII letter
# inside, or one without digits. Said in the pattern, a line of an env dump ('API_KEY=<letters and
# digits>') is no match, not a candidate to check (those lines made redacting a 16 KB dump 2x slower).
# The value ends the word: without digits must mean none in the whole value, not in a prefix of it.
_UNLIKE = r"[\[\];:&\\\x{80}-\x{10FFFF}]"
_BARE_UNLIKE_OURS = (
    rf"""\w[^\s'"]*(?:{_UNLIKE}[^\s'"]*[^\s,'"`]|{_UNLIKE})"""
    rf"""|\w[^\s'"]*,[^\s'"]*[^\s,'"`]|[A-Za-z_][^\s'"0-9]*[^\s,'"`0-9]"""
)


def _keyword_bare(value: str) -> bool:
    """Accept an unquoted value: no identifier, dotted name, call or template, but a token or pass phrase.

    detect-secrets' own filters say the same (a templated or '$'-prefixed value, an indirect reference
    such as get_secret() or os.environ["X"], a value without letters): 'password: real_key' and
    'secret_key = settings.SECRET_KEY' are names, 'db_pass = m{{h}o)p${e]nob(ody' is a secret.
    """
    if len(value) < 6 or value[:1] in "${<" or (value[-1:] in ")]" and ("(" in value[:-1] or "[" in value[:-1])):
        return False
    symbols = sum(1 for character in value if character in _SYMBOLS)
    has_digit = any(map(str.isdigit, value))
    return (has_digit or symbols >= 2) and labelled_value(value)


def _slack(value: str) -> bool:
    """Accept a Slack token whose last part mixes letters and digits over 10 characters or more.

    gitleaks counts 'xoxb-12345-abcd234' and 'xoxp-1-initial' as look-alikes; every real token's last part
    is a long run of random characters.
    """
    last = value.rsplit("-", 1)[-1]
    return len(last) >= 10 and any(map(str.isdigit, last)) and any(map(str.isalpha, last))


def _not_example(value: str) -> bool:
    """Refuse AWS's documented example keys and full-length values filled with 'X' ('AKIAXXXX...').

    Other regular bodies stay secrets ('AKIAZZZZZZZZZZZZZZZZ' and 'AKCxxxxxxxxxx' are fixtures detect-secrets
    must catch): a value of the format is a credential whatever its letters, unless it is the template
    a document writes in place of one (gitleaks' 'AKIAXXXXXXXXXXXXXXXX', 'AKCpXXXX...' of 73 characters).
    """
    return not value.endswith("EXAMPLE") and not (len(value) >= 16 and "XXXX" in value.upper())


def Rule(  # noqa: N802  # reads as the rule table it builds
    kind: str,
    pattern: SpanPattern,
    hints: tuple[str, ...],
    accept: Callable[[str], bool] | None = None,
    accept_match: Callable[[str], bool] | None = None,
) -> _Rule:
    """Return a rule matched on the scanner's view, as detect-secrets reads a line of a file."""
    return _Rule(kind, pattern, hints, accept, accept_match, on_view=True)


DETECT_SECRETS: tuple[_Rule, ...] = (
    # artifactory.py: API tokens and passwords after a space, '=', ':', '"' or a line's start.
    Rule(
        "artifactory_api_key",
        compile_pattern(r'(?m)(?:\s|=|:|"|^)(AKC[a-zA-Z0-9]{10,}|AP[\dABCDEF][a-zA-Z0-9]{8,})(?:\s|"|$)'),
        ("akc", "ap"),
        _not_example,
    ),
    # aws.py: access key ids by their prefixes, whatever their body looks like.
    Rule(
        "aws_access_key",
        compile_pattern(r"\b(?:A3T[A-Z0-9]|ABIA|ACCA|AKIA|ASIA)[0-9A-Z]{16}\b"),
        ("akia", "asia", "abia", "acca", "a3t"),
        _not_example,
    ),
    # cloudant.py: 64 hex characters or 24 letters next to a Cloudant label, or in a Cloudant URL.
    Rule(
        "cloudant_key",
        compile_pattern(_assigned(_CLOUDANT_LABEL, "[0-9a-f]{64}|[a-z]{24}", "0-9a-z")),
        ("cl",),
    ),
    Rule(
        "cloudant_key",
        compile_pattern(r"(?i)https?://[\w\-]+:([0-9a-f]{64}|[a-z]{24})@[\w\-]+\.cloudant\.com"),
        ("cloudant.com",),
    ),
    # discord.py: a bot token of three dot-separated parts.
    Rule(
        "discord_token",
        compile_pattern(r"[MNO][a-zA-Z\d_-]{23,25}\.[a-zA-Z\d_-]{6}\.[a-zA-Z\d_-]{27}"),
        (".",),
    ),
    # ibm_cos_hmac.py: a 48-hex secret access key, and its 32-hex key id.
    Rule(
        "ibm_cos_hmac",
        compile_pattern(_assigned(_IBM_COS_LABEL, "[a-f0-9]{48}", "a-f0-9")),
        ("secret",),
    ),
    Rule(
        "ibm_cos_hmac",
        compile_pattern(_assigned(r"access[-_]?(?:key)?[-_]?(?:id)?|key[-_]?id", "[a-f0-9]{32}", "a-f0-9")),
        ("access", "key"),
    ),
    # ip_public.py: a public IPv4 address with an optional port, not part of a longer dotted word.
    Rule(
        "ip_address",
        # Not after a version specifier: 'nvidia-cudnn-cu12==8.9.2.26' is a version.
        compile_pattern(rf"(?:\A|[^\w.=<>~!]|[^=<>~!]=)((?:{_OCTET}\.){{3}}{_OCTET}(?::\d{{1,5}})?)(?:[^\w.]|\z)"),
        (".",),
        _public_address,
    ),
    # jwt.py: a header and a payload that decode to JSON, then an optional signature.
    Rule(
        "jwt",
        compile_pattern(r"eyJ[A-Za-z0-9_=-]+\.[A-Za-z0-9_=-]+\.?[A-Za-z0-9_.+/=-]*"),
        ("eyj",),
        _formally_valid_jwt,
    ),
    # mailchimp.py: 32 characters and the data centre.
    Rule("mailchimp_api_key", compile_pattern(r"[0-9a-z]{32}-us[0-9]{1,2}"), ("-us",)),
    # npm.py: an .npmrc auth token, an npm_ token or a UUID.
    Rule(
        "npm_token",
        compile_pattern(r"//[^\s]+/:_authToken=\s*(npm_[^\s\"']+|[A-Fa-f0-9-]{36})"),
        ("_authtoken",),
    ),
    # slack.py: any Slack token with numeric parts; the webhook is our own rule's.
    Rule("slack_token", compile_pattern(r"(?i)xox[abposr]-(?:\d+-)+[a-z0-9]+(?:[^a-z0-9-]|\z)"), ("xox",), _slack),
    # softlayer.py: 64 characters next to a SoftLayer label, or in its SOAP URL.
    Rule(
        "softlayer_key",
        compile_pattern(_assigned(_SOFTLAYER_LABEL, "[a-z0-9]{64}", "a-z0-9")),
        ("sl", "softlayer"),
    ),
    Rule(
        "softlayer_key",
        compile_pattern(r"(?i)https?://api\.softlayer\.com/soap/(?:v3|v3\.1)/([a-z0-9]{64})"),
        ("softlayer",),
    ),
    # aws.py: a 40-character secret access key quoted within 20 characters of an AWS label.
    Rule(
        "aws_secret_key",
        compile_pattern(r"""aws.{0,20}?(?:key|pwd|pw|password|pass|token).{0,20}?['"]([0-9a-zA-Z/+]{40})['"]"""),
        ("aws",),
    ),
    # keyword.py, in four patterns (see _DENYLIST).
    Rule(
        "generic_secret",
        compile_pattern(rf"(?i){_ASSIGNED}{_QUOTED}|{_C_ASSIGNED}"),
        ("key", "pass", "pwd", "secret", "contrase"),
        labelled_value,
        labelled_name,
    ),
    Rule(
        "generic_secret",
        # The label alone is case-insensitive: folded, the class of non-ASCII letters holds 'k' and 's'
        # (the Kelvin sign, the long s).
        compile_pattern(rf"""(?i:{_ASSIGNED})({_BARE_UNLIKE_OURS})(?:[\s'",`]|\z)"""),
        ("key", "pass", "pwd", "secret", "contrase"),
        _keyword_bare,
        labelled_name,
    ),
    Rule(
        "generic_secret",
        compile_pattern(rf"(?i){_QUOTED}[ \t]*[!=]{{2,3}}[ \t]*\w*{_DENYLIST}"),
        ("key", "pass", "pwd", "secret", "contrase"),
        labelled_value,
    ),
    Rule(
        "generic_secret",
        compile_pattern(rf"""(?i){_DENYLIST}(?:(?:\.assign)?\( ?"(\w[^"\n]*?) *"|[^\s%]{{0,50}}?[ \t]*{_QUOTED};)"""),
        ("key", "pass", "pwd", "secret", "contrase"),
        labelled_value,
    ),
    # square_oauth.py and twilio.py.
    Rule("square_oauth_secret", compile_pattern(r"sq0csp-[0-9A-Za-z\\\-_]{43}"), ("sq0csp-",)),
    Rule("twilio_api_key", compile_pattern(r"(?:AC|SK)[a-z0-9]{32}"), ("ac", "sk")),
)
