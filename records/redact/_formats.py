"""What a credential's own format says of a candidate that its pattern matched: read, not guessed.

A pattern says what a token looks like; some formats also say how a token is built, and a candidate that
starts to read as one and then breaks off is a token cut short or spliced, which holds no credential. Each
check here turns down only that case: a candidate that reads as complete, or that does not read as the
format at all (a pattern can match more than the format: gitleaks' JWT pattern takes any 'ey...'), is kept,
as its pattern says.
"""

from __future__ import annotations

import base64
import binascii

# The marker OpenAI puts in the keys it issues ('OpenAI' in base64), which the prefixes of its project,
# service-account and admin keys always carry; a bare 'sk-' key may be another service's.
OPENAI_MARKER = "T3BlbkFJ"
OPENAI_PREFIXES = ("sk-proj-", "sk-svcacct-", "sk-admin-")


def openai_marked(key: str) -> bool:
    """Accept an 'sk-' key unless it has one of OpenAI's own prefixes without OpenAI's marker."""
    return not key.startswith(OPENAI_PREFIXES) or OPENAI_MARKER in key


def _base64url(part: str) -> bytes | None:
    """Return a base64url part decoded (padding optional), or None when it is no base64."""
    body = part.rstrip("=")
    if len(body) % 4 == 1:
        return None
    try:
        return base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))
    except (binascii.Error, ValueError):
        return None


def jwt_objects_closed(token: str) -> bool:
    """Accept a JWT unless its header or payload, opening a JSON object, breaks off or names no algorithm.

    Both are base64url of a JSON object. One that decodes to an object's opening ('{"', its first key) and
    does not end with '}' is a token cut short or spliced (a character dropped or added shifts every byte
    after it); a header, moreover, names its algorithm ("alg" is required of every JOSE header, RFC 7515
    4.1.1). Only that is read, not the JSON: a token whose claim holds bytes no JSON parser takes is still
    a token. A part that opens no object ('ey' alone decodes to '{') is not read.
    """
    for index, part in enumerate(token.split(".")[:2]):
        decoded = _base64url(part)
        if decoded is None or not _opens_object(decoded):
            continue
        if decoded.rstrip()[-1:] != b"}" or (index == 0 and b'"alg"' not in decoded):
            return False
    return True


def _opens_object(decoded: bytes) -> bool:
    """Tell bytes that start as a JSON object with a key does: '{', maybe white space, then a quote."""
    return decoded[:1] == b"{" and decoded[1:].lstrip()[:1] == b'"'


_MACAROON_VERSION = 2
_MACAROON_FIELDS = frozenset({1, 2, 4})  # location, identifier, verification id
_MACAROON_SIGNATURE = 6


def pypi_not_cut(token: str) -> bool:
    """Accept a PyPI token unless it reads as a macaroon cut before its signature.

    A PyPI token is 'pypi-' and a macaroon (version 2, base64url): sections of typed, length-prefixed fields,
    then the signature, the only part that proves anything. A token whose fields read well up to where the
    text stops (a field or the signature cut off) carries no signature: no credential.
    """
    data = _base64url(token.removeprefix("pypi-"))
    return data is None or _macaroon_end(data) != "cut"


def _macaroon_end(data: bytes) -> str:
    """Return how a version-2 macaroon's serialization ends: 'complete', 'cut' or 'other' (not one)."""
    if data[:1] != bytes([_MACAROON_VERSION]):
        return "other"
    at = 1
    while True:  # a section (the macaroon's, then each caveat's): fields up to an end of section
        while True:
            kind, at = _varint(data, at)
            if kind is None:
                return "cut"
            if kind == 0:
                break
            if kind not in _MACAROON_FIELDS:
                return "other"
            at = _field_end(data, at)
            if at < 0:
                return "cut"
        if at >= len(data):
            return "cut"
        if data[at] == 0:  # the end of the caveats: the signature follows
            return _signature_end(data, at + 1)


def _signature_end(data: bytes, at: int) -> str:
    kind, at = _varint(data, at)
    if kind is None:
        return "cut"
    if kind != _MACAROON_SIGNATURE:
        return "other"
    end = _field_end(data, at)
    if end < 0:
        return "cut"
    return "complete" if end == len(data) else "other"


def _field_end(data: bytes, at: int) -> int:
    """Return where a field whose length starts at ``at`` ends, or -1 when the data stops before."""
    length, at = _varint(data, at)
    if length is None or at + length > len(data):
        return -1
    return at + length


def _varint(data: bytes, at: int) -> tuple[int | None, int]:
    """Return the unsigned LEB128 number at ``at`` and where it ends, or None when the data stops inside it."""
    value = shift = 0
    while at < len(data):
        byte = data[at]
        at += 1
        value |= (byte & 0x7F) << shift
        if byte < 0x80:
            return value, at
        shift += 7
    return None, at
