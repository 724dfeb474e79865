"""What a credential's format says of a candidate (records/redact/_formats.py): cut or spliced tokens are left."""

from __future__ import annotations

import base64
import json

import pytest

from records.redact import redact
from records.redact._formats import jwt_objects_closed, openai_marked, pypi_not_cut


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


HEADER = _b64(b'{"alg":"HS256","typ":"JWT"}')
PAYLOAD = _b64(json.dumps({"sub": "1234567890", "name": "Ada"}).encode())
SIGNATURE = "FAKE" + "sig0123456789abcdefghijklmnopqrstuvwxyz"
TOKEN = f"{HEADER}.{PAYLOAD}.{SIGNATURE}"


@pytest.mark.parametrize(
    ("token", "kept"),
    [
        (TOKEN, True),
        (f"{HEADER}.{PAYLOAD}.", True),  # unsigned: still a token
        # gitleaks' test token: the algorithm's name garbled, the object whole (no JSON parser takes it).
        (_b64(b'{"alg":\'\x9ez","typ":"JWT"}') + f".{PAYLOAD}.{SIGNATURE}", True),
        ("eyF1q7hDunXcnbqL40nMWEIQl.ey5-MSmvpUptqpSmYnzlmjt.cFGfkLYiPKGdsxcLH98", True),  # opens no object
        (f"{HEADER[:-1]}.{PAYLOAD}.{SIGNATURE}", False),  # the header cut: its object never closes
        (f"{HEADER}.{PAYLOAD[:20]}", False),  # the payload cut
        (f"{HEADER[:6]}asd{HEADER[6:]}.{PAYLOAD}.{SIGNATURE}", False),  # spliced: every byte after is shifted
        (_b64(b'{"typ":"JWT","kid":"k1"}') + f".{PAYLOAD}.{SIGNATURE}", False),  # a header names its algorithm
    ],
)
def test_a_jwt_whose_header_or_payload_breaks_off_is_no_token(token: str, kept: bool) -> None:
    assert jwt_objects_closed(token) is kept


def test_a_cut_jwt_is_left_by_every_rule_and_a_whole_one_redacted() -> None:
    cut = f"{HEADER[:-1]}.{PAYLOAD}.{SIGNATURE}"
    assert redact(f"Authorization failed for {cut}").findings == ()
    assert redact(f"Authorization failed for {TOKEN}").text == "Authorization failed for [REDACTED:jwt]"


def _field(kind: int, data: bytes) -> bytes:
    return bytes([kind, len(data)]) + data


# A version-2 macaroon as PyPI serializes one: location and identifier, a caveat, then the signature.
_MACAROON = (
    b"\x02"
    + _field(1, b"pypi.org")
    + _field(2, b"FAKE-5793529b-b2a6-4108-974d-3423b6a05b3b")
    + b"\x00"
    + _field(2, b'[1,["minimal-project"]]')
    + b"\x00\x00"
    + _field(6, bytes(range(32)))
)


@pytest.mark.parametrize(
    ("token", "kept"),
    [
        ("pypi-" + _b64(_MACAROON), True),
        ("pypi-" + _b64(_MACAROON[:60]), False),  # cut inside a caveat: no signature, no credential
        ("pypi-" + _b64(_MACAROON[:-33]), False),  # cut just before the signature
        ("pypi-AgEIcHlwaS5vcmc929363abbbff5c50d03c826bd464a3e06ab83a61fa2b0da6495f211303536d1b", True),  # no macaroon
    ],
)
def test_a_pypi_token_cut_before_its_signature_is_no_token(token: str, kept: bool) -> None:
    assert pypi_not_cut(token) is kept


def test_a_cut_pypi_token_is_left_by_every_rule_and_a_whole_one_redacted() -> None:
    cut = "pypi-" + _b64(_MACAROON[:60])
    whole = "pypi-" + _b64(_MACAROON)
    assert redact(f"twine upload -p {cut}").findings == ()
    assert redact(f"upload failed: {whole}").text == "upload failed: [REDACTED:pypi_token]"


def test_openai_s_own_prefixes_carry_its_marker() -> None:
    body = "Xi8tdMjHV6pmbBbwilTe" + "{}" + "3UDnpdEwNNm6wVBpYM0o"
    assert openai_marked("sk-proj-" + body.format("T3BlbkFJ"))
    assert not openai_marked("sk-proj-" + body.format("T4BlbkFJ"))
    assert openai_marked("sk-" + body.format("x1"))  # a bare 'sk-' key: DeepSeek's and others' too
    assert redact("key sk-proj-" + body.format("T4BlbkFJ")).findings == ()
    assert redact("key sk-proj-" + body.format("T3BlbkFJ")).text == "key [REDACTED:openai_key]"
