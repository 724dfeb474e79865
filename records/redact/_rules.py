"""tracebot's own redaction rules: one RE2 pattern per credential or personal-data kind, with its checks.

They come before gitleaks' and Microsoft's tables (records/redact/_scanner.py) when findings overlap, and
cover what those tables miss: Discord tokens told by their base64 user id, labelled values of every
spelling, passwords of letters only, crypt(3) password hashes, URL credentials, home directories and
e-mail addresses.
"""

from __future__ import annotations

import string
from collections.abc import Callable
from dataclasses import dataclass

from records._re2 import SpanPattern, Spans
from records._re2 import compile_spans as compile_pattern
from records.redact._allowlists import Screen
from records.redact._formats import jwt_objects_closed, openai_marked, pypi_not_cut
from records.redact._labelled import NOT_SECRETS, labelled_name, labelled_names, labelled_value
from records.redact._percent import percent_decoded
from records.redact._randomness import placeholder
from records.redact._split import MARK, LabelEnds, SplitPattern, operators_by_first, skip


@dataclass(frozen=True, slots=True)
class Rule:
    kind: str
    pattern: SpanPattern
    # Lower-case literals of which at least one must occur; a cheap `in` test skips most rules on
    # ordinary tracebacks. Each must be a necessary condition for the pattern to match.
    hints: tuple[str, ...]
    # A check on the secret span that would be awkward in the pattern. A rejected match still consumes
    # its text, so a check must never reject a span in which a real secret of the same rule can start.
    accept: Callable[[str], bool] | None = None
    # A check on the whole match (the label of a labelled secret), same caveat.
    accept_match: Callable[[str], bool] | None = None
    # A check on a match given the text and the match's span, for what lies around it; same caveat.
    accept_at: Callable[[str, int, int], bool] | None = None
    # For a pattern without groups: the secret's span, given the text and a match's span. RE2 finds a
    # match without groups in about half the time (no second pass for the groups' offsets), and a paste
    # may hold hundreds of e-mail addresses or Windows paths.
    locate: Callable[[str, int, int], tuple[int, int]] | None = None
    # Lower-case ASCII literals one of which occurs in every value that accept rejects: in a text with
    # none of them, accept would pass every value and is not asked.
    rejected_only_with: tuple[str, ...] = ()
    # accept told the Screen of the text at hand, which spares the tests that cannot pass in it (the same
    # answers, in a fraction of the time on a paste of hundreds of labelled values).
    accept_in: Callable[[str, Screen], bool] | None = None
    # accept_match of every match of a text at once (a list of verdicts, in order): a check that asks RE2
    # asks it once for all of them (see records.redact._allowlists.accepted_each).
    accept_matches: Callable[[list[str]], list[bool]] | None = None
    # Matched on the scanner's view of the text (records.redact._scanner.view), where a URL query's '&' and an
    # escaped JSON quote read as the space and quote that end a value, as they do for gitleaks' rules.
    on_view: bool = False


def _has_digit_and_letter(value: str) -> bool:
    """Tell a random token from an identifier or a word: tokens almost always mix both."""
    return any(c.isdigit() for c in value) and any(c.isalpha() for c in value)


def _random(value: str, screen: Screen | None = None) -> bool:
    """Accept a value that looks random, not a placeholder such as 'xxxx' or 'YOUR_TOKEN_HERE'."""
    return not placeholder(value, screen)


def _hf_token(value: str) -> bool:
    """Accept a Hugging Face token: 34 characters, or longer with a digit (not hf_someCamelCaseName)."""
    body = value.split("_", 1)[1] if value.startswith("hf_") else value.removeprefix("api_org_")
    return _random(value) and (len(body) == 34 or any(c.isdigit() for c in body))


def _slack(value: str) -> bool:
    """Accept a Slack token whose last part is not cut off ('xoxp-1-2-3-####') and not a placeholder."""
    return not value.endswith("-") and _random(value) and _has_digit_and_letter(value)


def _openai(value: str) -> bool:
    """Accept an OpenAI key; 'sk-ant-' keys are Anthropic's, found by their own rule.

    A key with one of OpenAI's own prefixes ('sk-proj-') must carry OpenAI's marker (see openai_marked).
    """
    return not value.startswith("sk-ant-") and _has_digit_and_letter(value) and openai_marked(value)


def _url_login(value: str) -> bool:
    """Accept URL credentials ('user:password') unless, decoded, the user or password starts or ends with a space.

    'https://url:8000%20@something%20else' is a URL and then a word: its ' @' is no credentials' end.
    """
    decoded = percent_decoded(value) if "%" in value else None
    return decoded is None or all(part == part.strip() for part in decoded[0].split(":", 1))


def _has_key_body(value: str) -> bool:
    """Accept a PEM block that is complete or has key material, not a bare header quoted in prose."""
    body = value.split("-----", 2)[-1].replace("\\n", " ")
    if "-----END" in value:
        return len("".join(body.split("-----END", 1)[0].split())) >= 20
    return any(len(word) >= 16 for word in body.split())


_EMAIL_NOT_PERSONAL = frozenset({"git"})  # git@github.com:org/repo.git is a remote, not a person
_IMAGE_SUFFIXES = frozenset({"png", "jpg", "jpeg", "gif", "svg", "webp", "ico"})  # icon@2x.png
_ATTRIBUTE_OWNERS = ("self.", "cls.")


def _is_email(value: str) -> bool:
    """Reject SSH remotes, retina asset names and attribute access that only look like addresses."""
    local, _, domain = value.rpartition("@")
    if domain.startswith(_ATTRIBUTE_OWNERS) or local.lower() in _EMAIL_NOT_PERSONAL:
        return False
    return domain[domain.rfind(".") + 1 :].lower() not in _IMAGE_SUFFIXES


# What an address _is_email rejects holds (lower-cased): 'git@', '@self.', '@cls.' or '.png' and the like.
_NOT_EMAIL_LITERALS = (
    *(f"{local}@" for local in sorted(_EMAIL_NOT_PERSONAL)),
    *(f"@{owner}" for owner in _ATTRIBUTE_OWNERS),
    *(f".{suffix}" for suffix in sorted(_IMAGE_SUFFIXES)),
)
_ADDRESS_CHARACTERS = frozenset(string.ascii_letters + string.digits + "._%+-")  # as in EMAIL_ADDRESS


def _email_address(text: str, start: int, end: int) -> tuple[int, int]:
    """Return the span of the address in a match of EMAIL_CONTEXT + EMAIL_ADDRESS.

    Before it the match holds nothing, one character or 'mailto:'. An address character can open the
    match only at the text's start or as the 'm' of 'mailto:' (an address holds no ':'); any other
    opening character is the single character before the address.
    """
    if text[start] not in _ADDRESS_CHARACTERS:
        return start + 1, end
    return start + 7 if text[start : start + 7].lower() == "mailto:" else start, end


def _separator_end(text: str, at: int) -> int:
    """Return where the _SEP at this offset ends: a doubled backslash is one separator."""
    return at + 2 if text.startswith("\\\\", at) else at + 1


def _windows_user(text: str, start: int, end: int) -> tuple[int, int]:
    """Return the span of the user name in a match of WINDOWS_HOME (without its groups).

    The name follows 'C:', a separator, 'Users' and a separator. A doubled backslash is always one
    separator: neither 'Users' nor a name starts with a backslash. A name ended by a separator leaves it
    at the match's end; a name without spaces has none.
    """
    name = _separator_end(text, _separator_end(text, start + 2) + len("users"))
    return name, end - 1 if text[end - 1] in "\\/" else end


def _url_credentials(text: str, start: int, end: int) -> tuple[int, int]:
    """Return the span of 'user:password' in a match of URL_SCHEME + URL_CREDENTIALS + '@'.

    A scheme holds no ':', so its '://' is the match's first ':'.
    """
    return text.index(":", start) + 3, end - 1


_B64URL = r"[A-Za-z0-9_-]"
_B64_DIGITS = "(?:[MNO][DTjz][AEIMQUYcgk][w-z0-5])"  # base64 of three ASCII digits
_B64_DIGITS_TAIL = "[MNO][DTjz][AEIMQUYcgk]"  # base64 of two more ASCII digits ([MNO][AQgw]: one)
# A value after 'password=' and the like; it must mix letters and digits (so 'None', 'os.environ'
# and '2048' are left alone), spelled in the pattern rather than checked afterwards, because a
# rejected match would hide a real one that starts inside it.
_VALUE = r"[A-Za-z0-9_\-.+/=~!@#%^*${}()<>|?]"
_SEP = r"(?:\\\\|\\|/)"  # one path separator as printed: '/', '\' or a repr's doubled '\\'
# A Windows profile folder may contain spaces, so take the shortest name that a separator ends;
# otherwise take a name without spaces. '<' keeps '<user>' from being matched again.
WINDOWS_HOME = rf"\b[A-Za-z]:{_SEP}(?i:users){_SEP}"
WINDOWS_NAME_ENDED = r"[^\\/\r\n\t\"'<>:|*?\[\]]{1,64}?"  # then '\' or '/'
WINDOWS_NAME = r"[^\\/\s\"'<>:|*?;,()\[\]{}=]+"
# Brackets are excluded so that an already redacted URL is not matched again.
URL_SCHEME = r"\b[A-Za-z][A-Za-z0-9+.-]{1,30}://"
URL_CREDENTIALS = r"[^\s/?#@:\"'<>\[\]]*:[^\s/?#\"'<>\[\]]+"

EMAIL_CONTEXT = r"(?:\A|[^A-Za-z0-9._%+\-:\]]|(?i:mailto:))"
EMAIL_ADDRESS = r"[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}"

# generic_secret in its parts: the label (the character before it, then the name), the operator, the value.
_GENERIC_LABEL = (
    r"(?:\A|[^/A-Za-z0-9_\-\]])(?i:(?:[a-z0-9]+[_.-])*(?:[a-z0-9]*"
    r"(?:api[_-]?key|access[_-]?token|auth[_-]?token|token|secrete?|client[_-]?secret|password|passwd"
    r"|pwd|private[_-]?key|credentials?)|pass)(?:[_.-][a-z0-9]+)*\b)"
)
_GENERIC_OPERATOR = r"[\"'`]?\s*(?:=>|::?=|\?=|[!=]==?|[:=])\s*"
_GENERIC_QUOTED = r"\"([^\"\s\[][^\"\n]{2,200})\"|'([^'\s\[][^'\n]{2,200})'|`([^`\s\[][^`\n]{2,200})`"
_GENERIC_BARE = rf"({_VALUE}*(?:[0-9]{_VALUE}*[A-Za-z]|[A-Za-z]{_VALUE}*[0-9]){_VALUE}*)"
GENERIC_SECRET = f"{_GENERIC_LABEL}{_GENERIC_OPERATOR}(?:{_GENERIC_QUOTED}|{_GENERIC_BARE})"
_NAME_CHARACTERS = string.ascii_letters + string.digits + "_.-"
# What may follow a name in a match: a quote, a space (RE2's \s) or an operator's first character.
_LABEL_ENDS = "\"'`\t\n\f\r =:?!"
_QUOTES = "\"'`"
_SPACES = " \t\n\f\r"  # RE2's \s
# The operators in the order the pattern tries them, each longest first as its greedy parts take it, by
# their first character.
_GENERIC_OPERATORS = operators_by_first(("=>", "::=", ":=", "?=", "!==", "!=", "===", "==", ":", "="))
_AFTER_OTHER_OPERATORS = frozenset("=>" + _SPACES)  # after '=', what would start '=>', '==' or a space
_VALUE_SET = frozenset(string.ascii_letters + string.digits + "_-.+/=~!@#%^*${}()<>|?")  # _VALUE's


def _generic_secret_spans(text: str, ends: LabelEnds, start: int, end: int) -> Spans | None:
    """Return the span of a match of GENERIC_SECRET in ASCII text and its value's, given the match's span.

    A match that ends with a quote took that quote's alternative (a bare value holds no quote), whose value
    holds no such quote: it starts after the last one before the end. Otherwise the value is bare. The name
    starts the match, or follows its first character when that is no letter or digit (then it is the
    character before the name), and ends where its characters do, in every parse: at what follows it, a
    quote, a space or an operator (_LABEL_ENDS). From there the tail's own parse gives the value.
    """
    last = text[end - 1]
    if last in _QUOTES:
        return [(start, end), (text.rfind(last, start, end - 1) + 1, end - 1)]
    value = _bare_value_start(text, ends.find(start + (not text[start].isalnum()), end), end)
    return None if value is None else [(start, end), (value, end)]


def _generic_secret_spans_each(text: str, ends: LabelEnds, matches: list[tuple[int, int]]) -> list[Spans | None]:
    """Return _generic_secret_spans of each match: those of a name, '=' and a bare value (most) read inline.

    The text is marked at once (see LabelEnds); such a match's name ends at its first mark, an '=' that
    neither a quote ends the match after nor '=', '>' or a space follows (see _bare_value_start).
    """
    find = ends.marked().find
    located: list[Spans | None] = []
    for start, end in matches:
        at = find(MARK, start + (not text[start].isalnum()), end)
        if (
            0 <= at < end - 1
            and text[at] == "="
            and text[at + 1] not in _AFTER_OTHER_OPERATORS
            and text[end - 1] not in _QUOTES
        ):
            located.append([(start, end), (at + 1, end)])
        else:
            located.append(_generic_secret_spans(text, ends, start, end))
    return located


def _bare_value_start(text: str, at: int, end: int) -> int | None:
    """Return where a bare value ending at end starts, given where the name ends (as RE2 would parse it).

    A quote after the name is taken (nothing else could take it), then every space (no operator starts
    with one, nor does a value); then the first operator after which, past any spaces, a bare value
    (_VALUE characters only, with a letter and a digit) ends the match.
    """
    if text[at] != "=":  # else no quote or space to take: 'name=value', as on most lines of an env dump
        at = skip(text, at + (text[at] in _QUOTES), end, _SPACES)
    if text[at] == "=" and at + 1 < end and text[at + 1] not in _AFTER_OTHER_OPERATORS:
        # '=' alone fits and no space follows it, so this is the match's only parse, whose value is bare.
        return at + 1
    for operator in _GENERIC_OPERATORS.get(text[at : at + 1], ()):
        if text[at : at + len(operator)] == operator and at + len(operator) <= end:
            value = skip(text, at + len(operator), end, _SPACES)
            if _is_bare_value(text[value:end]):
                return value
    return None


def _is_bare_value(value: str) -> bool:
    return _VALUE_SET.issuperset(value) and any(map(str.isdigit, value)) and any(map(str.isalpha, value))


# A password of letters only, bare or quoted: generic_secret leaves it (a bare value must hold a digit,
# and gitleaks' allowlist lets a quoted value of letters go), yet it is 'Password=sunshine;' of a
# connection string, 'PGPASSWORD=trustno' of an env dump, 'db_pass: correct-horse-battery' of YAML. Only
# password labels (a bare 'pass' needs a prefix: 'pass: true' is prose), and the value must end the
# line, a list item or an assignment, or be followed by a space and no word: 'Password: please try
# again' is prose, 'password=getpass()' and 'password=self.password' are code.
_LOGIN_LABEL = (
    r"(?:\A|[^/A-Za-z0-9_\-\]])(?i:(?:[a-z0-9]+[_.-])*[a-z0-9]*(?:password|passwd|passphrase|pwd)"
    r"|(?:[a-z0-9]+[_.-])+pass)"
)
PASSWORD_WORD = (
    rf"{_LOGIN_LABEL}[\"'`]?[ \t]*(?:=>|:=|[:=])[ \t]*[\"'`]?([A-Za-z][A-Za-z!@#$%^&*_+~-]{{3,63}})"
    r"(?:[;,&\"'`)\]\r\n]|\z|[ \t]+(?:[^A-Za-z \t]|\z))"
)
# Words a password label is followed by that are no password: literals, types, states, placeholders.
_NOT_PASSWORDS = frozenset({
    *NOT_SECRETS, "required", "optional", "string", "bytes", "hidden", "redacted", "empty", "missing",
    "invalid", "incorrect", "wrong", "unset", "default", "omitted", "masked", "censored", "removed",
})  # fmt: skip
_CODE_WORDS = ("pass", "pwd", "secret", "token", "key", "environ", "getenv", "input", "prompt")


def password_word(value: str) -> bool:
    """Accept a letters-only password, not a literal, a state or a variable named for what it holds."""
    lowered = value.lower()
    if lowered in _NOT_PASSWORDS or any(word in lowered for word in _CODE_WORDS):
        return False
    return _random(value)


_GITLAB_PREFIXES = ("pat", "dt", "ft", "soat", "rt", "ptt", "imt", "oas", "ffct", "agent", "cbt", "wt", "sa", "oat")

_PEM_BEGIN = r"-----BEGIN[A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----"
_PEM_BODY = r"(?:[A-Za-z0-9+/=\s\\:,]|-[A-Za-z0-9])"
_PEM_END = r"-----END[A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----"
# A line break as pasted: as it is, or escaped in a JSON string or a repr.
_LINE_BREAK = r"(?:\r\n|\n|\r|\\r\\n|\\n|\\r)"
# A private-key header alone on its line with a line after it: the opening of a PEM block.
PEM_OPENING = rf"(?:\A|[\r\n]|\\[rn])[ \t]*{_PEM_BEGIN}[ \t]*{_LINE_BREAK}[ \t]*[^\s\\-]"


def _pem_header(text: str, start: int, end: int) -> tuple[int, int]:
    """Return the span of the header in a match of PEM_OPENING (matched without groups, as a flood of them may be).

    The header starts with the match's '-----BEGIN' and ends with the first '-----' after it: what lies
    between holds no hyphen.
    """
    header = text.index("-----BEGIN", start, end)
    return header, text.index("-----", header + 10, end) + 5


def _pem_block_unclosed(text: str, start: int, end: int) -> bool:
    """Accept the opening of a PEM block that the paste never closes: no END line before another BEGIN.

    Such a paste was cut inside a private key, or mangled on its way into the chat: what the body holds
    need not read as key material, and the header itself is what says a private key was pasted. A block
    the paste closes shows its whole body, which the full rule judges (a closed block of prose is an
    illustration, as gitleaks' look-alikes have it).
    """
    following = text.find("-----BEGIN", end)
    return text.find("-----END", end, len(text) if following < 0 else following) < 0


RULES: tuple[Rule, ...] = (
    Rule(
        "private_key",
        # The body stops at '-----' (a hyphen must be followed by a letter or digit, as in
        # Proc-Type), so a block without END is still caught up to where its base64 ends. Either the
        # block is complete or its body has a run of key material, so a flood of bare headers matches
        # nothing instead of once per header.
        compile_pattern(
            rf"{_PEM_BEGIN}(?:{_PEM_BODY}*{_PEM_END}|{_PEM_BODY}*?[A-Za-z0-9+/=]{{16}}{_PEM_BODY}*(?:{_PEM_END})?)"
        ),
        ("private key",),
        _has_key_body,
    ),
    # The header of a block the paste opens and never closes: redacted itself (it hides nothing a reader
    # needs, and the finding warns the author), whatever the body holds. A header in a sentence ('expected
    # -----BEGIN PRIVATE KEY-----') is no opening, and stays.
    Rule(
        "private_key",
        compile_pattern(PEM_OPENING),
        ("private key",),
        locate=_pem_header,
        accept_at=_pem_block_unclosed,
    ),
    Rule(
        "jwt", compile_pattern(rf"\beyJ{_B64URL}{{8,}}\.eyJ{_B64URL}{{8,}}\.{_B64URL}*"), ("eyj",), jwt_objects_closed
    ),
    Rule(
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
    Rule(
        "discord_webhook",
        compile_pattern(
            r"(?i:https?://(?:(?:ptb|canary)\.)?discord(?:app)?\.com/api(?:/v\d+)?/webhooks/)"
            rf"(\d{{17,20}}/{_B64URL}{{30,}})"
        ),
        ("webhooks",),
    ),
    Rule(
        "slack_webhook",
        compile_pattern(r"https://hooks\.slack\.com/(?:services|workflows|triggers)/([A-Za-z0-9/_-]{20,})"),
        ("hooks.slack",),
    ),
    Rule(
        "huggingface_token",
        compile_pattern(r"\b(?:hf_|api_org_)[A-Za-z0-9]{30,}\b"),
        ("hf_", "api_org_"),
        _hf_token,
    ),
    Rule(
        "openai_key",
        compile_pattern(r"\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}"),
        ("sk-",),
        _openai,
    ),
    Rule("stripe_key", compile_pattern(r"\b[sr]k_(?:live|test)_[A-Za-z0-9]{20,}\b"), ("k_live_", "k_test_")),
    Rule(
        "aws_access_key",
        compile_pattern(r"\b(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16}\b"),
        ("akia", "asia", "abia", "acca", "a3t"),
        _random,
    ),
    Rule(
        "slack_token",
        compile_pattern(r"\b(?:xox[abposre]-(?:\d-)?\d{6,}-[A-Za-z0-9-]{8,}|xapp-\d-[A-Za-z0-9-]{10,})"),
        ("xox", "xapp-"),
        _slack,
    ),
    Rule(
        "gitlab_token",
        # GitLab's documented prefixes and lengths (gitleaks knows some of them only next to a label).
        compile_pattern(
            r"\b(?:(?:gl(?:pat|dt|ft|soat|rt|wt|sa|oat|ffct)-|GR1348941|glcbt-(?:[0-9a-fA-F]{2}_)?)[0-9A-Za-z_-]{20,50}"
            r"|glimt-[0-9A-Za-z_-]{25}|glptt-[0-9A-Za-z_-]{40}|glagent-[0-9A-Za-z_-]{50,1000}|gloas-[0-9A-Za-z_-]{64})\b"
        ),
        (*(f"gl{p}-" for p in _GITLAB_PREFIXES), "gr1348941"),
        _random,
    ),
    Rule(
        "telegram_bot_api_token",
        # A bot id of 8-10 digits, ':AA' and 33 characters; not after a letter, so 'bot123:AA...' in a
        # Bot API URL is left to the URL's own rules.
        compile_pattern(r"(?:\A|[^0-9A-Za-z_])(\d{8,10}:AA[0-9A-Za-z_-]{33})\b"),
        (":aa",),
    ),
    Rule("mailgun_key", compile_pattern(r"\bkey-[0-9a-f]{32}\b"), ("key-",), _random),
    Rule("npm_token", compile_pattern(r"\bnpm_[A-Za-z0-9]{36}\b"), ("npm_",)),
    Rule("pypi_token", compile_pattern(r"\bpypi-AgE[A-Za-z0-9_-]{50,}"), ("pypi-",), pypi_not_cut),
    Rule("replicate_token", compile_pattern(r"\br8_[A-Za-z0-9]{37}\b"), ("r8_",)),
    Rule("groq_key", compile_pattern(r"\bgsk_[A-Za-z0-9]{48,}\b"), ("gsk_",)),
    # Keys of the model and vector-store services this community calls, told by their prefixes.
    Rule("pinecone_key", compile_pattern(r"\bpcsk_[A-Za-z0-9]{4,8}_[A-Za-z0-9]{40,}"), ("pcsk_",)),
    Rule("xai_key", compile_pattern(r"\bxai-[A-Za-z0-9]{64,100}\b"), ("xai-",)),
    Rule("nvidia_key", compile_pattern(r"\bnvapi-[A-Za-z0-9_-]{60,70}"), ("nvapi-",)),
    Rule("dockerhub_token", compile_pattern(r"\bdckr_(?:pat|oat)_[A-Za-z0-9_-]{24,}"), ("dckr_",)),
    Rule(
        "command_password",
        # A password given on a command line: 'mysql -u root -pS3cret' (no space after -p), 'sshpass -p
        # secret', and a .netrc line 'machine host login me password secret'.
        compile_pattern(
            r"\bmysql(?:dump|admin)?\b[^\n]{0,200}?\s-p([^\s'\"-][^\s'\"]{3,})"
            r"|\bsshpass\s+-p\s*['\"]?([^\s'\"]{4,})"
            r"|\bmachine\s+\S+\s+login\s+\S+\s+password\s+(\S{4,})"
        ),
        ("mysql", "sshpass", "machine"),
        _random,
    ),
    Rule(
        "aws_secret_key",
        compile_pattern(
            r"(?i:\b(?:aws_?)?secret_?access_?key\b|\baws_?secret_?key\b)"
            r"[\"']?\s*[:=]\s*[\"']?([A-Za-z0-9/+=]{30,})"
        ),
        ("secret",),
    ),
    Rule(
        "url_credentials",
        compile_pattern(f"{URL_SCHEME}{URL_CREDENTIALS}@"),
        ("://",),
        _url_login,
        locate=_url_credentials,
    ),
    Rule(
        "bearer_token",
        # 'Token' is the scheme of Django REST framework and GitHub's older API, only after the header name.
        compile_pattern(r"(?i:\b(?:bearer|basic|authorization:\s*token))\s+([A-Za-z0-9._~+/-]{16,}=*)"),
        ("bearer", "basic", "authorization"),
        _has_digit_and_letter,
    ),
    Rule(
        "generic_secret",
        # The name must not follow '/', '-', '_' or a letter, so the user name in
        # https://x-access-token:secret@host is left to url_credentials and the host survives; nor
        # ']', the end of a marker, or redacting a neighbour would make it match on a second pass.
        # The name may be camelCase (apiKey, clientSecret) with a prefix and suffix (db_pass_secure); the
        # operator '=', ':', ':=', '=>', '?=' or a comparison. A quoted value may hold anything but its
        # quote (spaces and '$' included); a bare one must mix letters and digits, so 'None',
        # 'os.environ' and '2048' are left alone. Neither may start with '[', the start of a marker.
        SplitPattern(
            GENERIC_SECRET,
            _generic_secret_spans,
            label=_NAME_CHARACTERS,
            ends=_LABEL_ENDS,
            locate_each=_generic_secret_spans_each,
        ),
        ("key", "token", "secret", "pass", "pwd", "credential"),
        labelled_value,
        labelled_name,
        accept_in=labelled_value,
        accept_matches=labelled_names,
    ),
    Rule("password", compile_pattern(PASSWORD_WORD), ("pass", "pwd"), password_word),
    Rule(
        "password_hash",
        # crypt(3) hashes as /etc/shadow and htpasswd files hold them: bcrypt, SHA-crypt, MD5-crypt, Argon2.
        compile_pattern(
            r"\$2[abxy]?\$[0-9]{2}\$[./A-Za-z0-9]{53}"
            r"|\$[56]\$(?:rounds=[0-9]{4,9}\$)?[./A-Za-z0-9]{1,16}\$[./A-Za-z0-9]{43,86}"
            r"|\$1\$[./A-Za-z0-9]{1,8}\$[./A-Za-z0-9]{22}"
            r"|\$argon2(?:id|i|d)\$v=[0-9]+\$m=[0-9]+,t=[0-9]+,p=[0-9]+\$[A-Za-z0-9+/]{8,}\$[A-Za-z0-9+/]{16,}"
        ),
        ("$2", "$5$", "$6$", "$1$", "$argon2"),
    ),
    Rule(
        "email",
        # The address must not follow ':' (or a character of an address), so the password in
        # https://user:pass@host is left to url_credentials and the host survives; mailto: is allowed.
        # Not after ']' either, for the same reason as generic_secret.
        compile_pattern(EMAIL_CONTEXT + EMAIL_ADDRESS),
        ("@",),
        _is_email,
        locate=_email_address,
        rejected_only_with=_NOT_EMAIL_LITERALS,
    ),
    Rule(
        "home_user",
        # Its own rule: a match ends past the separator, which may begin a /home/ path.
        compile_pattern(rf"{WINDOWS_HOME}(?:{WINDOWS_NAME_ENDED}(?:\\|/)|{WINDOWS_NAME})"),
        ("users",),
        locate=_windows_user,
    ),
    Rule("home_user", compile_pattern(r"(?:/home|/Users)/([^\\/\s\"'<>:|*?;,()\[\]{}=]+)"), ("home/", "users/")),
)
