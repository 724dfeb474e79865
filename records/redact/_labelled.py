"""A labelled value ('api_key = ...', 'password: ...'): whether its value is one, and whether its label names one.

The generic rules (tracebot's, and detect-secrets' keyword detector ported) find a value by its label; these
checks turn down what such a label is followed by without being a secret (a literal, a path, a nested
assignment, a placeholder, punctuation escaped for JSON or a URL) and labels that name a secret's name,
type or place, or that gitleaks' allowlists for generic keys let go. A text's labels are judged together.
"""

from __future__ import annotations

import json
import string

from records._re2 import LinePattern, asked_where_flagged, flag_lines
from records.redact import _scanner
from records.redact._allowlists import LINED_FROM, Screen, most
from records.redact._percent import percent_decoded
from records.redact._randomness import placeholder


def labelled_value(value: str, screen: Screen | None = None) -> bool:
    """Accept a labelled value with a letter or digit that is no placeholder, literal or nested assignment."""
    # The tests that need a rare character are asked only when it occurs: an env dump's value holds none of
    # them (most are letters and digits alone, told by two tests in C), and a paste may hold hundreds of
    # values. Slices are compared rather than str.startswith, whose argument parsing costs more than the test.
    if not (value.isalnum() and value.isascii()):
        first = value[:1]
        if first == "<" or (" " in value and ("= " in value or " =" in value or ": " in value)):
            return False  # a tag, or a nested assignment
        if (first == "/" or value[:2] == "~/") and "/" in value[2:]:
            return False  # PWD=/home/alice/proj is a directory, left to home_user
        if first == "%" and _escaped_start(value):
            return False
        escaped = "\\" in value or "%" in value
        if not (_holds_letter_or_digit(value) if escaped else any(map(str.isalnum, value))):
            return False
    if len(value) <= _LONGEST_NOT_SECRET and value.lower() in NOT_SECRETS:
        return False
    return not placeholder(value, screen)


def _holds_letter_or_digit(value: str) -> bool:
    """Tell whether a value holds a letter or digit as it reads once its JSON and URL escapes are decoded.

    JSON spells '¨' as a backslash, 'u' and '00a8', a URL query as '%C2%A8': a password of punctuation so
    escaped holds letters and digits as written, and none as read.
    """
    return any(map(str.isalnum, _percent_decoded(_json_decoded(value))))


def _json_decoded(value: str) -> str:
    """Return value read as the inside of a JSON string, or value itself when it reads as none."""
    if "\\" not in value:
        return value
    try:
        decoded = json.loads(f'"{value}"')
    except ValueError:
        return value
    return decoded if isinstance(decoded, str) else value


def _percent_decoded(value: str) -> str:
    """Return value as the scanner's percent-decoded view reads it (the value itself without escapes)."""
    decoded = percent_decoded(value)
    return value if decoded is None else decoded[0]


def _escaped_start(value: str) -> bool:
    """Tell a value that starts with a percent escape ('%20real_key' of 'password:%20real_key' in a URL).

    What it holds is judged where the text is read percent-decoded, as 'password: real_key'.
    """
    return value[:1] == "%" and value[1:3] in _HEX_PAIRS


_HEX_PAIRS = frozenset(f"{high}{low}" for high in string.hexdigits for low in string.hexdigits)


# Quoted values that are no secret; a name such as secret_name or token_type labels no secret either.
NOT_SECRETS = frozenset({"none", "null", "true", "false", "undefined", "nil", "password", "secret", "token"})
_LONGEST_NOT_SECRET = max(map(len, NOT_SECRETS))
_NOT_SECRET_SUFFIXES = (
    *("name", "id", "ids", "type", "types", "path", "file", "dir", "url", "uri", "endpoint", "header"),
    *("length", "size", "len", "count", "env", "var", "prefix", "format", "field"),
)
_SUFFIXES = LinePattern("(?i:" + "|".join(_NOT_SECRET_SUFFIXES) + ")")


def labelled_name(match: str, screen: Screen | None = None) -> bool:
    """Accept a label that names a secret, not its name, type or location (secret_name, token_path).

    gitleaks' allowlists for generic keys (csrf and public tokens, stop words, known test values) apply.
    """
    labelled = _labelled(match)
    if _names_no_secret(labelled):
        return False
    return not _scanner.generic_allowed(_value_of(labelled), labelled.strip(), screen)


def labelled_names(matches: list[str]) -> list[bool]:
    """Return labelled_name of each match, gitleaks' allowlists asked of all of them at once."""
    labelled = [match[1:] if match[:1] in _BEFORE_NAME else match for match in matches]  # _labelled of each
    named = [not no_secret for no_secret in _names_no_secret_each(labelled)]
    asked = [label for label, kept in zip(labelled, named, strict=True) if kept]
    allowed = iter(_scanner.generic_allowed_each([_value_of(label) for label in asked], [a.strip() for a in asked]))
    return [kept and not next(allowed) for kept in named]


def _labelled(match: str) -> str:
    """Return a labelled match from its name on.

    The match may start with the character before the name ('=' of '?q=password=...'): the allowlists see
    the assignment from its name on, as on a line of its own.
    """
    return match[1:] if match[:1] in _BEFORE_NAME else match


def _names_no_secret(labelled: str) -> bool:
    """Tell a label that names a secret's name, type or location (secret_name, token_path), from its name on."""
    name = labelled.lstrip(" \t\n\"'`([{,;").split("=", 1)[0].split(":", 1)[0].strip("\"'` \t!?>")
    return name.lower().endswith(_NOT_SECRET_SUFFIXES)


def _names_no_secret_each(labelled: list[str]) -> list[bool]:
    """Return _names_no_secret of each labelled match, asking it only of those where a suffix occurs at all.

    A name that ends with a suffix holds it (ASCII, and RE2's case folding takes whatever Python lower-cases
    to ASCII), so the lines flagged by one pass over them all are a superset of the names.
    """
    flagged = None if len(labelled) < LINED_FROM else flag_lines(_SUFFIXES, labelled, most(labelled))
    if flagged is None:
        return list(map(_names_no_secret, labelled))
    return asked_where_flagged(_names_no_secret, labelled, flagged)


_BEFORE_NAME = frozenset("=&?#;,|")


def _value_of(match: str) -> str:
    """Return the value part of a labelled match, quotes stripped (for the allowlists)."""
    if ":" not in match and ">" not in match and "==" not in match:
        # 'name=value', as on most lines of an env dump: of the operators below only '=' can occur.
        operator = "="
    else:
        operator = next((o for o in ("=>", ":=", "==", "=", ":") if o in match), "")
    at = match.find(operator) if operator else -1
    return match if at < 0 else match[at + len(operator) :].strip().strip("\"'`").strip()
